package io.eagerflow.op;

/**
 * Optional attributes of {@link Ops#stridedSlice}, TensorFlow's {@code StridedSlice} op, in
 * TensorFlow Java's style: each static method makes one option, passed as a trailing argument. Each
 * mask is a bit set over the positions of {@code begin}, {@code end} and {@code strides}.
 *
 * <pre>{@code tf.stridedSlice(x, begin, end, strides, StridedSlice.shrinkAxisMask(1))}</pre>
 */
public final class StridedSlice {
  private StridedSlice() {}

  /**
   * Bit {@code i} set: ignore {@code begin[i]} and start at the first (or, for a negative stride,
   * last) element of that dimension.
   *
   * @param beginMask the value of attribute {@code begin_mask}
   * @return the option, to pass to the op's method
   */
  public static Options beginMask(long beginMask) {
    return new Options("begin_mask", beginMask);
  }

  /**
   * Bit {@code i} set: ignore {@code end[i]} and slice to the end of that dimension.
   *
   * @param endMask the value of attribute {@code end_mask}
   * @return the option, to pass to the op's method
   */
  public static Options endMask(long endMask) {
    return new Options("end_mask", endMask);
  }

  /**
   * Bit {@code i} set: position {@code i} stands for as many full dimensions as needed (at most one
   * bit).
   *
   * @param ellipsisMask the value of attribute {@code ellipsis_mask}
   * @return the option, to pass to the op's method
   */
  public static Options ellipsisMask(long ellipsisMask) {
    return new Options("ellipsis_mask", ellipsisMask);
  }

  /**
   * Bit {@code i} set: position {@code i} inserts a new dimension of size 1.
   *
   * @param newAxisMask the value of attribute {@code new_axis_mask}
   * @return the option, to pass to the op's method
   */
  public static Options newAxisMask(long newAxisMask) {
    return new Options("new_axis_mask", newAxisMask);
  }

  /**
   * Bit {@code i} set: take the single index {@code begin[i]} and drop that dimension.
   *
   * @param shrinkAxisMask the value of attribute {@code shrink_axis_mask}
   * @return the option, to pass to the op's method
   */
  public static Options shrinkAxisMask(long shrinkAxisMask) {
    return new Options("shrink_axis_mask", shrinkAxisMask);
  }

  /** One optional attribute of this op, made by the static methods of {@link StridedSlice}. */
  public static final class Options extends OpOption {
    private Options(String attr, long value) {
      super(attr, value);
    }
  }
}
