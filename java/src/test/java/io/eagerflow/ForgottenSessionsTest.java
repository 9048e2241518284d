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
 * Sessions that are used and then forgotten, never closed, do not pile up: building another
 * counts as pressure once many are open, so their cleanup threads stay bounded without any
 * explicit GC by the program.
 */
class ForgottenSessionsTest {
  private static final int CYCLES = 3_000;
  private static final int MAX_THREADS = 256;

  /** Run in a child JVM with -Xmx1g: create, use and forget sessions; report the most threads. */
  public static final class Loop {
    // Held: java.util.logging keeps loggers weakly. The library warns once per forgotten session.
    private static final Logger QUIET = Logger.getLogger("io.eagerflow");

    public static void main(String[] args) {
      QUIET.setLevel(Level.SEVERE);
      int most = 0;
      Thread[] threads = new Thread[16];
      for (int i = 0; i < CYCLES; i++) {
        EagerSession s = EagerSession.create();
        Ops tf = Ops.create(s);
        float v = tf.math.add(tf.constant(1f), tf.constant(2f)).asTensor().getFloat();
        if (v != 3f) {
          throw new AssertionError("1 + 2 = " + v);
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
    }
  }

  @Test
  void forgottenSessionsNeverHold256CleanupThreads() throws Exception {
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
  }
}
