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
   * Output {@code index}.
   *
   * @throws IndexOutOfBoundsException if there is no such output
   * @throws IllegalStateException if the session is closed
   */
  <T extends TType> Output<T> output(int index);
}
