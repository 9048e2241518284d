package io.eagerflow.op;

/**
 * Optional attributes of {@link Ops#reduceMin}, TensorFlow's {@code Min} op, in TensorFlow Java's
 * style: each static method makes one option, passed as a trailing argument.
 *
 * <pre>{@code tf.reduceMin(x, tf.constant(1), ReduceMin.keepDims(true))}</pre>
 */
public final class ReduceMin {
  private ReduceMin() {}

  /**
   * Whether reduced dimensions stay, with size 1 (default {@code false}: they are removed).
   *
   * @param keepDims the value of attribute {@code keep_dims}
   * @return the option, to pass to the op's method
   */
  public static Options keepDims(boolean keepDims) {
    return new Options("keep_dims", keepDims);
  }

  /** One optional attribute of this op, made by the static methods of {@link ReduceMin}. */
  public static final class Options extends OpOption {
    private Options(String attr, boolean value) {
      super(attr, value);
    }
  }
}
