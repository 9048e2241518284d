package io.eagerflow.internal;

/**
 * A native table of tensors that Java calls into: a session, or the process-wide table of
 * standalone tensors. {@link #enter()} and {@link #exit()} bracket every native call that uses the
 * table, so that closing it waits for calls in flight and refuses new ones.
 */
public abstract class NativeScope {
  /** The table of standalone tensors: never closed, native session id 0. */
  public static final NativeScope STANDALONE =
      new NativeScope() {
        @Override
        public long enter() {
          return 0;
        }

        @Override
        public void exit() {}
      };

  /**
   * Starts a call and returns the native session id to pass to it.
   *
   * @throws IllegalStateException if the scope is closed
   */
  public abstract long enter();

  /** Ends a call started by {@link #enter()}. */
  public abstract void exit();

  /** Runs the cleanup a safe point does; nothing by default. Call between enter and exit. */
  public void safePoint(long ptr) {}
}
