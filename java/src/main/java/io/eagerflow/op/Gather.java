package io.eagerflow.op;

/**
 * Optional attributes of {@link Ops#gather}, TensorFlow's {@code GatherV2} op, in TensorFlow Java's
 * style: each static method makes one option, passed as a trailing argument.
 *
 * <pre>{@code tf.gather(params, indices, axis, Gather.batchDims(1))}</pre>
 */
public final class Gather {
  private Gather() {}

  /**
   * The number of leading batch dimensions {@code params} and {@code indices} share (default 0).
   *
   * @param batchDims the value of attribute {@code batch_dims}
   * @return the option, to pass to the op's method
   */
  public static Options batchDims(long batchDims) {
    return new Options("batch_dims", batchDims);
  }

  /** One optional attribute of this op, made by the static methods of {@link Gather}. */
  public static final class Options extends OpOption {
    private Options(String attr, long value) {
      super(attr, value);
    }
  }
}
