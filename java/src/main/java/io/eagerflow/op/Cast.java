package io.eagerflow.op;

/**
 * Optional attributes of {@link DtypesOps#cast}, TensorFlow's {@code Cast} op, in TensorFlow Java's
 * style: each static method makes one option, passed as a trailing argument.
 *
 * <pre>{@code tf.dtypes.cast(x, TFloat32.class, Cast.truncate(true))}</pre>
 */
public final class Cast {
  private Cast() {}

  /**
   * Whether a {@code DOUBLE} to {@code FLOAT} cast drops the low mantissa bits instead of rounding
   * to nearest (default {@code false}); no other cast is affected.
   *
   * @param truncate the value of attribute {@code Truncate}
   * @return the option, to pass to {@link DtypesOps#cast}
   */
  public static Options truncate(boolean truncate) {
    return new Options("Truncate", truncate);
  }

  /** One optional attribute of this op, made by the static methods of {@link Cast}. */
  public static final class Options extends OpOption {
    private Options(String attr, boolean value) {
      super(attr, value);
    }
  }
}
