package io.eagerflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Concurrency stress, to the letter of issue 14: 16 worker threads run random op sequences on
 * shared sessions of every cleanup strategy while other threads release operands, drop references,
 * call {@code System.gc()}, create and close sessions of their own, and close the shared sessions
 * under the running workers. Every op that completes must give the value a single-threaded
 * reference run gave; a call that raced a close may end in {@link IllegalStateException} and
 * nothing else; every closed session has nothing live; the process's native bytes return to their
 * baseline.
 *
 * <p>CI runs it for {@value #CI_SECONDS} seconds; {@code gradle soak} runs the same test for {@code
 * -Psoak.seconds} (60 by default) through the system property {@code eagerflow.stress.seconds}.
 */
class StressTest {
  private static final int CI_SECONDS = 3;
  private static final int WORKERS = 16;
  private static final int RELEASERS = 2;

  /** Shared sessions alive at once: two per cleanup strategy. */
  private static final int SLOTS = 6;

  /** Ops the workers complete between two closes of a shared session under them. */
  private static final long OPS_BETWEEN_CLOSES = 1_500;

  private static final long MAX_NANOS_BETWEEN_CLOSES = 250_000_000L;
  private static final int PROGRAMS = 64;
  private static final int STEPS = 10;
  private static final int KINDS = 8;
  private static final float[] C = {1f, -2f, 3f, 0.5f};

  /** Held (loggers are kept weakly): the churn thread forgets sessions on purpose. */
  private static final Logger LIBRARY_LOG = Logger.getLogger("io.eagerflow");

  /** A shared session with the constants every program reads (never released by anyone). */
  private static final class Slot {
    final EagerSession session;
    final Ops tf;
    final Operand<TFloat32> c;
    final Operand<TInt32> perm;
    final Operand<TInt32> axis;

    Slot(ResourceCleanupStrategy strategy) {
      session = EagerSession.options().resourceCleanupStrategy(strategy).build();
      tf = Ops.create(session);
      c = tf.constant(new float[][] {{C[0], C[1]}, {C[2], C[3]}});
      perm = tf.constant(new int[] {1, 0});
      axis = tf.constant(0);
    }
  }

  /**
   * Step {@code kind} of a program on {@code x} (2x2 float). The values stay small integers and
   * halves (every step is clamped), so each is exact and any thread gets the same bits.
   */
  private static Operand<TFloat32> step(Slot s, int kind, Operand<TFloat32> x) {
    Ops tf = s.tf;
    Operand<TFloat32> y =
        switch (kind) {
          case 0 -> tf.math.add(x, s.c);
          case 1 -> tf.math.mul(x, s.c);
          case 2 -> tf.linalg.matMul(x, s.c);
          case 3 -> tf.math.sub(x, tf.linalg.transpose(x, s.perm));
          case 4 -> tf.math.neg(x);
          case 5 -> tf.math.maximum(x, s.c);
          case 6 -> tf.math.add(x, tf.reduceSum(x, s.axis));
          default -> tf.math.abs(x);
        };
    // Clamp to [-64, 64]: no overflow to infinity however long the program.
    return tf.math.minimum(tf.math.maximum(y, tf.constant(-64f)), tf.constant(64f));
  }

  /** The programs: a random sequence of step kinds each, the same for every run of the test. */
  private static int[][] programs() {
    SplittableRandom rnd = new SplittableRandom(14);
    int[][] p = new int[PROGRAMS][STEPS];
    for (int[] steps : p) {
      for (int i = 0; i < STEPS; i++) {
        steps[i] = rnd.nextInt(KINDS);
      }
    }
    return p;
  }

  /** The single-threaded reference run: every program's value after every step. */
  private static float[][][] reference(int[][] programs) {
    float[][][] expected = new float[PROGRAMS][STEPS][];
    Slot s = new Slot(ResourceCleanupStrategy.ON_SESSION_CLOSE);
    try {
      for (int p = 0; p < PROGRAMS; p++) {
        Operand<TFloat32> x = s.c;
        for (int i = 0; i < STEPS; i++) {
          x = step(s, programs[p][i], x);
          expected[p][i] = x.asTensor().toArray();
        }
      }
    } finally {
      s.session.close();
    }
    return expected;
  }

  /** A worker's output handed to another thread: a releaser releases it, a worker may read it. */
  private record Handed(
      EagerSession session, Operand<TFloat32> operand, float[] value, AtomicBoolean releasing) {
    Handed(EagerSession session, Operand<TFloat32> operand, float[] value) {
      this(session, operand, value, new AtomicBoolean());
    }
  }

  @Test
  void opsReleasesGcAndClosesRaceOnSessionsOfEveryStrategy() throws Exception {
    Level level = LIBRARY_LOG.getLevel();
    LIBRARY_LOG.setLevel(Level.SEVERE);
    try {
      run();
    } finally {
      LIBRARY_LOG.setLevel(level);
    }
  }

  private void run() throws Exception {
    long seconds = Long.getLong("eagerflow.stress.seconds", CI_SECONDS);
    ResourceCleanupStrategy[] strategies = ResourceCleanupStrategy.values();
    int[][] programs = programs();
    float[][][] expected = reference(programs);
    long baseline = NativeMemory.liveBytes();

    AtomicReferenceArray<Slot> slots = new AtomicReferenceArray<>(SLOTS);
    for (int i = 0; i < SLOTS; i++) {
      slots.set(i, new Slot(strategies[i % strategies.length]));
    }
    List<EagerSession> closed = new ArrayList<>();
    ConcurrentLinkedQueue<Handed> toRelease = new ConcurrentLinkedQueue<>();
    AtomicReferenceArray<Handed> board = new AtomicReferenceArray<>(32);
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong ops = new AtomicLong();
    AtomicLong programsDone = new AtomicLong();
    AtomicLong refusedClosed = new AtomicLong();
    AtomicLong refusedReleased = new AtomicLong();
    AtomicLong released = new AtomicLong();
    AtomicLong churned = new AtomicLong();
    List<Thread> threads = new ArrayList<>();

    for (int w = 0; w < WORKERS; w++) {
      threads.add(
          start(
              "stress-worker-" + w,
              errors,
              () -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                List<Operand<TFloat32>> held = new ArrayList<>();
                while (!stop.get() && errors.isEmpty()) {
                  Slot s = slots.get(rnd.nextInt(SLOTS));
                  int p = rnd.nextInt(PROGRAMS);
                  Operand<TFloat32> x = s.c;
                  int i = 0;
                  try {
                    for (; i < STEPS; i++) {
                      Operand<TFloat32> y = step(s, programs[p][i], x);
                      float[] v = y.asTensor().toArray();
                      ops.incrementAndGet();
                      if (!Arrays.equals(v, expected[p][i])) {
                        throw new AssertionError(
                            s.session.resourceCleanupStrategy()
                                + " program "
                                + p
                                + " step "
                                + i
                                + ": "
                                + Arrays.toString(v)
                                + ", the reference run gave "
                                + Arrays.toString(expected[p][i]));
                      }
                      if (x != s.c) {
                        dispose(s, x, expected[p][i - 1], rnd, held, toRelease, board);
                      }
                      x = y;
                    }
                    programsDone.incrementAndGet();
                    // Read another worker's output that a releaser may be releasing right now.
                    Handed h = board.get(rnd.nextInt(board.length()));
                    if (h != null) {
                      readHanded(h, refusedReleased);
                    }
                  } catch (IllegalStateException e) {
                    if (!s.session.isClosed()) {
                      throw new AssertionError(
                          "IllegalStateException on an open session at program " + p + " step " + i,
                          e);
                    }
                    refusedClosed.incrementAndGet();
                  }
                  if (held.size() > 48) {
                    held.clear(); // references dropped: the strategy's to free
                  }
                }
              }));
    }
    for (int r = 0; r < RELEASERS; r++) {
      threads.add(
          start(
              "stress-releaser-" + r,
              errors,
              () -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                while (!stop.get()) {
                  Handed h = toRelease.poll();
                  if (h == null) {
                    int i = rnd.nextInt(board.length());
                    h = board.getAndSet(i, null);
                  }
                  if (h == null) {
                    Thread.onSpinWait();
                    continue;
                  }
                  try {
                    h.releasing().set(true);
                    h.session().release(h.operand());
                    released.incrementAndGet();
                  } catch (IllegalStateException e) {
                    if (!h.session().isClosed()) {
                      throw new AssertionError("release refused on an open session", e);
                    }
                  }
                }
              }));
    }
    threads.add(
        start(
            "stress-gc",
            errors,
            () -> {
              while (!stop.get()) {
                System.gc();
                Thread.yield();
              }
            }));
    // Sessions of its own, created, used and closed (or forgotten) beside the shared ones.
    threads.add(
        start(
            "stress-churn",
            errors,
            () -> {
              ThreadLocalRandom rnd = ThreadLocalRandom.current();
              while (!stop.get()) {
                Slot s = new Slot(strategies[rnd.nextInt(strategies.length)]);
                float[] v = step(s, 0, s.c).asTensor().toArray();
                if (v[0] != 2f * C[0] || v[3] != 2f * C[3]) {
                  throw new AssertionError("churned session: " + Arrays.toString(v));
                }
                if (rnd.nextInt(4) != 0) {
                  s.session.close();
                  assertEquals(0, s.session.stats().liveTensors(), s.session.stats()::toString);
                }
                churned.incrementAndGet();
              }
            }));

    // The test thread closes shared sessions under the workers and puts fresh ones in their place.
    long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
    long next = ops.get() + OPS_BETWEEN_CLOSES;
    long lastClose = System.nanoTime();
    int replaced = 0;
    while (System.nanoTime() < deadline && errors.isEmpty()) {
      // Every 1,500 ops, or every 250 ms when a collector or the load slows the workers down.
      if (ops.get() < next && System.nanoTime() - lastClose < MAX_NANOS_BETWEEN_CLOSES) {
        Thread.onSpinWait();
        continue;
      }
      next = ops.get() + OPS_BETWEEN_CLOSES;
      lastClose = System.nanoTime();
      int i = replaced % SLOTS;
      Slot old =
          slots.getAndSet(i, new Slot(strategies[(i + replaced / SLOTS) % strategies.length]));
      old.session.close();
      closed.add(old.session);
      replaced++;
    }
    stop.set(true);
    for (Thread t : threads) {
      t.join(60_000);
      assertFalse(t.isAlive(), t.getName() + " did not end");
    }
    for (int i = 0; i < SLOTS; i++) {
      slots.get(i).session.close();
      closed.add(slots.get(i).session);
    }
    assertTrue(errors.isEmpty(), () -> describe(errors));
    for (EagerSession s : closed) {
      SessionStats st = s.stats();
      assertEquals(0, st.liveTensors(), String.valueOf(st));
      assertEquals(0, st.liveBytes(), String.valueOf(st));
      assertEquals(
          st.createdTensors(),
          st.freedExplicitly() + st.freedByScope() + st.freedByCleanup() + st.freedAtClose(),
          String.valueOf(st));
    }
    // Forgotten churned sessions are the library cleaner's: wait for it, with collections.
    TestSupport.await(
        "process native bytes back to the baseline " + baseline,
        Duration.ofSeconds(60),
        System::gc,
        () -> NativeMemory.liveBytes() <= baseline);
    assertTrue(replaced > 0, "no shared session was closed under the workers");
    System.out.printf(
        "StressTest: %d ops completed in %d s (%d programs), %d shared sessions closed under %d"
            + " workers, %d calls refused after close, %d reads refused after release, %d"
            + " operands released by other threads, %d sessions churned%n",
        ops.get(),
        seconds,
        programsDone.get(),
        replaced,
        WORKERS,
        refusedClosed.get(),
        refusedReleased.get(),
        released.get(),
        churned.get());
  }

  /** What becomes of a checked intermediate: released now, handed off, held, or dropped. */
  private static void dispose(
      Slot s,
      Operand<TFloat32> x,
      float[] value,
      ThreadLocalRandom rnd,
      List<Operand<TFloat32>> held,
      ConcurrentLinkedQueue<Handed> toRelease,
      AtomicReferenceArray<Handed> board) {
    switch (rnd.nextInt(5)) {
      case 0 -> s.session.release(x);
      case 1 -> toRelease.add(new Handed(s.session, x, value));
      case 2 -> board.set(rnd.nextInt(board.length()), new Handed(s.session, x, value));
      case 3 -> held.add(x);
      default -> {} // dropped at once
    }
  }

  /**
   * Reads an operand a releaser may free at any moment (or whose session may close): either the
   * whole right value or {@link IllegalStateException}, never a wrong value or anything else.
   */
  private static void readHanded(Handed h, AtomicLong refused) {
    try {
      float[] v = h.operand().asTensor().toArray();
      if (!Arrays.equals(v, h.value())) {
        throw new AssertionError(
            "handed operand read " + Arrays.toString(v) + ", was " + Arrays.toString(h.value()));
      }
    } catch (IllegalStateException e) {
      if (!h.releasing().get() && !h.session().isClosed()) {
        throw new AssertionError("IllegalStateException reading an operand nobody released", e);
      }
      refused.incrementAndGet();
    }
  }

  private static String describe(ConcurrentLinkedQueue<Throwable> errors) {
    StringBuilder b = new StringBuilder(errors.size() + " error(s):");
    for (Throwable e : errors) {
      java.io.StringWriter w = new java.io.StringWriter();
      e.printStackTrace(new java.io.PrintWriter(w));
      b.append('\n').append(w);
      if (b.length() > 20_000) {
        break;
      }
    }
    return b.toString();
  }

  private static Thread start(String name, ConcurrentLinkedQueue<Throwable> errors, Runnable body) {
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
}
