package io.eagerflow.internal;

import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Frees the outputs whose Java owners became unreachable, as the session's strategy says: phantom
 * references on a per-session queue, drained by the session's own thread ({@code IN_BACKGROUND}) or
 * by the caller at safe points ({@code ON_SAFE_POINTS}); under {@code ON_SESSION_CLOSE} nothing is
 * tracked except creation sites for leak reports at close. The thread holds the {@link
 * NativeSession}, never the {@code EagerSession}, so a forgotten session can still be collected.
 */
final class Tracking {
  private static final AtomicInteger THREAD_IDS = new AtomicInteger();
  private static final int BATCH = 4096;
  private static final System.Logger LOG = System.getLogger("io.eagerflow");

  /** A phantom reference to an output's owner that carries the handles it frees. */
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

  private final NativeSession.Mode mode;
  private final String strategyName;
  private final boolean trackLeaks;

  /** Null under ON_SESSION_CLOSE. */
  private final ReferenceQueue<Object> queue;

  /** Null under ON_SESSION_CLOSE without leak tracking. */
  private final TrackedSet tracked;

  private Thread cleanupThread;

  Tracking(NativeSession.Mode mode, String strategyName, boolean trackLeaks) {
    this.mode = mode;
    this.strategyName = strategyName;
    this.trackLeaks = trackLeaks;
    boolean references = mode != NativeSession.Mode.ON_CLOSE;
    this.queue = references ? new ReferenceQueue<>() : null;
    this.tracked = references || trackLeaks ? new TrackedSet() : null;
  }

  /** The strategy's name, for messages. */
  String strategyName() {
    return strategyName;
  }

  /** Whether creation sites are recorded ({@code trackLeaks}). */
  boolean tracksLeaks() {
    return trackLeaks;
  }

  /** Under IN_BACKGROUND, starts the cleanup thread of {@code session}. */
  void start(NativeSession session) {
    if (mode != NativeSession.Mode.BACKGROUND) {
      return;
    }
    cleanupThread =
        Threads.startDaemon(
            "eagerflow-cleanup-" + THREAD_IDS.incrementAndGet(),
            new BackgroundCleanup(session, this, queue));
  }

  /** Stops and joins the cleanup thread, if any. */
  void stop() {
    Thread t = cleanupThread;
    if (t == null || t == Thread.currentThread()) {
      return;
    }
    t.interrupt();
    Threads.join(t);
  }

  /**
   * Under ON_SAFE_POINTS, frees what the GC found unreachable; whether there was any. Call entered.
   */
  boolean safePoint(long sessionId) {
    Reference<?> r = mode == NativeSession.Mode.SAFE_POINTS ? queue.poll() : null;
    if (r != null) {
      drain(sessionId, r, new long[64]);
    }
    return r != null;
  }

  /** Frees the outputs of {@code first} and of whatever else is queued, in batched calls. */
  void drain(long sessionId, Reference<?> first, long[] buf) {
    FlightEvents.CleanupBatch event = Flight.cleanupStarts(sessionId);
    long freed = 0;
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
            buf = Arrays.copyOf(buf, buf.length * 2);
          } else {
            freed += Native.freeMany(sessionId, buf, n, Wire.FREED_BY_CLEANUP);
            n = 0;
          }
        }
        buf[n++] = h;
      }
    }
    if (n > 0) {
      freed += Native.freeMany(sessionId, buf, n, Wire.FREED_BY_CLEANUP);
    }
    Flight.cleanupDone(event, sessionId, strategyName, freed);
    if (sentinel != null) {
      sentinel.done.countDown();
    }
  }

  /**
   * Hands the outputs of a call to the scope open on this thread or, when there is none, tracks
   * them as the strategy says. Call entered.
   */
  void adopt(OutputOwner owner) {
    if (owner.adoptByScope()) {
      return;
    }
    int n = owner.outputCount();
    if (tracked == null || n == 0) {
      return;
    }
    Object token;
    if (n == 1) {
      token = track(owner, owner.outputHandle(0), null);
    } else {
      long[] handles = new long[n];
      for (int i = 0; i < n; i++) {
        handles[i] = owner.outputHandle(i);
      }
      token = track(owner, 0, handles);
    }
    owner.tracked(token);
  }

  /**
   * Frees {@code handles} (or the one {@code handle}) once {@code owner} is unreachable; under
   * ON_SESSION_CLOSE only remembers its creation site for the report at close.
   *
   * @return a token for {@link #untrack}, or null
   */
  Object track(Object owner, long handle, long[] handles) {
    if (tracked == null) {
      return null;
    }
    Tracked t =
        new Tracked(owner, queue, handle, handles, trackLeaks ? LeakSites.capture("tensor") : null);
    tracked.add(t);
    return t;
  }

  /** Stops tracking (every output was released explicitly). */
  void untrack(Object token) {
    if (token instanceof Tracked t) {
      tracked.remove(t);
      t.clear();
    }
  }

  /** At close: reports the creation sites of outputs nobody released. */
  void reportAtClose() {
    if (tracked != null) {
      tracked.drainAll(t -> LeakSites.report(t.site, "freed when its session closed"));
    }
  }

  /** The user-code frames that created most of the outputs tracked now. */
  String topSites() {
    if (tracked == null) {
      return "none";
    }
    List<LeakSites.Site> sites = new ArrayList<>();
    tracked.forEach(
        t -> {
          if (t.site != null) {
            sites.add(t.site);
          }
        });
    String top = LeakSites.topSites(sites, 3);
    return top.isEmpty() ? "none" : top;
  }

  /** A sentinel whose processing marks the end of a collection requested now. */
  Sentinel sentinel() {
    return new Sentinel(queue);
  }

  /** A reference with no tensors whose processing marks the end of a requested collection. */
  static final class Sentinel extends Tracked {
    private final CountDownLatch done = new CountDownLatch(1);

    Sentinel(ReferenceQueue<Object> queue) {
      super(new Object(), queue, 0, new long[0], null);
    }

    boolean pending() {
      return done.getCount() > 0;
    }

    void await(long nanos) {
      try {
        done.await(nanos, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The IN_BACKGROUND loop: block on the queue, free what is ready in one call, repeat. */
  private static final class BackgroundCleanup implements Runnable {
    private final NativeSession session;
    private final Tracking tracking;
    private final ReferenceQueue<Object> queue;

    BackgroundCleanup(NativeSession session, Tracking tracking, ReferenceQueue<Object> queue) {
      this.session = session;
      this.tracking = tracking;
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
          if (session.isClosed()) {
            return;
          }
          continue;
        }
        try {
          if (!session.whileOpen(id -> tracking.drain(id, first, buf))) {
            return;
          }
        } catch (Throwable t) {
          // The thread must outlive any failure, or cleanup would stop for good.
          Flight.log(
              LOG,
              System.Logger.Level.ERROR,
              Flight.Kind.CLEANUP_FAILED,
              "eagerflow background cleanup failed",
              t);
        }
      }
    }
  }
}
