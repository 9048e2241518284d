package io.eagerflow.op;

/**
 * Optional attributes of {@link MathOps#cumprod}, TensorFlow's {@code Cumprod} op, in TensorFlow
 * Java's style: each static method makes one option, passed as a trailing argument.
 *
 * <pre>{@code tf.math.cumprod(x, axis, Cumprod.exclusive(true))}</pre>
 */
public final class Cumprod {
  private Cumprod() {}

  /**
   * Whether each product leaves out its own element, so the first is 1 (default {@code false}).
   *
   * @param exclusive the value of attribute {@code exclusive}
   * @return the option, to pass to the op's method
   */
  public static Options exclusive(boolean exclusive) {
    return new Options("exclusive", exclusive);
  }

  /**
   * Whether to multiply from the end of the axis towards its start (default {@code false}).
   *
   * @param reverse the value of attribute {@code reverse}
   * @return the option, to pass to the op's method
   */
  public static Options reverse(boolean reverse) {
    return new Options("reverse", reverse);
  }

  /** One optional attribute of this op, made by the static methods of {@link Cumprod}. */
  public static final class Options extends OpOption {
    private Options(String attr, boolean value) {
      super(attr, value);
    }
  }
}
