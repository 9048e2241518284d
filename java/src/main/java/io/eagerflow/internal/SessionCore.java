package io.eagerflow.internal;

import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The native half of an {@code EagerSession}: the pointer, the guard that lets calls run at once
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
  private static final int BATCH = 4096;

  private final long ptr;
  private final Mode mode;
  /** Calls in flight in the low bits; the sign bit once closing has begun. */
  private final AtomicLong state = new AtomicLong();

  private final ReferenceQueue<Object> queue;
  private final Set<Tracked> tracked;
  private final Thread cleanupThread;
  private final CompletableFuture<long[]> finalStats = new CompletableFuture<>();
  private final AtomicLong opNames = new AtomicLong();
  private volatile Thread closer;

  /** A phantom reference to an operation that carries the handles of its outputs. */
  static final class Tracked extends PhantomReference<Object> {
    final long handle;
    final long[] handles;

    Tracked(Object referent, ReferenceQueue<Object> queue, long handle, long[] handles) {
      super(referent, queue);
      this.handle = handle;
      this.handles = handles;
    }
  }

  public SessionCore(long maxNativeBytes, Mode mode) {
    this.ptr = Native.newSession(maxNativeBytes);
    this.mode = mode;
    if (mode == Mode.ON_CLOSE) {
      this.queue = null;
      this.tracked = null;
      this.cleanupThread = null;
    } else {
      this.queue = new ReferenceQueue<>();
      this.tracked = ConcurrentHashMap.newKeySet();
      if (mode == Mode.BACKGROUND) {
        Thread t =
            new Thread(
                new BackgroundCleanup(this, queue),
                "eagerflow-cleanup-" + THREAD_IDS.incrementAndGet());
        t.setDaemon(true);
        this.cleanupThread = t;
        t.start();
      } else {
        this.cleanupThread = null;
      }
    }
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
    for (Reference<?> r = first; r != null; r = queue.poll()) {
      Tracked t = (Tracked) r;
      tracked.remove(t);
      long[] more = t.handles;
      if (more == null) {
        more = new long[] {t.handle};
      }
      for (long h : more) {
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
    Tracked t = new Tracked(owner, queue, handle, handles);
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

  /** Counts a requested garbage collection. Call between enter and exit. */
  public void countGcRequest(long ptr) {
    Native.countGcRequest(ptr);
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
      closer = Thread.currentThread();
      while (state.get() != CLOSED) {
        LockSupport.parkNanos(this, 100_000L);
      }
      stopCleanupThread();
      long[] stats = new long[8];
      Native.closeSession(ptr, stats);
      if (tracked != null) {
        tracked.clear();
      }
      finalStats.complete(stats);
    } finally {
      finalStats.complete(new long[8]);
    }
    return true;
  }

  private void stopCleanupThread() {
    Thread t = cleanupThread;
    if (t == null || t == Thread.currentThread()) {
      return;
    }
    t.interrupt();
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
