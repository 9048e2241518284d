package io.eagerflow.internal;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Counts the sessions of the process that are open, or forgotten and not yet collected, and makes
 * building another one count as memory pressure when they accumulate.
 *
 * <p>A session dropped without {@code close()} keeps its native tensors, and under IN_BACKGROUND
 * its cleanup thread, until a garbage collection finds it and the library's cleaner closes it; a
 * program that only creates sessions may never trigger a collection. So when the count reaches a
 * threshold, {@link #beforeOpen()} requests one and waits, bounded, for the cleaner. The threshold
 * adapts as the byte trigger does: after each request it is twice the sessions still open (at least
 * {@value #MIN_THRESHOLD}), so a program that keeps many sessions open on purpose pays for a
 * logarithmic number of requests; it halves as sessions close. On the normal path this costs a
 * volatile read and an atomic increment per session.
 */
final class OpenSessions {
  private static final int MIN_THRESHOLD = 64;

  /** The longest {@link #beforeOpen()} waits for the cleaner. */
  private static final long MAX_WAIT_NANOS = 250_000_000L;

  /** Once the cleaner has passed the marker, how long closing may stall before we stop waiting. */
  private static final long STALL_NANOS = 50_000_000L;

  private static final AtomicInteger OPEN = new AtomicInteger();
  private static volatile int threshold = MIN_THRESHOLD;
  private static final Object LOCK = new Object();

  private OpenSessions() {}

  /** Before a session is built: relieves the pressure if too many sessions are open. */
  static void beforeOpen() {
    if (OPEN.get() >= threshold) {
      collectForgotten();
    }
  }

  /** After a session was built. */
  static void opened() {
    OPEN.incrementAndGet();
  }

  /** After a session was closed, by {@code close()} or by the cleaner. */
  static void closed() {
    int open = OPEN.decrementAndGet();
    int t = threshold;
    if (t > MIN_THRESHOLD && open < t / 4) {
      threshold = Math.max(MIN_THRESHOLD, t / 2); // racing updates only make it adapt later
    }
  }

  /**
   * Requests a collection and waits while the cleaner closes what it found: until half of the
   * sessions are gone, or the time limit passes, or the cleaner has passed a marker made
   * unreachable before the collection and closing has stalled. One thread at a time; the others
   * wait for it, then see the new count.
   */
  private static void collectForgotten() {
    synchronized (LOCK) {
      int t = threshold;
      if (OPEN.get() < t) {
        return; // another thread just did it
      }
      CountDownLatch marker = new CountDownLatch(1);
      LibraryCleaner.register(new Object(), marker::countDown);
      System.gc();
      long now = System.nanoTime();
      long deadline = now + MAX_WAIT_NANOS;
      long progress = now; // when the count last dropped, or the cleaner passed the marker
      boolean markerPassed = false;
      int last = OPEN.get();
      boolean interrupted = false;
      while (last > t / 2 && now < deadline) {
        if (!markerPassed && marker.getCount() == 0) {
          markerPassed = true;
          progress = now;
        }
        if (markerPassed && now - progress >= STALL_NANOS) {
          break;
        }
        LockSupport.parkNanos(LOCK, 1_000_000L);
        if (Thread.interrupted()) {
          interrupted = true;
          break;
        }
        now = System.nanoTime();
        int open = OPEN.get();
        if (open < last) {
          last = open;
          progress = now;
        }
      }
      threshold = Math.max(MIN_THRESHOLD, 2 * OPEN.get());
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
