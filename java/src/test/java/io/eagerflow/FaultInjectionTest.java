package io.eagerflow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.exceptions.TFResourceExhaustedException;
import io.eagerflow.internal.TestHooks;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Faults injected into the native library (test build only, {@code src/faults.rs}): the allocator
 * refusing an op's output buffer, or a kernel panicking, at a chosen op. Each ends in its Java
 * exception (a refusal under a strategy that can free memory is retried once and absorbed); nothing
 * is counted or leaked (session stats and process-wide bytes stay exact); and the session, and the
 * same op, keep working.
 */
class FaultInjectionTest {
  private static final int REFUSE_ALLOCATION = 0;
  private static final int PANIC = 1;

  @AfterEach
  void disarm() {
    TestHooks.disarmFaultForTest();
  }

  private static EagerSession session(ResourceCleanupStrategy strategy) {
    return EagerSession.options().resourceCleanupStrategy(strategy).build();
  }

  /** Every counter that a fault could leave wrong. */
  private record Counters(long liveTensors, long liveBytes, long created, long globalBytes) {
    static Counters of(EagerSession s) {
      SessionStats st = s.stats();
      return new Counters(
          st.liveTensors(), st.liveBytes(), st.createdTensors(), NativeMemory.liveBytes());
    }
  }

  private static void assertUnchanged(Counters before, EagerSession s, String what) {
    Counters after = Counters.of(s);
    assertEquals(before.liveTensors, after.liveTensors, what + ": live tensors " + after);
    assertEquals(before.liveBytes, after.liveBytes, what + ": live bytes " + after);
    assertEquals(before.created, after.created, what + ": created tensors " + after);
    // Process-wide: other tests' leftovers may be freed meanwhile, never added.
    assertTrue(after.globalBytes <= before.globalBytes, what + ": process bytes " + after);
  }

  /** An op under test, on inputs made once: a = [[1, 2], [3, 4]], b = [[5, 6], [7, 8]]. */
  private interface Case {
    Operand<TFloat32> run(
        EagerSession s, Ops tf, Operand<TFloat32> a, Operand<TFloat32> b, Operand<TInt32> axis);
  }

  /** Runs {@code op} with a fault armed at {@code opType}, then again without. */
  private static void faultThenRecover(
      ResourceCleanupStrategy strategy, String opType, int kind, Case op, float... expected) {
    try (EagerSession s = session(strategy)) {
      Ops tf = Ops.create(s);
      Operand<TFloat32> a = tf.constant(new float[][] {{1, 2}, {3, 4}});
      Operand<TFloat32> b = tf.constant(new float[][] {{5, 6}, {7, 8}});
      Operand<TInt32> axis = tf.constant(0);
      long createdBefore = s.stats().createdTensors();
      Operand<TFloat32> first = op.run(s, tf, a, b, axis);
      long createdPerRun = s.stats().createdTensors() - createdBefore;
      assertArrayEquals(expected, first.asTensor().toArray());
      s.release(first);
      Counters before = Counters.of(s);

      TestHooks.armFaultForTest(opType, kind);
      // Other ops run untouched while the fault waits for its op.
      s.release(tf.math.mul(a, b));
      Counters armed = Counters.of(s);
      assertEquals(before.created + 1, armed.created, "the mul ran: " + armed);
      if (kind == REFUSE_ALLOCATION && strategy != ResourceCleanupStrategy.ON_SESSION_CLOSE) {
        // A strategy that can free memory answers an exhausted op by cleaning up and running it
        // again once: a one-time refusal is absorbed, with the right value and exact counts.
        Operand<TFloat32> retried = op.run(s, tf, a, b, axis);
        assertArrayEquals(expected, retried.asTensor().toArray());
        s.release(retried);
        assertFalse(TestHooks.disarmFaultForTest(), "the fault fired, once");
        Counters after = Counters.of(s);
        assertEquals(armed.liveTensors, after.liveTensors, "retried " + after);
        assertEquals(armed.liveBytes, after.liveBytes, "retried " + after);
        assertEquals(armed.created + createdPerRun, after.created, "retried " + after);
        return;
      }
      RuntimeException e = assertThrows(RuntimeException.class, () -> op.run(s, tf, a, b, axis));
      if (kind == REFUSE_ALLOCATION) {
        // TensorFlow Java's name for it, which existing catch blocks of the base class still catch.
        assertEquals(TFResourceExhaustedException.class, e.getClass(), String.valueOf(e));
        assertTrue(e instanceof NativeMemoryExhaustedException, String.valueOf(e));
      } else {
        assertEquals(RuntimeException.class, e.getClass(), String.valueOf(e));
        assertTrue(e.getMessage().contains(opType), e.getMessage());
        assertTrue(e.getMessage().contains("fault injected for test"), e.getMessage());
      }
      assertFalse(TestHooks.disarmFaultForTest(), "the fault fired, once");
      assertUnchanged(armed, s, opType + " " + strategy);

      // The same op, and the session, keep working, with the right values.
      Operand<TFloat32> again = op.run(s, tf, a, b, axis);
      assertArrayEquals(expected, again.asTensor().toArray());
      s.release(again);
      Counters recovered = Counters.of(s);
      assertEquals(armed.liveTensors, recovered.liveTensors, "recovered " + recovered);
      assertEquals(armed.liveBytes, recovered.liveBytes, "recovered " + recovered);
      assertEquals(armed.created + createdPerRun, recovered.created, "recovered " + recovered);
    }
  }

  private static final Case ADD = (s, tf, a, b, axis) -> tf.math.add(a, b);
  private static final Case MAT_MUL = (s, tf, a, b, axis) -> tf.linalg.matMul(a, b);

  /** Split makes two outputs on the general (multi-output) path; the second is released. */
  private static final Case SPLIT =
      (s, tf, a, b, axis) -> {
        List<Operand<TFloat32>> parts = tf.split(axis, a, 2);
        s.release(parts.get(1));
        return parts.get(0);
      };

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void aRefusedAllocationIsNativeMemoryExhaustedAndLeavesNothing(ResourceCleanupStrategy st) {
    faultThenRecover(st, "AddV2", REFUSE_ALLOCATION, ADD, 6, 8, 10, 12);
    faultThenRecover(st, "MatMul", REFUSE_ALLOCATION, MAT_MUL, 19, 22, 43, 50);
    faultThenRecover(st, "Split", REFUSE_ALLOCATION, SPLIT, 1, 2);
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void aKernelPanicIsARuntimeExceptionAndLeavesNothing(ResourceCleanupStrategy st) {
    faultThenRecover(st, "AddV2", PANIC, ADD, 6, 8, 10, 12);
    faultThenRecover(st, "MatMul", PANIC, MAT_MUL, 19, 22, 43, 50);
    faultThenRecover(st, "Split", PANIC, SPLIT, 1, 2);
  }
}
