package io.eagerflow.op;

/**
 * Optional attributes of {@link Ops#stack}, TensorFlow's {@code Pack} op, in TensorFlow Java's
 * style: each static method makes one option, passed as a trailing argument.
 *
 * <pre>{@code tf.stack(List.of(a, b), Stack.axis(1))}</pre>
 */
public final class Stack {
  private Stack() {}

  /**
   * The dimension along which to stack (default 0); negative values count from the end of the
   * output's dimensions.
   *
   * @param axis the value of attribute {@code axis}
   * @return the option, to pass to the op's method
   */
  public static Options axis(long axis) {
    return new Options("axis", axis);
  }

  /** One optional attribute of this op, made by the static methods of {@link Stack}. */
  public static final class Options extends OpOption {
    private Options(String attr, long value) {
      super(attr, value);
    }
  }
}
