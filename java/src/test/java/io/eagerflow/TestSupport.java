package io.eagerflow;

import static org.junit.jupiter.api.Assertions.fail;

import io.eagerflow.internal.SessionAccess;
import io.eagerflow.types.TFloat32;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.tensorflow.ndarray.Shape;

/** Shared helpers: constants and ops through the public builder, and polling with a timeout. */
final class TestSupport {
  private TestSupport() {}

  static Output<TFloat32> constant(EagerSession s, float... values) {
    return SessionAccess.get().constant(s, DataType.FLOAT, Shape.of(values.length), values);
  }

  static Output<TFloat32> scalar(EagerSession s, float value) {
    return SessionAccess.get().constant(s, DataType.FLOAT, Shape.scalar(), new float[] {value});
  }

  static Output<TFloat32> add(EagerSession s, Operand<TFloat32> x, Operand<TFloat32> y) {
    return s.opBuilder("AddV2", null)
        .addInput(x.asOutput())
        .addInput(y.asOutput())
        .build()
        .output(0);
  }

  /**
   * Polls {@code condition} until it holds, running {@code nudge} (such as {@code System::gc})
   * between polls; fails after {@code timeout}. No fixed sleeps: waits are short and bounded.
   *
   * <p>The pause between nudges doubles from 5 ms to at most 200 ms: a nudge that stops the world
   * (a requested collection) every 5 ms leaves the thread being waited for, such as a session's
   * cleanup thread, no time to run wherever one collection takes longer than that, as in a JVM
   * under an emulator (docs/platforms.md).
   */
  static void await(String what, Duration timeout, Runnable nudge, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    long pauseMillis = 5;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("timed out after " + timeout + " waiting for " + what);
      }
      nudge.run();
      try {
        Thread.sleep(pauseMillis);
        pauseMillis = Math.min(200, pauseMillis * 2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail("interrupted");
      }
    }
  }

  static long cleanupThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("eagerflow-cleanup-") && t.isAlive())
        .count();
  }
}
