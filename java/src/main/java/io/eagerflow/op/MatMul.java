package io.eagerflow.op;

/**
 * Optional attributes of {@link LinalgOps#matMul}, TensorFlow's {@code MatMul} op, in TensorFlow
 * Java's style: each static method makes one option, passed as a trailing argument.
 *
 * <pre>{@code tf.linalg.matMul(a, b, MatMul.transposeB(true))}</pre>
 */
public final class MatMul {
  private MatMul() {}

  /**
   * Whether to transpose {@code a} before multiplying (default {@code false}).
   *
   * @param transposeA the value of attribute {@code transpose_a}
   * @return the option, to pass to the op's method
   */
  public static Options transposeA(boolean transposeA) {
    return new Options("transpose_a", transposeA);
  }

  /**
   * Whether to transpose {@code b} before multiplying (default {@code false}).
   *
   * @param transposeB the value of attribute {@code transpose_b}
   * @return the option, to pass to the op's method
   */
  public static Options transposeB(boolean transposeB) {
    return new Options("transpose_b", transposeB);
  }

  /** One optional attribute of this op, made by the static methods of {@link MatMul}. */
  public static final class Options extends OpOption {
    private Options(String attr, boolean value) {
      super(attr, value);
    }
  }
}
