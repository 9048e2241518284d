package io.eagerflow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.junit.EagerTest;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TType;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.tensorflow.ndarray.Shape;

/** Asynchronous sessions ({@code async(true)}) under each cleanup strategy. */
class AsyncSessionTest {
  private static final int WIDTH = 16;

  private static EagerSession open(boolean async, ResourceCleanupStrategy strategy) {
    return EagerSession.options().async(async).resourceCleanupStrategy(strategy).build();
  }

  /**
   * Runs a random program of {@code ops} ops on {@code session}: a pool of vectors, each op
   * replacing one entry by a function of one or two entries; releases and reads at random. Every
   * value stays in [-2, 2], so results are compared exactly.
   */
  private static float[][] randomProgram(EagerSession session, long seed, int ops) {
    Ops tf = Ops.create(session);
    Random rnd = new Random(seed);
    List<Operand<TFloat32>> pool = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      float[] v = new float[WIDTH];
      for (int j = 0; j < WIDTH; j++) {
        v[j] = rnd.nextFloat() * 2 - 1;
      }
      pool.add(tf.constant(v));
    }
    for (int i = 0; i < ops; i++) {
      Operand<TFloat32> a = pool.get(rnd.nextInt(pool.size()));
      Operand<TFloat32> b = pool.get(rnd.nextInt(pool.size()));
      Operand<TFloat32> r =
          switch (rnd.nextInt(9)) {
            case 0 -> tf.math.tanh(tf.math.add(a, b));
            case 1 -> tf.math.tanh(tf.math.sub(a, b));
            case 2 -> tf.math.mul(a, b);
            case 3 -> tf.math.neg(a);
            case 4 -> tf.math.sigmoid(a);
            case 5 -> tf.math.maximum(a, b);
            case 6 -> tf.math.minimum(a, b);
            case 7 -> tf.math.abs(a);
            default ->
                tf.math.tanh(tf.math.add(a, tf.reduceSum(tf.math.mul(a, b), tf.constant(0))));
          };
      int slot = rnd.nextInt(pool.size());
      Operand<TFloat32> old = pool.set(slot, r);
      if (rnd.nextInt(4) == 0 && !pool.contains(old)) {
        session.release(old); // often still pending in the asynchronous session
      }
      if (rnd.nextInt(100) == 0) {
        r.asTensor().toArray(); // a read in the middle waits for that output only
      }
    }
    float[][] out = new float[pool.size()][];
    for (int i = 0; i < out.length; i++) {
      out[i] = pool.get(i).asTensor().toArray();
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void aRandomProgramOf1000OpsGivesTheResultsOfASynchronousSession(ResourceCleanupStrategy s) {
    float[][] expected;
    try (EagerSession sync = open(false, s)) {
      expected = randomProgram(sync, 42, 1000);
    }
    try (EagerSession async = open(true, s)) {
      float[][] actual = randomProgram(async, 42, 1000);
      async.sync();
      for (int i = 0; i < expected.length; i++) {
        assertArrayEquals(expected[i], actual[i], "pool entry " + i);
      }
    }
  }

  @EagerTest(async = true)
  void dependenciesAreHonouredAcrossThreads(EagerSession session, Ops tf) throws Exception {
    BlockingQueue<Operand<TFloat32>> handOver = new ArrayBlockingQueue<>(1000);
    CompletableFuture<Void> producer =
        CompletableFuture.runAsync(
            () -> {
              Operand<TFloat32> x = tf.constant(new float[] {1f, 2f});
              for (int i = 0; i < 500; i++) {
                x = tf.math.add(x, tf.constant(1f));
                handOver.add(x);
              }
            });
    float[] last = null;
    for (int i = 0; i < 500; i++) {
      Operand<TFloat32> y = tf.math.mul(handOver.take(), tf.constant(2f));
      if (i % 100 == 99 || i == 499) {
        last = y.asTensor().toArray();
        assertArrayEquals(new float[] {2f * (i + 2), 2f * (i + 3)}, last, "step " + i);
      }
    }
    producer.get(30, TimeUnit.SECONDS);
    session.sync();
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void anErrorMidChainSurfacesAtTheFirstDependentReadAndAtSync(ResourceCleanupStrategy s) {
    Class<? extends RuntimeException> syncType;
    try (EagerSession sync = open(false, s)) {
      RuntimeException e = assertThrows(RuntimeException.class, () -> badGather(Ops.create(sync)));
      syncType = e.getClass();
    }
    try (EagerSession session = open(true, s)) {
      Ops tf = Ops.create(session);
      Operand<TFloat32> x = tf.constant(new float[] {1f, 2f, 3f});
      Operand<TFloat32> gathered = badGather(tf); // returns: nothing can reject it before it runs
      Operand<TFloat32> dependent = tf.math.mul(tf.math.neg(gathered), x);
      Operand<TFloat32> independent = tf.math.neg(x);
      RuntimeException read = assertThrows(RuntimeException.class, () -> dependent.asTensor());
      assertEquals(syncType, read.getClass());
      assertTrue(read.getMessage().contains("GatherV2"), read.getMessage());
      RuntimeException again = assertThrows(RuntimeException.class, () -> gathered.shape());
      assertEquals(syncType, again.getClass());
      assertArrayEquals(new float[] {-1f, -2f, -3f}, independent.asTensor().toArray());
      RuntimeException atSync = assertThrows(RuntimeException.class, session::sync);
      assertEquals(syncType, atSync.getClass());
      assertTrue(atSync.getMessage().contains("GatherV2"), atSync.getMessage());
      session.sync(); // thrown once; the session goes on
      assertArrayEquals(
          new float[] {2f, 4f, 6f}, tf.math.add(x, x).asTensor().toArray(), "still usable");
      session.release(gathered, dependent);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static <T extends TType> Operand<T> raw(Operand<?> o) {
    return (Operand) o;
  }

  /**
   * Builds ops each of which fails on dtypes or shapes alone, several on outputs still pending in
   * an asynchronous session; returns what each build threw.
   */
  private static List<RuntimeException> badBuilds(EagerSession session) {
    Ops tf = Ops.create(session);
    Operand<TFloat32> m23 = tf.constant(new float[2][3]);
    Operand<TFloat32> m32 = tf.constant(new float[3][2]);
    Operand<TFloat32> pending = tf.math.add(m23, m23);
    Operand<TFloat32> product = tf.linalg.matMul(pending, m32); // [2, 2]
    List<Supplier<Operand<?>>> builds =
        List.of(
            () -> tf.math.add(m23, raw(tf.constant(new int[] {1, 2}))),
            () -> tf.math.sub(pending, raw(tf.constant(new int[2][3]))),
            () -> tf.math.mul(m23, m32),
            () -> tf.math.maximum(pending, tf.constant(new float[2][2])),
            () -> tf.math.less(product, raw(tf.constant(new int[2][2]))),
            () -> tf.linalg.matMul(m23, m23),
            () -> tf.linalg.matMul(product, m32),
            () -> tf.linalg.matMul(tf.constant(new float[3]), m23),
            () -> tf.reshape(m23, tf.constant(new int[] {4, 2})),
            () -> tf.reshape(pending, tf.constant(new int[] {4})),
            () -> tf.linalg.batchMatMul(m23, m23),
            () -> tf.linalg.batchMatMul(pending, pending),
            () -> tf.linalg.transpose(pending, tf.constant(new int[] {0, 0})),
            () -> tf.select(tf.constant(new boolean[] {true, false}), m23, m23),
            () -> tf.reduceSum(pending, tf.constant(5)),
            () -> tf.concat(List.of(pending, m32), tf.constant(0)),
            () -> tf.math.addN(List.of(pending, m32)),
            () -> tf.stack(List.of(m23, m32)));
    List<RuntimeException> thrown = new ArrayList<>();
    for (Supplier<Operand<?>> b : builds) {
      thrown.add(assertThrows(RuntimeException.class, b::get));
    }
    return thrown;
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void buildThrowsWhatASynchronousBuildThrowsWhenDtypesOrShapesDecide(ResourceCleanupStrategy s) {
    List<RuntimeException> expected;
    try (EagerSession sync = open(false, s)) {
      expected = badBuilds(sync);
    }
    try (EagerSession async = open(true, s)) {
      List<RuntimeException> actual = badBuilds(async);
      for (int i = 0; i < expected.size(); i++) {
        assertEquals(expected.get(i).getClass(), actual.get(i).getClass(), "build " + i);
        assertEquals(expected.get(i).getMessage(), actual.get(i).getMessage(), "build " + i);
      }
      async.sync(); // the valid ops ran; nothing failed later
    }
  }

  @EagerTest(async = true)
  void aPendingOutputsDtypeAndShapeAreKnownBeforeItsOpRuns(EagerSession session, Ops tf) {
    // Integer division by zero: only the values decide, so this op fails when it runs.
    Operand<TInt32> failing =
        tf.math.div(tf.constant(new int[2][3]), tf.constant(new int[] {1, 0, 1}));
    Operand<TFloat32> product =
        tf.linalg.matMul(tf.constant(new float[4][2]), tf.constant(new float[2][5]));
    EagerOperation op = (EagerOperation) failing.op();
    // Answered from the build's inference, although the op fails (or has failed) when run.
    assertEquals(Shape.of(2, 3), op.shape(0));
    assertEquals(DataType.INT32, op.dtype(0));
    assertEquals(Shape.of(4, 5), product.shape());
    RuntimeException read = assertThrows(RuntimeException.class, () -> failing.asTensor());
    assertTrue(read.getMessage().startsWith("RealDiv"), read.getMessage());
    RuntimeException atSync = assertThrows(RuntimeException.class, session::sync);
    assertEquals(read.getClass(), atSync.getClass());
    assertArrayEquals(new float[20], product.asTensor().toArray());
  }

  /** A GatherV2 whose index (7, out of range for 3 elements) is computed by an earlier op. */
  private static Operand<TFloat32> badGather(Ops tf) {
    Operand<TInt32> index = tf.math.add(tf.constant(new int[] {3}), tf.constant(new int[] {4}));
    return tf.gather(tf.constant(new float[] {1f, 2f, 3f}), index, tf.constant(0));
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void closeWith10000QueuedOpsNeverCrashesAndLeaksNothing(ResourceCleanupStrategy s)
      throws Exception {
    long threadsBefore = executorThreads();
    long liveBefore = NativeMemory.liveBytes();
    for (int round = 0; round < 100; round++) {
      EagerSession session =
          EagerSession.options()
              .async(true)
              .asyncQueueCapacity(10_000)
              .resourceCleanupStrategy(s)
              .build();
      Ops tf = Ops.create(session);
      Operand<TFloat32> x = tf.constant(new float[1024]);
      Operand<TFloat32> last = x;
      for (int i = 0; i < 10_000; i++) {
        last = tf.math.add(last, x);
      }
      Operand<TFloat32> awaited = last;
      CompletableFuture<Object> reader =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return awaited.asTensor().toArray();
                } catch (IllegalStateException e) {
                  return e;
                }
              });
      session.close();
      Object read = reader.get(30, TimeUnit.SECONDS);
      if (read instanceof IllegalStateException e) {
        assertEquals("Eager session has been closed", e.getMessage());
      }
      SessionStats st = session.stats();
      assertEquals(0, st.liveTensors());
      assertEquals(0, st.liveBytes());
      assertEquals(
          st.createdTensors(), st.freedExplicitly() + st.freedByCleanup() + st.freedAtClose());
    }
    assertEquals(threadsBefore, executorThreads(), "every executor thread was joined");
    assertTrue(
        NativeMemory.liveBytes() <= liveBefore,
        NativeMemory.liveBytes() + " bytes live, " + liveBefore + " before");
  }

  private static long executorThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("eagerflow-exec-") && t.isAlive())
        .count();
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void backpressureHoldsNativeMemoryUnderTheLimit(ResourceCleanupStrategy s) {
    long limit = 4L << 20;
    try (EagerSession session =
        EagerSession.options()
            .async(true)
            .asyncQueueCapacity(4)
            .maxNativeBytes(limit)
            .resourceCleanupStrategy(s)
            .build()) {
      Ops tf = Ops.create(session);
      Operand<TFloat32> x = tf.constant(new float[64 * 1024]); // 256 KiB
      Operand<TFloat32> sum = tf.constant(new float[64 * 1024]);
      for (int i = 0; i < 2_000; i++) {
        try (EagerScope scope = session.newScope()) {
          Operand<TFloat32> y = tf.math.exp(x); // exp(0) = 1
          Operand<TFloat32> next = scope.keep(tf.math.add(sum, y));
          if (i > 0) {
            session.release(sum);
          }
          sum = next;
        }
      }
      session.sync();
      assertEquals(2000f, sum.asTensor().getFloat(7));
      assertTrue(session.stats().peakBytes() <= limit, "peak " + session.stats().peakBytes());
    }
  }

  /**
   * A loop of ops whose outputs are dropped at once, 32 times the limit in all: the queued
   * allocations that meet the limit are retried once after a collection, as building threads' are.
   */
  @ParameterizedTest
  @EnumSource(
      value = ResourceCleanupStrategy.class,
      names = {"IN_BACKGROUND", "ON_SAFE_POINTS"})
  void queuedAllocationsAtTheLimitCollectAndRetry(ResourceCleanupStrategy s) {
    long limit = 1L << 20;
    try (EagerSession session =
        EagerSession.options()
            .async(true)
            .maxNativeBytes(limit)
            .resourceCleanupStrategy(s)
            .build()) {
      Ops tf = Ops.create(session);
      Operand<TFloat32> x = tf.constant(new float[16 * 1024]); // 64 KiB
      for (int i = 0; i < 512; i++) {
        tf.math.neg(x); // unreachable as soon as it is built
      }
      Operand<TFloat32> last = tf.math.neg(tf.math.neg(x));
      assertTimeoutPreemptively(Duration.ofSeconds(60), session::sync);
      assertEquals(0f, last.asTensor().getFloat(7));
      SessionStats stats = session.stats();
      assertTrue(stats.peakBytes() <= limit, "peak " + stats.peakBytes());
      assertTrue(stats.freedByCleanup() > 0, stats.toString());
    }
  }

  @Test
  void queuedAllocationsAtTheLimitThrowUnderOnSessionClose() {
    long limit = 1L << 20;
    try (EagerSession session =
        EagerSession.options()
            .async(true)
            .maxNativeBytes(limit)
            .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
            .build()) {
      Ops tf = Ops.create(session);
      Operand<TFloat32> x = tf.constant(new float[16 * 1024]);
      for (int i = 0; i < 32; i++) {
        tf.math.neg(x);
      }
      assertThrows(NativeMemoryExhaustedException.class, session::sync);
      assertTrue(session.stats().peakBytes() <= limit);
      assertEquals(0, session.stats().gcRequests());
    }
  }

  @Test
  void theExecutorIsOneDaemonThreadThatHoldsNoSession() throws Exception {
    long before = executorThreads();
    EagerSession session = open(true, ResourceCleanupStrategy.ON_SESSION_CLOSE);
    Ops tf = Ops.create(session);
    tf.math.neg(tf.constant(1f)).asTensor();
    assertEquals(before + 1, executorThreads());
    assertTrue(
        Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().startsWith("eagerflow-exec-"))
            .allMatch(Thread::isDaemon));
    WeakReference<EagerSession> forgotten = new WeakReference<>(session);
    session = null;
    tf = null;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (forgotten.get() != null || executorThreads() > before) {
      if (System.nanoTime() > deadline) {
        fail("a forgotten asynchronous session was not collected, or its executor not joined");
      }
      System.gc();
      Thread.sleep(10);
    }
  }

  @Test
  void aClosedAsynchronousSessionRefusesSync() {
    EagerSession session = open(true, ResourceCleanupStrategy.IN_BACKGROUND);
    session.close();
    IllegalStateException e = assertThrows(IllegalStateException.class, session::sync);
    assertEquals("Eager session has been closed", e.getMessage());
  }
}
