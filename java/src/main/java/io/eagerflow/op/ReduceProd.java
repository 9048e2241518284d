package io.eagerflow.op;

/**
 * Optional attributes of {@link Ops#reduceProd}, TensorFlow's {@code Prod} op, in TensorFlow Java's
 * style: each static method makes one option, passed as a trailing argument.
 *
 * <pre>{@code tf.reduceProd(x, tf.constant(1), ReduceProd.keepDims(true))}</pre>
 */
public final class ReduceProd {
  private ReduceProd() {}

  /**
   * Whether reduced dimensions stay, with size 1 (default {@code false}: they are removed).
   *
   * @param keepDims the value of attribute {@code keep_dims}
   * @return the option, to pass to the op's method
   */
  public static Options keepDims(boolean keepDims) {
    return new Options("keep_dims", keepDims);
  }

  /** One optional attribute of this op, made by the static methods of {@link ReduceProd}. */
  public static final class Options extends OpOption {
    private Options(String attr, boolean value) {
      super(attr, value);
    }
  }
}
