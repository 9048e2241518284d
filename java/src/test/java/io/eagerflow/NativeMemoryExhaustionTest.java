package io.eagerflow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TInt64;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.tensorflow.ndarray.Shape;

/**
 * Sizes no machine can hold end in {@link NativeMemoryExhaustedException}, never in an abort of the
 * JVM; temporaries count against the cap but never as live bytes; what {@code liveBytes} counts is
 * exactly the tensors' bytes, with idle pooled buffers reported apart and released by {@link
 * NativeMemory#trim()}.
 */
class NativeMemoryExhaustionTest {
  /** 2^41 elements: fits a {@code long}, but 8 TiB of floats is past any allocator here. */
  private static final long[] HUGE = {1L << 20, 1L << 21};

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void outputsNoAllocatorCanHoldThrowAndTheSessionKeepsWorking(ResourceCleanupStrategy strategy) {
    // No cap that would refuse first: the allocator itself must say no.
    try (EagerSession s =
        EagerSession.options()
            .resourceCleanupStrategy(strategy)
            .maxNativeBytes(Long.MAX_VALUE)
            .build()) {
      Ops tf = Ops.create(s);
      Operand<TInt64> dims = tf.constant(HUGE);
      Operand<TFloat32> one = tf.constant(1f);
      Operand<TFloat32> two = tf.constant(new float[] {2f});
      Operand<TInt64> start = tf.constant(0L);
      Operand<TInt64> limit = tf.constant(1L << 41);
      Operand<TInt64> delta = tf.constant(1L);
      Operand<TInt64> multiples = tf.constant(new long[] {1L << 41});
      Operand<TInt64> columnDims = tf.constant(new long[] {1L << 21, 1});
      Operand<TInt64> rowDims = tf.constant(new long[] {1, 1L << 20});
      Operand<TFloat32> column = tf.zeros(columnDims, TFloat32.class);
      Operand<TFloat32> row = tf.zeros(rowDims, TFloat32.class);
      SessionStats before = s.stats();
      Map<String, Supplier<Operand<?>>> ops =
          Map.of(
              "fill", () -> tf.fill(dims, one),
              "zeros", () -> tf.zeros(dims, TFloat32.class),
              "broadcastTo", () -> tf.broadcastTo(one, dims),
              "range", () -> tf.range(start, limit, delta),
              "tile", () -> tf.tile(two, multiples),
              "randomUniform", () -> tf.random.randomUniform(dims, TFloat32.class),
              "matMul", () -> tf.linalg.matMul(column, row));
      for (Map.Entry<String, Supplier<Operand<?>>> op : ops.entrySet()) {
        NativeMemoryExhaustedException e =
            assertThrows(NativeMemoryExhaustedException.class, () -> op.getValue().get());
        assertTrue(e.getMessage().contains("requested"), op.getKey() + ": " + e.getMessage());
        SessionStats after = s.stats();
        assertEquals(before.liveBytes(), after.liveBytes(), op.getKey());
        assertEquals(before.liveTensors(), after.liveTensors(), op.getKey());
        assertEquals(before.peakBytes(), after.peakBytes(), op.getKey());
      }
      // A refused op creates nothing, zeros included (its fill value crosses with the call).
      SessionStats after = s.stats();
      assertEquals(before.createdTensors(), after.createdTensors());
      assertEquals(
          after.createdTensors(),
          after.freedExplicitly()
              + after.freedByScope()
              + after.freedByCleanup()
              + after.freedAtClose()
              + after.liveTensors());
      Operand<TFloat32> ok = tf.fill(tf.constant(new long[] {2, 3}), one);
      assertArrayEquals(new float[] {1, 1, 1, 1, 1, 1}, ok.asTensor().toArray());
      assertEquals(before.liveBytes() + 16 + 24, s.stats().liveBytes());
      // Every operand made before `before` stays reachable, so no cleanup changes the counts.
      Reference.reachabilityFence(new Object[] {dims, one, two, start, limit, delta, multiples});
      Reference.reachabilityFence(new Object[] {columnDims, rowDims, column, row});
    }
  }

  /**
   * {@code Sum} over axes 0 and 2 of {@code [8, 2048, 16]} runs in two passes; the first writes a
   * {@code [8, 2048]} temporary (64 KiB).
   */
  @Test
  void reductionTemporariesCountAgainstTheCapButNotAsLiveBytes() {
    long input = 1L << 20;
    long dims = 24;
    long axes = 8;
    long output = 8 << 10;
    for (boolean tight : new boolean[] {false, true}) {
      long cap = input + axes + output + (tight ? 32 << 10 : 1 << 20);
      try (EagerSession s =
          EagerSession.options()
              .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
              .maxNativeBytes(cap)
              .build()) {
        Ops tf = Ops.create(s);
        Operand<TFloat32> x = tf.ones(tf.constant(new long[] {8, 2048, 16}), TFloat32.class);
        Operand<TInt32> both = tf.constant(new int[] {0, 2});
        assertEquals(input + dims + axes, s.stats().liveBytes());
        if (tight) {
          NativeMemoryExhaustedException e =
              assertThrows(NativeMemoryExhaustedException.class, () -> tf.reduceSum(x, both));
          assertTrue(e.getMessage().contains(Long.toString(cap)), e.getMessage());
          assertEquals(input + dims + axes, s.stats().liveBytes());
        } else {
          float[] sums = tf.reduceSum(x, both).asTensor().toArray();
          assertEquals(2048, sums.length);
          assertEquals(128f, sums[2047]);
          // The temporary never showed as live: the peak is the tensors' bytes.
          assertEquals(input + dims + axes + output, s.stats().liveBytes());
          assertEquals(input + dims + axes + output, s.stats().peakBytes());
        }
      }
    }
  }

  /**
   * Process-wide counters, checked in a child JVM where nothing else (a cleaner, another test's
   * session) frees buffers meanwhile.
   */
  @Test
  void liveBytesCountExactlyTheTensorsAndPooledBuffersStayApart() throws Exception {
    ChildJvm.Result r =
        ChildJvm.runMain(List.of(), PoolChecks.class, List.of(), Duration.ofSeconds(60));
    assertEquals(0, r.exitCode(), r.describe());
    assertTrue(r.output().contains("pool checks passed"), r.describe());
  }

  /** The child JVM's checks; any failure is an exception and a non-zero exit. */
  public static final class PoolChecks {
    public static void main(String[] args) {
      exactCountsAndTrim();
      aSessionNearItsCapKeepsNoIdleBuffersPastIt();
      aCollectingSessionLetsThePoolKeepABatchUntilItCloses();
      System.out.println("pool checks passed");
    }

    static void check(boolean condition, String what) {
      if (!condition) {
        throw new AssertionError(what);
      }
    }

    static void exactCountsAndTrim() {
      check(NativeMemory.liveBytes() == 0 && NativeMemory.pooledBytes() == 0, "a fresh process");
      // Not a size class boundary: the buffer has up to 1/8 more capacity than its 1 MiB + 4 bytes.
      int n = (1 << 18) + 1;
      TFloat32 t = TFloat32.tensorOf(Shape.of(n), new float[n]);
      check(NativeMemory.liveBytes() == 4L * n, "live " + NativeMemory.liveBytes());
      check(NativeMemory.pooledBytes() == 0, "nothing idle yet");
      t.close();
      check(NativeMemory.liveBytes() == 0, "live after close " + NativeMemory.liveBytes());
      long pooled = NativeMemory.pooledBytes();
      check(pooled >= 4L * n && pooled <= 4L * n + 4L * n / 8, "pooled " + pooled);
      // A tensor of the same size class takes the pooled buffer back and counts its own bytes.
      int m = n + 100;
      try (TFloat32 again = TFloat32.tensorOf(Shape.of(m), new float[m])) {
        check(NativeMemory.pooledBytes() == 0, "reused: pooled " + NativeMemory.pooledBytes());
        check(NativeMemory.liveBytes() == 4L * m, "live " + NativeMemory.liveBytes());
      }
      check(NativeMemory.trim() == pooled, "trim releases what was pooled");
      check(NativeMemory.pooledBytes() == 0 && NativeMemory.trim() == 0, "an empty pool");
      check(NativeMemory.liveBytes() == 0, "live " + NativeMemory.liveBytes());
    }

    static void aSessionNearItsCapKeepsNoIdleBuffersPastIt() {
      long cap = 16L << 20;
      try (EagerSession s =
          EagerSession.options()
              .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
              .maxNativeBytes(cap)
              .build()) {
        Ops tf = Ops.create(s);
        // Four idle buffers of four size classes, 9.5 MiB.
        for (long k = 0; k < 4; k++) {
          s.release(tf.zeros(tf.constant(new long[] {(1 << 19) + k * (1 << 16)}), TFloat32.class));
        }
        check(NativeMemory.pooledBytes() >= 8L << 20, "pooled " + NativeMemory.pooledBytes());
        Operand<TFloat32> held = tf.zeros(tf.constant(new long[] {10 << 18}), TFloat32.class);
        long live = s.stats().liveBytes();
        long pooled = NativeMemory.pooledBytes();
        check(live + pooled <= cap, live + " live + " + pooled + " pooled over the cap " + cap);
        check(pooled > 0, "only what did not fit was released");
        check(held.shape().size() == 10 << 18, "held");
      }
    }

    /**
     * What one collection frees at once (up to an eighth of the cap) waits in the pool while a
     * session that frees by collections is open, and goes back to the 256 MiB bound at close; a
     * session that never collects keeps the 256 MiB bound.
     */
    static void aCollectingSessionLetsThePoolKeepABatchUntilItCloses() {
      NativeMemory.trim();
      long bound = 256L << 20;
      long batch = 400L << 20;
      for (ResourceCleanupStrategy strategy : ResourceCleanupStrategy.values()) {
        boolean collects = strategy != ResourceCleanupStrategy.ON_SESSION_CLOSE;
        try (EagerSession s =
            EagerSession.options()
                .resourceCleanupStrategy(strategy)
                .maxNativeBytes(4L << 30)
                .gcTriggerBytes(Long.MAX_VALUE)
                .build()) {
          Ops tf = Ops.create(s);
          Operand<?>[] outputs = new Operand<?>[(int) (batch >> 20)];
          for (int i = 0; i < outputs.length; i++) {
            outputs[i] = tf.zeros(tf.constant(new long[] {1 << 18}), TFloat32.class);
          }
          s.release(outputs);
          long pooled = NativeMemory.pooledBytes();
          check(
              collects ? pooled == batch : pooled <= bound,
              strategy + ": pooled " + pooled + " after freeing " + batch);
        }
        check(
            NativeMemory.pooledBytes() <= bound,
            strategy + ": pooled " + NativeMemory.pooledBytes() + " after close");
      }
      NativeMemory.trim();
    }
  }
}
