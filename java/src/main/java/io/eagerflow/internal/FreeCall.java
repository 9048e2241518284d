package io.eagerflow.internal;

import java.util.Arrays;

/**
 * A call that frees tensors of a session by the caller's choice ({@code release}, a scope's close),
 * in one native call however many there are. {@link #select} runs entered and names them with
 * {@link #free}.
 */
public abstract class FreeCall extends NativeCall<Void> {
  private final boolean safePoint;
  private final int reason;
  private long first;
  private long[] handles;
  private int count;

  /**
   * Frees for {@code reason} ({@code Wire.FREED_*}: each has its own counter in {@code
   * SessionStats}); a safe point if {@code safePoint} ({@code release}, not a scope).
   */
  protected FreeCall(boolean safePoint, int reason) {
    this.safePoint = safePoint;
    this.reason = reason;
  }

  @Override
  protected final boolean isSafePoint() {
    return safePoint;
  }

  /** Marks what is freed now (as released) and passes each handle to {@link #free}. */
  protected abstract void select();

  /** After the native call: what follows from the frees (untracking owners). */
  protected void freed() {}

  /** Forgets what a previous call freed, so that this one can be used again. */
  protected final void resetFrees() {
    count = 0;
    first = 0;
    if (handles != null && handles.length > 1024) {
      handles = null; // a reused call keeps no large array
    }
  }

  protected final void free(long handle) {
    if (count == 0) {
      first = handle;
    } else {
      if (handles == null) {
        handles = new long[8];
      } else if (count == handles.length) {
        handles = Arrays.copyOf(handles, count * 2);
      }
      if (count == 1) {
        handles[0] = first; // a reused call's array still holds a previous call's handles
      }
      handles[count] = handle;
    }
    count++;
  }

  @Override
  protected final void prepare(long sessionId) {
    select();
  }

  @Override
  protected final long invoke(long sessionId) {
    FlightEvents.ScopeClosed event =
        reason == Wire.FREED_BY_SCOPE ? Flight.scopeCloses(sessionId) : null;
    long freed = 0;
    if (count == 1) {
      freed = Native.free(sessionId, first, reason) ? 1 : 0;
    } else if (count > 1) {
      freed = Native.freeMany(sessionId, handles, count, reason);
    }
    Flight.scopeClosed(event, sessionId, freed);
    return 0;
  }

  @Override
  protected final Void result(long handle) {
    freed();
    return null;
  }
}
