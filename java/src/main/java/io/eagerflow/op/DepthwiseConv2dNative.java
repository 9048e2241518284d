package io.eagerflow.op;

import java.util.List;
import java.util.Objects;

/**
 * Optional attributes of {@link NnOps#depthwiseConv2dNative}, TensorFlow's {@code
 * DepthwiseConv2dNative} op, in TensorFlow Java's style.
 */
public final class DepthwiseConv2dNative {
  private DepthwiseConv2dNative() {}

  /**
   * The padding before and after each dimension (8 values, in {@code dataFormat} order; zero for
   * batch and depth) when the padding is {@code "EXPLICIT"}.
   *
   * @param explicitPaddings the value of attribute {@code explicit_paddings}
   * @return the option, to pass to {@link NnOps#depthwiseConv2dNative}
   */
  public static Options explicitPaddings(List<Long> explicitPaddings) {
    return new Options("explicit_paddings", Conv2d.longs(explicitPaddings, "explicitPaddings"));
  }

  /**
   * {@link #explicitPaddings(List)} from values.
   *
   * @param explicitPaddings the value of attribute {@code explicit_paddings}
   * @return the option, to pass to {@link NnOps#depthwiseConv2dNative}
   */
  public static Options explicitPaddings(Long... explicitPaddings) {
    return explicitPaddings(List.of(Objects.requireNonNull(explicitPaddings, "explicitPaddings")));
  }

  /**
   * {@code "NHWC"} (the default) or {@code "NCHW"}, which the CPU kernel refuses, as TensorFlow's.
   *
   * @param dataFormat the value of attribute {@code data_format}
   * @return the option, to pass to {@link NnOps#depthwiseConv2dNative}
   */
  public static Options dataFormat(String dataFormat) {
    return new Options("data_format", Objects.requireNonNull(dataFormat, "dataFormat"));
  }

  /**
   * The spacing of the filter's taps; only {@code [1, 1, 1, 1]} is supported (TensorFlow's CPU
   * kernel ignores the attribute).
   *
   * @param dilations the value of attribute {@code dilations}
   * @return the option, to pass to {@link NnOps#depthwiseConv2dNative}
   */
  public static Options dilations(List<Long> dilations) {
    return new Options("dilations", Conv2d.longs(dilations, "dilations"));
  }

  /**
   * {@link #dilations(List)} from values.
   *
   * @param dilations the value of attribute {@code dilations}
   * @return the option, to pass to {@link NnOps#depthwiseConv2dNative}
   */
  public static Options dilations(Long... dilations) {
    return dilations(List.of(Objects.requireNonNull(dilations, "dilations")));
  }

  /**
   * One optional attribute of this op, made by the static methods of {@link DepthwiseConv2dNative}.
   */
  public static final class Options extends OpOption {
    private Options(String attr, String value) {
      super(attr, value);
    }

    private Options(String attr, long[] value) {
      super(attr, value);
    }
  }
}
