package io.eagerflow.internal;

/** The door's calls that carry no operands: a bare safe point, and an async session's sync. */
final class SessionCalls {
  static final NativeCall<Void> SAFE_POINT = new SafePoint();
  static final NativeCall<Void> SYNC = new Sync();

  private SessionCalls() {}

  private static final class SafePoint extends NativeCall<Void> {
    @Override
    protected long invoke(long sessionId) {
      return 0;
    }

    @Override
    protected Void result(long handle) {
      return null;
    }
  }

  /** Waits for the ops queued so far, then throws the first failure since the last sync. */
  private static final class Sync extends NativeCall<Void> {
    @Override
    protected long invoke(long sessionId) {
      Native.sync(sessionId);
      return 0;
    }

    @Override
    protected Void result(long handle) {
      return null;
    }
  }
}
