package io.eagerflow;

import static io.eagerflow.TestSupport.add;
import static io.eagerflow.TestSupport.await;
import static io.eagerflow.TestSupport.constant;
import static io.eagerflow.TestSupport.scalar;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The rules of {@link EagerScope} (API.md "Scopes"), under every cleanup strategy. */
class EagerScopeTest {
  private static final Duration GC_TIMEOUT = Duration.ofSeconds(30);
  private static final int VECTOR_BYTES = 2 * Float.BYTES;

  private static EagerSession open(ResourceCleanupStrategy strategy) {
    return EagerSession.options().resourceCleanupStrategy(strategy).build();
  }

  /** createdTensors = freedExplicitly + freedByScope + freedByCleanup + freedAtClose + live. */
  private static void assertBalanced(SessionStats st) {
    assertEquals(
        st.createdTensors(),
        st.freedExplicitly()
            + st.freedByScope()
            + st.freedByCleanup()
            + st.freedAtClose()
            + st.liveTensors(),
        st.toString());
  }

  /** Runs {@code task} on a new thread and returns what it returned, or rethrows what it threw. */
  private static <T> T onOtherThread(Supplier<T> task) throws Exception {
    CompletableFuture<T> result = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                result.complete(task.get());
              } catch (Throwable e) {
                result.completeExceptionally(e);
              }
            },
            "scope-test-other");
    t.start();
    t.join();
    try {
      return result.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void closeFreesEverythingCreatedInTheScopeAtOnce(ResourceCleanupStrategy strategy) {
    try (EagerSession s = open(strategy)) {
      Output<TFloat32> x = constant(s, 1f, 2f);
      SessionStats before = s.stats();
      Output<TFloat32> y;
      try (EagerScope scope = s.newScope()) {
        Output<TFloat32> c = constant(s, 3f, 4f);
        y = add(s, x, c);
        add(s, y, y);
        SessionStats inside = s.stats();
        assertEquals(before.liveTensors() + 3, inside.liveTensors());
        assertEquals(before.liveBytes() + 3 * VECTOR_BYTES, inside.liveBytes());
      }
      SessionStats after = s.stats();
      assertEquals(before.createdTensors() + 3, after.createdTensors());
      assertEquals(before.freedByScope() + 3, after.freedByScope());
      assertEquals(
          before.freedExplicitly(), after.freedExplicitly(), "a scope's frees are its own");
      assertEquals(before.freedByCleanup(), after.freedByCleanup());
      assertEquals(before.liveTensors(), after.liveTensors());
      assertEquals(before.liveBytes(), after.liveBytes());
      assertBalanced(after);
      assertArrayEquals(new float[] {1f, 2f}, x.asTensor().toArray(), "made outside: untouched");
    }
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void useAfterTheScopeClosedThrowsNamingTheOperand(ResourceCleanupStrategy strategy) {
    try (EagerSession s = open(strategy)) {
      Output<TFloat32> x = constant(s, 1f, 2f);
      Output<TFloat32> y;
      TFloat32 view;
      try (EagerScope scope = s.newScope()) {
        y = add(s, x, x);
        view = y.asTensor();
        assertEquals(2f, view.getFloat(0));
      }
      String name = y.op().name() + ":0";
      for (org.junit.jupiter.api.function.Executable use :
          List.<org.junit.jupiter.api.function.Executable>of(
              y::shape,
              y::dataType,
              y::asTensor,
              () -> view.getFloat(0),
              view::toArray,
              () -> add(s, y, x),
              () -> s.opBuilder("AddV2", null).addInput(x).addInput(y))) {
        IllegalStateException e = assertThrows(IllegalStateException.class, use);
        assertTrue(e.getMessage().contains(name), e.getMessage());
        assertTrue(e.getMessage().contains("EagerScope"), e.getMessage());
      }
      assertDoesNotThrow(() -> s.release(y), "releasing what a scope freed is a no-op");
      assertBalanced(s.stats());
    }
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void nestedScopesEachFreeTheirOwnAndKeepMovesToTheParent(ResourceCleanupStrategy strategy) {
    try (EagerSession s = open(strategy)) {
      Output<TFloat32> x = constant(s, 1f, 2f);
      long base = s.stats().liveTensors();
      try (EagerScope outer = s.newScope()) {
        Output<TFloat32> a = add(s, x, x);
        Output<TFloat32> kept;
        Output<TFloat32> dropped;
        try (EagerScope inner = s.newScope()) {
          dropped = add(s, a, x);
          kept = inner.keep(add(s, a, a));
          assertEquals(base + 3, s.stats().liveTensors());
        }
        assertEquals(base + 2, s.stats().liveTensors(), "inner freed only its unkept output");
        assertThrows(IllegalStateException.class, dropped::shape);
        assertArrayEquals(new float[] {4f, 8f}, kept.asTensor().toArray());
        assertArrayEquals(new float[] {2f, 4f}, a.asTensor().toArray());
        // New tensors go to the outer scope again.
        add(s, kept, x);
        assertEquals(base + 3, s.stats().liveTensors());
        outer.close();
        assertThrows(IllegalStateException.class, kept::shape, "kept into outer: freed with it");
        assertThrows(IllegalStateException.class, a::shape);
      }
      SessionStats st = s.stats();
      assertEquals(base, st.liveTensors());
      assertEquals(4, st.freedByScope());
      assertBalanced(st);
    }
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void keepWithNoEnclosingScopeHandsTheTensorToTheSessionStrategy(
      ResourceCleanupStrategy strategy) {
    EagerSession s = open(strategy);
    Output<TFloat32> x = constant(s, 1f, 2f);
    long base = s.stats().liveTensors();
    java.lang.ref.WeakReference<Object> canary;
    try (EagerScope scope = s.newScope()) {
      add(s, x, x);
      Output<TFloat32> kept = scope.keep(add(s, x, x));
      canary = new java.lang.ref.WeakReference<>(kept.op());
      kept = null; // dropped while the scope is still open
    }
    SessionStats st = s.stats();
    assertEquals(base + 1, st.liveTensors(), "the kept tensor outlives its scope");
    assertEquals(1, st.freedByScope());
    // Collections until the kept op is found unreachable; the collection that clears the canary
    // also queues the op's phantom reference, so no further one is needed.
    await("the kept op to become unreachable", GC_TIMEOUT, System::gc, () -> canary.get() == null);
    if (strategy == ResourceCleanupStrategy.ON_SESSION_CLOSE) {
      constant(s, 0f); // a call that would be a safe point under ON_SAFE_POINTS
      assertEquals(0, s.stats().freedByCleanup(), "ON_SESSION_CLOSE frees nothing before close");
      s.close();
      assertEquals(base + 2, s.stats().freedAtClose());
    } else {
      // Tracked from keep() on: freed by the strategy once unreachable. No collection is requested
      // here: each would stop the cleanup thread that IN_BACKGROUND waits for (under qemu-user a
      // collection every few milliseconds starved it past the timeout).
      await(
          "the kept tensor to be freed by " + strategy,
          GC_TIMEOUT,
          () -> s.opBuilder("AddV2", null), // a safe point
          () -> s.stats().freedByCleanup() == 1);
      assertEquals(base, s.stats().liveTensors());
      s.close();
    }
    assertBalanced(s.stats());
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void theCleanupStrategyNeverFreesATensorOfAnOpenScope(ResourceCleanupStrategy strategy) {
    try (EagerSession s = open(strategy)) {
      Output<TFloat32> x = constant(s, 1f, 2f);
      try (EagerScope scope = s.newScope()) {
        for (int i = 0; i < 100; i++) {
          add(s, x, x); // unreachable at once, but owned by the scope
        }
        // Garbage made on another thread, outside any scope, is the strategy's to free: once it
        // is, the collection has also seen the scope's unreachable outputs.
        Thread other =
            new Thread(
                () -> {
                  for (int i = 0; i < 100; i++) {
                    add(s, x, x);
                  }
                });
        other.start();
        other.join();
        if (strategy != ResourceCleanupStrategy.ON_SESSION_CLOSE) {
          await(
              "the other thread's garbage to be freed",
              GC_TIMEOUT,
              () -> {
                System.gc();
                s.opBuilder("AddV2", null);
              },
              () -> s.stats().freedByCleanup() == 100);
        }
        assertEquals(
            1 + 100 + (strategy == ResourceCleanupStrategy.ON_SESSION_CLOSE ? 100 : 0),
            s.stats().liveTensors());
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
      SessionStats st = s.stats();
      assertEquals(100, st.freedByScope());
      assertBalanced(st);
    }
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void closingFromAnotherThreadThrowsAndChangesNothing(ResourceCleanupStrategy strategy)
      throws Exception {
    try (EagerSession s = open(strategy)) {
      Output<TFloat32> x = constant(s, 1f, 2f);
      EagerScope scope = s.newScope();
      Output<TFloat32> y = add(s, x, x);
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () ->
                  onOtherThread(
                      () -> {
                        scope.close();
                        return null;
                      }));
      assertTrue(e.getMessage().contains("confined to thread"), e.getMessage());
      assertThrows(IllegalStateException.class, () -> onOtherThread(() -> scope.keep(y)));
      // Still open, still owning y, and new tensors still go to it.
      assertArrayEquals(new float[] {2f, 4f}, y.asTensor().toArray());
      Output<TFloat32> z = add(s, y, x);
      long live = s.stats().liveTensors();
      scope.close();
      assertEquals(live - 2, s.stats().liveTensors());
      assertThrows(IllegalStateException.class, y::shape);
      assertThrows(IllegalStateException.class, z::shape);
      assertEquals(2, s.stats().freedByScope());
      assertBalanced(s.stats());
    }
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void closingOutOfOrderThrowsAndChangesNothing(ResourceCleanupStrategy strategy) {
    try (EagerSession s = open(strategy)) {
      Output<TFloat32> x = constant(s, 1f, 2f);
      EagerScope outer = s.newScope();
      Output<TFloat32> a = add(s, x, x);
      EagerScope inner = s.newScope();
      Output<TFloat32> b = add(s, x, x);
      IllegalStateException e = assertThrows(IllegalStateException.class, outer::close);
      assertTrue(e.getMessage().contains("out of order"), e.getMessage());
      // Both open; a new tensor still goes to the innermost scope.
      Output<TFloat32> c = add(s, a, b);
      long live = s.stats().liveTensors();
      inner.close();
      assertEquals(live - 2, s.stats().liveTensors(), "inner freed b and c");
      assertThrows(IllegalStateException.class, c::shape);
      assertArrayEquals(new float[] {2f, 4f}, a.asTensor().toArray(), "outer still open");
      outer.close();
      assertThrows(IllegalStateException.class, a::shape);
      assertEquals(3, s.stats().freedByScope());
      assertBalanced(s.stats());
      // The thread has no scope left on the session: new tensors belong to the session.
      Output<TFloat32> d = add(s, x, x);
      assertArrayEquals(new float[] {2f, 4f}, d.asTensor().toArray());
    }
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void otherThreadsDoNotSeeTheScope(ResourceCleanupStrategy strategy) throws Exception {
    try (EagerSession s = open(strategy)) {
      Output<TFloat32> x = constant(s, 1f, 2f);
      Output<TFloat32> theirs;
      try (EagerScope scope = s.newScope()) {
        theirs = onOtherThread(() -> add(s, x, x));
        add(s, x, x);
      }
      assertEquals(1, s.stats().freedByScope());
      assertArrayEquals(new float[] {2f, 4f}, theirs.asTensor().toArray());
    }
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void releaseInsideAScopeFreesAtOnceAndIsNotCountedTwice(ResourceCleanupStrategy strategy) {
    try (EagerSession s = open(strategy)) {
      Output<TFloat32> x = constant(s, 1f, 2f);
      long baseBytes = s.stats().liveBytes();
      Output<TFloat32> y;
      try (EagerScope scope = s.newScope()) {
        y = add(s, x, x);
        add(s, x, x);
        s.release(y);
        assertEquals(1, s.stats().freedExplicitly());
        assertEquals(baseBytes + VECTOR_BYTES, s.stats().liveBytes());
      }
      SessionStats st = s.stats();
      assertEquals(1, st.freedExplicitly(), "the released one");
      assertEquals(1, st.freedByScope(), "the other, not the released one again");
      assertEquals(baseBytes, st.liveBytes());
      assertBalanced(st);
      IllegalStateException e = assertThrows(IllegalStateException.class, y::shape);
      assertTrue(e.getMessage().endsWith("has been released"), e.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void closingTheSessionWithScopesOpenFreesEverything(ResourceCleanupStrategy strategy) {
    EagerSession s = open(strategy);
    Output<TFloat32> x = constant(s, 1f, 2f);
    EagerScope outer = s.newScope();
    Output<TFloat32> a = add(s, x, x);
    EagerScope inner = s.newScope();
    add(s, a, x);
    s.close();
    SessionStats st = s.stats();
    assertEquals(3, st.freedAtClose());
    assertEquals(0, st.freedExplicitly());
    assertEquals(0, st.freedByScope());
    assertEquals(0, st.liveBytes());
    assertBalanced(st);
    // Harmless afterwards, in any order; keep says the session is closed.
    assertDoesNotThrow(outer::close);
    assertDoesNotThrow(inner::close);
    assertDoesNotThrow(inner::close);
    assertEquals(
        "Eager session has been closed",
        assertThrows(IllegalStateException.class, a::shape).getMessage());
    assertThrows(IllegalStateException.class, s::newScope);
    assertEquals(st, s.stats());
  }

  @Test
  void keepOnAClosedSessionOrScopeThrows() {
    EagerSession s = EagerSession.create();
    Output<TFloat32> x = constant(s, 1f);
    EagerScope scope = s.newScope();
    Output<TFloat32> y = add(s, x, x);
    s.close();
    assertEquals(
        "Eager session has been closed",
        assertThrows(IllegalStateException.class, () -> scope.keep(y)).getMessage());
    scope.close(); // harmless after the session closed
    try (EagerSession t = EagerSession.create()) {
      EagerScope closed = t.newScope();
      Output<TFloat32> z = add(t, constant(t, 1f), constant(t, 2f));
      closed.close();
      closed.close(); // twice: a no-op
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> closed.keep(z));
      assertTrue(e.getMessage().contains("EagerScope has been closed"), e.getMessage());
      assertEquals(3, t.stats().freedByScope(), "counted once");
    }
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void keepOfAnOperandTheScopeDoesNotOwnReturnsItUnchanged(ResourceCleanupStrategy strategy) {
    try (EagerSession s = open(strategy);
        EagerSession other = open(strategy)) {
      Output<TFloat32> x = constant(s, 1f, 2f);
      Output<TFloat32> foreign = constant(other, 1f);
      try (EagerScope scope = s.newScope()) {
        assertSame(x, scope.keep(x));
        Output<TFloat32> y = scope.keep(add(s, x, x));
        assertSame(y, scope.keep(y), "twice: unchanged");
        assertThrows(IllegalArgumentException.class, () -> scope.keep(foreign));
        assertThrows(NullPointerException.class, () -> scope.keep(null));
        Output<TFloat32> released = add(s, x, x);
        s.release(released);
        IllegalStateException e =
            assertThrows(IllegalStateException.class, () -> scope.keep(released));
        assertTrue(e.getMessage().contains(released.op().name()), e.getMessage());
      }
      assertArrayEquals(new float[] {1f, 2f}, x.asTensor().toArray());
      assertEquals(1, s.stats().freedExplicitly(), "only the released one");
      assertBalanced(s.stats());
    }
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void keepingOneOutputOfAMultiOutputOpKeepsThatOutputOnly(ResourceCleanupStrategy strategy) {
    try (EagerSession s = open(strategy)) {
      Ops tf = Ops.create(s);
      Operand<TFloat32> m = tf.constant(new float[][] {{1f, 2f}, {3f, 4f}, {5f, 6f}});
      List<Operand<TFloat32>> rows;
      Operand<TFloat32> kept;
      try (EagerScope scope = s.newScope()) {
        rows = tf.unstack(m, 3);
        kept = scope.keep(rows.get(1));
      }
      assertArrayEquals(new float[] {3f, 4f}, kept.asTensor().toArray());
      assertThrows(IllegalStateException.class, rows.get(0)::shape);
      assertThrows(IllegalStateException.class, rows.get(2)::shape);
      assertEquals(2, s.stats().freedByScope());
      s.release(kept);
      assertEquals(1, s.stats().freedExplicitly());
      assertEquals(2, s.stats().freedByScope());
      assertBalanced(s.stats());
      assertEquals(1, s.stats().liveTensors());
    }
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void constantsAndOpsOfEveryKindBelongToTheScope(ResourceCleanupStrategy strategy) {
    try (EagerSession s = open(strategy)) {
      Ops tf = Ops.create(s);
      SessionStats before = s.stats();
      try (EagerScope scope = s.newScope();
          TFloat32 ones = TFloat32.vectorOf(1f, 1f, 1f, 1f)) {
        Operand<TFloat32> a = tf.constant(new float[] {1f, 2f, 3f, 4f});
        Operand<TFloat32> b = tf.constantOf(ones); // a standalone tensor is never the scope's
        Operand<TFloat32> c = tf.math.mul(a, b); // the fast path
        Operand<TFloat32> d =
            tf.reshape(c, tf.constant(new int[] {2, 2})); // the general path, shares the buffer
        tf.reduceSum(d, tf.constant(0));
        tf.split(tf.constant(0), a, 2);
      }
      SessionStats after = s.stats();
      long made = after.createdTensors() - before.createdTensors();
      assertEquals(10, made);
      assertEquals(made, after.freedByScope() - before.freedByScope());
      assertEquals(before.liveTensors(), after.liveTensors());
      assertEquals(before.liveBytes(), after.liveBytes());
    }
  }

  @Test
  void scopesOfDifferentSessionsAreIndependent() {
    try (EagerSession s = EagerSession.create();
        EagerSession t = EagerSession.create()) {
      Output<TFloat32> x = constant(s, 1f);
      Output<TFloat32> u = constant(t, 1f);
      EagerScope onS = s.newScope();
      EagerScope onT = t.newScope();
      Output<TFloat32> y = add(s, x, x);
      Output<TFloat32> v = add(t, u, u);
      onS.close(); // not out of order: onT belongs to another session
      assertThrows(IllegalStateException.class, y::shape);
      assertEquals(2f, v.asTensor().getFloat());
      Output<TFloat32> w = add(t, v, u);
      onT.close();
      assertThrows(IllegalStateException.class, w::shape);
      assertEquals(1, s.stats().freedByScope());
      assertEquals(2, t.stats().freedByScope());
    }
  }

  @Test
  void newScopeOnAClosedSessionThrows() {
    EagerSession s = EagerSession.create();
    s.close();
    assertEquals(
        "Eager session has been closed",
        assertThrows(IllegalStateException.class, s::newScope).getMessage());
  }

  /** Threads opening, nesting and closing scopes on one session at once each free their own. */
  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void concurrentScopesOnOneSession(ResourceCleanupStrategy strategy) throws Exception {
    int threads = 4;
    int iterations = 300;
    try (EagerSession s = open(strategy)) {
      Output<TFloat32> x = scalar(s, 1f);
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Float>> results = new ArrayList<>();
        for (int k = 0; k < threads; k++) {
          results.add(
              pool.submit(
                  () -> {
                    start.await();
                    Output<TFloat32> acc = scalar(s, 0f);
                    try (EagerScope outer = s.newScope()) {
                      for (int i = 0; i < iterations; i++) {
                        try (EagerScope scope = s.newScope()) {
                          Output<TFloat32> t = add(s, acc, x);
                          add(s, t, t);
                          acc = scope.keep(t);
                        }
                      }
                      acc = outer.keep(acc);
                    }
                    return acc.asTensor().getFloat();
                  }));
        }
        start.countDown();
        for (Future<Float> f : results) {
          assertEquals((float) iterations, f.get());
        }
      } finally {
        pool.shutdown();
      }
      SessionStats st = s.stats();
      // Per thread: 2 outputs per iteration, all freed by scopes except the last kept one.
      assertEquals((long) threads * (2L * iterations - 1), st.freedByScope());
      assertBalanced(st);
    }
  }
}
