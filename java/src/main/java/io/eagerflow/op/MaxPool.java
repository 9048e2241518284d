package io.eagerflow.op;

import java.util.Objects;

/**
 * Optional attributes of {@link NnOps#maxPool}, TensorFlow's {@code MaxPoolV2} op (window and
 * strides as tensors), in TensorFlow Java's style.
 */
public final class MaxPool {
  private MaxPool() {}

  /**
   * {@code "NHWC"} (the default) or {@code "NCHW"}, which the CPU kernel refuses, as TensorFlow's.
   *
   * @param dataFormat the value of attribute {@code data_format}
   * @return the option, to pass to {@link NnOps#maxPool}
   */
  public static Options dataFormat(String dataFormat) {
    return new Options(Objects.requireNonNull(dataFormat, "dataFormat"));
  }

  /** One optional attribute of this op, made by the static methods of {@link MaxPool}. */
  public static final class Options extends OpOption {
    private Options(String dataFormat) {
      super("data_format", dataFormat);
    }
  }
}
