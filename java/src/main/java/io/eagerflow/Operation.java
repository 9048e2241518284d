package io.eagerflow;

import io.eagerflow.types.TType;

/** An executed op and its outputs. */
public interface Operation {
  /** The op type, such as {@code "AddV2"}. */
  String type();

  /** The op's name, unique within its session. */
  String name();

  /** How many outputs the op produced. */
  int numOutputs();

  /**
   * Output {@code index}.
   *
   * @throws IndexOutOfBoundsException if there is no such output
   */
  <T extends TType> Output<T> output(int index);
}
