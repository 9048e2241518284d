package io.eagerflow.op;

import io.eagerflow.Operation;
import io.eagerflow.Output;
import io.eagerflow.types.TNumber;

/**
 * The two outputs the cross-entropy ops share: the loss per row and its gradient. Immutable. An
 * {@link Op}, as TensorFlow Java's op classes are.
 */
abstract class LossAndGradient<T extends TNumber> implements Op {
  private final Operation op;

  LossAndGradient(Operation op) {
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
  @Override
  public Operation op() {
    return op;
  }
}
