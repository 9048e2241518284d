package io.eagerflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.internal.Native;
import io.eagerflow.internal.Wire;
import io.eagerflow.op.Ops;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bound of {@code Options.asyncQueueCapacity}: a capacity past it is an exception naming the
 * option, the value and the bound (from Java and from a direct native call, never an abort), and
 * the process goes on. That the bound itself sets no memory aside is {@link OptionsMemoryTest}'s.
 */
class AsyncQueueCapacityTest {
  private static final int MAX = EagerSession.Options.MAX_ASYNC_QUEUE_CAPACITY;

  private static void assertNamesOptionValueAndBound(IllegalArgumentException e, long value) {
    String m = e.getMessage();
    assertTrue(m.contains("asyncQueueCapacity"), m);
    assertTrue(m.contains(Long.toString(value)), m);
    assertTrue(m.contains(Integer.toString(MAX)), m);
  }

  @ParameterizedTest
  @ValueSource(ints = {Integer.MAX_VALUE, MAX + 1, 100_000_000, 0, -1, Integer.MIN_VALUE})
  void aCapacityOutsideTheBoundsIsRefusedByTheOption(int capacity) {
    EagerSession.Options options = EagerSession.options().async(true);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> options.asyncQueueCapacity(capacity));
    assertNamesOptionValueAndBound(e, capacity);
    // The options are unchanged and still build.
    try (EagerSession s = options.build()) {
      Ops tf = Ops.create(s);
      assertEquals(-2f, tf.math.neg(tf.constant(2f)).asTensor().getFloat());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {Integer.MAX_VALUE, MAX + 1, 0, -7})
  void aDirectNativeCallThrowsInsteadOfAborting(int capacity) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> Native.newAsyncSession(0, 0, false, capacity));
    assertNamesOptionValueAndBound(e, capacity);
    // The process goes on: an asynchronous session of the library's own works as ever.
    try (EagerSession s = EagerSession.options().async(true).build()) {
      Ops tf = Ops.create(s);
      assertEquals(6f, tf.math.mul(tf.constant(2f), tf.constant(3f)).asTensor().getFloat());
    }
  }

  /** Java's constant and the library's bound agree: the maximum is accepted natively too. */
  @Test
  void theLibraryAcceptsTheMaximum() {
    long id = Native.newAsyncSession(1L << 20, 0, false, MAX);
    long[] stats = new long[Wire.STATS_LENGTH];
    Native.closeSession(id, stats);
    assertEquals(0, stats[0]);
  }
}
