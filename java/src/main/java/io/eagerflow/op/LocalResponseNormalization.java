package io.eagerflow.op;

import java.util.Objects;

/**
 * Optional attributes of {@link NnOps#localResponseNormalization}, TensorFlow's {@code LRN} op, in
 * TensorFlow Java's style.
 */
public final class LocalResponseNormalization {
  private LocalResponseNormalization() {}

  /**
   * How many channels on each side the sum of squares covers (default 5).
   *
   * @param depthRadius the value of attribute {@code depth_radius}
   * @return the option, to pass to {@link NnOps#localResponseNormalization}
   */
  public static Options depthRadius(Long depthRadius) {
    return new Options("depth_radius", (long) Objects.requireNonNull(depthRadius, "depthRadius"));
  }

  /**
   * The offset of the denominator (default 1).
   *
   * @param bias the value of attribute {@code bias}
   * @return the option, to pass to {@link NnOps#localResponseNormalization}
   */
  public static Options bias(Float bias) {
    return new Options("bias", (float) Objects.requireNonNull(bias, "bias"));
  }

  /**
   * The scale of the sum of squares (default 1).
   *
   * @param alpha the value of attribute {@code alpha}
   * @return the option, to pass to {@link NnOps#localResponseNormalization}
   */
  public static Options alpha(Float alpha) {
    return new Options("alpha", (float) Objects.requireNonNull(alpha, "alpha"));
  }

  /**
   * The exponent of the denominator (default 0.5).
   *
   * @param beta the value of attribute {@code beta}
   * @return the option, to pass to {@link NnOps#localResponseNormalization}
   */
  public static Options beta(Float beta) {
    return new Options("beta", (float) Objects.requireNonNull(beta, "beta"));
  }

  /**
   * One optional attribute of this op, made by the static methods of {@link
   * LocalResponseNormalization}.
   */
  public static final class Options extends OpOption {
    private Options(String attr, long value) {
      super(attr, value);
    }

    private Options(String attr, float value) {
      super(attr, value);
    }
  }
}
