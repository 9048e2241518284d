package io.eagerflow.op;

/**
 * Optional attributes of {@link NnOps#depthToSpace}, TensorFlow's {@code DepthToSpace} op, in
 * TensorFlow Java's style.
 *
 * <pre>{@code tf.nn.depthToSpace(x, 2L, DepthToSpace.dataFormat("NHWC"))}</pre>
 */
public final class DepthToSpace {
  private DepthToSpace() {}

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

  /** One optional attribute of this op, made by the static methods of {@link DepthToSpace}. */
  public static final class Options extends OpOption {
    private Options(String attr, String value) {
      super(attr, value);
    }
  }
}
