package io.eagerflow.op;

/**
 * Optional attributes of {@link Ops#oneHot}, TensorFlow's {@code OneHot} op, in TensorFlow Java's
 * style: each static method makes one option, passed as a trailing argument.
 *
 * <pre>{@code tf.oneHot(indices, depth, on, off, OneHot.axis(0))}</pre>
 */
public final class OneHot {
  private OneHot() {}

  /**
   * The position of the new dimension of size {@code depth} (default -1, the last).
   *
   * @param axis the value of attribute {@code axis}
   * @return the option, to pass to the op's method
   */
  public static Options axis(long axis) {
    return new Options("axis", axis);
  }

  /** One optional attribute of this op, made by the static methods of {@link OneHot}. */
  public static final class Options extends OpOption {
    private Options(String attr, long value) {
      super(attr, value);
    }
  }
}
