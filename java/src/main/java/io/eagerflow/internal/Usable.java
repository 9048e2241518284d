package io.eagerflow.internal;

/**
 * What a call checks before it touches an operand: an output not released and of an open session, a
 * tensor not closed. Views check their output through it on every access.
 */
public interface Usable {
  /**
   * @throws IllegalStateException naming the operand if it was released or closed
   */
  void checkUsable();
}
