package io.eagerflow.op;

/**
 * Optional attributes of {@link LinalgOps#matrixDiagV3}, TensorFlow's {@code MatrixDiagV3} op, in
 * TensorFlow Java's style.
 *
 * <pre>{@code tf.linalg.matrixDiagV3(..., MatrixDiagV3.align("LEFT_RIGHT"))}</pre>
 */
public final class MatrixDiagV3 {
  private MatrixDiagV3() {}

  /**
   * Which end of a diagonal shorter than the longest is padded: {@code "RIGHT_LEFT"} (the default:
   * superdiagonals aligned right, subdiagonals left), {@code "LEFT_RIGHT"}, {@code "LEFT_LEFT"} or
   * {@code "RIGHT_RIGHT"}.
   *
   * @param align the value of attribute {@code align}
   * @return the option, to pass to the op's method
   */
  public static Options align(String align) {
    return new Options("align", align);
  }

  /** One optional attribute of this op, made by the static methods of {@link MatrixDiagV3}. */
  public static final class Options extends OpOption {
    private Options(String attr, String value) {
      super(attr, value);
    }
  }
}
