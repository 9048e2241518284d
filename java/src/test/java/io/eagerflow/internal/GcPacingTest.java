package io.eagerflow.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GcPacingTest {
  private static final long MIB = 1 << 20;
  private static final long CAP = 6L << 30;

  @Test
  void cheapCollectionsKeepTheFloor() {
    // 3 GiB/s of growth, 10 ms per collection, half the time: 30 MiB between collections.
    long t = Relief.nextTrigger(2 * MIB, 3L << 30, 1_000_000_000L, 10_000_000L, 0.5, CAP);
    assertEquals(64 * MIB, t);
  }

  @Test
  void costlyCollectionsSpaceOut() {
    // Same growth, 0.2 s per collection, half the time: about 600 MiB between collections.
    long t = Relief.nextTrigger(2 * MIB, 3L << 30, 1_000_000_000L, 200_000_000L, 0.5, CAP);
    assertTrue(t > 560 * MIB && t < 660 * MIB, "trigger " + (t / MIB) + " MiB");
    // A smaller share asks less often.
    long t2 = Relief.nextTrigger(2 * MIB, 3L << 30, 1_000_000_000L, 200_000_000L, 0.4, CAP);
    assertTrue(t2 > t, t2 + " > " + t);
  }

  @Test
  void garbageBetweenRequestsIsAtMostAnEighthOfTheCap() {
    // 1.5 s per collection would allow 1.5 GiB of garbage by time alone.
    long live = 2 * MIB;
    long t = Relief.nextTrigger(live, 3L << 30, 1_000_000_000L, 1_500_000_000L, 0.5, CAP);
    assertEquals(live + CAP / 8, t);
    assertEquals(CAP / 8, Relief.maxHeadroom(CAP));
    // Never below the floor, however small the cap.
    assertEquals(64 * MIB, Relief.maxHeadroom(128 * MIB));
  }

  @Test
  void theTriggerStaysBelowTheCap() {
    long live = 5L << 30;
    long t = Relief.nextTrigger(live, 3L << 30, 1_000_000L, 10_000_000_000L, 0.1, CAP);
    assertEquals(CAP - CAP / 4, t);
    // What stays live counts: the trigger sits above it.
    live = 500 * MIB;
    assertEquals(
        live + 64 * MIB,
        Relief.nextTrigger(live, 64 * MIB, 1_000_000_000L, 1_000_000_000L, 0.5, CAP));
  }

  @Test
  void oneSlowCollectionDoesNotMoveTheCostPacingPlansWith() {
    long ms = 1_000_000L;
    assertEquals(8 * ms, Relief.typicalCost(new long[] {8 * ms, 0, 0}, 1));
    assertEquals(8 * ms, Relief.typicalCost(new long[] {60 * ms, 8 * ms, 0}, 2));
    // Wherever the outlier sits among the last three, the median ignores it.
    assertEquals(9 * ms, Relief.typicalCost(new long[] {60 * ms, 8 * ms, 9 * ms}, 3));
    assertEquals(9 * ms, Relief.typicalCost(new long[] {8 * ms, 60 * ms, 9 * ms}, 3));
    assertEquals(9 * ms, Relief.typicalCost(new long[] {9 * ms, 8 * ms, 60 * ms}, 3));
    // Two slow ones in three are the new normal.
    assertEquals(300 * ms, Relief.typicalCost(new long[] {300 * ms, 8 * ms, 320 * ms}, 3));
  }

  @Test
  void cgroupLimits(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("memory.max");
    assertEquals(Long.MAX_VALUE, GcFacts.cgroupLimit(f), "missing file");
    Files.writeString(f, "max\n");
    assertEquals(Long.MAX_VALUE, GcFacts.cgroupLimit(f));
    Files.writeString(f, "2147483648\n");
    assertEquals(2L << 30, GcFacts.cgroupLimit(f));
    Files.writeString(f, "9223372036854771712\n"); // cgroup v1's "unlimited"
    assertEquals(Long.MAX_VALUE, GcFacts.cgroupLimit(f));
  }

  @Test
  void theDefaultCapIsAQuarterOfTheProcessMemory() {
    long limit = GcFacts.processMemoryLimit();
    assertTrue(limit > 0 && limit < Long.MAX_VALUE, "process memory " + limit);
    assertEquals(limit / 4, GcFacts.defaultMaxNativeBytes());
  }
}
