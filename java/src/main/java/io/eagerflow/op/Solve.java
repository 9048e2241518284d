package io.eagerflow.op;

/**
 * Optional attributes of {@link LinalgOps#solve}, TensorFlow's {@code MatrixSolve} op, in
 * TensorFlow Java's style: each static method makes one option, passed as a trailing argument.
 *
 * <pre>{@code tf.linalg.solve(a, b, Solve.adjoint(true))}</pre>
 */
public final class Solve {
  private Solve() {}

  /**
   * Whether to solve with the adjoint (transpose) of each matrix instead (default {@code false}).
   *
   * @param adjoint the value of attribute {@code adjoint}
   * @return the option, to pass to the op's method
   */
  public static Options adjoint(boolean adjoint) {
    return new Options("adjoint", adjoint);
  }

  /** One optional attribute of this op, made by the static methods of {@link Solve}. */
  public static final class Options extends OpOption {
    private Options(String attr, boolean value) {
      super(attr, value);
    }
  }
}
