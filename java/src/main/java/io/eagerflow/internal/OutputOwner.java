package io.eagerflow.internal;

/**
 * The Java owner of the outputs a {@link NativeCall} made: the door hands it to tracking, which
 * gives its outputs to the scope open on the calling thread or frees them once the owner is
 * unreachable.
 */
public interface OutputOwner {
  /** Gives every output to the innermost scope this thread has open on the session, if any. */
  boolean adoptByScope();

  int outputCount();

  long outputHandle(int index);

  /** The token tracking returned, kept for {@code untrack} when every output is released. */
  void tracked(Object token);
}
