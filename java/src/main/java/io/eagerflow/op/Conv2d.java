package io.eagerflow.op;

import java.util.List;
import java.util.Objects;

/**
 * Optional attributes of {@link NnOps#conv2d}, TensorFlow's {@code Conv2D} op, in TensorFlow Java's
 * style: each static method makes one option, passed as a trailing argument.
 *
 * <pre>
 * {@code tf.nn.conv2d(images, filter, List.of(1L, 1L, 1L, 1L), "SAME", Conv2d.dilations(1L, 2L, 2L, 1L))}
 * </pre>
 */
public final class Conv2d {
  private Conv2d() {}

  /**
   * Accepted for source compatibility; there is no GPU here.
   *
   * @param useCudnnOnGpu the value of attribute {@code use_cudnn_on_gpu}
   * @return the option, to pass to {@link NnOps#conv2d}
   */
  public static Options useCudnnOnGpu(Boolean useCudnnOnGpu) {
    return new Options("use_cudnn_on_gpu", Objects.requireNonNull(useCudnnOnGpu, "useCudnnOnGpu"));
  }

  /**
   * The padding before and after each dimension (8 values, in {@code dataFormat} order; zero for
   * batch and depth) when the padding is {@code "EXPLICIT"}.
   *
   * @param explicitPaddings the value of attribute {@code explicit_paddings}
   * @return the option, to pass to {@link NnOps#conv2d}
   */
  public static Options explicitPaddings(List<Long> explicitPaddings) {
    return new Options("explicit_paddings", longs(explicitPaddings, "explicitPaddings"));
  }

  /**
   * {@link #explicitPaddings(List)} from values.
   *
   * @param explicitPaddings the value of attribute {@code explicit_paddings}
   * @return the option, to pass to {@link NnOps#conv2d}
   */
  public static Options explicitPaddings(Long... explicitPaddings) {
    return explicitPaddings(List.of(Objects.requireNonNull(explicitPaddings, "explicitPaddings")));
  }

  /**
   * {@code "NHWC"} (the default) or {@code "NCHW"}, which the CPU kernel refuses, as TensorFlow's.
   *
   * @param dataFormat the value of attribute {@code data_format}
   * @return the option, to pass to {@link NnOps#conv2d}
   */
  public static Options dataFormat(String dataFormat) {
    return new Options("data_format", Objects.requireNonNull(dataFormat, "dataFormat"));
  }

  /**
   * The spacing of the filter's taps per dimension (4 values; 1 for batch and depth).
   *
   * @param dilations the value of attribute {@code dilations}
   * @return the option, to pass to {@link NnOps#conv2d}
   */
  public static Options dilations(List<Long> dilations) {
    return new Options("dilations", longs(dilations, "dilations"));
  }

  /**
   * {@link #dilations(List)} from values.
   *
   * @param dilations the value of attribute {@code dilations}
   * @return the option, to pass to {@link NnOps#conv2d}
   */
  public static Options dilations(Long... dilations) {
    return dilations(List.of(Objects.requireNonNull(dilations, "dilations")));
  }

  /** The values of {@code list}, none null. */
  static long[] longs(List<Long> list, String name) {
    Objects.requireNonNull(list, name);
    long[] out = new long[list.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = Objects.requireNonNull(list.get(i), name);
    }
    return out;
  }

  /** One optional attribute of this op, made by the static methods of {@link Conv2d}. */
  public static final class Options extends OpOption {
    private Options(String attr, boolean value) {
      super(attr, value);
    }

    private Options(String attr, String value) {
      super(attr, value);
    }

    private Options(String attr, long[] value) {
      super(attr, value);
    }
  }
}
