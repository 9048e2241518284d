package io.eagerflow.op;

/**
 * Optional attributes of {@link Ops#reduceAll}, TensorFlow's {@code All} op, in TensorFlow Java's
 * style: each static method makes one option, passed as a trailing argument.
 *
 * <pre>{@code tf.reduceAll(x, tf.constant(1), ReduceAll.keepDims(true))}</pre>
 */
public final class ReduceAll {
  private ReduceAll() {}

  /**
   * Whether reduced dimensions stay, with size 1 (default {@code false}: they are removed).
   *
   * @param keepDims the value of attribute {@code keep_dims}
   * @return the option, to pass to the op's method
   */
  public static Options keepDims(boolean keepDims) {
    return new Options("keep_dims", keepDims);
  }

  /** One optional attribute of this op, made by the static methods of {@link ReduceAll}. */
  public static final class Options extends OpOption {
    private Options(String attr, boolean value) {
      super(attr, value);
    }
  }
}
