package io.eagerflow.op;

/**
 * Optional attributes of {@link LinalgOps#triangularSolve}, TensorFlow's {@code
 * MatrixTriangularSolve} op, in TensorFlow Java's style: each static method makes one option,
 * passed as a trailing argument.
 *
 * <pre>{@code tf.linalg.triangularSolve(u, b, TriangularSolve.lower(false))}</pre>
 */
public final class TriangularSolve {
  private TriangularSolve() {}

  /**
   * Whether the matrices are lower triangular (default {@code true}); only that triangle is read.
   *
   * @param lower the value of attribute {@code lower}
   * @return the option, to pass to the op's method
   */
  public static Options lower(boolean lower) {
    return new Options("lower", lower);
  }

  /**
   * Whether to solve with the adjoint (transpose) of each matrix instead (default {@code false}).
   *
   * @param adjoint the value of attribute {@code adjoint}
   * @return the option, to pass to the op's method
   */
  public static Options adjoint(boolean adjoint) {
    return new Options("adjoint", adjoint);
  }

  /** One optional attribute of this op, made by the static methods of {@link TriangularSolve}. */
  public static final class Options extends OpOption {
    private Options(String attr, boolean value) {
      super(attr, value);
    }
  }
}
