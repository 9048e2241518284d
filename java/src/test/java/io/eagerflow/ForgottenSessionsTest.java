package io.eagerflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Sessions and tensors that are used and then forgotten, never closed, do not pile up: building
 * another session counts as pressure once many are open, so their cleanup threads stay bounded
 * without any explicit GC by the program; and once the program lets go of them, the GC and the
 * library's cleaner alone bring native memory back to its baseline and leave no session thread.
 */
class ForgottenSessionsTest {
  /** Sessions (of every strategy, in turn) and standalone tensors made and forgotten. */
  private static final int CYCLES = 10_000;

  private static final int MAX_THREADS = 256;

  /** Run in a child JVM with -Xmx1g: create, use and forget sessions; report the most threads. */
  public static final class Loop {
    // Held: java.util.logging keeps loggers weakly. The library warns once per forgotten session.
    private static final Logger QUIET = Logger.getLogger("io.eagerflow");

    public static void main(String[] args) throws InterruptedException {
      QUIET.setLevel(Level.SEVERE);
      long baselineBytes = NativeMemory.liveBytes();
      long baselineTensors = NativeMemory.liveTensors();
      EagerSession.ResourceCleanupStrategy[] strategies =
          EagerSession.ResourceCleanupStrategy.values();
      int most = 0;
      Thread[] threads = new Thread[16];
      for (int i = 0; i < CYCLES; i++) {
        EagerSession s = EagerSession.options().resourceCleanupStrategy(strategies[i % 3]).build();
        Ops tf = Ops.create(s);
        float v = tf.math.add(tf.constant(1f), tf.constant(2f)).asTensor().getFloat();
        if (v != 3f) {
          throw new AssertionError("1 + 2 = " + v);
        }
        // A standalone tensor, never closed: the library's cleaner frees it.
        TFloat32 forgotten = TFloat32.vectorOf(v, (float) i);
        if (forgotten.getFloat(1) != i) {
          throw new AssertionError("standalone tensor reads " + forgotten.getFloat(1));
        }
        int n;
        while ((n = Thread.enumerate(threads)) == threads.length) {
          threads = new Thread[threads.length * 2];
        }
        int cleanup = 0;
        for (int t = 0; t < n; t++) {
          if (threads[t].getName().startsWith("eagerflow-cleanup-") && threads[t].isAlive()) {
            cleanup++;
          }
        }
        most = Math.max(most, cleanup);
      }
      System.out.println("most cleanup threads " + most);
      // Nothing is closed: the GC and the library's cleaner alone must bring everything back.
      long deadline = System.nanoTime() + 120_000_000_000L;
      long bytes;
      long tensors;
      long cleanup;
      while ((bytes = NativeMemory.liveBytes()) != baselineBytes
          | (tensors = NativeMemory.liveTensors()) != baselineTensors
          | (cleanup = sessionThreads()) != 0) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError(
              "after 120 s: "
                  + bytes
                  + " bytes (baseline "
                  + baselineBytes
                  + "), "
                  + tensors
                  + " tensors (baseline "
                  + baselineTensors
                  + "), "
                  + cleanup
                  + " session threads");
        }
        System.gc();
        Thread.sleep(10);
      }
      System.out.println(
          "forgotten "
              + CYCLES
              + " sessions and "
              + CYCLES
              + " standalone tensors: "
              + bytes
              + " bytes, "
              + tensors
              + " tensors, "
              + cleanup
              + " session threads left");
    }

    /** Per-session threads (cleanup, async executor); the library-wide cleaner stays by design. */
    private static long sessionThreads() {
      return Thread.getAllStackTraces().keySet().stream()
          .filter(t -> t.getName().startsWith("eagerflow-") && t.isAlive())
          .filter(t -> !t.getName().equals("eagerflow-cleaner"))
          .count();
    }
  }

  @Test
  void forgottenSessionsNeverHold256CleanupThreadsAndAllAreFreedInTheEnd() throws Exception {
    ChildJvm.Result r =
        ChildJvm.runMain(List.of("-Xmx1g"), Loop.class, List.of(), Duration.ofMinutes(5));
    assertEquals(0, r.exitCode(), r.describe());
    String line =
        r.lines().stream()
            .filter(l -> l.startsWith("most cleanup threads "))
            .findFirst()
            .orElseThrow(() -> new AssertionError(r.describe()));
    int most = Integer.parseInt(line.substring("most cleanup threads ".length()));
    assertTrue(most < MAX_THREADS, line);
    assertTrue(
        r.lines().stream().anyMatch(l -> l.startsWith("forgotten " + CYCLES + " sessions")),
        r.describe());
    r.lines().stream()
        .filter(l -> l.startsWith("forgotten ") || l.startsWith("most cleanup threads "))
        .forEach(System.out::println);
  }
}
