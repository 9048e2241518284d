package io.eagerflow.internal;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;

/**
 * Makes the JVM collect, the cheapest way it can. Outputs' Java owners die young, so a young
 * collection finds them; Java has no call for one, but filling what is left of Eden with
 * short-lived arrays causes one, at the cost of zeroing that memory. {@code System.gc()} is a full
 * collection, whose cost grows with the live heap (docs/memory.md) and which {@code
 * -XX:+DisableExplicitGC} turns off. Each request takes the method predicted to cost less: filling,
 * the free Eden at the lowest cost per byte of the last four fills; a full collection, the lowest
 * of the last four. Until a method has run, typical rates stand in (filling: 0.5 ns a byte; full:
 * the heap outside Eden at 2 ns a byte). The lowest, not an average, because the dear outliers are
 * one-time: a first fill faults in Eden pages, later ones reuse them. The loser is tried again now
 * and then when it was close. {@code System.gc()} also follows a young collection that freed
 * nothing (the owners were old already), and is the only method on collectors without an Eden (ZGC,
 * Shenandoah). State is process-wide: the heap is.
 */
final class Collector {
  /** How a request was answered. */
  enum Method {
    /** A young collection caused by filling Eden. */
    YOUNG,
    /** {@code System.gc()}. */
    FULL,
    /** Nothing: no Eden to fill, and explicit collections are disabled. */
    NONE;

    /** The {@code method} of a {@code CollectionRequested} event. */
    String eventName() {
      return switch (this) {
        case YOUNG -> "YOUNG_FILL";
        case FULL -> "SYSTEM_GC";
        case NONE -> "NONE";
      };
    }
  }

  /** Arrays well under G1's humongous threshold (half a region, at least 512 KiB). */
  private static final int CHUNK = 64 << 10;

  /** Until a fill has been timed: zeroing runs at several GB/s, so about 0.5 ns a byte. */
  private static final double FILL_NANOS_PER_BYTE = 0.5;

  /**
   * Until a full collection has been timed: marking and compacting a heap of small objects is
   * several times slower than zeroing it (docs/memory.md).
   */
  private static final double FULL_NANOS_PER_BYTE = 2.0;

  /** What any full collection costs, however small the heap. */
  private static final long FULL_BASE_NANOS = 5_000_000L;

  /** Holds the last filler array so that no compiler can remove the allocations. */
  @SuppressWarnings("unused")
  private static volatile Object sink;

  private static final MemoryPoolMXBean EDEN = findEden();
  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
  private static final List<GarbageCollectorMXBean> COLLECTORS =
      ManagementFactory.getGarbageCollectorMXBeans();

  // Measured costs; racy updates between sessions only blur an estimate.
  /**
   * Recent fills' cost per byte filled. The estimate is the lowest of them: a fill's first pass
   * over Eden pages the JVM has not touched yet pays for faulting them in (seconds on some virtual
   * machines), once, and must not make filling look dear for good.
   */
  private static final RecentCosts FILL_NANOS_PER_BYTE_SEEN = new RecentCosts();

  /** Recent full collections' costs, lowest taken for the same reason. */
  private static final RecentCosts FULL_NANOS_SEEN = new RecentCosts();

  /**
   * Every this many requests, the method that lost is tried again if it cost less than {@link
   * #RETRY_WITHIN} times the winner: costs drift as the heap and Eden change size.
   */
  private static final int RETRY_EVERY = 16;

  private static final double RETRY_WITHIN = 3.0;
  private static final java.util.concurrent.atomic.AtomicLong CHOICES =
      new java.util.concurrent.atomic.AtomicLong();

  private Collector() {}

  /**
   * Whether a session can cause a collection at all: an Eden to fill, or {@code System.gc()} not
   * disabled. Unlike {@link #choose}, no request is counted.
   */
  static boolean canCollect() {
    return EDEN != null || !GcFacts.explicitGcDisabled();
  }

  /**
   * The method {@link #collect} would use now: the one whose requests cost less, measured once each
   * has run and predicted before that.
   */
  static Method choose() {
    if (EDEN == null) {
      return GcFacts.explicitGcDisabled() ? Method.NONE : Method.FULL;
    }
    if (GcFacts.explicitGcDisabled()) {
      return Method.YOUNG;
    }
    double young = predictedFillNanos();
    double full = FULL_NANOS_SEEN.lowest(predictedFullNanos());
    boolean youngWins = young <= full;
    double ratio = youngWins ? full / Math.max(1, young) : young / Math.max(1, full);
    boolean retryLoser = ratio < RETRY_WITHIN && CHOICES.incrementAndGet() % RETRY_EVERY == 0;
    return youngWins != retryLoser ? Method.YOUNG : Method.FULL;
  }

  /** Runs {@code method}; returns whether the GC MX beans saw a collection during it. */
  static boolean collect(Method method) {
    return switch (method) {
      case YOUNG -> fillEden();
      case FULL -> fullCollection();
      case NONE -> false;
    };
  }

  /** The last few samples of a cost; thread-safe, as sessions on several threads may collect. */
  private static final class RecentCosts {
    private final double[] samples = new double[4];
    private int count;

    synchronized void add(double sample) {
      samples[count++ % samples.length] = sample;
    }

    /** The lowest recent sample, or {@code otherwise} before the first. */
    synchronized double lowest(double otherwise) {
      if (count == 0) {
        return otherwise;
      }
      double min = Double.MAX_VALUE;
      for (int i = 0; i < Math.min(count, samples.length); i++) {
        min = Math.min(min, samples[i]);
      }
      return min;
    }
  }

  private static boolean fullCollection() {
    long before = collectionCount();
    long start = System.nanoTime();
    System.gc();
    boolean ran = collectionCount() != before;
    if (ran) {
      FULL_NANOS_SEEN.add(System.nanoTime() - start);
    }
    return ran;
  }

  private static double predictedFullNanos() {
    return FULL_BASE_NANOS + heapOutsideEden() * FULL_NANOS_PER_BYTE;
  }

  /** Heap bytes in use outside Eden: what a full collection marks besides the young objects. */
  private static long heapOutsideEden() {
    long used = MEMORY.getHeapMemoryUsage().getUsed();
    return Math.max(0, used - (EDEN == null ? 0 : EDEN.getUsage().getUsed()));
  }

  private static double predictedFillNanos() {
    MemoryUsage u = EDEN.getUsage();
    long room = Math.max(CHUNK, u.getCommitted() - u.getUsed());
    return room * FILL_NANOS_PER_BYTE_SEEN.lowest(FILL_NANOS_PER_BYTE);
  }

  /**
   * Allocates short-lived arrays until a collection has run, or until twice what Eden may still
   * take (it can grow while being filled) has been allocated in vain.
   */
  private static boolean fillEden() {
    long before = collectionCount();
    MemoryUsage u = EDEN.getUsage();
    long room = Math.max(0, u.getCommitted() - u.getUsed());
    long max = u.getMax() > 0 ? u.getMax() : u.getCommitted();
    long budget = 2 * Math.max(room, max - u.getUsed()) + (64L << 20);
    long filled = 0;
    long start = System.nanoTime();
    try {
      while (filled < budget) {
        for (int i = 0; i < 16; i++) {
          sink = new byte[CHUNK];
        }
        filled += 16L * CHUNK;
        if (collectionCount() != before) {
          FILL_NANOS_PER_BYTE_SEEN.add((System.nanoTime() - start) / (double) filled);
          return true;
        }
      }
      return false;
    } catch (OutOfMemoryError e) {
      // The heap itself is full: the fillers are already unreachable, and a full collection is
      // the better answer.
      return collectionCount() != before;
    } finally {
      sink = null;
    }
  }

  /** Collections of every collector so far. */
  static long collectionCount() {
    long n = 0;
    for (GarbageCollectorMXBean gc : COLLECTORS) {
      n += Math.max(0, gc.getCollectionCount());
    }
    return n;
  }

  private static MemoryPoolMXBean findEden() {
    try {
      for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
        // "G1 Eden Space", "PS Eden Space", "Eden Space" (Serial). Generational ZGC's young
        // generation is collected on its own schedule, not when full: it gets System.gc().
        if (p.getType() == MemoryType.HEAP && p.isValid() && p.getName().contains("Eden")) {
          return p;
        }
      }
    } catch (RuntimeException | LinkageError e) {
      // No management beans: System.gc() only.
    }
    return null;
  }
}
