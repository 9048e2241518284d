package io.eagerflow.op;

import io.eagerflow.Operation;
import io.eagerflow.Output;
import io.eagerflow.types.TNumber;
import io.eagerflow.types.TType;

/**
 * The two outputs of TensorFlow's {@code UniqueV2} op, as {@link Ops#unique} returns them: {@code
 * y()}, the distinct elements (or slices along the axis) in order of first appearance, and {@code
 * idx()}, for each element of the input the index of its value in {@code y()}. Immutable.
 *
 * @param <T> the element type
 * @param <V> the index type, {@link io.eagerflow.types.TInt32} or {@link io.eagerflow.types.TInt64}
 */
public final class Unique<T extends TType, V extends TNumber> implements Op {
  private final Operation op;

  Unique(Operation op) {
    this.op = op;
  }

  /**
   * The distinct values.
   *
   * @return output 0
   */
  public Output<T> y() {
    return op.output(0);
  }

  /**
   * The index in {@link #y()} of each input element's value.
   *
   * @return output 1
   */
  public Output<V> idx() {
    return op.output(1);
  }

  /**
   * The operation that computed both outputs.
   *
   * @return the operation
   */
  @Override
  public Operation op() {
    return op;
  }
}
