package io.eagerflow.op;

import io.eagerflow.Operation;
import io.eagerflow.types.TNumber;

/**
 * The two outputs of TensorFlow's {@code SparseSoftmaxCrossEntropyWithLogits} op, as {@link
 * NnOps#sparseSoftmaxCrossEntropyWithLogits} returns them: {@code loss()}, the loss per row, and
 * {@code backprop()}, the gradient of the loss with respect to the logits. Immutable.
 *
 * @param <T> the floating-point type of the logits
 */
public final class SparseSoftmaxCrossEntropyWithLogits<T extends TNumber>
    extends LossAndGradient<T> {
  SparseSoftmaxCrossEntropyWithLogits(Operation op) {
    super(op);
  }
}
