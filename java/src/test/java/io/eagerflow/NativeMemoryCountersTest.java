package io.eagerflow;

import static io.eagerflow.TestSupport.add;
import static io.eagerflow.TestSupport.await;
import static io.eagerflow.TestSupport.constant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.internal.ProcessMemory;
import io.eagerflow.internal.SessionAccess;
import io.eagerflow.internal.Wire;
import io.eagerflow.types.TFloat32;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.tensorflow.ndarray.Shape;

/**
 * The process-wide counts of {@link NativeMemory} and the scope count of {@link SessionStats}: each
 * free reason moves its own counter, sessions closed long ago still count, and every snapshot adds
 * up. Other test classes run before this one (never at the same time), and the library's cleaner
 * may still close their forgotten sessions and tensors now: counts that it moves are checked as
 * growing at least by this test's work, the others exactly.
 */
class NativeMemoryCountersTest {
  private static final Duration GC_TIMEOUT = Duration.ofSeconds(30);

  /** One consistent snapshot (each {@code NativeMemory} method reads its own). */
  private record Snapshot(long[] v) {
    static Snapshot now() {
      return new Snapshot(ProcessMemory.stats());
    }

    long get(int i) {
      return v[i];
    }

    long frees() {
      return v[Wire.MEMORY_FREED_EXPLICITLY]
          + v[Wire.MEMORY_FREED_BY_SCOPE]
          + v[Wire.MEMORY_FREED_BY_CLEANUP]
          + v[Wire.MEMORY_FREED_AT_CLOSE];
    }

    void assertBalanced() {
      assertEquals(
          v[Wire.MEMORY_CREATED_TENSORS],
          frees() + v[Wire.MEMORY_LIVE_TENSORS],
          () -> "created == frees + live in " + java.util.Arrays.toString(v));
    }
  }

  private static final int[] MONOTONIC = {
    Wire.MEMORY_CREATED_TENSORS,
    Wire.MEMORY_FREED_EXPLICITLY,
    Wire.MEMORY_FREED_BY_SCOPE,
    Wire.MEMORY_FREED_BY_CLEANUP,
    Wire.MEMORY_FREED_AT_CLOSE,
    Wire.MEMORY_GC_REQUESTS,
    Wire.MEMORY_LIMIT_EXHAUSTIONS
  };

  @Test
  void eachFreeReasonMovesItsOwnCounterInTheSessionAndTheProcess() {
    Snapshot before = Snapshot.now();
    SessionStats st;
    EagerSession s =
        EagerSession.options()
            .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SAFE_POINTS)
            .build();
    try (s) {
      Output<TFloat32> x = constant(s, 1f, 2f);
      s.release(add(s, x, x), add(s, x, x));
      Output<TFloat32> kept;
      try (EagerScope scope = s.newScope()) {
        add(s, add(s, x, x), x);
        kept = scope.keep(add(s, x, x));
      }
      for (int i = 0; i < 4; i++) {
        add(s, x, x); // garbage for the strategy
      }
      await(
          "the cleanup strategy to free the garbage",
          GC_TIMEOUT,
          () -> {
            System.gc();
            s.opBuilder("AddV2", null); // a safe point
          },
          () -> s.stats().freedByCleanup() == 4);
      try (TFloat32 standalone = TFloat32.scalarOf(3f)) {
        assertEquals(3f, standalone.getFloat());
      }
      Reference.reachabilityFence(kept); // freed at close, not by the strategy
    }
    st = s.stats();
    assertEquals(10, st.createdTensors(), String.valueOf(st));
    assertEquals(2, st.freedExplicitly(), "the released ones");
    assertEquals(2, st.freedByScope(), "the scope's unkept ones");
    assertEquals(4, st.freedByCleanup());
    assertEquals(2, st.freedAtClose(), "x and the kept one");
    assertEquals(
        st.createdTensors(),
        st.freedExplicitly() + st.freedByScope() + st.freedByCleanup() + st.freedAtClose());

    Snapshot after = Snapshot.now();
    after.assertBalanced();
    // Nothing but this test releases or closes scopes: those two are exact.
    assertEquals(
        st.freedExplicitly() + 1,
        after.get(Wire.MEMORY_FREED_EXPLICITLY) - before.get(Wire.MEMORY_FREED_EXPLICITLY),
        "the session's releases and the standalone tensor's close");
    assertEquals(
        st.freedByScope(),
        after.get(Wire.MEMORY_FREED_BY_SCOPE) - before.get(Wire.MEMORY_FREED_BY_SCOPE));
    long created = after.get(Wire.MEMORY_CREATED_TENSORS) - before.get(Wire.MEMORY_CREATED_TENSORS);
    assertTrue(created >= st.createdTensors() + 1, "created " + created);
    assertTrue(
        after.get(Wire.MEMORY_FREED_BY_CLEANUP) - before.get(Wire.MEMORY_FREED_BY_CLEANUP)
            >= st.freedByCleanup());
    assertTrue(
        after.get(Wire.MEMORY_FREED_AT_CLOSE) - before.get(Wire.MEMORY_FREED_AT_CLOSE)
            >= st.freedAtClose());
    assertEquals(after.get(Wire.MEMORY_CREATED_TENSORS), NativeMemory.createdTensors());
    assertEquals(after.get(Wire.MEMORY_FREED_BY_SCOPE), NativeMemory.freedByScope());
  }

  @Test
  void everySnapshotAddsUpAndNoCountGoesDownWhileThreadsWork() throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> workers = new ArrayList<>();
    List<Throwable> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
    for (ResourceCleanupStrategy strategy : ResourceCleanupStrategy.values()) {
      Thread t =
          new Thread(
              () -> {
                try {
                  while (!stop.get()) {
                    churn(strategy);
                  }
                } catch (Throwable e) {
                  errors.add(e);
                }
              },
              "counters-" + strategy);
      t.start();
      workers.add(t);
    }
    Snapshot last = Snapshot.now();
    long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
    int snapshots = 0;
    while (System.nanoTime() < deadline || snapshots < 100) {
      Snapshot now = Snapshot.now();
      now.assertBalanced();
      for (int i : MONOTONIC) {
        assertTrue(now.get(i) >= last.get(i), "counter " + i + " went down");
      }
      last = now;
      snapshots++;
    }
    stop.set(true);
    for (Thread t : workers) {
      t.join();
    }
    assertTrue(errors.isEmpty(), () -> "errors: " + errors);
    Snapshot end = Snapshot.now();
    end.assertBalanced();
    assertTrue(end.get(Wire.MEMORY_FREED_BY_SCOPE) > 0 && end.get(Wire.MEMORY_FREED_AT_CLOSE) > 0);
  }

  /** A short-lived session that frees by every reason. */
  private static void churn(ResourceCleanupStrategy strategy) {
    try (EagerSession s = EagerSession.options().resourceCleanupStrategy(strategy).build()) {
      Output<TFloat32> x = constant(s, 1f);
      for (int i = 0; i < 20; i++) {
        try (EagerScope scope = s.newScope()) {
          add(s, x, x);
        }
        s.release(add(s, x, x));
        add(s, x, x);
      }
      try (TFloat32 t = TFloat32.scalarOf(1f)) {
        t.getFloat();
      }
    }
  }

  @Test
  void openSessionsCountsTheSessionsNotClosedYet() {
    List<EagerSession> sessions = new ArrayList<>();
    for (ResourceCleanupStrategy strategy : ResourceCleanupStrategy.values()) {
      sessions.add(EagerSession.options().resourceCleanupStrategy(strategy).build());
    }
    long open = NativeMemory.openSessions();
    assertTrue(open >= 3, "open " + open);
    for (EagerSession s : sessions) {
      s.close();
    }
    // The cleaner may close forgotten sessions of other tests meanwhile; nothing opens one.
    assertTrue(NativeMemory.openSessions() <= open - 3);
  }

  @Test
  void limitExhaustionsCountEachExceptionThatReachesTheCaller() {
    long before = NativeMemory.limitExhaustions();
    long gcBefore = NativeMemory.gcRequests();
    for (ResourceCleanupStrategy strategy :
        List.of(ResourceCleanupStrategy.ON_SESSION_CLOSE, ResourceCleanupStrategy.IN_BACKGROUND)) {
      try (EagerSession s =
          EagerSession.options()
              .resourceCleanupStrategy(strategy)
              .maxNativeBytes(8L << 20)
              .build()) {
        List<Output<TFloat32>> held = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
          held.add(MemoryPressureTest.mib(s));
        }
        // Held, so the collection and retry of IN_BACKGROUND free nothing: one exception each.
        for (int attempt = 0; attempt < 2; attempt++) {
          assertThrows(NativeMemoryExhaustedException.class, () -> twoMib(s));
        }
        assertEquals(7, held.size());
      }
    }
    assertEquals(4, NativeMemory.limitExhaustions() - before, "two per session, retries uncounted");
    assertTrue(NativeMemory.gcRequests() > gcBefore, "IN_BACKGROUND collected before retrying");
  }

  @Test
  void theEightComponentConstructorStillCompilesAndCountsNoScope() {
    SessionStats s = new SessionStats(1, 2, 3, 10, 4, 3, 2, 5);
    assertEquals(0, s.freedByScope());
    assertEquals(5, s.gcRequests());
    assertEquals(new SessionStats(1, 2, 3, 10, 4, 3, 2, 5, 0), s);
  }

  /** A 2 MiB float constant. */
  private static Output<TFloat32> twoMib(EagerSession s) {
    return SessionAccess.get().constant(s, DataType.FLOAT, Shape.of(1 << 19), new float[1 << 19]);
  }
}
