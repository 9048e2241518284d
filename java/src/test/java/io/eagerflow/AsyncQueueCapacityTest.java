package io.eagerflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.internal.Native;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bound of {@code Options.asyncQueueCapacity}: a capacity past it is an exception naming the
 * option, the value and the bound (from Java and from a direct native call, never an abort), and
 * the bound itself sets no memory aside.
 */
class AsyncQueueCapacityTest {
  private static final int MAX = EagerSession.Options.MAX_ASYNC_QUEUE_CAPACITY;

  private static void assertNamesOptionValueAndBound(IllegalArgumentException e, long value) {
    String m = e.getMessage();
    assertTrue(m.contains("asyncQueueCapacity"), m);
    assertTrue(m.contains(Long.toString(value)), m);
    assertTrue(m.contains(Integer.toString(MAX)), m);
  }

  @ParameterizedTest
  @ValueSource(ints = {Integer.MAX_VALUE, MAX + 1, 100_000_000, 0, -1, Integer.MIN_VALUE})
  void aCapacityOutsideTheBoundsIsRefusedByTheOption(int capacity) {
    EagerSession.Options options = EagerSession.options().async(true);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> options.asyncQueueCapacity(capacity));
    assertNamesOptionValueAndBound(e, capacity);
    // The options are unchanged and still build.
    try (EagerSession s = options.build()) {
      Ops tf = Ops.create(s);
      assertEquals(-2f, tf.math.neg(tf.constant(2f)).asTensor().getFloat());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {Integer.MAX_VALUE, MAX + 1, 0, -7})
  void aDirectNativeCallThrowsInsteadOfAborting(int capacity) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> Native.newAsyncSession(0, 0, false, capacity));
    assertNamesOptionValueAndBound(e, capacity);
  }

  /** Java's constant and the library's bound agree: the maximum is accepted natively too. */
  @Test
  void theLibraryAcceptsTheMaximum() {
    long id = Native.newAsyncSession(1L << 20, 0, false, MAX);
    long[] stats = new long[io.eagerflow.internal.Wire.STATS_LENGTH];
    Native.closeSession(id, stats);
    assertEquals(0, stats[0]);
  }

  @Test
  void sessionsAtTheMaximumCommitMemoryForWhatTheyQueueOnly() throws Exception {
    ChildJvm.Result r =
        ChildJvm.runMain(
            List.of("-Xms64m", "-Xmx64m", "-XX:+AlwaysPreTouch"),
            AtTheMaximum.class,
            List.of(),
            Duration.ofMinutes(2));
    assertEquals(0, r.exitCode(), r.describe());
    String line = r.lines().stream().filter(l -> l.startsWith("grown=")).findFirst().orElseThrow();
    long grown = Long.parseLong(line.substring("grown=".length()));
    // A queue that set its capacity aside would commit over 10 MiB in each of the 32 sessions.
    assertTrue(grown < 64L << 20, "resident memory grew by " + grown + " bytes: " + r.describe());
  }

  /**
   * Run in a child JVM: builds {@value #SESSIONS} asynchronous sessions at the maximum capacity,
   * runs a chain of ops in each, and prints how much the resident set grew ({@code grown=N}).
   */
  public static final class AtTheMaximum {
    static final int SESSIONS = 32;

    private AtTheMaximum() {}

    public static void main(String[] args) throws IOException {
      runOne(); // loads the library and warms up what every session shares
      long before = residentBytes();
      List<EagerSession> open = new ArrayList<>();
      for (int i = 0; i < SESSIONS; i++) {
        EagerSession s =
            EagerSession.options()
                .async(true)
                .asyncQueueCapacity(EagerSession.Options.MAX_ASYNC_QUEUE_CAPACITY)
                .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
                .build();
        open.add(s);
        run(s);
      }
      long grown = residentBytes() - before;
      for (EagerSession s : open) {
        s.close();
      }
      System.out.println("grown=" + grown);
    }

    private static void runOne() {
      try (EagerSession s =
          EagerSession.options()
              .async(true)
              .asyncQueueCapacity(EagerSession.Options.MAX_ASYNC_QUEUE_CAPACITY)
              .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
              .build()) {
        run(s);
      }
    }

    private static void run(EagerSession s) {
      Ops tf = Ops.create(s);
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

    private static long residentBytes() throws IOException {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("\\D+", "")) * 1024;
        }
      }
      throw new IOException("no VmRSS in /proc/self/status");
    }
  }
}
