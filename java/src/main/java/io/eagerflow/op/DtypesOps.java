package io.eagerflow.op;

import io.eagerflow.Operand;
import io.eagerflow.types.TType;
import java.util.Objects;

/**
 * Type conversion, reached as {@code tf.dtypes}. The errors are those listed on {@link Ops}.
 * Immutable and thread-safe.
 */
public final class DtypesOps {
  private static final OpType CAST = new OpType("Cast");

  private final Runner runner;

  DtypesOps(Runner runner) {
    this.runner = runner;
  }

  /**
   * {@code x} converted element by element to {@code type} [{@code Cast}, attribute {@code DstT}],
   * as TensorFlow does: floating point to integer truncates toward zero ({@code 1.7} to {@code 1},
   * {@code -1.7} to {@code -1}); to {@link io.eagerflow.types.TBool}, non-zero is {@code true};
   * from it, {@code true} is 1.
   *
   * @param x the values
   * @param type the tensor class to convert to, such as {@code TFloat32.class}
   * @param options {@link Cast#truncate}
   * @return the converted values, of {@code x}'s shape
   * @throws IllegalArgumentException if {@code type} is not a concrete tensor class
   */
  public <U extends TType> Operand<U> cast(
      Operand<? extends TType> x, Class<U> type, Cast.Options... options) {
    Objects.requireNonNull(x, "x");
    Objects.requireNonNull(type, "type");
    return runner.runTyped(CAST, "DstT", type, options, x);
  }
}
