package io.eagerflow;

import static io.eagerflow.TestSupport.add;
import static io.eagerflow.TestSupport.constant;
import static io.eagerflow.TestSupport.scalar;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.types.TFloat32;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * CI-sized stress: in each round one session per cleanup strategy is shared by 8 worker threads
 * that run ops on a random session, check every value, release some outputs and drop the
 * references to others, while a thread calls {@code System.gc()} and another closes the sessions
 * one by one under the running workers. A call that races a close may only end in {@link
 * IllegalStateException}; after close nothing is live; process-wide bytes return to the baseline.
 */
class StressTest {
  private static final int ROUNDS = 6;
  private static final int WORKERS = 8;
  /** Ops the workers complete (across sessions) before the next session is closed. */
  private static final long OPS_BETWEEN_CLOSES = 2_000;

  @Test
  void opsReleasesGcAndClosesRaceOnSessionsOfEveryStrategy() throws Exception {
    ResourceCleanupStrategy[] strategies = ResourceCleanupStrategy.values();
    long baseline = NativeMemory.liveBytes();
    AtomicLong completed = new AtomicLong();
    AtomicLong refusedAfterClose = new AtomicLong();
    for (int round = 0; round < ROUNDS; round++) {
      EagerSession[] sessions = new EagerSession[strategies.length];
      List<Output<TFloat32>> shared = new ArrayList<>();
      for (int i = 0; i < strategies.length; i++) {
        sessions[i] = EagerSession.options().resourceCleanupStrategy(strategies[i]).build();
        shared.add(constant(sessions[i], 1f, 2f, 3f));
      }
      ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
      AtomicBoolean stop = new AtomicBoolean();
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < WORKERS; w++) {
        threads.add(
            start(
                () -> {
                  ThreadLocalRandom rnd = ThreadLocalRandom.current();
                  List<Output<TFloat32>> held = new ArrayList<>();
                  while (!allClosed(sessions)) {
                    int i = rnd.nextInt(sessions.length);
                    EagerSession s = sessions[i];
                    int k = rnd.nextInt(1000);
                    try {
                      Output<TFloat32> y = add(s, shared.get(i), scalar(s, k));
                      float[] v = y.asTensor().toArray();
                      if (v.length != 3 || v[0] != 1f + k || v[1] != 2f + k || v[2] != 3f + k) {
                        throw new AssertionError("wrong value on " + strategies[i] + " for " + k);
                      }
                      switch (rnd.nextInt(3)) {
                        case 0 -> s.release(y);
                        case 1 -> held.add(y);
                        default -> {} // dropped at once
                      }
                      if (held.size() > 64) {
                        held.clear(); // references dropped: the strategy's to free
                      }
                      completed.incrementAndGet();
                    } catch (IllegalStateException e) {
                      if (!s.isClosed()) {
                        throw new AssertionError("IllegalStateException on an open session", e);
                      }
                      refusedAfterClose.incrementAndGet();
                    }
                  }
                },
                errors));
      }
      Thread gc =
          start(
              () -> {
                while (!stop.get()) {
                  System.gc();
                  Thread.onSpinWait();
                  Thread.yield();
                }
              },
              errors);
      // Close the sessions one by one, each after the workers have completed more ops.
      long next = completed.get();
      for (EagerSession s : sessions) {
        next += OPS_BETWEEN_CLOSES;
        while (completed.get() < next && errors.isEmpty()) {
          Thread.onSpinWait();
        }
        s.close();
      }
      for (Thread t : threads) {
        t.join(60_000);
        assertFalse(t.isAlive(), "a worker did not end");
      }
      stop.set(true);
      gc.join(60_000);
      assertTrue(errors.isEmpty(), () -> "round " + errors);
      for (EagerSession s : sessions) {
        SessionStats st = s.stats();
        assertEquals(0, st.liveTensors(), String.valueOf(st));
        assertEquals(0, st.liveBytes(), String.valueOf(st));
        assertEquals(
            st.createdTensors(),
            st.freedExplicitly() + st.freedByCleanup() + st.freedAtClose(),
            String.valueOf(st));
      }
    }
    assertTrue(NativeMemory.liveBytes() <= baseline, "process bytes back to the baseline");
    System.out.println(
        "StressTest: "
            + completed.get()
            + " ops completed, "
            + refusedAfterClose.get()
            + " refused after close, "
            + ROUNDS * strategies.length
            + " sessions");
  }

  private static boolean allClosed(EagerSession[] sessions) {
    for (EagerSession s : sessions) {
      if (!s.isClosed()) {
        return false;
      }
    }
    return true;
  }

  private static Thread start(Runnable body, ConcurrentLinkedQueue<Throwable> errors) {
    Thread t =
        new Thread(
            () -> {
              try {
                body.run();
              } catch (Throwable e) {
                errors.add(e);
              }
            });
    t.start();
    return t;
  }
}
