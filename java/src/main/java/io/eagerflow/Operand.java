package io.eagerflow;

import io.eagerflow.op.Op;
import io.eagerflow.types.TType;
import org.tensorflow.ndarray.Shape;

/**
 * Something that can be an op's input: in eager mode, always an {@link Output} whose value is
 * already computed.
 *
 * @param <T> the tensor type of the value
 */
public interface Operand<T extends TType> extends Op {
  /** The output this operand stands for. */
  Output<T> asOutput();

  /**
   * The operation that made this operand's value.
   *
   * @throws IllegalStateException if the session is closed
   */
  @Override
  default Operation op() {
    return asOutput().op();
  }

  /**
   * The value as a read-only tensor sharing the operand's native buffer. The tensor keeps the
   * operand reachable while it is, so reading a temporary's value is safe under every cleanup
   * strategy; {@link EagerSession#release} or closing the session still frees it.
   *
   * @throws IllegalStateException if the operand was released or its session closed
   */
  default T asTensor() {
    return asOutput().asTensor();
  }

  /** The shape of the value. @throws IllegalStateException if released or closed */
  default Shape shape() {
    return asOutput().shape();
  }

  /** The element type. @throws IllegalStateException if released or closed */
  default DataType dataType() {
    return asOutput().dataType();
  }

  /** The tensor class of the value, such as {@code TFloat32.class}. */
  default Class<T> type() {
    return asOutput().type();
  }
}
