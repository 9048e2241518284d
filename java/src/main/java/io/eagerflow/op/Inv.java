package io.eagerflow.op;

/**
 * Optional attributes of {@link LinalgOps#inv}, TensorFlow's {@code MatrixInverse} op, in
 * TensorFlow Java's style: each static method makes one option, passed as a trailing argument.
 *
 * <pre>{@code tf.linalg.inv(a, Inv.adjoint(true))}</pre>
 */
public final class Inv {
  private Inv() {}

  /**
   * Whether to invert the adjoint (transpose) of each matrix instead (default {@code false}).
   *
   * @param adjoint the value of attribute {@code adjoint}
   * @return the option, to pass to the op's method
   */
  public static Options adjoint(boolean adjoint) {
    return new Options("adjoint", adjoint);
  }

  /** One optional attribute of this op, made by the static methods of {@link Inv}. */
  public static final class Options extends OpOption {
    private Options(String attr, boolean value) {
      super(attr, value);
    }
  }
}
