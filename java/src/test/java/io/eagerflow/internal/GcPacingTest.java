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
    // 3 GiB/s of growth, 10 ms per collection, 75% share: 10 MiB between collections.
    long t = SessionCore.nextTrigger(2 * MIB, 3L << 30, 1_000_000_000L, 10_000_000L, 0.75, CAP);
    assertEquals(64 * MIB, t);
  }

  @Test
  void costlyCollectionsSpaceOut() {
    // Same growth, 1.5 s per collection: about 1.5 GiB between collections.
    long t = SessionCore.nextTrigger(2 * MIB, 3L << 30, 1_000_000_000L, 1_500_000_000L, 0.75, CAP);
    assertTrue(t > 1400 * MIB && t < 1600 * MIB, "trigger " + (t / MIB) + " MiB");
    // A smaller share asks less often.
    long t2 = SessionCore.nextTrigger(2 * MIB, 3L << 30, 1_000_000_000L, 1_500_000_000L, 0.5, CAP);
    assertTrue(t2 > t, t2 + " > " + t);
  }

  @Test
  void theTriggerStaysBelowTheCap() {
    long t = SessionCore.nextTrigger(0, 3L << 30, 1_000_000L, 10_000_000_000L, 0.1, CAP);
    assertEquals(CAP - CAP / 4, t);
    // What stays live counts: the trigger sits above it.
    long live = 500 * MIB;
    assertEquals(
        live + 64 * MIB, SessionCore.nextTrigger(live, 64 * MIB, 1_000_000_000L, 1_000_000_000L, 0.5, CAP));
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
