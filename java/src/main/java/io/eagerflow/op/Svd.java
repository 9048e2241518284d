package io.eagerflow.op;

import io.eagerflow.Operation;
import io.eagerflow.Output;
import io.eagerflow.types.TType;

/**
 * The three outputs of TensorFlow's {@code Svd} op, as {@link LinalgOps#svd} returns them: singular
 * values {@code s()} and singular vectors {@code u()} and {@code v()}, with {@code u diag(s) v^T}
 * equal to the input (each pair of vectors is unique only up to sign). Also makes the op's options,
 * passed as trailing arguments of {@link LinalgOps#svd} in TensorFlow Java's style. Immutable.
 *
 * <pre>{@code Svd<TFloat32> d = tf.linalg.svd(a, Svd.computeUv(false))}</pre>
 *
 * @param <T> the element type
 */
public final class Svd<T extends TType> implements Op {
  private final Operation op;

  Svd(Operation op) {
    this.op = op;
  }

  /**
   * Whether to compute the singular vectors (default {@code true}); without them {@code u()} and
   * {@code v()} are empty ({@code [0]}).
   *
   * @param computeUv the value of attribute {@code compute_uv}
   * @return the option, to pass to the op's method
   */
  public static Options computeUv(boolean computeUv) {
    return new Options("compute_uv", computeUv);
  }

  /**
   * Whether {@code u} and {@code v} are square ({@code [..., M, M]} and {@code [..., N, N]}) rather
   * than thin ({@code [..., M, P]} and {@code [..., N, P]}, {@code P = min(M, N)}; the default).
   *
   * @param fullMatrices the value of attribute {@code full_matrices}
   * @return the option, to pass to the op's method
   */
  public static Options fullMatrices(boolean fullMatrices) {
    return new Options("full_matrices", fullMatrices);
  }

  /**
   * The singular values, {@code [..., P]}, non-negative and in descending order.
   *
   * @return output 0
   */
  public Output<T> s() {
    return op.output(0);
  }

  /**
   * The left singular vectors, one per column.
   *
   * @return output 1
   */
  public Output<T> u() {
    return op.output(1);
  }

  /**
   * The right singular vectors, one per column (not transposed).
   *
   * @return output 2
   */
  public Output<T> v() {
    return op.output(2);
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

  /** One optional attribute of this op, made by the static methods of {@link Svd}. */
  public static final class Options extends OpOption {
    private Options(String attr, boolean value) {
      super(attr, value);
    }
  }
}
