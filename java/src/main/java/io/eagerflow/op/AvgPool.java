package io.eagerflow.op;

import java.util.Objects;

/**
 * Optional attributes of {@link NnOps#avgPool}, TensorFlow's {@code AvgPool} op, in TensorFlow
 * Java's style.
 */
public final class AvgPool {
  private AvgPool() {}

  /**
   * {@code "NHWC"} (the default) or {@code "NCHW"}, which the CPU kernel refuses, as TensorFlow's.
   *
   * @param dataFormat the value of attribute {@code data_format}
   * @return the option, to pass to {@link NnOps#avgPool}
   */
  public static Options dataFormat(String dataFormat) {
    return new Options(Objects.requireNonNull(dataFormat, "dataFormat"));
  }

  /** One optional attribute of this op, made by the static methods of {@link AvgPool}. */
  public static final class Options extends OpOption {
    private Options(String dataFormat) {
      super("data_format", dataFormat);
    }
  }
}
