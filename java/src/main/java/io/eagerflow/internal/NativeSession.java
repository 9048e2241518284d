package io.eagerflow.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * The native half of an {@code EagerSession}, and the one door from Java into a session's native
 * table: {@link #call} runs every session-bound native call with the same protocol (enter, safe
 * point, call, relieve and retry once on exhaustion, decode the collection signal, hand new outputs
 * to tracking, exit, fence). Its lifecycle: {@link #close()} refuses new calls at once, waits for
 * those in flight, stops the cleanup thread and frees everything. {@link #STANDALONE} is the
 * process-wide table of standalone tensors, which never closes.
 */
public final class NativeSession {
  /** How unreachable outputs are freed. */
  public enum Mode {
    BACKGROUND,
    SAFE_POINTS,
    ON_CLOSE
  }

  /** The table of standalone tensors: native session id 0, never closed, never tracked. */
  public static final NativeSession STANDALONE = new NativeSession();

  private static final long CLOSED = Long.MIN_VALUE;

  private final long id;
  private final Mode mode;
  private final long maxNativeBytes;

  /** Calls in flight in the low bits; the sign bit once closing has begun. */
  private final AtomicLong state = new AtomicLong();

  private final Tracking tracking;
  private final Relief relief;

  /** The executor thread of an asynchronous session, else null. */
  private final Thread executorThread;

  private final CompletableFuture<long[]> finalStats = new CompletableFuture<>();
  private final AtomicLong opNames = new AtomicLong();
  private volatile Thread closer;

  private NativeSession() {
    this.id = 0;
    this.mode = Mode.ON_CLOSE;
    this.maxNativeBytes = 0;
    this.tracking = null;
    this.relief = null;
    this.executorThread = null;
  }

  /**
   * Opens a session and starts its threads.
   *
   * @param maxNativeBytes hard limit, {@code > 0}
   * @param gcTriggerBytes soft threshold, {@code <= 0} for the adaptive default
   * @param maxGcTimeShare the share of wall time requested collections may take, in (0, 1)
   * @param strategyName the strategy's name, for messages
   * @param asyncQueueCapacity for an asynchronous session, its queue's bound; 0 for a synchronous
   *     one
   */
  public NativeSession(
      long maxNativeBytes,
      long gcTriggerBytes,
      double maxGcTimeShare,
      Mode mode,
      String strategyName,
      boolean trackLeaks,
      int asyncQueueCapacity) {
    OpenSessions.beforeOpen();
    FlightEvents.SessionOpened opening = Flight.sessionOpening();
    boolean gcSignals = mode != Mode.ON_CLOSE;
    this.id =
        asyncQueueCapacity > 0
            ? Native.newAsyncSession(maxNativeBytes, gcTriggerBytes, gcSignals, asyncQueueCapacity)
            : Native.newSession(maxNativeBytes, gcTriggerBytes, gcSignals);
    this.mode = mode;
    this.maxNativeBytes = maxNativeBytes;
    if (trackLeaks) {
      LeakSites.trackStandalone();
    }
    this.tracking = new Tracking(mode, strategyName, trackLeaks);
    this.relief = new Relief(this, tracking, maxNativeBytes, gcTriggerBytes, maxGcTimeShare);
    try {
      tracking.start(this);
      this.executorThread = asyncQueueCapacity > 0 ? Threads.startExecutor(id, relief) : null;
    } catch (Throwable e) {
      // Out of threads: nothing will ever close this session, so free it now.
      tracking.stop();
      Native.closeSession(id, null);
      throw e;
    }
    OpenSessions.opened();
    Flight.sessionOpened(
        opening,
        id,
        strategyName,
        asyncQueueCapacity,
        maxNativeBytes,
        gcTriggerBytes,
        maxGcTimeShare,
        trackLeaks);
  }

  /**
   * The door: runs {@code call} on this session's table with the protocol every native call shares
   * ({@link Doors}, which has a copy per family of calls; this one takes every call of no other).
   *
   * @throws IllegalStateException if the session is closed
   */
  public <R> R call(NativeCall<R> call) {
    return Doors.call(this, call);
  }

  /** The door for an op; see {@link #call(NativeCall)}. */
  public <R> R call(OpCall<R> call) {
    return Doors.call(this, call);
  }

  /** The door for frees by the caller's choice; see {@link #call(NativeCall)}. */
  public void call(FreeCall call) {
    Doors.call(this, call);
  }

  /** Null for the standalone table, which tracks nothing. */
  Tracking tracking() {
    return tracking;
  }

  /** Null for the standalone table, which relieves nothing. */
  Relief relief() {
    return relief;
  }

  /**
   * Counts and records {@code thrown}, the hard limit's exception on its way to the caller. Call
   * entered.
   *
   * @return {@code thrown}
   */
  RuntimeException limitReached(long sessionId, RuntimeException thrown) {
    String strategy = tracking == null ? "standalone" : tracking.strategyName();
    return Flight.limitReached(sessionId, strategy, maxNativeBytes, thrown);
  }

  /** A safe point and nothing else ({@code opBuilder}). */
  public void safePoint() {
    call(SessionCalls.SAFE_POINT);
  }

  /** Waits for the ops queued so far, then throws the first failure since the last sync. */
  public void sync() {
    call(isAsync() ? SessionCalls.SYNC : SessionCalls.SAFE_POINT);
  }

  /**
   * Runs {@code job} entered unless the session is closing (the cleanup thread, queued-op relief).
   *
   * @return false, without running it, once the session is closing
   */
  boolean whileOpen(LongConsumer job) {
    if (!tryEnter()) {
      return false;
    }
    try {
      job.accept(id);
      return true;
    } finally {
      exit();
    }
  }

  /** The native id; valid while the session is entered. */
  long id() {
    return id;
  }

  /** Whether ops are queued for an executor thread ({@code async(true)}). */
  public boolean isAsync() {
    return executorThread != null;
  }

  public Mode mode() {
    return mode;
  }

  /** The next number for a generated op name. */
  public long nextOpNumber() {
    return opNames.getAndIncrement();
  }

  /** Starts a call; only the door and {@link NativeCall#enterOther} enter. */
  long enter() {
    // The standalone table never closes: no count to keep.
    if (this != STANDALONE && !tryEnter()) {
      throw new IllegalStateException(Wire.CLOSED_MESSAGE);
    }
    return id;
  }

  private boolean tryEnter() {
    while (true) {
      long s = state.get();
      if (s < 0) {
        return false;
      }
      if (state.compareAndSet(s, s + 1)) {
        return true;
      }
    }
  }

  void exit() {
    if (this != STANDALONE && state.decrementAndGet() == CLOSED) {
      Thread c = closer;
      if (c != null) {
        LockSupport.unpark(c);
      }
    }
  }

  public boolean isClosed() {
    return state.get() < 0;
  }

  /**
   * @throws IllegalStateException if the session is closed
   */
  public void checkOpen() {
    if (isClosed()) {
      throw new IllegalStateException(Wire.CLOSED_MESSAGE);
    }
  }

  /** Stops tracking an owner whose outputs were all released explicitly. */
  public void untrack(Object token) {
    if (tracking != null) {
      tracking.untrack(token);
    }
  }

  /** Tracks one output of {@code owner} that left a scope for the session. Call inside a call. */
  public Object track(Object owner, long handle) {
    return tracking == null ? null : tracking.track(owner, handle, null);
  }

  /** The counters of {@code SessionStats}; after close, the final ones. */
  public long[] stats() {
    if (tryEnter()) {
      try {
        long[] out = new long[Wire.STATS_LENGTH];
        Native.stats(id, out);
        return out;
      } finally {
        exit();
      }
    }
    return finalStats.join().clone();
  }

  /**
   * Closes the session: refuses new calls, waits for those in flight, stops and joins the cleanup
   * thread, and frees everything. Idempotent; a concurrent second call waits for the first.
   *
   * @return whether this call did the closing
   */
  public boolean close() {
    if (this == STANDALONE) {
      throw new IllegalStateException("the table of standalone tensors cannot be closed");
    }
    while (true) {
      long s = state.get();
      if (s < 0) {
        finalStats.join();
        return false;
      }
      if (state.compareAndSet(s, s | CLOSED)) {
        break;
      }
    }
    FlightEvents.SessionClosed closing = Flight.sessionClosing();
    try {
      awaitCallsInFlight();
      tracking.stop();
      long[] stats = new long[Wire.STATS_LENGTH];
      Native.closeSession(id, stats);
      Threads.join(executorThread);
      tracking.reportAtClose();
      finalStats.complete(stats);
      Flight.sessionClosed(closing, id, tracking.strategyName(), isAsync(), maxNativeBytes, stats);
    } finally {
      finalStats.complete(new long[Wire.STATS_LENGTH]);
      OpenSessions.closed();
    }
    return true;
  }

  /**
   * Parks until the last call in flight has exited; that {@link #exit()} unparks this thread. No
   * wake-up is lost: this thread publishes itself in {@code closer} before it reads {@code state},
   * and {@code exit()} changes {@code state} before it reads {@code closer}, so at least one of the
   * two sees the other (and a permit from an early unpark makes the next park return at once).
   */
  private void awaitCallsInFlight() {
    closer = Thread.currentThread();
    boolean interrupted = false;
    while (state.get() != CLOSED) {
      LockSupport.park(this);
      // An interrupt would make every later park return at once: remember it, wait on.
      interrupted |= Thread.interrupted();
    }
    closer = null;
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
