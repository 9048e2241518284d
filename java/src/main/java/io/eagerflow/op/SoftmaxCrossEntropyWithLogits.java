package io.eagerflow.op;

import io.eagerflow.Operation;
import io.eagerflow.Output;
import io.eagerflow.types.TNumber;

/**
 * The two outputs of TensorFlow's {@code SoftmaxCrossEntropyWithLogits} op, as {@link
 * NnOps#softmaxCrossEntropyWithLogits} returns them: the loss per row and the gradient of the loss
 * with respect to the logits. Immutable.
 *
 * @param <T> the floating-point type of the logits
 */
public final class SoftmaxCrossEntropyWithLogits<T extends TNumber> {
  private final Operation op;

  SoftmaxCrossEntropyWithLogits(Operation op) {
    this.op = op;
  }

  /**
   * The loss of each row, {@code [batch]}.
   *
   * @return output 0
   */
  public Output<T> loss() {
    return op.output(0);
  }

  /**
   * The gradient of the loss with respect to the logits, {@code [batch, classes]}.
   *
   * @return output 1
   */
  public Output<T> backprop() {
    return op.output(1);
  }

  /**
   * The operation that computed both outputs.
   *
   * @return the operation
   */
  public Operation op() {
    return op;
  }
}
