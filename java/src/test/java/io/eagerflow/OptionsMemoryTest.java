package io.eagerflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.DevicePlacementPolicy;
import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * What each {@link EagerSession.Options} setter's Javadoc says its value may cost in memory,
 * checked at the largest value each accepts: a child JVM (fixed, pre-touched heap, so the resident
 * set shows native memory and threads) builds {@value Child#SESSIONS} sessions per option, runs a
 * chain of small ops in each, and reports how far {@code VmRSS} ({@code /proc/self/status}) grew
 * with them open, at its peak meanwhile ({@code VmHWM}), and after closing them. The growth must
 * stay within the documented cost plus 64 MiB: a value that set memory aside in proportion to
 * itself (as the asynchronous queue once did, 160 bytes per slot of its capacity) would exceed it
 * many times over.
 */
class OptionsMemoryTest {
  private static final long MIB = 1L << 20;

  /** The documented cost of a thread a session starts: its stack reservation ({@code -Xss}). */
  private static final long THREAD = MIB;

  /** The documented most a full queue at the maximum capacity holds beyond the limit. */
  private static final long FULL_QUEUE = 64 * MIB;

  /** The documented cost of {@value Child#SESSIONS} sessions of each option at its largest. */
  private static final Map<String, Long> DOCUMENTED = new LinkedHashMap<>();

  static {
    long n = Child.SESSIONS;
    // Every session of default options runs IN_BACKGROUND: one cleanup thread each.
    DOCUMENTED.put("async", n * 2 * THREAD);
    DOCUMENTED.put("asyncQueueCapacity", n * 2 * THREAD + FULL_QUEUE);
    DOCUMENTED.put("devicePlacementPolicy", n * THREAD);
    DOCUMENTED.put("resourceCleanupStrategy", n * THREAD);
    DOCUMENTED.put("maxNativeBytes", n * THREAD);
    DOCUMENTED.put("gcTriggerBytes", n * THREAD);
    DOCUMENTED.put("maxGcTimeShare", n * THREAD);
    DOCUMENTED.put("trackLeaks", n * THREAD);
  }

  @Test
  void everyOptionAtItsLargestCostsWhatItsJavadocSays() throws Exception {
    ChildJvm.Result r =
        ChildJvm.runMain(
            List.of("-Xms96m", "-Xmx96m", "-XX:+AlwaysPreTouch", "-XX:+UseSerialGC"),
            Child.class,
            List.of(),
            Duration.ofMinutes(3));
    assertEquals(0, r.exitCode(), r.describe());
    int checked = 0;
    for (String line : r.lines()) {
      if (!line.startsWith("option=")) {
        continue;
      }
      Map<String, String> f = new LinkedHashMap<>();
      for (String kv : line.split(" ")) {
        String[] p = kv.split("=", 2);
        f.put(p[0], p[1]);
      }
      String option = f.get("option");
      long documented = DOCUMENTED.get(option) + 64 * MIB;
      long open = Math.max(Long.parseLong(f.get("grownOpen")), Long.parseLong(f.get("grownPeak")));
      long closed = Long.parseLong(f.get("grownClosed"));
      System.out.println("OptionsMemoryTest: " + line + " bound=" + documented);
      assertTrue(open <= documented, option + ": resident memory grew by " + open + "; " + line);
      assertTrue(closed <= documented, option + ": after close, grown by " + closed + "; " + line);
      checked++;
    }
    assertEquals(DOCUMENTED.size(), checked, r.describe());
  }

  /**
   * Run in a child JVM: for each option, builds {@value #SESSIONS} sessions with its largest
   * accepted value, runs ops in each, and prints {@code option=... grownOpen=N grownClosed=N}.
   */
  public static final class Child {
    static final int SESSIONS = 32;

    private Child() {}

    public static void main(String[] args) throws Exception {
      Map<String, UnaryOperator<EagerSession.Options>> largest = new LinkedHashMap<>();
      largest.put("async", o -> o.async(true));
      largest.put(
          "asyncQueueCapacity",
          o -> o.async(true).asyncQueueCapacity(EagerSession.Options.MAX_ASYNC_QUEUE_CAPACITY));
      largest.put(
          "devicePlacementPolicy",
          o -> o.devicePlacementPolicy(DevicePlacementPolicy.SILENT_FOR_INT32));
      // ON_SESSION_CLOSE, the strategy that keeps the most; IN_BACKGROUND is in every other row.
      largest.put(
          "resourceCleanupStrategy",
          o -> o.resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE));
      largest.put("maxNativeBytes", o -> o.maxNativeBytes(Long.MAX_VALUE));
      largest.put("gcTriggerBytes", o -> o.gcTriggerBytes(Long.MAX_VALUE));
      largest.put("maxGcTimeShare", o -> o.maxGcTimeShare(Math.nextDown(1.0)));
      largest.put("trackLeaks", o -> o.trackLeaks(true));

      for (Map.Entry<String, UnaryOperator<EagerSession.Options>> e : largest.entrySet()) {
        UnaryOperator<EagerSession.Options> option = e.getValue();
        try (EagerSession warm = option.apply(EagerSession.options()).build()) {
          run(warm, e.getKey()); // loads what every session shares
        }
        System.gc();
        boolean peakReset = resetPeak();
        long before = residentBytes();
        List<EagerSession> open = new ArrayList<>();
        for (int i = 0; i < SESSIONS; i++) {
          EagerSession s = option.apply(EagerSession.options()).build();
          open.add(s);
          run(s, e.getKey());
        }
        long grownOpen = residentBytes() - before;
        long grownPeak = peakReset ? status("VmHWM:") - before : grownOpen;
        for (EagerSession s : open) {
          s.close();
        }
        open.clear();
        System.gc();
        long grownClosed = residentBytes() - before;
        System.out.println(
            "option="
                + e.getKey()
                + " grownOpen="
                + grownOpen
                + " grownPeak="
                + grownPeak
                + " grownClosed="
                + grownClosed);
      }
    }

    /**
     * A chain of 100 small ops, read back. On the queue at its maximum, a burst of ops queued
     * behind a slow one first, so that the queue fills while the executor is busy.
     */
    private static void run(EagerSession s, String option) {
      Ops tf = Ops.create(s);
      if (option.equals("asyncQueueCapacity")) {
        Operand<TFloat32> big =
            tf.random.randomUniform(tf.constant(new int[] {384, 384}), TFloat32.class);
        Operand<TFloat32> slow = tf.linalg.matMul(big, big);
        Operand<TFloat32> one = tf.constant(1f);
        Operand<?>[] burst = new Operand<?>[10_000];
        for (int i = 0; i < burst.length; i++) {
          burst[i] = tf.math.neg(one);
        }
        s.sync();
        s.release(burst);
        s.release(slow, big, one);
      }
      // In a scope: freed at its end, so trackLeaks has nothing to report.
      try (EagerScope scope = s.newScope()) {
        Operand<TFloat32> x = tf.constant(new float[] {1f, 2f});
        Operand<TFloat32> y = x;
        for (int i = 0; i < 100; i++) {
          y = tf.math.neg(y);
        }
        s.sync();
        if (y.asTensor().getFloat(1) != 2f) {
          throw new AssertionError("wrong result");
        }
      }
    }

    private static long residentBytes() throws IOException {
      return status("VmRSS:");
    }

    private static long status(String field) throws IOException {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith(field)) {
          return Long.parseLong(line.replaceAll("\\D+", "")) * 1024;
        }
      }
      throw new IOException("no " + field + " in /proc/self/status");
    }

    /** Resets the peak resident set ({@code VmHWM}) to the current one (Linux 4.0 and later). */
    private static boolean resetPeak() {
      try {
        Files.writeString(Path.of("/proc/self/clear_refs"), "5");
        return true;
      } catch (IOException | SecurityException e) {
        return false;
      }
    }
  }
}
