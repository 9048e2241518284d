package io.eagerflow.internal;

import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The native half of an {@code EagerSession}: the session id, the guard that lets calls run at once
 * while {@link #close()} waits for them, and reference tracking for the cleanup strategies. The
 * cleanup thread and the library's cleaner hold this object, never the {@code EagerSession}, so a
 * forgotten session can still be collected.
 */
public final class SessionCore extends NativeScope {
  /** How unreachable outputs are freed. */
  public enum Mode {
    BACKGROUND,
    SAFE_POINTS,
    ON_CLOSE
  }

  public static final String CLOSED_MESSAGE = "Eager session has been closed";

  private static final long CLOSED = Long.MIN_VALUE;
  private static final AtomicInteger THREAD_IDS = new AtomicInteger();
  private static final AtomicInteger EXECUTOR_IDS = new AtomicInteger();
  private static final int BATCH = 4096;

  private final long ptr;
  private final Mode mode;
  /** Calls in flight in the low bits; the sign bit once closing has begun. */
  private final AtomicLong state = new AtomicLong();

  private final ReferenceQueue<Object> queue;
  private final TrackedSet tracked;
  private final Thread cleanupThread;
  /** The executor thread of an asynchronous session, else null. */
  private final Thread executorThread;
  private final CompletableFuture<long[]> finalStats = new CompletableFuture<>();
  private final AtomicLong opNames = new AtomicLong();
  private volatile Thread closer;

  /** A phantom reference to an operation that carries the handles of its outputs. */
  static class Tracked extends PhantomReference<Object> {
    // Where TrackedSet holds this reference; guarded by that stripe's lock.
    int stripe = -1;
    int slot;
    final long handle;
    final long[] handles;
    final LeakSites.Site site;

    Tracked(
        Object referent,
        ReferenceQueue<Object> queue,
        long handle,
        long[] handles,
        LeakSites.Site site) {
      super(referent, queue);
      this.handle = handle;
      this.handles = handles;
      this.site = site;
    }
  }

  private final String strategyName;
  private final boolean trackLeaks;
  /** Longest a call waits for the cleanup to catch up under memory pressure. */
  private static final long MAX_PRESSURE_WAIT_NANOS = 250_000_000L;

  private static final System.Logger LOG = System.getLogger("io.eagerflow");
  /** The first time any session's pacing gives up, one warning says so. */
  private static final java.util.concurrent.atomic.AtomicBoolean WARNED_GIVING_UP =
      new java.util.concurrent.atomic.AtomicBoolean();
  private static final String NO_COLLECTION =
      "System.gc() does nothing under -XX:+DisableExplicitGC and this collector has no Eden to fill";
  /** Requests in a row that freed nothing before pacing stops asking. */
  private static final int FRUITLESS_REQUESTS = 3;
  /** The smallest adaptive soft threshold (as in Rust). */
  private static final long MIN_GC_TRIGGER_BYTES = 64L << 20;

  private final long maxNativeBytes;
  private final boolean fixedTrigger;
  private final double maxGcTimeShare;
  // GC pacing: what the previous requested collection left; guarded by pacingLock.
  private final Object pacingLock = new Object();
  private long lastReliefEnd = System.nanoTime();
  private long liveAfterLastRelief;
  private long requests;
  private long bytesFreedByRequests;
  private int fruitlessInARow;
  private long smoothedCost = -1;
  private final long[] recentCosts = new long[3];
  private int costCount;
  private long smoothedGrowth;
  private long smoothedMutatorNanos;
  private boolean pacingGaveUp;

  /**
   * @param maxNativeBytes hard limit, {@code > 0}
   * @param gcTriggerBytes soft threshold, {@code <= 0} for the adaptive default
   * @param maxGcTimeShare the share of wall time requested collections may take, in (0, 1)
   * @param strategyName the strategy's name, for messages
   * @param asyncQueueCapacity for an asynchronous session, its queue's bound; 0 for a synchronous
   *     one
   */
  public SessionCore(
      long maxNativeBytes,
      long gcTriggerBytes,
      double maxGcTimeShare,
      Mode mode,
      String strategyName,
      boolean trackLeaks,
      int asyncQueueCapacity) {
    OpenSessions.beforeOpen();
    boolean gcSignals = mode != Mode.ON_CLOSE;
    this.ptr =
        asyncQueueCapacity > 0
            ? Native.newAsyncSession(maxNativeBytes, gcTriggerBytes, gcSignals, asyncQueueCapacity)
            : Native.newSession(maxNativeBytes, gcTriggerBytes, gcSignals);
    this.maxNativeBytes = maxNativeBytes;
    this.fixedTrigger = gcTriggerBytes > 0;
    this.maxGcTimeShare = maxGcTimeShare;
    this.mode = mode;
    this.strategyName = strategyName;
    this.trackLeaks = trackLeaks;
    if (trackLeaks) {
      LeakSites.trackStandalone();
    }
    if (mode == Mode.ON_CLOSE) {
      // Nothing is tracked, except creation sites for leak reports at close.
      this.queue = null;
      this.tracked = trackLeaks ? new TrackedSet() : null;
      this.cleanupThread = null;
    } else {
      this.queue = new ReferenceQueue<>();
      this.tracked = new TrackedSet();
      if (mode == Mode.BACKGROUND) {
        Thread t =
            new Thread(
                new BackgroundCleanup(this, queue),
                "eagerflow-cleanup-" + THREAD_IDS.incrementAndGet());
        t.setDaemon(true);
        this.cleanupThread = t;
        try {
          t.start();
        } catch (Throwable e) {
          // Out of threads: nothing will ever close this session, so free it now.
          Native.closeSession(ptr, new long[8]);
          throw e;
        }
      } else {
        this.cleanupThread = null;
      }
    }
    this.executorThread = asyncQueueCapacity > 0 ? startExecutor(ptr) : null;
    OpenSessions.opened();
  }

  /**
   * Starts the daemon thread that runs an asynchronous session's queued ops; it holds the session
   * id only (the Rust side holds the executor, never the session).
   */
  private Thread startExecutor(long id) {
    // Holds this core (as the cleanup thread does), never the EagerSession.
    java.util.function.BooleanSupplier relief = this::relieveForQueuedOp;
    Thread t =
        new Thread(() -> runExecutor(id, relief), "eagerflow-exec-" + EXECUTOR_IDS.incrementAndGet());
    t.setDaemon(true);
    try {
      t.start();
    } catch (Throwable e) {
      stopCleanupThread();
      Native.closeSession(id, new long[8]);
      throw e;
    }
    return t;
  }

  private static void runExecutor(long id, java.util.function.BooleanSupplier relief) {
    try {
      Native.runExecutor(id, relief);
    } catch (IllegalStateException e) {
      // The session closed before this thread started: there is nothing to run.
    } catch (Throwable t) {
      LOG.log(System.Logger.Level.ERROR, "eagerflow executor failed", t);
    }
  }

  /**
   * On the executor thread, after the hard limit refused a queued op's allocation: what {@link
   * #retryAfterExhausted} does before its retry, after which the executor retries the op once.
   * Rust asks only in sessions that signal pressure (never ON_SESSION_CLOSE). False, and no retry,
   * once the session is closing.
   */
  private boolean relieveForQueuedOp() {
    if (!tryEnter()) {
      return false;
    }
    try {
      relieveAtLimit(ptr);
      return true;
    } catch (RuntimeException e) {
      return false; // closed meanwhile: the op fails with its own error
    } finally {
      exit();
    }
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

  @Override
  public long enter() {
    while (true) {
      long s = state.get();
      if (s < 0) {
        throw new IllegalStateException(CLOSED_MESSAGE);
      }
      if (state.compareAndSet(s, s + 1)) {
        return ptr;
      }
    }
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

  @Override
  public void exit() {
    if (state.decrementAndGet() == CLOSED) {
      Thread c = closer;
      if (c != null) {
        LockSupport.unpark(c);
      }
    }
  }

  public boolean isClosed() {
    return state.get() < 0;
  }

  /** Under {@link Mode#SAFE_POINTS}, frees what the GC found unreachable. */
  @Override
  public void safePoint(long ptr) {
    if (mode == Mode.SAFE_POINTS) {
      Reference<?> r = queue.poll();
      if (r != null) {
        drain(ptr, r, new long[64]);
      }
    }
  }

  /** Frees the outputs of {@code first} and of whatever else is queued, in batched calls. */
  private void drain(long ptr, Reference<?> first, long[] buf) {
    int n = 0;
    Sentinel sentinel = null;
    for (Reference<?> r = first; r != null; r = queue.poll()) {
      if (r instanceof Sentinel s) {
        sentinel = s;
        continue;
      }
      Tracked t = (Tracked) r;
      tracked.remove(t);
      if (t.site != null) {
        LeakSites.report(t.site, "freed by the cleanup strategy " + strategyName);
      }
      int count = t.handles == null ? 1 : t.handles.length;
      for (int i = 0; i < count; i++) {
        long h = t.handles == null ? t.handle : t.handles[i];
        if (n == buf.length) {
          if (buf.length < BATCH) {
            buf = java.util.Arrays.copyOf(buf, buf.length * 2);
          } else {
            Native.freeMany(ptr, buf, n, Native.FREED_BY_CLEANUP);
            n = 0;
          }
        }
        buf[n++] = h;
      }
    }
    if (n > 0) {
      Native.freeMany(ptr, buf, n, Native.FREED_BY_CLEANUP);
    }
    if (sentinel != null) {
      sentinel.done.countDown();
    }
  }

  /**
   * Frees {@code handles} (or the one {@code handle}) once {@code owner} is unreachable, as the
   * strategy says; does nothing under {@link Mode#ON_CLOSE}. Call between enter and exit.
   *
   * @return a token for {@link #untrack}, or null
   */
  public Object track(Object owner, long handle, long[] handles) {
    if (tracked == null) {
      return null;
    }
    Tracked t =
        new Tracked(
            owner, queue, handle, handles, trackLeaks ? LeakSites.capture("tensor") : null);
    tracked.add(t);
    return t;
  }

  /** Stops tracking (every output was released explicitly). */
  public void untrack(Object token) {
    if (token instanceof Tracked t) {
      tracked.remove(t);
      t.clear();
    }
  }

  /** The 8 counters of {@code SessionStats}; after close, the final ones. */
  public long[] stats() {
    if (tryEnter()) {
      try {
        long[] out = new long[8];
        Native.stats(ptr, out);
        return out;
      } finally {
        exit();
      }
    }
    return finalStats.join().clone();
  }

  /**
   * A handle returned by an allocating native call: a negative value says the session crossed its
   * soft threshold, so request a garbage collection and let the cleanup catch up first (as
   * {@code java.nio} does for direct buffers). Call between enter and exit.
   */
  public long handle(long ptr, long raw) {
    if (raw >= 0) {
      return raw;
    }
    if (!Collector.canCollect()) {
      // No way to cause a collection: stop asking, let the hard limit bound the session.
      safePoint(ptr);
      giveUp(ptr, NO_COLLECTION);
    } else {
      relieve(ptr);
    }
    return ~raw;
  }

  /**
   * After the hard limit refused an allocation: unless the strategy never frees before close,
   * collect, let the cleanup catch up, and run {@code retry} once. Call between enter and exit.
   */
  public <T> T retryAfterExhausted(
      long ptr, RuntimeException e, java.util.function.Supplier<T> retry) {
    if (mode == Mode.ON_CLOSE) {
      throw withStrategy(e);
    }
    long freed = relieveAtLimit(ptr);
    try {
      return retry.get();
    } catch (RuntimeException again) {
      if (again.getClass() == e.getClass()) {
        throw exhausted(ptr, again, freed);
      }
      throw again;
    }
  }

  /**
   * Before an allocation the hard limit refused is retried: collect and let the cleanup free what
   * was unreachable, or, when no collection can be caused, free what the JVM's own collections
   * found. Returns the bytes freed.
   */
  private long relieveAtLimit(long ptr) {
    if (Collector.canCollect()) {
      return relieve(ptr);
    }
    long before = liveBytes(ptr);
    safePoint(ptr);
    return Math.max(0, before - liveBytes(ptr));
  }

  private RuntimeException withStrategy(RuntimeException e) {
    if (e instanceof io.eagerflow.NativeMemoryExhaustedException) {
      return new io.eagerflow.exceptions.TFResourceExhaustedException(
          e.getMessage() + "; strategy " + strategyName);
    }
    return e;
  }

  /** The hard limit held even after a collection: say what was tried and what to do. */
  private RuntimeException exhausted(long ptr, RuntimeException e, long freedNow) {
    if (!(e instanceof io.eagerflow.NativeMemoryExhaustedException)) {
      return e;
    }
    boolean disabled = !Collector.canCollect();
    long made;
    long freedTotal;
    synchronized (pacingLock) {
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
    return new io.eagerflow.exceptions.TFResourceExhaustedException(
        e.getMessage() + "; strategy " + strategyName + "; " + saw + "; " + advice);
  }

  /** Stops requesting collections (the hard limit still bounds the session). */
  private void giveUp(long ptr, String why) {
    synchronized (pacingLock) {
      if (pacingGaveUp) {
        return;
      }
      pacingGaveUp = true;
    }
    Native.collected(ptr, false, Long.MAX_VALUE);
    warnGivingUp(why);
  }

  private void warnGivingUp(String why) {
    if (WARNED_GIVING_UP.compareAndSet(false, true)) {
      LOG.log(
          System.Logger.Level.WARNING,
          "eagerflow: garbage collections cannot keep native memory down ("
              + why
              + "); an "
              + strategyName
              + " session now grows to its hard limit of "
              + maxNativeBytes
              + " bytes and then throws NativeMemoryExhaustedException. Release outputs with"
              + " session.release(...) or use session.newScope() scopes"
              + (trackLeaks
                  ? "; unreleased outputs now held were created most at: " + topSites()
                  : "; build the session with trackLeaks(true) to log where unreleased outputs"
                      + " are created"));
    }
  }

  /** The user-code frames that created most of the outputs this session tracks now. */
  private String topSites() {
    if (tracked == null) {
      return "none";
    }
    java.util.List<LeakSites.Site> sites = new java.util.ArrayList<>();
    tracked.forEach(
        t -> {
          if (t.site != null) {
            sites.add(t.site);
          }
        });
    String top = LeakSites.topSites(sites, 3);
    return top.isEmpty() ? "none" : top;
  }

  private static long liveBytes(long ptr) {
    long[] out = new long[8];
    Native.stats(ptr, out);
    return out[1];
  }

  /**
   * Causes a collection (a young one by filling Eden where that is cheaper, see {@link
   * Collector}) and waits, briefly, until the cleanup has freed what it found: a sentinel reference
   * made unreachable just before the collection tells when the collection's references have reached
   * this session's queue and been freed. If a young collection freed nothing, the owners were old
   * already and a full collection follows. Then paces the next request.
   *
   * @return the bytes the session held less afterwards
   */
  private long relieve(long ptr) {
    long liveBefore = liveBytes(ptr);
    long gcBefore = GcFacts.gcNanos();
    long start = System.nanoTime();
    Collector.Method method = Collector.choose();
    int outcome = collectAndDrain(ptr, method);
    long liveAfter = settle(ptr, outcome, liveBefore);
    if (method == Collector.Method.YOUNG
        && liveAfter >= liveBefore
        && !GcFacts.explicitGcDisabled()) {
      outcome = Math.max(outcome, collectAndDrain(ptr, Collector.Method.FULL));
      liveAfter = settle(ptr, outcome, liveBefore);
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
    Native.collected(ptr, ran, next);
    if (next == Long.MAX_VALUE) {
      warnGivingUp(FRUITLESS_REQUESTS + " requested collections in a row freed nothing");
    }
    return freed;
  }

  /** Longest {@link #settle} waits for the first freed bytes after a collection. */
  private static final long SETTLE_NANOS = 50_000_000L;

  /**
   * Live bytes after a collection. The reference handler enqueues a collection's references one
   * by one, so the cleanup can reach the sentinel before the tensors' references have arrived: when
   * nothing is freed yet, poll briefly for the rest before calling the collection fruitless.
   */
  private long settle(long ptr, int outcome, long liveBefore) {
    long live = liveBytes(ptr);
    long deadline = System.nanoTime() + SETTLE_NANOS;
    while (outcome != NOT_RUN && live >= liveBefore && System.nanoTime() < deadline) {
      LockSupport.parkNanos(500_000L);
      safePoint(ptr);
      live = liveBytes(ptr);
    }
    return live;
  }

  /** {@link #collectAndDrain}: no collection ran. */
  private static final int NOT_RUN = 0;
  /** A collection ran, but the cleanup had not freed all it found when the wait ended. */
  private static final int RAN = 1;
  /** A collection ran and the cleanup freed everything it found. */
  private static final int DRAINED = 2;

  /** Collects by {@code method}, then frees what the collection found; how far it got. */
  private int collectAndDrain(long ptr, Collector.Method method) {
    Sentinel sentinel = new Sentinel(queue);
    boolean ran = Collector.collect(method);
    long deadline = System.nanoTime() + MAX_PRESSURE_WAIT_NANOS;
    while (ran && sentinel.pending() && System.nanoTime() < deadline) {
      if (isClosed()) {
        throw new IllegalStateException(CLOSED_MESSAGE);
      }
      Reference<?> r = mode == Mode.SAFE_POINTS ? queue.poll() : null;
      if (r != null) {
        drain(ptr, r, new long[64]);
      } else {
        sentinel.await(1_000_000L);
      }
    }
    if (mode == Mode.SAFE_POINTS) {
      safePoint(ptr); // what the reference handler enqueued after the sentinel
    }
    if (isClosed()) {
      throw new IllegalStateException(CLOSED_MESSAGE);
    }
    Reference.reachabilityFence(sentinel);
    return !ran ? NOT_RUN : sentinel.pending() ? RAN : DRAINED;
  }

  /**
   * The next soft threshold: what stayed live plus what the session may allocate, at the rate it
   * grew since the previous collection, for collections that cost {@code cost} each to take at
   * most {@code maxGcTimeShare} of wall time, at most an eighth of the hard limit above what
   * stayed live; between 64 MiB and three quarters of the hard limit.
   * {@code Long.MAX_VALUE} (stop asking) after requests in a row that freed nothing; a request
   * that frees something again resumes pacing.
   */
  private long pace(
      long start,
      long end,
      long cost,
      long liveBefore,
      long liveAfter,
      long freed,
      boolean drained) {
    synchronized (pacingLock) {
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
      // One slow collection (a page-faulting first fill, a thread descheduled on a busy machine)
      // must not swing the trigger from the floor to the ceiling: the cost is the median of the
      // last three (an average of 8 ms collections with one of 60 ms let an empty heap's trigger
      // reach 270 MiB); growth and mutator time are averaged.
      recentCosts[costCount++ % recentCosts.length] = cost;
      smoothedCost = typicalCost(recentCosts, Math.min(costCount, recentCosts.length));
      if (costCount == 1) {
        smoothedGrowth = growth;
        smoothedMutatorNanos = mutatorNanos;
      } else {
        smoothedGrowth = (smoothedGrowth + growth) / 2;
        smoothedMutatorNanos = (smoothedMutatorNanos + mutatorNanos) / 2;
      }
      return nextTrigger(
          liveAfter,
          smoothedGrowth,
          smoothedMutatorNanos,
          smoothedCost,
          maxGcTimeShare,
          maxNativeBytes);
    }
  }

  /**
   * The adaptive soft threshold after a collection that cost {@code costNanos} and left {@code
   * liveAfter} bytes, when live bytes grew by {@code growth} in the {@code mutatorNanos} before it:
   * collections of that cost spaced by the allocation that growth rate allows in {@code
   * cost*(1-share)/share} take {@code share} of wall time. That allocation (the garbage a
   * collection will find) is at most an eighth of the cap: where collections are slow (a large
   * live heap) the time share alone would let unreachable tensors take gigabytes, and memory is
   * what the session exists to bound.
   */
  static long nextTrigger(
      long liveAfter, long growth, long mutatorNanos, long costNanos, double share, long cap) {
    double rate = (double) growth / Math.max(1, mutatorNanos);
    double allowedMutatorNanos = costNanos * (1 - share) / share;
    double headroom = Math.min(rate * allowedMutatorNanos, maxHeadroom(cap));
    double next = liveAfter + headroom;
    long ceiling = Math.max(MIN_GC_TRIGGER_BYTES, cap - cap / 4);
    return (long) Math.max(MIN_GC_TRIGGER_BYTES, Math.min(next, ceiling));
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

  /** The most garbage pacing lets accumulate between requests: an eighth of the cap. */
  static long maxHeadroom(long cap) {
    return Math.max(MIN_GC_TRIGGER_BYTES, cap / 8);
  }

  /** A reference with no tensors whose processing marks the end of a requested collection. */
  private static final class Sentinel extends Tracked {
    private final java.util.concurrent.CountDownLatch done =
        new java.util.concurrent.CountDownLatch(1);

    Sentinel(ReferenceQueue<Object> queue) {
      super(new Object(), queue, 0, new long[0], null);
    }

    boolean pending() {
      return done.getCount() > 0;
    }

    void await(long nanos) {
      try {
        done.await(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Closes the session: refuses new calls, waits for those in flight, stops and joins the cleanup
   * thread, and frees everything. Idempotent; a concurrent second call waits for the first.
   *
   * @return whether this call did the closing
   */
  public boolean close() {
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
    try {
      awaitCallsInFlight();
      stopCleanupThread();
      long[] stats = new long[8];
      Native.closeSession(ptr, stats);
      joinThread(executorThread);
      if (tracked != null) {
        tracked.drainAll(t -> LeakSites.report(t.site, "freed when its session closed"));
      }
      finalStats.complete(stats);
    } finally {
      finalStats.complete(new long[8]);
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

  private void stopCleanupThread() {
    Thread t = cleanupThread;
    if (t == null || t == Thread.currentThread()) {
      return;
    }
    t.interrupt();
    joinThread(t);
  }

  /** Joins {@code t} (unless null or this thread), keeping an interrupt for later. */
  private static void joinThread(Thread t) {
    if (t == null || t == Thread.currentThread()) {
      return;
    }
    boolean interrupted = false;
    while (t.isAlive()) {
      try {
        t.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** The IN_BACKGROUND loop: block on the queue, free what is ready in one call, repeat. */
  private static final class BackgroundCleanup implements Runnable {
    private static final System.Logger LOG = System.getLogger("io.eagerflow");
    private final SessionCore core;
    private final ReferenceQueue<Object> queue;

    BackgroundCleanup(SessionCore core, ReferenceQueue<Object> queue) {
      this.core = core;
      this.queue = queue;
    }

    @Override
    public void run() {
      long[] buf = new long[BATCH];
      while (true) {
        Reference<?> first;
        try {
          first = queue.remove();
        } catch (InterruptedException e) {
          if (core.isClosed()) {
            return;
          }
          continue;
        }
        if (!core.tryEnter()) {
          return;
        }
        try {
          core.drain(core.ptr, first, buf);
        } catch (Throwable t) {
          // The thread must outlive any failure, or cleanup would stop for good.
          LOG.log(System.Logger.Level.ERROR, "eagerflow background cleanup failed", t);
        } finally {
          core.exit();
        }
      }
    }
  }
}
