package io.eagerflow;

import io.eagerflow.types.TType;

/**
 * An executed op and its outputs. Its type, name and output count stay readable after its session
 * is closed; its outputs do not.
 */
public interface Operation {
  /** The op type, such as {@code "AddV2"}; also after close. */
  String type();

  /** The op's name, unique within its session; also after close. */
  String name();

  /** How many outputs the op produced; also after close. */
  int numOutputs();

  /**
   * The session the op ran in (TensorFlow Java's execution environment).
   *
   * @throws IllegalStateException if the session is closed
   */
  EagerSession env();

  /**
   * How many tensors the op's input argument {@code name} (TensorFlow's argument name, such as
   * {@code "inputs"} of {@code AddN}) received: the list's length for a list argument, else 1.
   *
   * @throws IllegalArgumentException ({@link io.eagerflow.exceptions.TFInvalidArgumentException})
   *     if the op has no input argument of that name
   * @throws IllegalStateException if the session is closed
   */
  int inputListLength(String name);

  /**
   * How many outputs the op's output argument {@code name} (such as {@code "output"} of {@code
   * Split}) holds: the list's length for a list argument, else 1.
   *
   * @throws IllegalArgumentException ({@link io.eagerflow.exceptions.TFInvalidArgumentException})
   *     if the op has no output argument of that name
   * @throws IllegalStateException if the session is closed
   */
  int outputListLength(String name);

  /**
   * Outputs {@code index} to {@code index + length - 1}, such as the list {@link #outputListLength}
   * counts.
   *
   * @throws IndexOutOfBoundsException if the range is not within the outputs
   * @throws IllegalStateException if the session is closed
   */
  Output<?>[] outputList(int index, int length);

  /**
   * Output {@code index}.
   *
   * @throws IndexOutOfBoundsException if there is no such output
   * @throws IllegalStateException if the session is closed
   */
  <T extends TType> Output<T> output(int index);
}
