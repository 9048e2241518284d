package io.eagerflow.op;

/**
 * Optional attributes of {@link Ops#unstack}, TensorFlow's {@code Unpack} op, in TensorFlow Java's
 * style: each static method makes one option, passed as a trailing argument.
 *
 * <pre>{@code tf.unstack(x, 3, Unstack.axis(1))}</pre>
 */
public final class Unstack {
  private Unstack() {}

  /**
   * The dimension along which to unstack (default 0); negative values count from the end.
   *
   * @param axis the value of attribute {@code axis}
   * @return the option, to pass to the op's method
   */
  public static Options axis(long axis) {
    return new Options("axis", axis);
  }

  /** One optional attribute of this op, made by the static methods of {@link Unstack}. */
  public static final class Options extends OpOption {
    private Options(String attr, long value) {
      super(attr, value);
    }
  }
}
