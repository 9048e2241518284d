package io.eagerflow;

import static io.eagerflow.TestSupport.add;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.internal.GcFacts;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt64;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every session has a cap, and when the GC cannot help it says so instead of growing. */
class HonestLimitsTest {
  private static final long MIB = 1 << 20;

  /**
   * The seed loop (3 ops x 3,000 iterations on 1 MiB, nothing released) under default options but
   * the cap in args[1] (MiB; 0 = default); prints how it ended.
   */
  public static final class SeedLoop {
    public static void main(String[] args) {
      ResourceCleanupStrategy strategy = ResourceCleanupStrategy.valueOf(args[0]);
      long capMiB = Long.parseLong(args[1]);
      EagerSession.Options options =
          EagerSession.options()
              .resourceCleanupStrategy(strategy)
              .trackLeaks(args.length > 2 && args[2].equals("trackLeaks"));
      if (capMiB > 0) {
        options.maxNativeBytes(capMiB << 20);
      }
      try (EagerSession s = options.build()) {
        Output<TFloat32> x = MemoryPressureTest.mib(s);
        String end = "completed";
        try {
          for (int i = 0; i < 3_000; i++) {
            Output<TFloat32> y = add(s, x, x);
            Output<TFloat32> z = add(s, y, x);
            add(s, z, y);
          }
        } catch (NativeMemoryExhaustedException e) {
          end = "exhausted: " + e.getMessage();
        }
        SessionStats st = s.stats();
        System.out.println(
            "peakBytes=" + st.peakBytes() + " gcRequests=" + st.gcRequests() + " end=" + end);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = ResourceCleanupStrategy.class,
      names = {"IN_BACKGROUND", "ON_SAFE_POINTS"})
  void underDisableExplicitGcG1IsMadeToCollectYoungAndTheLoopCompletes(
      ResourceCleanupStrategy strategy) throws Exception {
    ChildJvm.Result r = seedLoopWithoutExplicitGc("-XX:+UseG1GC", strategy, false);
    String line = seedLoopLine(r);
    assertTrue(line.contains("end=completed"), r.describe());
    long requests = Long.parseLong(line.replaceAll(".*gcRequests=(\\d+).*", "$1"));
    assertTrue(requests > 0, "young collections were caused: " + r.describe());
    assertEquals(0, warnings(r), "nothing to warn about: " + r.describe());
  }

  /** ZGC has no Eden to fill: with System.gc() off the session has no way to cause a collection. */
  @ParameterizedTest
  @EnumSource(
      value = ResourceCleanupStrategy.class,
      names = {"IN_BACKGROUND", "ON_SAFE_POINTS"})
  void underDisableExplicitGcWithoutEdenTheSessionStopsAtItsCapAndSaysWhy(
      ResourceCleanupStrategy strategy) throws Exception {
    ChildJvm.Result r = seedLoopWithoutExplicitGc("-XX:+UseZGC", strategy, true);
    String line = seedLoopLine(r);
    assertTrue(line.contains("gcRequests=0 "), "no collection was caused: " + line);
    if (!line.contains("end=completed")) {
      assertTrue(line.contains("end=exhausted"), r.describe());
      for (String part :
          List.of(
              "DisableExplicitGC",
              "session.release",
              "newScope",
              "maxNativeBytes",
              strategy.name())) {
        assertTrue(line.contains(part), "message names " + part + ": " + line);
      }
    }
    assertEquals(1, warnings(r), "one warning: " + r.describe());
    String warning =
        r.lines().stream()
            .filter(l -> l.contains("cannot keep native memory down"))
            .findFirst()
            .orElseThrow();
    assertTrue(
        warning.contains("created most at: io.eagerflow.TestSupport.add("),
        "the warning names the top creation site: " + warning);
  }

  /**
   * The seed loop in a child JVM with {@code collector}, {@code -XX:+DisableExplicitGC} and a 256
   * MiB cap; checks that it exited normally and stayed within the cap.
   */
  private static ChildJvm.Result seedLoopWithoutExplicitGc(
      String collector, ResourceCleanupStrategy strategy, boolean trackLeaks) throws Exception {
    long capMiB = 256;
    List<String> args = new java.util.ArrayList<>(List.of(strategy.name(), Long.toString(capMiB)));
    if (trackLeaks) {
      args.add("trackLeaks");
    }
    ChildJvm.Result r =
        ChildJvm.runMain(
            List.of("-Xmx1g", collector, "-XX:+DisableExplicitGC"),
            SeedLoop.class,
            args,
            Duration.ofMinutes(5));
    assertEquals(0, r.exitCode(), r.describe());
    assertTrue(peak(seedLoopLine(r)) <= capMiB * MIB, "peak within the cap: " + r.describe());
    return r;
  }

  private static String seedLoopLine(ChildJvm.Result r) {
    return r.lines().stream().filter(l -> l.startsWith("peakBytes=")).findFirst().orElseThrow();
  }

  private static long peak(String line) {
    return Long.parseLong(line.replaceAll("peakBytes=(\\d+).*", "$1"));
  }

  private static long warnings(ChildJvm.Result r) {
    return r.lines().stream().filter(l -> l.contains("cannot keep native memory down")).count();
  }

  @Test
  void aDefaultSessionHasACap() {
    long cap = GcFacts.defaultMaxNativeBytes();
    try (EagerSession s =
        EagerSession.options()
            .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
            .build()) {
      Ops tf = Ops.create(s);
      // One float past the cap: refused before anything is allocated.
      Operand<TInt64> dims = tf.constant(new long[] {cap / 4 + 1});
      NativeMemoryExhaustedException e =
          assertThrows(NativeMemoryExhaustedException.class, () -> tf.zeros(dims, TFloat32.class));
      assertTrue(e.getMessage().contains(Long.toString(cap)), e.getMessage());
      assertTrue(s.stats().peakBytes() < MIB, s.stats().toString());
    }
  }

  @Test
  void aLoopThatReleasesEverythingNeverRequestsACollection() {
    try (EagerSession s = EagerSession.create()) {
      Output<TFloat32> x = MemoryPressureTest.mib(s);
      for (int i = 0; i < 300; i++) {
        Output<TFloat32> y = add(s, x, x);
        Output<TFloat32> z = add(s, y, x);
        s.release(y, z, add(s, z, y));
      }
      assertEquals(0, s.stats().gcRequests(), s.stats().toString());
    }
  }

  @Test
  void aFixedTriggerAboveTheCapNeverAsks() {
    try (EagerSession s =
        EagerSession.options().maxNativeBytes(32 * MIB).gcTriggerBytes(1L << 40).build()) {
      Output<TFloat32> x = MemoryPressureTest.mib(s);
      for (int i = 0; i < 20; i++) {
        add(s, x, x);
      }
      assertEquals(0, s.stats().gcRequests());
    }
  }

  @Test
  void theGcTimeShareIsBetweenZeroAndOne() {
    for (double bad : new double[] {0, 1, -0.5, 2, Double.NaN}) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> EagerSession.options().maxGcTimeShare(bad));
      assertTrue(e.getMessage().contains("maxGcTimeShare"), e.getMessage());
    }
    try (EagerSession s = EagerSession.options().maxGcTimeShare(0.5).build()) {
      assertFalse(s.isClosed());
    }
  }
}
