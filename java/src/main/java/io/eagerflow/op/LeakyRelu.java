package io.eagerflow.op;

import java.util.Objects;

/**
 * Optional attributes of {@link NnOps#leakyRelu}, TensorFlow's {@code LeakyRelu} op, in TensorFlow
 * Java's style.
 */
public final class LeakyRelu {
  private LeakyRelu() {}

  /**
   * The slope below zero (default 0.2).
   *
   * @param alpha the value of attribute {@code alpha}
   * @return the option, to pass to {@link NnOps#leakyRelu}
   */
  public static Options alpha(Float alpha) {
    return new Options(Objects.requireNonNull(alpha, "alpha"));
  }

  /** One optional attribute of this op, made by the static methods of {@link LeakyRelu}. */
  public static final class Options extends OpOption {
    private Options(float alpha) {
      super("alpha", alpha);
    }
  }
}
