package io.eagerflow;

import io.eagerflow.types.TType;
import org.tensorflow.ndarray.Shape;

/**
 * Builds and runs one op. Type and count attributes ({@code T}, {@code N}, {@code Tidx}, ...) are
 * inferred from the inputs at {@link #build()}; set only the op's own attributes. Attribute names
 * and values are checked at {@link #build()}, which throws {@link IllegalArgumentException} naming
 * the op and what was wrong. Once its session is closed, every method throws {@link
 * IllegalStateException}.
 */
public interface OperationBuilder {
  /** Adds one input. @throws IllegalStateException if it was released or its session closed */
  OperationBuilder addInput(Output<?> input);

  /** Adds a list input (such as {@code ConcatV2}'s {@code values}). */
  OperationBuilder addInputList(Output<?>[] inputs);

  OperationBuilder setAttr(String name, long value);

  OperationBuilder setAttr(String name, long[] value);

  OperationBuilder setAttr(String name, float value);

  OperationBuilder setAttr(String name, float[] value);

  OperationBuilder setAttr(String name, boolean value);

  OperationBuilder setAttr(String name, boolean[] value);

  OperationBuilder setAttr(String name, DataType value);

  OperationBuilder setAttr(String name, Shape value);

  OperationBuilder setAttr(String name, String value);

  /** A tensor-valued attribute, such as {@code Const}'s {@code value}; its values are copied. */
  OperationBuilder setAttr(String name, TType value);

  /**
   * Runs the op now.
   *
   * @throws IllegalArgumentException for bad inputs or attributes
   * @throws IllegalStateException if the builder was built already or the session closed
   * @throws NativeMemoryExhaustedException if the session's memory limit would be exceeded
   */
  Operation build();
}
