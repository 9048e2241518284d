package io.eagerflow.op;

import io.eagerflow.Operation;
import io.eagerflow.Output;
import io.eagerflow.types.TNumber;
import java.util.Objects;

/**
 * The two outputs of TensorFlow's {@code TopKV2} op, as {@link NnOps#topK} returns them: {@code
 * values()}, the {@code k} largest entries of each last-axis row in descending order, and {@code
 * indices()}, their positions in the row (the lower index first among equal values). Also makes the
 * op's option, {@link #sorted}. Immutable.
 *
 * @param <T> the type of the values
 * @param <V> the type of the indices ({@link io.eagerflow.types.TInt32} unless asked otherwise)
 */
public final class TopK<T extends TNumber, V extends TNumber> implements Op {
  private final Operation op;

  TopK(Operation op) {
    this.op = op;
  }

  /**
   * Whether the values come sorted (the default); TensorFlow leaves the order unspecified
   * otherwise, and this implementation sorts them anyway.
   *
   * @param sorted the value of attribute {@code sorted}
   * @return the option, to pass to {@link NnOps#topK}
   */
  public static Options sorted(Boolean sorted) {
    return new Options(Objects.requireNonNull(sorted, "sorted"));
  }

  /**
   * The {@code k} largest entries of each row, of the input's shape with its last dimension {@code
   * k}.
   *
   * @return output 0
   */
  public Output<T> values() {
    return op.output(0);
  }

  /**
   * The positions of {@link #values()} in their rows.
   *
   * @return output 1
   */
  public Output<V> indices() {
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

  /** One optional attribute of this op, made by {@link TopK#sorted}. */
  public static final class Options extends OpOption {
    private Options(boolean sorted) {
      super("sorted", sorted);
    }
  }
}
