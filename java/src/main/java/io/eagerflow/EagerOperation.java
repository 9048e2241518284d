package io.eagerflow;

import io.eagerflow.internal.NativeSession;
import io.eagerflow.internal.OpInfo;
import io.eagerflow.internal.OutputOwner;
import io.eagerflow.internal.Wire;
import io.eagerflow.types.TType;
import org.jspecify.annotations.Nullable;
import org.tensorflow.ndarray.Shape;

/**
 * An op that has run: its type, name and outputs. Thread-safe and immutable (its name is set once,
 * before anyone else sees it).
 */
final class EagerOperation implements Operation, OutputOwner {
  private final EagerSession session;
  private final String type;

  /** The name given at build or by {@code Ops.withName}; null for a generated one. */
  private volatile @Nullable String name;

  private final long number;
  private final Output<?>[] outputs;

  /** Per input argument, its list length or -1 for a single input; null if all were single. */
  private final int[] inputLists;

  private volatile Object tracking;

  /** Per-output tracking of outputs kept out of a scope, for ops with several outputs. */
  private volatile Object[] keptTracking;

  EagerOperation(EagerSession session, String type, @Nullable String name, long[] handles) {
    this(session, type, name, handles, null);
  }

  EagerOperation(
      EagerSession session,
      String type,
      @Nullable String name,
      long[] handles,
      int @Nullable [] inputLists) {
    this.session = session;
    this.type = type;
    this.name = name;
    this.inputLists = inputLists;
    this.number = name == null ? session.core().nextOpNumber() : -1;
    this.outputs = new Output<?>[handles.length];
    for (int i = 0; i < handles.length; i++) {
      outputs[i] = new Output<>(this, i, handles[i], null, null);
    }
  }

  /** A one-output op whose type and shape are known (constants). */
  EagerOperation(
      EagerSession session,
      String type,
      @Nullable String name,
      long handle,
      DataType dataType,
      Shape shape) {
    this.session = session;
    this.type = type;
    this.name = name;
    this.inputLists = null;
    this.number = name == null ? session.core().nextOpNumber() : -1;
    this.outputs = new Output<?>[] {new Output<>(this, 0, handle, dataType, shape)};
  }

  @Override
  public boolean adoptByScope() {
    EagerScope scope = session.scopes.current();
    if (scope == null) {
      return false;
    }
    scope.adopt(outputs);
    return true;
  }

  @Override
  public int outputCount() {
    return outputs.length;
  }

  @Override
  public long outputHandle(int index) {
    return outputs[index].handle;
  }

  @Override
  public void tracked(Object token) {
    tracking = token;
  }

  void trackKept(Output<?> o) {
    Object token = session.core().track(this, o.handle);
    if (token == null) {
      return;
    }
    if (outputs.length == 1) {
      tracking = token;
      return;
    }
    synchronized (this) {
      Object[] kept = keptTracking;
      if (kept == null) {
        kept = new Object[outputs.length];
      }
      kept[o.index()] = token;
      keptTracking = kept;
    }
  }

  private synchronized void untrackReleasedKept() {
    Object[] kept = keptTracking;
    for (int i = 0; i < kept.length; i++) {
      if (kept[i] != null && outputs[i].isReleased()) {
        session.core().untrack(kept[i]);
        kept[i] = null;
      }
    }
  }

  /** Once every output was released, the phantom reference has nothing left to free. */
  void outputReleased() {
    if (keptTracking != null) {
      untrackReleasedKept();
    }
    for (Output<?> o : outputs) {
      if (!o.isReleased()) {
        return;
      }
    }
    Object t = tracking;
    if (t != null) {
      tracking = null;
      session.core().untrack(t);
    }
  }

  EagerSession session() {
    return session;
  }

  NativeSession core() {
    return session.core();
  }

  /** Sets the name, once, right after the op was made ({@code Ops.withName}). */
  void rename(String newName) {
    name = newName;
  }

  @Override
  public String type() {
    return type;
  }

  @Override
  public EagerSession env() {
    checkOpen();
    return session;
  }

  private void checkOpen() {
    if (session.core().isClosed()) {
      throw new IllegalStateException(Wire.CLOSED_MESSAGE);
    }
  }

  @Override
  public int inputListLength(String argName) {
    checkOpen();
    OpInfo info = OpInfo.of(type);
    int arg = info.argIndex(argName, true);
    if (inputLists == null || arg >= inputLists.length || inputLists[arg] < 0) {
      return 1;
    }
    return inputLists[arg];
  }

  @Override
  public int outputListLength(String argName) {
    checkOpen();
    OpInfo info = OpInfo.of(type);
    int arg = info.argIndex(argName, false);
    // At most one output argument is a list; it has every output the single ones leave.
    return info.isListOutput(arg) ? outputs.length - (info.numOutputArgs() - 1) : 1;
  }

  @Override
  public Output<?>[] outputList(int index, int length) {
    checkOpen();
    if (index < 0 || length < 0 || index > outputs.length - length) {
      throw new IndexOutOfBoundsException(
          "outputs "
              + index
              + " to "
              + ((long) index + length)
              + " of op '"
              + name()
              + "', which has "
              + outputs.length);
    }
    return java.util.Arrays.copyOfRange(outputs, index, index + length);
  }

  /**
   * The element type of output {@code index}, without reading its values (TensorFlow Java's {@code
   * EagerOperation.dtype}).
   *
   * @throws IndexOutOfBoundsException if there is no such output
   * @throws IllegalStateException if the session is closed or the output was released
   */
  public DataType dtype(int index) {
    return output(index).dataType();
  }

  /**
   * The shape of output {@code index}, without reading its values (TensorFlow Java's {@code
   * EagerOperation.shape}).
   *
   * @throws IndexOutOfBoundsException if there is no such output
   * @throws IllegalStateException if the session is closed or the output was released
   */
  public Shape shape(int index) {
    return output(index).shape();
  }

  /**
   * The value of output {@code index} as a read-only tensor, as {@link Output#asTensor()}
   * (TensorFlow Java's {@code EagerOperation.tensor}).
   *
   * @throws IndexOutOfBoundsException if there is no such output
   * @throws IllegalStateException if the session is closed or the output was released
   */
  public TType tensor(int index) {
    return output(index).asTensor();
  }

  @Override
  public String name() {
    return name != null ? name : number == 0 ? type : type + "_" + number;
  }

  @Override
  public int numOutputs() {
    return outputs.length;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T extends TType> Output<T> output(int index) {
    if (session.core().isClosed()) {
      throw new IllegalStateException(Wire.CLOSED_MESSAGE);
    }
    if (index < 0 || index >= outputs.length) {
      throw new IndexOutOfBoundsException(
          "output " + index + " of op '" + name() + "', which has " + outputs.length);
    }
    return (Output<T>) outputs[index];
  }

  @Override
  public String toString() {
    return "<" + type + " '" + name() + "'>";
  }
}
