package io.eagerflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.internal.TestHooks;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt64;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * A Rust panic arrives as a {@link RuntimeException} that says what happened: the op type, its
 * inputs' dtypes and shapes, the panic's message and location, and the Rust backtrace. {@code
 * PanicForTest} is an op of the test build of the library whose kernel panics.
 */
class PanicDiagnosticsTest {
  private static void assertHas(Throwable e, String... parts) {
    for (String p : parts) {
      assertTrue(e.getMessage().contains(p), () -> "'" + e.getMessage() + "' lacks '" + p + "'");
    }
  }

  private static EagerSession onClose() {
    return EagerSession.options()
        .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
        .build();
  }

  @Test
  void aKernelPanicNamesTheOpItsInputsTheMessageAndTheBacktrace() {
    try (EagerSession s = onClose()) {
      Ops tf = Ops.create(s);
      Operand<TFloat32> x = tf.constant(new float[2][3]);
      SessionStats before = s.stats();
      // With an attribute: the general native path.
      RuntimeException e =
          assertThrows(
              RuntimeException.class,
              () ->
                  s.opBuilder("PanicForTest", null)
                      .addInput(x.asOutput())
                      .setAttr("message", "kernel on fire")
                      .build());
      assertEquals(RuntimeException.class, e.getClass(), String.valueOf(e));
      assertHas(
          e,
          "PanicForTest (inputs: x FLOAT [2, 3]) panicked: kernel on fire at src/ops/testing.rs:",
          "Rust backtrace:",
          "panic_for_test");
      // Without: the single-output fast path.
      Operand<TInt64> y = tf.constant(new long[] {1, 2, 3, 4});
      e =
          assertThrows(
              RuntimeException.class,
              () -> s.opBuilder("PanicForTest", null).addInput(y.asOutput()).build());
      assertHas(
          e,
          "eagerflow panicked in execute1: PanicForTest (inputs: x INT64 [4]) panicked: "
              + "kernel panic on purpose at src/ops/testing.rs:",
          "Rust backtrace:");

      // Nothing was counted, the half-built output's bytes came back, and the session works.
      SessionStats after = s.stats();
      assertEquals(before.createdTensors() + 1, after.createdTensors(), "just y: " + after);
      assertEquals(before.liveBytes() + 32, after.liveBytes(), String.valueOf(after));
      assertEquals(3f, tf.math.add(tf.constant(1f), tf.constant(2f)).asTensor().getFloat());
    }
  }

  @Test
  void aPanicOutsideAKernelCarriesItsLocationAndBacktrace() {
    RuntimeException e = assertThrows(RuntimeException.class, () -> TestHooks.panicForTest("boom"));
    assertHas(
        e, "eagerflow panicked in panicForTest: boom at src/jni/testing.rs:", "Rust backtrace:");
  }

  @Test
  void panicsOnManyThreadsEachReportTheirOwn() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (EagerSession s = onClose()) {
      Ops tf = Ops.create(s);
      List<Future<?>> results = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int id = t;
        results.add(
            pool.submit(
                () -> {
                  Operand<TFloat32> x = tf.constant(new float[id + 1]);
                  for (int i = 0; i < 50; i++) {
                    String message = "thread " + id + " round " + i;
                    RuntimeException e =
                        assertThrows(
                            RuntimeException.class,
                            () ->
                                s.opBuilder("PanicForTest", null)
                                    .addInput(x.asOutput())
                                    .setAttr("message", message)
                                    .build());
                    assertHas(e, "x FLOAT [" + (id + 1) + "]) panicked: " + message + " at ");
                  }
                  return null;
                }));
      }
      for (Future<?> f : results) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }
}
