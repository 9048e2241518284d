package io.eagerflow.op;

/**
 * Optional attributes of {@link LinalgOps#batchMatMul}, TensorFlow's {@code BatchMatMulV2} op, in
 * TensorFlow Java's style: each static method makes one option, passed as a trailing argument.
 *
 * <pre>{@code tf.linalg.batchMatMul(x, y, BatchMatMul.adjY(true))}</pre>
 */
public final class BatchMatMul {
  private BatchMatMul() {}

  /**
   * Whether to transpose the last two dimensions of {@code x} (default {@code false}); real types
   * only, so this is a plain transpose.
   *
   * @param adjX the value of attribute {@code adj_x}
   * @return the option, to pass to the op's method
   */
  public static Options adjX(boolean adjX) {
    return new Options("adj_x", adjX);
  }

  /**
   * Whether to transpose the last two dimensions of {@code y} (default {@code false}).
   *
   * @param adjY the value of attribute {@code adj_y}
   * @return the option, to pass to the op's method
   */
  public static Options adjY(boolean adjY) {
    return new Options("adj_y", adjY);
  }

  /** One optional attribute of this op, made by the static methods of {@link BatchMatMul}. */
  public static final class Options extends OpOption {
    private Options(String attr, boolean value) {
      super(attr, value);
    }
  }
}
