package io.eagerflow.op;

/**
 * Optional attributes of {@link MathOps#cumsum}, TensorFlow's {@code Cumsum} op, in TensorFlow
 * Java's style: each static method makes one option, passed as a trailing argument.
 *
 * <pre>{@code tf.math.cumsum(x, axis, Cumsum.exclusive(true))}</pre>
 */
public final class Cumsum {
  private Cumsum() {}

  /**
   * Whether each sum leaves out its own element, so the first is 0 (default {@code false}).
   *
   * @param exclusive the value of attribute {@code exclusive}
   * @return the option, to pass to the op's method
   */
  public static Options exclusive(boolean exclusive) {
    return new Options("exclusive", exclusive);
  }

  /**
   * Whether to sum from the end of the axis towards its start (default {@code false}).
   *
   * @param reverse the value of attribute {@code reverse}
   * @return the option, to pass to the op's method
   */
  public static Options reverse(boolean reverse) {
    return new Options("reverse", reverse);
  }

  /** One optional attribute of this op, made by the static methods of {@link Cumsum}. */
  public static final class Options extends OpOption {
    private Options(String attr, boolean value) {
      super(attr, value);
    }
  }
}
