package io.eagerflow.op;

import io.eagerflow.EagerSession;
import io.eagerflow.Operation;

/**
 * Something an op made, as TensorFlow Java's {@code org.tensorflow.op.Op}: every {@link
 * io.eagerflow.Operand} is one.
 */
public interface Op {
  /**
   * The operation that made this.
   *
   * @throws IllegalStateException if its session is closed
   */
  Operation op();

  /**
   * The session the operation ran in, as TensorFlow Java's {@code Op.env()} (its execution
   * environment; eagerflow has only eager sessions).
   *
   * @throws IllegalStateException if the session is closed
   */
  default EagerSession env() {
    return op().env();
  }
}
