package io.eagerflow.internal;

import io.eagerflow.internal.FlightEvents.CleanupBatch;
import io.eagerflow.internal.FlightEvents.CollectionRequested;
import io.eagerflow.internal.FlightEvents.LimitReached;
import io.eagerflow.internal.FlightEvents.OpExecution;
import io.eagerflow.internal.FlightEvents.ScopeClosed;
import io.eagerflow.internal.FlightEvents.SessionClosed;
import io.eagerflow.internal.FlightEvents.SessionOpened;
import io.eagerflow.internal.FlightEvents.Warning;
import jdk.jfr.FlightRecorder;

/**
 * Fills and commits the JDK Flight Recorder events ({@link FlightEvents}) for the door, tracking
 * and relief, and logs the library's warnings. Every method first asks whether a recording wants
 * the event: with no recording that answer is a constant {@code false} once compiled (the event
 * classes are not instrumented), so the call costs nothing; with one, a field read. Only then are
 * fields computed, some with a native call (live bytes, input shapes).
 */
public final class Flight {
  private Flight() {}

  // ---- Sessions ----------------------------------------------------------------------------

  /** A {@code SessionOpened} begun now, or null when no recording wants it. */
  static SessionOpened sessionOpening() {
    SessionOpened e = new SessionOpened();
    if (!e.isEnabled()) {
      return null;
    }
    e.begin();
    return e;
  }

  static void sessionOpened(
      SessionOpened e,
      long sessionId,
      String strategy,
      int asyncQueueCapacity,
      long maxNativeBytes,
      long gcTriggerBytes,
      double maxGcTimeShare,
      boolean trackLeaks) {
    if (e == null) {
      return;
    }
    e.end();
    if (e.shouldCommit()) {
      e.sessionId = sessionId;
      e.strategy = strategy;
      e.async = asyncQueueCapacity > 0;
      e.asyncQueueCapacity = asyncQueueCapacity;
      e.maxNativeBytes = maxNativeBytes;
      e.gcTriggerBytes = Math.max(0, gcTriggerBytes);
      e.maxGcTimeShare = maxGcTimeShare;
      e.trackLeaks = trackLeaks;
      e.commit();
    }
  }

  /** A {@code SessionClosed} begun now, or null when no recording wants it. */
  static SessionClosed sessionClosing() {
    SessionClosed e = new SessionClosed();
    if (!e.isEnabled()) {
      return null;
    }
    e.begin();
    return e;
  }

  /** {@code stats}: the final counts, laid out as {@code Wire.STATS_*} says. */
  static void sessionClosed(
      SessionClosed e,
      long sessionId,
      String strategy,
      boolean async,
      long maxNativeBytes,
      long[] stats) {
    if (e == null) {
      return;
    }
    e.end();
    if (e.shouldCommit()) {
      e.sessionId = sessionId;
      e.strategy = strategy;
      e.async = async;
      e.maxNativeBytes = maxNativeBytes;
      e.peakBytes = stats[Wire.STATS_PEAK_BYTES];
      e.createdTensors = stats[Wire.STATS_CREATED_TENSORS];
      e.freedExplicitly = stats[Wire.STATS_FREED_EXPLICITLY];
      e.freedByScope = stats[Wire.STATS_FREED_BY_SCOPE];
      e.freedByCleanup = stats[Wire.STATS_FREED_BY_CLEANUP];
      e.freedAtClose = stats[Wire.STATS_FREED_AT_CLOSE];
      e.gcRequests = stats[Wire.STATS_GC_REQUESTS];
      e.commit();
    }
  }

  // ---- Freeing -----------------------------------------------------------------------------

  /**
   * A {@code CleanupBatch} begun now, or null when no recording wants it. Call entered: it reads
   * the session's live bytes, which its {@code bytes} field holds until {@link #cleanupDone}.
   */
  static CleanupBatch cleanupStarts(long sessionId) {
    CleanupBatch e = new CleanupBatch();
    if (!e.isEnabled()) {
      return null;
    }
    e.begin();
    e.bytes = liveBytes(sessionId);
    return e;
  }

  /** Commits a batch that freed {@code tensors} (none: nothing to report). Call entered. */
  static void cleanupDone(CleanupBatch e, long sessionId, String strategy, long tensors) {
    if (e == null) {
      return;
    }
    e.end();
    if (tensors > 0 && e.shouldCommit()) {
      e.sessionId = sessionId;
      e.strategy = strategy;
      e.tensors = tensors;
      e.bytes = Math.max(0, e.bytes - liveBytes(sessionId));
      e.commit();
    }
  }

  /** Like {@link #cleanupStarts}, for a scope's close. */
  static ScopeClosed scopeCloses(long sessionId) {
    ScopeClosed e = new ScopeClosed();
    if (!e.isEnabled()) {
      return null;
    }
    e.begin();
    e.bytes = liveBytes(sessionId);
    return e;
  }

  static void scopeClosed(ScopeClosed e, long sessionId, long tensors) {
    if (e == null) {
      return;
    }
    e.end();
    if (e.shouldCommit()) {
      e.sessionId = sessionId;
      e.tensors = tensors;
      e.bytes = Math.max(0, e.bytes - liveBytes(sessionId));
      e.commit();
    }
  }

  // ---- Memory pressure ---------------------------------------------------------------------

  /** A {@code CollectionRequested} begun now, or null when no recording wants it. */
  static CollectionRequested collectionStarts() {
    CollectionRequested e = new CollectionRequested();
    if (!e.isEnabled()) {
      return null;
    }
    e.begin();
    return e;
  }

  static void collectionDone(
      CollectionRequested e,
      long sessionId,
      String cause,
      String method,
      boolean collected,
      long liveBytes,
      long freedBytes,
      long trigger,
      long nextTrigger,
      long gcNanos) {
    if (e == null) {
      return;
    }
    e.end();
    if (e.shouldCommit()) {
      e.sessionId = sessionId;
      e.cause = cause;
      e.method = method;
      e.collected = collected;
      e.liveBytes = liveBytes;
      e.freedBytes = freedBytes;
      e.trigger = trigger;
      e.nextTrigger = nextTrigger;
      e.gcTime = gcNanos;
      e.commit();
    }
  }

  /**
   * Counts {@code thrown}, a {@code NativeMemoryExhaustedException} about to reach a caller, in
   * {@code NativeMemory.limitExhaustions()}, and records it. Call entered.
   *
   * @return {@code thrown}
   */
  static RuntimeException limitReached(
      long sessionId, String strategy, long maxNativeBytes, RuntimeException thrown) {
    Native.countLimitExhaustion();
    LimitReached e = new LimitReached();
    if (e.shouldCommit()) {
      e.sessionId = sessionId;
      e.strategy = strategy;
      e.liveBytes = liveBytes(sessionId);
      e.maxNativeBytes = maxNativeBytes;
      e.message = thrown.getMessage();
      e.commit();
    }
    return thrown;
  }

  // ---- Warnings ----------------------------------------------------------------------------

  /** What a logged warning is about: the {@code kind} of its {@code Warning} event. */
  public enum Kind {
    /** Collections cannot keep a session's native memory down. */
    PRESSURE,
    /** A tracked tensor was freed by its strategy, at close or by the cleaner. */
    LEAK,
    /** A session became unreachable without {@code close()}. */
    FORGOTTEN_SESSION,
    /** The cleanup thread met an error (it goes on). */
    CLEANUP_FAILED,
    /** An asynchronous session's executor thread met an error. */
    EXECUTOR_FAILED
  }

  /**
   * Logs {@code message} at {@code level} (with {@code thrown}, which may be null) through {@code
   * log}, and records a {@code Warning} event: every warning and error the library logs goes
   * through here.
   */
  public static void log(
      System.Logger log, System.Logger.Level level, Kind kind, String message, Throwable thrown) {
    if (thrown == null) {
      log.log(level, message);
    } else {
      log.log(level, message, thrown);
    }
    Warning e = new Warning();
    if (e.shouldCommit()) {
      e.level = level.getName();
      e.kind = kind.name();
      e.message = message;
      e.commit();
    }
  }

  // ---- Ops ---------------------------------------------------------------------------------

  /**
   * Whether a recording wants {@code OpExecution} events: the door then times ops. Asked on every
   * call, so a JVM where Flight Recorder never started answers from one static read, without the
   * event object the door's compiled code does not always elide.
   */
  static boolean timingOps() {
    return FlightRecorder.isInitialized() && new OpExecution().isEnabled();
  }

  /** Runs {@code call}'s native step timed, and records it if it took longer than the threshold. */
  static long timedOp(OpCall<?> call, long sessionId) {
    OpExecution e = new OpExecution();
    e.begin();
    long raw = call.invoke(sessionId);
    e.end();
    if (e.shouldCommit()) {
      e.sessionId = sessionId;
      e.op = call.op.type();
      StringBuilder types = new StringBuilder();
      StringBuilder shapes = new StringBuilder();
      call.describeInputs(sessionId, types, shapes);
      e.inputTypes = types.toString();
      e.inputShapes = shapes.toString();
      e.outputs = call.outputCount();
      e.commit();
    }
    return raw;
  }

  /** The session's live tensor bytes. Call entered. */
  private static long liveBytes(long sessionId) {
    long[] out = new long[Wire.STATS_LENGTH];
    Native.stats(sessionId, out);
    return out[Wire.STATS_LIVE_BYTES];
  }
}
