package io.eagerflow.op;

/**
 * Optional attributes of {@link NnOps#spaceToDepth}, TensorFlow's {@code SpaceToDepth} op, in
 * TensorFlow Java's style.
 *
 * <pre>{@code tf.nn.spaceToDepth(x, 2L, SpaceToDepth.dataFormat("NHWC"))}</pre>
 */
public final class SpaceToDepth {
  private SpaceToDepth() {}

  /**
   * The layout of the image: {@code "NHWC"}, the default and the only one TensorFlow's CPU kernels
   * (and eagerflow) accept.
   *
   * @param dataFormat the value of attribute {@code data_format}
   * @return the option, to pass to the op's method
   */
  public static Options dataFormat(String dataFormat) {
    return new Options("data_format", dataFormat);
  }

  /** One optional attribute of this op, made by the static methods of {@link SpaceToDepth}. */
  public static final class Options extends OpOption {
    private Options(String attr, String value) {
      super(attr, value);
    }
  }
}
