package io.eagerflow.op;

import java.util.Objects;

/**
 * Optional attributes of {@link NnOps#biasAdd}, TensorFlow's {@code BiasAdd} op, in TensorFlow
 * Java's style: each static method makes one option, passed as a trailing argument.
 *
 * <pre>{@code tf.nn.biasAdd(images, bias, BiasAdd.dataFormat("NCHW"))}</pre>
 */
public final class BiasAdd {
  private BiasAdd() {}

  /**
   * Where the channel dimension is: {@code "NHWC"} (the default), the last dimension, or {@code
   * "NCHW"}, dimension 1.
   *
   * @param dataFormat the value of attribute {@code data_format}
   * @return the option, to pass to {@link NnOps#biasAdd}
   * @throws NullPointerException if {@code dataFormat} is null
   */
  public static Options dataFormat(String dataFormat) {
    return new Options(Objects.requireNonNull(dataFormat, "dataFormat"));
  }

  /** One optional attribute of this op, made by the static methods of {@link BiasAdd}. */
  public static final class Options extends OpOption {
    private Options(String dataFormat) {
      super("data_format", dataFormat);
    }
  }
}
