package io.eagerflow.op;

import io.eagerflow.Operation;
import io.eagerflow.Output;
import io.eagerflow.types.TType;

/**
 * The two outputs of TensorFlow's {@code Qr} op, as {@link LinalgOps#qr} returns them: {@code q()}
 * with orthonormal columns and upper triangular {@code r()}, {@code q r} equal to the input (the
 * signs of {@code q}'s columns and {@code r}'s rows are not unique). Also makes the op's options,
 * passed as trailing arguments of {@link LinalgOps#qr} in TensorFlow Java's style. Immutable.
 *
 * <pre>{@code Qr<TFloat64> f = tf.linalg.qr(a, Qr.fullMatrices(true))}</pre>
 *
 * @param <T> the element type
 */
public final class Qr<T extends TType> implements Op {
  private final Operation op;

  Qr(Operation op) {
    this.op = op;
  }

  /**
   * Whether {@code q} is square ({@code [..., M, M]}, {@code r} {@code [..., M, N]}) rather than
   * thin ({@code [..., M, P]} and {@code [..., P, N]}, {@code P = min(M, N)}; the default).
   *
   * @param fullMatrices the value of attribute {@code full_matrices}
   * @return the option, to pass to the op's method
   */
  public static Options fullMatrices(boolean fullMatrices) {
    return new Options("full_matrices", fullMatrices);
  }

  /**
   * The orthonormal factor: {@code [..., M, P]}, or {@code [..., M, M]} with {@code fullMatrices}.
   *
   * @return output 0
   */
  public Output<T> q() {
    return op.output(0);
  }

  /**
   * The upper triangular factor: {@code [..., P, N]}, or {@code [..., M, N]} with {@code
   * fullMatrices}.
   *
   * @return output 1
   */
  public Output<T> r() {
    return op.output(1);
  }

  /**
   * The operation that computed the outputs.
   *
   * @return the operation
   */
  @Override
  public Operation op() {
    return op;
  }

  /** One optional attribute of this op, made by the static methods of {@link Qr}. */
  public static final class Options extends OpOption {
    private Options(String attr, boolean value) {
      super(attr, value);
    }
  }
}
