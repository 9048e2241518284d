package io.eagerflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TInt64;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * First uses on several threads at once do not deadlock in class initialization, and {@code
 * close()} waits for calls in flight parked, not polling.
 */
class FirstUseRaceTest {
  private static final int JVMS = 6;

  /**
   * Run in a fresh JVM: several threads wait at a barrier, then each makes a different first use of
   * the tensor classes (a standalone tensor, {@code asTensor()}, a dtype lookup); then the session
   * is closed. A watchdog prints every thread's stack and exits with 2 if they do not all finish in
   * time. Written without lambdas, whose first use would initialize classes early.
   */
  public static final class Race {
    public static void main(String[] args) throws Exception {
      EagerSession session = EagerSession.create();
      Ops tf = Ops.create(session);
      // Op outputs exist, but no tensor class is initialized yet.
      Operand<TFloat32> x = tf.constant(new float[] {1f, 2f});
      Operand<TFloat32> y = tf.constant(3f);
      CyclicBarrier start = new CyclicBarrier(4);
      List<Thread> threads = new ArrayList<>();
      threads.add(
          new Racer("vectorOf", start) {
            @Override
            void first() {
              TFloat32.vectorOf(1f, 2f).close();
            }
          });
      threads.add(
          new Racer("asTensor", start) {
            @Override
            void first() {
              x.asTensor().getFloat(1);
            }
          });
      threads.add(
          new Racer("cast", start) {
            @Override
            void first() {
              tf.dtypes.cast(y, TInt64.class).asTensor();
            }
          });
      threads.add(
          new Racer("scalarOf", start) {
            @Override
            void first() {
              TInt32.scalarOf(7).close();
            }
          });
      Thread watchdog =
          new Thread("watchdog") {
            @Override
            public void run() {
              try {
                Thread.sleep(20_000);
              } catch (InterruptedException e) {
                return;
              }
              System.out.println("DEADLOCK: the first uses did not finish in 20 s; threads:");
              for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
                System.out.print(t);
              }
              System.out.flush();
              Runtime.getRuntime().halt(2);
            }
          };
      watchdog.setDaemon(true);
      watchdog.start();
      for (Thread t : threads) {
        t.start();
      }
      for (Thread t : threads) {
        t.join();
      }
      session.close();
      watchdog.interrupt();
      System.out.println("FINISHED");
    }
  }

  private abstract static class Racer extends Thread {
    private final CyclicBarrier start;

    Racer(String name, CyclicBarrier start) {
      super(name);
      this.start = start;
    }

    abstract void first();

    @Override
    public void run() {
      try {
        start.await();
        first();
      } catch (Exception e) {
        e.printStackTrace(System.out);
      }
    }
  }

  @Test
  void firstUsesOnSeveralThreadsFinishInFreshJvms() throws Exception {
    List<Thread> runners = new ArrayList<>();
    List<ChildJvm.Result> results = java.util.Collections.synchronizedList(new ArrayList<>());
    AtomicReference<Throwable> failure = new AtomicReference<>();
    // Two at a time: the race needs the child's threads to run at once.
    for (int i = 0; i < JVMS; i++) {
      Thread t =
          new Thread(
              () -> {
                try {
                  results.add(
                      ChildJvm.runMain(
                          List.of("-Xmx64m"), Race.class, List.of(), Duration.ofSeconds(60)));
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              });
      runners.add(t);
      t.start();
      if (runners.size() % 2 == 0) {
        runners.get(runners.size() - 2).join();
        t.join();
      }
    }
    for (Thread t : runners) {
      t.join();
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    assertEquals(JVMS, results.size());
    for (ChildJvm.Result r : results) {
      assertFalse(r.timedOut(), r.describe());
      assertEquals(0, r.exitCode(), r.describe());
      assertEquals(List.of("FINISHED"), r.lines(), r.describe());
    }
  }

  private static void awaitParked(Thread closer) {
    TestSupport.await(
        "the closer to park (WAITING, not TIMED_WAITING)",
        Duration.ofSeconds(10),
        () -> {},
        () -> closer.getState() == Thread.State.WAITING);
  }

  /** An operand whose {@code asOutput()}, which {@code release} calls in flight, blocks. */
  private static final class Blocking implements Operand<TFloat32> {
    final Output<TFloat32> output;
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch proceed = new CountDownLatch(1);

    Blocking(Output<TFloat32> output) {
      this.output = output;
    }

    @Override
    public Output<TFloat32> asOutput() {
      entered.countDown();
      try {
        proceed.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return output;
    }
  }

  @Test
  void closeParksUntilTheLastCallInFlightExits() throws Exception {
    for (int round = 0; round < 3; round++) {
      EagerSession s = EagerSession.create();
      Blocking operand = new Blocking(TestSupport.constant(s, 1f));
      AtomicReference<Throwable> callError = new AtomicReference<>();
      Thread call =
          new Thread(
              () -> {
                try {
                  s.release(operand);
                } catch (Throwable e) {
                  callError.set(e);
                }
              });
      call.start();
      assertTrue(operand.entered.await(10, TimeUnit.SECONDS));
      Thread closer = new Thread(s::close, "closer");
      closer.start();
      // The closer waits, parked without a timeout, and keeps waiting while the call is in flight.
      awaitParked(closer);
      if (round == 1) {
        closer.interrupt(); // an interrupted closer parks again rather than polling
        // Right after interrupt() the closer may still show WAITING, not yet woken: wait until it
        // has taken the interrupt (its flag is clear again) and parked anew. Temurin 25 showed
        // that window ("expected WAITING but was RUNNABLE" in the loop below).
        TestSupport.await(
            "the interrupted closer to park again",
            Duration.ofSeconds(10),
            () -> {},
            () -> !closer.isInterrupted() && closer.getState() == Thread.State.WAITING);
      }
      for (int i = 0; i < 200; i++) {
        assertEquals(Thread.State.WAITING, closer.getState(), "closer while a call is in flight");
        Thread.yield();
      }
      assertTrue(s.isClosed());
      // The call's exit wakes it.
      operand.proceed.countDown();
      call.join(10_000);
      closer.join(10_000);
      assertFalse(closer.isAlive(), "close() returned after the last call exited");
      assertFalse(call.isAlive());
      assertEquals(null, callError.get());
    }
  }
}
