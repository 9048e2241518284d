package io.eagerflow.internal;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * What the process knows about its garbage collector and its memory: whether {@code System.gc()}
 * does anything, the collections and their time as the GC MX beans report them, and how much memory
 * the process may use. Read once, lazily.
 */
public final class GcFacts {
  private static final AtomicLong GC_NANOS = new AtomicLong();
  private static volatile boolean listening;

  private GcFacts() {}

  private static final class Flag {
    static final boolean EXPLICIT_GC_DISABLED = readDisableExplicitGc();
  }

  private static final class Limit {
    static final long PROCESS_MEMORY = readProcessMemoryLimit();
  }

  /** Whether {@code -XX:+DisableExplicitGC} makes {@code System.gc()} a no-op. */
  public static boolean explicitGcDisabled() {
    return Flag.EXPLICIT_GC_DISABLED;
  }

  /**
   * The memory the process may use: its cgroup's limit (v2 {@code memory.max}, v1 {@code
   * memory.limit_in_bytes}) if it has one below the physical RAM, else the physical RAM.
   */
  public static long processMemoryLimit() {
    return Limit.PROCESS_MEMORY;
  }

  /** The default hard limit of a session: a quarter of {@link #processMemoryLimit()}. */
  public static long defaultMaxNativeBytes() {
    return processMemoryLimit() / 4;
  }

  /**
   * The summed durations, in nanoseconds, of the collections the GC MX beans have reported since
   * the first session asked (pauses, and cycles of concurrent collectors).
   */
  public static long gcNanos() {
    listen();
    return GC_NANOS.get();
  }

  private static boolean readDisableExplicitGc() {
    try {
      HotSpotDiagnosticMXBean hs =
          ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      if (hs != null) {
        return Boolean.parseBoolean(hs.getVMOption("DisableExplicitGC").getValue());
      }
    } catch (RuntimeException | LinkageError e) {
      // Not HotSpot: fall back to the command line.
    }
    boolean disabled = false;
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.equals("-XX:+DisableExplicitGC")) {
        disabled = true;
      } else if (arg.equals("-XX:-DisableExplicitGC")) {
        disabled = false;
      }
    }
    return disabled;
  }

  private static long readProcessMemoryLimit() {
    long ram = physicalMemory();
    long cgroup =
        Math.min(
            cgroupLimit(Path.of("/sys/fs/cgroup/memory.max")),
            cgroupLimit(Path.of("/sys/fs/cgroup/memory/memory.limit_in_bytes")));
    return Math.min(ram, cgroup);
  }

  private static long physicalMemory() {
    try {
      java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
      if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
        long total = sun.getTotalMemorySize();
        if (total > 0) {
          return total;
        }
      }
    } catch (RuntimeException | LinkageError e) {
      // Fall through.
    }
    // Unknown RAM: assume the heap is a quarter of it, as the JVM's default sizing does.
    return Runtime.getRuntime().maxMemory() * 4;
  }

  /** A cgroup memory limit file's value; {@code Long.MAX_VALUE} for none, "max", or unreadable. */
  static long cgroupLimit(Path file) {
    try {
      String s = Files.readString(file).trim();
      if (s.equals("max")) {
        return Long.MAX_VALUE;
      }
      long v = Long.parseLong(s);
      // cgroup v1 reports "no limit" as a huge page-rounded number.
      return v <= 0 || v >= 1L << 60 ? Long.MAX_VALUE : v;
    } catch (java.io.IOException | RuntimeException e) {
      return Long.MAX_VALUE;
    }
  }

  /** Subscribes to every collector's notifications, once. */
  private static void listen() {
    if (listening) {
      return;
    }
    synchronized (GcFacts.class) {
      if (listening) {
        return;
      }
      listening = true;
      try {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
          if (gc instanceof NotificationEmitter emitter) {
            emitter.addNotificationListener(
                (n, handback) -> {
                  if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
                      n.getType())) {
                    GarbageCollectionNotificationInfo info =
                        GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
                    GC_NANOS.addAndGet(info.getGcInfo().getDuration() * 1_000_000L);
                  }
                },
                null,
                null);
          }
        }
      } catch (RuntimeException | LinkageError e) {
        // No notifications: pacing falls back to the wall time it measures itself.
      }
    }
  }
}
