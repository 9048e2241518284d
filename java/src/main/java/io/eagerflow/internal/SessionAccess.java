package io.eagerflow.internal;

import io.eagerflow.DataType;
import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.OperationBuilder;
import io.eagerflow.Output;
import io.eagerflow.types.TType;
import java.util.Objects;
import org.tensorflow.ndarray.Shape;

/**
 * Package-crossing hooks from {@code io.eagerflow} for the op facade: constants created straight in
 * the session's table, and attribute-free ops on the fast native path. Not for users.
 */
public abstract class SessionAccess {
  private static volatile SessionAccess instance; // written under SessionAccess.class

  /**
   * Called once, by {@code EagerSession}'s static initializer. Any other call throws: it first
   * initializes {@code EagerSession}, so the library's own registration always comes first, even
   * where this package is open to callers (the class path).
   *
   * @throws IllegalStateException if the instance is already set
   */
  public static void set(SessionAccess access) {
    Objects.requireNonNull(access, "access");
    Registration.initialize("io.eagerflow.EagerSession");
    synchronized (SessionAccess.class) {
      if (instance != null) {
        throw new IllegalStateException(
            "SessionAccess is set once, by the library; it cannot be replaced");
      }
      instance = access;
    }
  }

  public static SessionAccess get() {
    SessionAccess a = instance;
    if (a == null) {
      Registration.initialize("io.eagerflow.EagerSession"); // which sets the instance
      a = instance;
    }
    return a;
  }

  /**
   * A constant holding a copy of {@code data}, a primitive array ({@code float[]}, {@code
   * double[]}, {@code int[]}, {@code long[]}, {@code byte[]} for UINT8, {@code boolean[]}) of
   * {@code shape.size()} elements.
   */
  public abstract <T extends TType> Output<T> constant(
      EagerSession session, DataType dataType, Shape shape, Object data);

  /** A constant holding a snapshot of {@code tensor}'s values. */
  public abstract <T extends TType> Output<T> constantOf(EagerSession session, TType tensor);

  /**
   * A builder for {@code op} in {@code session}, without the name lookup of {@code
   * EagerSession.opBuilder}; the session is checked (and cleaned, at safe points) at {@code
   * build()}. A null {@code name} gives the session's generated name.
   */
  public abstract OperationBuilder opBuilder(EagerSession session, OpInfo op, String name);

  /** Names the op of {@code output}, which the caller just made ({@code Ops.withName}). */
  public abstract void name(Output<?> output, String name);

  /** Runs an attribute-free op with single inputs and returns its only output. */
  public abstract <T extends TType> Output<T> run(
      EagerSession session, OpInfo op, Operand<?>... inputs);

  /**
   * Runs an attribute-free, single-output op on {@code input} and a scalar of {@code dataType}
   * holding {@code value}, a temporary made natively that the session never stores or counts
   * ({@code zeros} and {@code ones} as {@code Fill}); the output has dtype {@code dataType}.
   */
  public abstract <T extends TType> Output<T> runWithScalar(
      EagerSession session, OpInfo op, Operand<?> input, DataType dataType, double value);
}
