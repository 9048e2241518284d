package io.eagerflow;

import static io.eagerflow.TestSupport.add;
import static io.eagerflow.TestSupport.await;
import static io.eagerflow.TestSupport.cleanupThreads;
import static io.eagerflow.TestSupport.constant;
import static io.eagerflow.TestSupport.scalar;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.internal.TestHooks;
import io.eagerflow.types.TFloat32;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class EagerSessionTest {
  private static final Duration GC_TIMEOUT = Duration.ofSeconds(30);

  private static EagerSession open(ResourceCleanupStrategy strategy) {
    return EagerSession.options().resourceCleanupStrategy(strategy).build();
  }

  /** Makes outputs nobody refers to once this returns; the canary tells when the GC saw them. */
  private static WeakReference<Object> makeGarbage(EagerSession s, int ops) {
    Output<TFloat32> x = constant(s, 1f, 2f);
    Output<TFloat32> last = x;
    for (int i = 0; i < ops; i++) {
      last = add(s, last, x);
    }
    return new WeakReference<>(last);
  }

  @Test
  void closingTwiceIsFine() {
    try (EagerSession s = EagerSession.create()) {
      s.close();
      assertTrue(s.isClosed());
    }
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void everyCallAfterCloseThrows(ResourceCleanupStrategy strategy) {
    EagerSession s = open(strategy);
    Output<TFloat32> x = constant(s, 1f, 2f);
    TFloat32 view = x.asTensor();
    OperationBuilder pending = s.opBuilder("AddV2", null).addInput(x).addInput(x);
    s.close();
    String closed = "Eager session has been closed";
    assertEquals(
        closed,
        assertThrows(IllegalStateException.class, () -> s.opBuilder("AddV2", null)).getMessage());
    assertEquals(
        closed, assertThrows(IllegalStateException.class, () -> s.release(x)).getMessage());
    assertEquals(closed, assertThrows(IllegalStateException.class, x::asTensor).getMessage());
    assertEquals(closed, assertThrows(IllegalStateException.class, x::shape).getMessage());
    assertEquals(closed, assertThrows(IllegalStateException.class, x::dataType).getMessage());
    assertEquals(
        closed, assertThrows(IllegalStateException.class, () -> view.getFloat(0)).getMessage());
    assertEquals(closed, assertThrows(IllegalStateException.class, view::toArray).getMessage());
    assertEquals(closed, assertThrows(IllegalStateException.class, pending::build).getMessage());
    assertEquals(
        closed, assertThrows(IllegalStateException.class, () -> constant(s, 1f)).getMessage());
    assertTrue(s.isClosed());
    assertEquals(0, s.stats().liveTensors());
    s.close();
  }

  @Test
  void defaultSessionCannotBeClosedNorReinitialized() {
    EagerSession d = EagerSession.getDefault();
    assertNotNull(d);
    assertEquals(d, EagerSession.getDefault());
    assertThrows(IllegalStateException.class, d::close);
    assertThrows(
        IllegalStateException.class, () -> EagerSession.initDefault(EagerSession.options()));
    assertFalse(d.isClosed());
  }

  @Test
  void aQueueCapacityMustBePositive() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> EagerSession.options().async(true).asyncQueueCapacity(0));
    assertTrue(e.getMessage().contains("asyncQueueCapacity"));
  }

  @Test
  void unknownOpTypeIsIllegalArgument() {
    try (EagerSession s = EagerSession.create()) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> s.opBuilder("NoSuchOp", null));
      assertTrue(e.getMessage().contains("NoSuchOp"), e.getMessage());
    }
  }

  @Test
  void inBackgroundRunsOneThreadPerOpenSession() {
    long before = cleanupThreads();
    EagerSession a = open(ResourceCleanupStrategy.IN_BACKGROUND);
    EagerSession b = open(ResourceCleanupStrategy.IN_BACKGROUND);
    assertEquals(before + 2, cleanupThreads());
    a.close();
    assertEquals(before + 1, cleanupThreads(), "close() joins the thread before returning");
    b.close();
    assertEquals(before, cleanupThreads());
  }

  @Test
  void otherStrategiesStartNoThread() {
    long before = cleanupThreads();
    try (EagerSession a = open(ResourceCleanupStrategy.ON_SAFE_POINTS);
        EagerSession b = open(ResourceCleanupStrategy.ON_SESSION_CLOSE)) {
      add(a, scalar(a, 1f), scalar(a, 2f));
      add(b, scalar(b, 1f), scalar(b, 2f));
      assertEquals(before, cleanupThreads());
    }
  }

  @Test
  void inBackgroundFreesUnreachableOutputsWithoutFurtherCalls() {
    try (EagerSession s = open(ResourceCleanupStrategy.IN_BACKGROUND)) {
      makeGarbage(s, 100);
      // Only pure reads from here on: the session's own thread must do the freeing.
      await("background cleanup", GC_TIMEOUT, System::gc, () -> s.stats().freedByCleanup() >= 100);
      SessionStats st = s.stats();
      assertEquals(
          st.createdTensors(),
          st.freedExplicitly()
              + st.freedByScope()
              + st.freedByCleanup()
              + st.freedAtClose()
              + st.liveTensors());
    }
  }

  @Test
  void onSafePointsFreesOnlyAtTheNextCall() {
    try (EagerSession s = open(ResourceCleanupStrategy.ON_SAFE_POINTS)) {
      WeakReference<Object> canary = makeGarbage(s, 100);
      long live = s.stats().liveTensors();
      await("the GC to find the outputs", GC_TIMEOUT, System::gc, () -> canary.get() == null);
      assertEquals(0, s.stats().freedByCleanup(), "nothing is freed without a call");
      assertEquals(live, s.stats().liveTensors());
      // The next call on the session frees them first (retried until the GC has queued them all).
      await(
          "a safe point to free the garbage",
          GC_TIMEOUT,
          () -> s.opBuilder("AddV2", null),
          () -> s.stats().freedByCleanup() >= 100);
    }
  }

  @Test
  void onSessionCloseFreesNothingBeforeClose() {
    EagerSession s = open(ResourceCleanupStrategy.ON_SESSION_CLOSE);
    WeakReference<Object> canary = makeGarbage(s, 100);
    long created = s.stats().createdTensors();
    await("the GC to find the outputs", GC_TIMEOUT, System::gc, () -> canary.get() == null);
    for (int i = 0; i < 10; i++) {
      add(s, scalar(s, 1f), scalar(s, 2f)); // safe points do nothing under this strategy
    }
    SessionStats st = s.stats();
    assertEquals(0, st.freedByCleanup());
    assertEquals(st.createdTensors(), st.liveTensors());
    assertTrue(created <= st.liveTensors());
    s.close();
    SessionStats last = s.stats();
    assertEquals(0, last.liveTensors());
    assertEquals(0, last.liveBytes());
    assertEquals(last.createdTensors(), last.freedAtClose());
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void releaseFreesAtOnceAndLaterUseNamesTheOperand(ResourceCleanupStrategy strategy) {
    try (EagerSession s = open(strategy)) {
      Output<TFloat32> x = constant(s, 1f, 2f, 3f, 4f);
      Output<TFloat32> y = add(s, x, x);
      long liveBytes = s.stats().liveBytes();
      s.release(y);
      assertEquals(liveBytes - 16, s.stats().liveBytes());
      assertEquals(1, s.stats().freedExplicitly());
      s.release(y); // twice is a no-op
      assertEquals(1, s.stats().freedExplicitly());
      IllegalStateException e = assertThrows(IllegalStateException.class, y::asTensor);
      assertTrue(e.getMessage().contains(y.op().name()), e.getMessage());
      assertThrows(IllegalStateException.class, y::shape);
      assertThrows(IllegalStateException.class, () -> add(s, y, x));
      assertArrayEquals(new float[] {1f, 2f, 3f, 4f}, x.asTensor().toArray());
    }
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void readsThroughAReleasedOperandsTensorThrow(ResourceCleanupStrategy strategy) {
    try (EagerSession s = open(strategy)) {
      Output<TFloat32> x = constant(s, 5f);
      TFloat32 t = x.asTensor();
      assertEquals(5f, t.getFloat(0));
      s.release(x);
      assertThrows(IllegalStateException.class, () -> t.getFloat(0));
      assertThrows(
          UnsupportedOperationException.class, () -> constant(s, 1f).asTensor().setFloat(2f, 0));
      t.close(); // harmless on a view
    }
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void closeFreesEverything(ResourceCleanupStrategy strategy) {
    long before = NativeMemory.liveBytes();
    EagerSession s = open(strategy);
    List<Output<TFloat32>> keep = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      keep.add(add(s, constant(s, new float[1000]), scalar(s, i)));
    }
    assertTrue(NativeMemory.liveBytes() >= before + 50 * 4000);
    s.close();
    assertEquals(0, s.stats().liveTensors());
    assertEquals(0, s.stats().liveBytes());
    assertTrue(NativeMemory.liveBytes() <= before, "process-wide bytes are back");
    assertEquals(50, keep.size());
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void asTensorKeepsATemporaryAlive(ResourceCleanupStrategy strategy) {
    try (EagerSession s = open(strategy)) {
      for (int i = 0; i < 200; i++) {
        TFloat32 t = add(s, constant(s, 1f, 2f), scalar(s, i)).asTensor();
        System.gc();
        add(s, scalar(s, 0f), scalar(s, 0f)); // a safe point, after the GC
        assertEquals(2f + i, t.getFloat(1));
      }
    }
  }

  @Test
  void aPanicSurfacesAsAnExceptionAndTheSessionKeepsWorking() {
    try (EagerSession s = EagerSession.create()) {
      RuntimeException e =
          assertThrows(RuntimeException.class, () -> TestHooks.panicForTest("on purpose"));
      assertTrue(e.getMessage().contains("on purpose"), e.getMessage());
      assertEquals(3f, add(s, scalar(s, 1f), scalar(s, 2f)).asTensor().getFloat());
    }
  }

  @Test
  void statsAfterCloseAreTheFinalCounts() {
    EagerSession s =
        EagerSession.options()
            .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
            .build();
    Output<TFloat32> x = constant(s, 1f);
    add(s, x, x);
    s.release(x);
    s.close();
    SessionStats st = s.stats();
    assertEquals(2, st.createdTensors());
    assertEquals(1, st.freedExplicitly());
    assertEquals(1, st.freedAtClose());
    assertEquals(8, st.peakBytes());
  }
}
