package io.eagerflow.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.types.TFloat32;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** One {@code Ops} shared by several threads. */
class OpsConcurrencyTest {
  private static final int THREADS = 4;

  @Test
  void sharedOpsGiveEachThreadItsOwnResults() throws Exception {
    try (EagerSession session = EagerSession.create()) {
      Ops tf = Ops.create(session);
      AtomicReference<Throwable> failure = new AtomicReference<>();
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        float base = t * 1000;
        Thread th =
            new Thread(
                () -> {
                  try {
                    Operand<TFloat32> acc = tf.constant(base);
                    Operand<TFloat32> one = tf.constant(1f);
                    for (int i = 0; i < 2000; i++) {
                      acc = tf.math.add(acc, one);
                    }
                    assertEquals(base + 2000, acc.asTensor().getFloat());
                  } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                  }
                });
        threads.add(th);
        th.start();
      }
      for (Thread th : threads) {
        th.join();
      }
      if (failure.get() != null) {
        throw new AssertionError(failure.get());
      }
    }
  }

  @Test
  void closingUnderRunningThreadsEndsThemWithIllegalStateException() throws Exception {
    EagerSession session = EagerSession.create();
    Ops tf = Ops.create(session);
    AtomicReference<Throwable> unexpected = new AtomicReference<>();
    CountDownLatch running = new CountDownLatch(THREADS);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      Thread th =
          new Thread(
              () -> {
                try {
                  Operand<TFloat32> x = tf.constant(new float[] {1, 2, 3});
                  running.countDown();
                  while (true) {
                    x = tf.math.add(x, tf.constant(1f));
                  }
                } catch (IllegalStateException expected) {
                  // what closing must produce
                } catch (Throwable e) {
                  unexpected.compareAndSet(null, e);
                } finally {
                  running.countDown();
                }
              });
      threads.add(th);
      th.start();
    }
    running.await();
    session.close();
    for (Thread th : threads) {
      th.join(10_000);
      assertTrue(!th.isAlive(), "thread still running after close");
    }
    if (unexpected.get() != null) {
      throw new AssertionError(unexpected.get());
    }
  }
}
