package io.eagerflow;

import static io.eagerflow.TestSupport.add;
import static io.eagerflow.TestSupport.constant;
import static io.eagerflow.TestSupport.scalar;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.types.TFloat32;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ConcurrencyTest {

  private static Thread start(String name, Runnable body, ConcurrentLinkedQueue<Throwable> errors) {
    Thread t =
        new Thread(
            () -> {
              try {
                body.run();
              } catch (Throwable e) {
                errors.add(e);
              }
            },
            name);
    t.start();
    return t;
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void manyThreadsRunOpsWhileOthersReleaseAndTheGcRuns(ResourceCleanupStrategy strategy)
      throws Exception {
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Output<TFloat32>> toRelease = new ConcurrentLinkedQueue<>();
    AtomicBoolean stop = new AtomicBoolean();
    long before = NativeMemory.liveBytes();
    EagerSession s = EagerSession.options().resourceCleanupStrategy(strategy).build();
    Output<TFloat32> shared = constant(s, 1f, 2f, 3f);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < 8; w++) {
      float k = w;
      threads.add(
          start(
              "worker-" + w,
              () -> {
                for (int i = 0; i < 2_000; i++) {
                  Output<TFloat32> y = add(s, shared, scalar(s, k + i));
                  float[] v = y.asTensor().toArray();
                  if (v[0] != 1f + k + i || v[2] != 3f + k + i) {
                    throw new AssertionError("wrong value " + v[0] + " at " + k + "/" + i);
                  }
                  if (i % 3 == 0) {
                    toRelease.add(y);
                  }
                }
              },
              errors));
    }
    for (int r = 0; r < 2; r++) {
      threads.add(
          start(
              "releaser-" + r,
              () -> {
                while (!stop.get() || !toRelease.isEmpty()) {
                  Output<TFloat32> o = toRelease.poll();
                  if (o != null) {
                    s.release(o);
                  } else {
                    Thread.onSpinWait();
                  }
                }
              },
              errors));
    }
    Thread gc =
        start(
            "gc",
            () -> {
              while (!stop.get()) {
                System.gc();
                try {
                  Thread.sleep(20);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            errors);
    for (Thread t : threads.subList(0, 8)) {
      t.join();
    }
    stop.set(true);
    for (Thread t : threads) {
      t.join();
    }
    gc.join();
    assertTrue(errors.isEmpty(), () -> "errors: " + errors);
    SessionStats st = s.stats();
    assertEquals(
        st.createdTensors(),
        st.freedExplicitly()
            + st.freedByScope()
            + st.freedByCleanup()
            + st.freedAtClose()
            + st.liveTensors());
    assertTrue(st.freedExplicitly() >= 8 * 667, "released outputs were freed: " + st);
    s.close();
    assertEquals(0, s.stats().liveTensors());
    assertEquals(0, s.stats().liveBytes());
    assertTrue(NativeMemory.liveBytes() <= before);
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void closingUnderRunningThreadsOnlyEverThrowsIllegalState(ResourceCleanupStrategy strategy)
      throws Exception {
    for (int round = 0; round < 20; round++) {
      ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
      EagerSession s = EagerSession.options().resourceCleanupStrategy(strategy).build();
      Output<TFloat32> x = constant(s, 1f, 2f);
      CountDownLatch running = new CountDownLatch(6);
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < 6; w++) {
        threads.add(
            start(
                "op-" + w,
                () -> {
                  running.countDown();
                  try {
                    while (true) {
                      Output<TFloat32> y = add(s, x, scalar(s, 1f));
                      y.asTensor().getFloat(1);
                      y.shape();
                      if ((System.nanoTime() & 7) == 0) {
                        s.release(y);
                      }
                    }
                  } catch (IllegalStateException expected) {
                    // the only exception allowed once the session closes
                  }
                },
                errors));
      }
      assertTrue(running.await(10, TimeUnit.SECONDS));
      s.close();
      for (Thread t : threads) {
        t.join(10_000);
        assertTrue(!t.isAlive(), "thread ended");
      }
      assertTrue(errors.isEmpty(), () -> "round " + errors);
      assertEquals(0, s.stats().liveTensors());
    }
  }
}
