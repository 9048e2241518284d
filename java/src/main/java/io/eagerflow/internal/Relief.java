package io.eagerflow.internal;

import io.eagerflow.NativeMemoryExhaustedException;
import io.eagerflow.exceptions.TFResourceExhaustedException;
import java.lang.ref.Reference;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Native memory pressure for one session: answers the collection signal of allocating calls and the
 * hard limit's refusals by causing a collection (see {@link Collector}) and letting the cleanup
 * catch up, paces the next request by what collections cost and free, and writes the warning and
 * the exhaustion message that say what was tried and what to do.
 */
final class Relief {
  private static final System.Logger LOG = System.getLogger("io.eagerflow");

  /** The first time any session's pacing gives up, one warning says so. */
  private static final AtomicBoolean WARNED_GIVING_UP = new AtomicBoolean();

  private static final String NO_COLLECTION =
      "System.gc() does nothing under -XX:+DisableExplicitGC and this collector has no Eden to"
          + " fill";

  /** Why a collection is requested (the {@code cause} of a {@code CollectionRequested} event). */
  enum Cause {
    /** An allocating call's live bytes passed the soft threshold. */
    SOFT_THRESHOLD,
    /** The hard limit refused an allocation, which the door then retries once. */
    HARD_LIMIT,
    /** The same for an asynchronous session's queued op, on its executor thread. */
    QUEUED_OP
  }

  /** Requests in a row that freed nothing before pacing stops asking. */
  private static final int FRUITLESS_REQUESTS = 3;

  /** Longest a call waits for the cleanup to catch up after a collection. */
  private static final long MAX_PRESSURE_WAIT_NANOS = 250_000_000L;

  /** Longest {@link #settle} waits for the first freed bytes after a collection. */
  private static final long SETTLE_NANOS = 50_000_000L;

  /** {@link #collectAndDrain}: no collection ran. */
  private static final int NOT_RUN = 0;

  /** A collection ran, but the cleanup had not freed all it found when the wait ended. */
  private static final int RAN = 1;

  /** A collection ran and the cleanup freed everything it found. */
  private static final int DRAINED = 2;

  private final NativeSession session;
  private final Tracking tracking;
  private final String strategyName;
  private final boolean trackLeaks;
  private final long maxNativeBytes;
  private final boolean fixedTrigger;
  private final double maxGcTimeShare;

  // What the previous requested collection left; guarded by this.
  private long lastReliefEnd = System.nanoTime();
  private long liveAfterLastRelief;
  private long requests;
  private long bytesFreedByRequests;
  private int fruitlessInARow;
  private final long[] recentCosts = new long[3];
  private int costCount;
  private long smoothedGrowth;
  private long smoothedMutatorNanos;
  private boolean pacingGaveUp;

  /** The soft threshold as this side last set it, for events; racy updates only blur a report. */
  private volatile long trigger;

  Relief(
      NativeSession session,
      Tracking tracking,
      long maxNativeBytes,
      long gcTriggerBytes,
      double maxGcTimeShare) {
    this.session = session;
    this.tracking = tracking;
    this.strategyName = tracking.strategyName();
    this.trackLeaks = tracking.tracksLeaks();
    this.maxNativeBytes = maxNativeBytes;
    this.fixedTrigger = gcTriggerBytes > 0;
    this.trigger = fixedTrigger ? gcTriggerBytes : Wire.MIN_GC_TRIGGER_BYTES;
    this.maxGcTimeShare = maxGcTimeShare;
  }

  /**
   * A handle returned by an allocating native call: a negative value says the session crossed its
   * soft threshold, so request a collection and let the cleanup catch up first (as {@code java.nio}
   * does for direct buffers). Call entered.
   */
  long decode(long sessionId, long raw) {
    if (raw >= 0) {
      return raw;
    }
    if (!Collector.canCollect()) {
      // No way to cause a collection: stop asking, let the hard limit bound the session.
      tracking.safePoint(sessionId);
      giveUp(sessionId, NO_COLLECTION);
    } else {
      relieve(sessionId, Cause.SOFT_THRESHOLD);
    }
    return ~raw;
  }

  /**
   * After the hard limit refused an allocation, before the door runs the call once more: unless the
   * strategy never frees before close (then this throws), collect and let the cleanup catch up.
   * Returns the bytes that freed, for {@link #exhausted}. Call entered.
   */
  long beforeRetry(long sessionId, NativeMemoryExhaustedException e) {
    if (session.mode() == NativeSession.Mode.ON_CLOSE) {
      throw session.limitReached(
          sessionId,
          new TFResourceExhaustedException(e.getMessage() + "; strategy " + strategyName));
    }
    return relieveAtLimit(sessionId, Cause.HARD_LIMIT);
  }

  /**
   * Before an allocation the hard limit refused is retried: collect and let the cleanup free what
   * was unreachable, or, when no collection can be caused, free what the JVM's own collections
   * found. Returns the bytes freed.
   */
  long relieveAtLimit(long sessionId, Cause cause) {
    if (Collector.canCollect()) {
      return relieve(sessionId, cause);
    }
    long before = liveBytes(sessionId);
    tracking.safePoint(sessionId);
    return Math.max(0, before - liveBytes(sessionId));
  }

  /**
   * On the executor thread, after the hard limit refused a queued op's allocation: what the door
   * does before its retry; the executor then retries the op once. Rust asks only in sessions that
   * signal pressure (never ON_SESSION_CLOSE). False, and no retry, once the session is closing.
   */
  boolean relieveForQueuedOp() {
    try {
      return session.whileOpen(id -> relieveAtLimit(id, Cause.QUEUED_OP));
    } catch (RuntimeException e) {
      return false; // closed meanwhile: the op fails with its own error
    }
  }

  /** The hard limit held even after a collection: say what was tried and what to do. */
  RuntimeException exhausted(NativeMemoryExhaustedException e, long freedNow) {
    boolean disabled = !Collector.canCollect();
    long made;
    long freedTotal;
    synchronized (this) {
      made = requests;
      freedTotal = bytesFreedByRequests;
    }
    String saw =
        disabled
            ? NO_COLLECTION
                + ", so unreachable outputs are freed only after the JVM collects on its own (it"
                + " freed "
                + freedNow
                + " bytes just now)"
            : "the session requested "
                + made
                + " garbage collections, which freed "
                + freedTotal
                + " bytes in all ("
                + freedNow
                + " by the last)";
    String advice =
        "release outputs with session.release(...), run each iteration in a"
            + " session.newScope() scope, or raise maxNativeBytes"
            + (disabled ? ", or remove -XX:+DisableExplicitGC" : "");
    warnGivingUp(disabled ? "-XX:+DisableExplicitGC" : "collections no longer free enough");
    return new TFResourceExhaustedException(
        e.getMessage() + "; strategy " + strategyName + "; " + saw + "; " + advice);
  }

  /** Stops requesting collections (the hard limit still bounds the session). */
  private void giveUp(long sessionId, String why) {
    synchronized (this) {
      if (pacingGaveUp) {
        return;
      }
      pacingGaveUp = true;
    }
    Native.collected(sessionId, false, Long.MAX_VALUE);
    warnGivingUp(why);
  }

  private void warnGivingUp(String why) {
    if (WARNED_GIVING_UP.compareAndSet(false, true)) {
      Flight.log(
          LOG,
          System.Logger.Level.WARNING,
          Flight.Kind.PRESSURE,
          "eagerflow: garbage collections cannot keep native memory down ("
              + why
              + "); an "
              + strategyName
              + " session now grows to its hard limit of "
              + maxNativeBytes
              + " bytes and then throws NativeMemoryExhaustedException. Release outputs with"
              + " session.release(...) or use session.newScope() scopes"
              + (trackLeaks
                  ? "; unreleased outputs now held were created most at: " + tracking.topSites()
                  : "; build the session with trackLeaks(true) to log where unreleased outputs"
                      + " are created"),
          null);
    }
  }

  private static long liveBytes(long sessionId) {
    long[] out = new long[Wire.STATS_LENGTH];
    Native.stats(sessionId, out);
    return out[Wire.STATS_LIVE_BYTES];
  }

  /**
   * Causes a collection (a young one by filling Eden where that is cheaper, see {@link Collector})
   * and waits, briefly, until the cleanup has freed what it found: a sentinel reference made
   * unreachable just before the collection tells when the collection's references have reached this
   * session's queue and been freed. If a young collection freed nothing, the owners were old
   * already and a full collection follows. Then paces the next request.
   *
   * @return the bytes the session held less afterwards
   */
  private long relieve(long sessionId, Cause cause) {
    FlightEvents.CollectionRequested event = Flight.collectionStarts();
    long liveBefore = liveBytes(sessionId);
    long gcBefore = GcFacts.gcNanos();
    long start = System.nanoTime();
    Collector.Method method = Collector.choose();
    int outcome = collectAndDrain(sessionId, method);
    long liveAfter = settle(sessionId, outcome, liveBefore);
    boolean thenFull = false;
    if (method == Collector.Method.YOUNG
        && liveAfter >= liveBefore
        && !GcFacts.explicitGcDisabled()) {
      thenFull = true;
      outcome = Math.max(outcome, collectAndDrain(sessionId, Collector.Method.FULL));
      liveAfter = settle(sessionId, outcome, liveBefore);
    }
    boolean ran = outcome != NOT_RUN;
    long end = System.nanoTime();
    long freed = Math.max(0, liveBefore - liveAfter);
    long cost = Math.max(end - start, GcFacts.gcNanos() - gcBefore);
    long next = pace(start, end, cost, liveBefore, liveAfter, freed, outcome == DRAINED);
    if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
      LOG.log(
          System.Logger.Level.DEBUG,
          "eagerflow: {0} collection ({1}): {2} ms, freed {3} MiB of {4} MiB; next trigger {5} MiB",
          method,
          ran ? "ran" : "none observed",
          (end - start) / 1_000_000,
          freed >> 20,
          liveBefore >> 20,
          next == Long.MAX_VALUE ? "never" : Long.toString(next >> 20));
    }
    Native.collected(sessionId, ran, next);
    long triggerBefore = trigger;
    if (!fixedTrigger) {
      trigger = next;
    }
    Flight.collectionDone(
        event,
        sessionId,
        cause.name(),
        thenFull ? "YOUNG_FILL_THEN_SYSTEM_GC" : method.eventName(),
        ran,
        liveBefore,
        freed,
        triggerBefore,
        trigger,
        GcFacts.gcNanos() - gcBefore);
    if (next == Long.MAX_VALUE) {
      warnGivingUp(FRUITLESS_REQUESTS + " requested collections in a row freed nothing");
    }
    return freed;
  }

  /**
   * Live bytes after a collection. The reference handler enqueues a collection's references one by
   * one, so the cleanup can reach the sentinel before the tensors' references have arrived: when
   * nothing is freed yet, poll briefly for the rest before calling the collection fruitless.
   */
  private long settle(long sessionId, int outcome, long liveBefore) {
    long live = liveBytes(sessionId);
    long deadline = System.nanoTime() + SETTLE_NANOS;
    while (outcome != NOT_RUN && live >= liveBefore && System.nanoTime() < deadline) {
      LockSupport.parkNanos(500_000L);
      tracking.safePoint(sessionId);
      live = liveBytes(sessionId);
    }
    return live;
  }

  /** Collects by {@code method}, then frees what the collection found; how far it got. */
  private int collectAndDrain(long sessionId, Collector.Method method) {
    Tracking.Sentinel sentinel = tracking.sentinel();
    boolean ran = Collector.collect(method);
    long deadline = System.nanoTime() + MAX_PRESSURE_WAIT_NANOS;
    while (ran && sentinel.pending() && System.nanoTime() < deadline) {
      session.checkOpen();
      if (!tracking.safePoint(sessionId)) {
        sentinel.await(1_000_000L);
      }
    }
    // What the reference handler enqueued after the sentinel.
    tracking.safePoint(sessionId);
    session.checkOpen();
    Reference.reachabilityFence(sentinel);
    return !ran ? NOT_RUN : sentinel.pending() ? RAN : DRAINED;
  }

  /**
   * The next soft threshold: what stayed live plus what the session may allocate, at the rate it
   * grew since the previous collection, for collections that cost {@code cost} each to take at most
   * {@code maxGcTimeShare} of wall time, at most {@link #maxHeadroom} above what stayed live;
   * between the trigger floor and three quarters of the hard limit. {@code Long.MAX_VALUE} (stop
   * asking) after requests in a row that freed nothing; a request that frees something again
   * resumes pacing.
   */
  private synchronized long pace(
      long start,
      long end,
      long cost,
      long liveBefore,
      long liveAfter,
      long freed,
      boolean drained) {
    requests++;
    bytesFreedByRequests += freed;
    long mutatorNanos = Math.max(1, start - lastReliefEnd);
    long growth = Math.max(0, liveBefore - liveAfterLastRelief);
    lastReliefEnd = end;
    liveAfterLastRelief = liveAfter;
    if (freed == 0) {
      // Fruitless only if the cleanup finished within the wait: a busy machine's slow cleanup
      // has not shown that collections free nothing.
      if (drained) {
        fruitlessInARow++;
      }
    } else {
      fruitlessInARow = 0;
      pacingGaveUp = false;
    }
    if (fixedTrigger) {
      return 0;
    }
    if (fruitlessInARow >= FRUITLESS_REQUESTS) {
      pacingGaveUp = true;
      return Long.MAX_VALUE;
    }
    // One slow collection (a page-faulting first fill, a descheduled thread) must not swing the
    // trigger from the floor to the ceiling: the cost is the median of the last three; growth and
    // mutator time are averaged.
    recentCosts[costCount++ % recentCosts.length] = cost;
    long typical = typicalCost(recentCosts, Math.min(costCount, recentCosts.length));
    if (costCount == 1) {
      smoothedGrowth = growth;
      smoothedMutatorNanos = mutatorNanos;
    } else {
      smoothedGrowth = (smoothedGrowth + growth) / 2;
      smoothedMutatorNanos = (smoothedMutatorNanos + mutatorNanos) / 2;
    }
    return nextTrigger(
        liveAfter, smoothedGrowth, smoothedMutatorNanos, typical, maxGcTimeShare, maxNativeBytes);
  }

  /**
   * The adaptive soft threshold after a collection that cost {@code costNanos} and left {@code
   * liveAfter} bytes, when live bytes grew by {@code growth} in the {@code mutatorNanos} before it:
   * collections of that cost spaced by the allocation that growth rate allows in {@code
   * cost*(1-share)/share} take {@code share} of wall time. That allocation (the garbage a
   * collection will find) is at most {@link #maxHeadroom}: where collections are slow (a large live
   * heap) the time share alone would let unreachable tensors take gigabytes, and memory is what the
   * session exists to bound.
   */
  static long nextTrigger(
      long liveAfter, long growth, long mutatorNanos, long costNanos, double share, long cap) {
    double rate = (double) growth / Math.max(1, mutatorNanos);
    double allowedMutatorNanos = costNanos * (1 - share) / share;
    double headroom = Math.min(rate * allowedMutatorNanos, maxHeadroom(cap));
    double next = liveAfter + headroom;
    long floor = Wire.MIN_GC_TRIGGER_BYTES;
    long ceiling = Math.max(floor, cap - cap / 4);
    return (long) Math.max(floor, Math.min(next, ceiling));
  }

  /**
   * The cost pacing plans with, from the last {@code n} (1 to 3) of {@code recent}: the median of
   * three, the lower of two, or the one.
   */
  static long typicalCost(long[] recent, int n) {
    if (n <= 1) {
      return recent[0];
    }
    if (n == 2) {
      return Math.min(recent[0], recent[1]);
    }
    long a = recent[0];
    long b = recent[1];
    long c = recent[2];
    return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
  }

  /**
   * The most garbage pacing lets accumulate between requests: the share of the cap the pool may
   * keep for a collecting session (Rust's batch allowance), at least the trigger floor.
   */
  static long maxHeadroom(long cap) {
    return Math.max(Wire.MIN_GC_TRIGGER_BYTES, cap / Wire.HEADROOM_DIVISOR);
  }
}
