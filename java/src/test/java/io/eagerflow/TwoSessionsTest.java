package io.eagerflow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An op in one session may read operands of another open session, as in TensorFlow Java: the input
 * is held for the op's duration only, its lifetime and bytes stay with its own session, and a
 * closed other session is a clear error.
 */
class TwoSessionsTest {

  private static EagerSession open(ResourceCleanupStrategy strategy) {
    return EagerSession.options().resourceCleanupStrategy(strategy).build();
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void opsReadOperandsOfAnotherOpenSession(ResourceCleanupStrategy strategy) {
    try (EagerSession mine = open(strategy);
        EagerSession theirs = open(strategy)) {
      Ops tf = Ops.create(mine);
      Ops other = Ops.create(theirs);
      Operand<TFloat32> a = other.constant(new float[] {1f, 2f, 3f});
      Operand<TInt32> dims = other.constant(new int[] {2});
      SessionStats before = theirs.stats();
      long mineBefore = mine.stats().createdTensors();

      // The fast path (attribute-free), the builder path (attributes, lists) and Fill's scalar.
      Operand<TFloat32> sum = tf.math.add(tf.constant(1f), a);
      Operand<TFloat32> total = tf.reduceSum(a, tf.constant(0));
      Operand<TFloat32> both = tf.concat(List.of(a, tf.constant(new float[] {4f})), tf.constant(0));
      Operand<TFloat32> zeros = tf.zeros(dims, TFloat32.class);
      Operand<TFloat32> snapshot = tf.constantOf(a.asTensor());
      Operation raw =
          mine.opBuilder("Mul", "raw").addInput(a.asOutput()).addInput(a.asOutput()).build();

      assertArrayEquals(new float[] {2f, 3f, 4f}, sum.asTensor().toArray());
      assertEquals(6f, total.asTensor().getFloat());
      assertArrayEquals(new float[] {1f, 2f, 3f, 4f}, both.asTensor().toArray());
      assertArrayEquals(new float[] {0f, 0f}, zeros.asTensor().toArray());
      assertArrayEquals(new float[] {1f, 2f, 3f}, snapshot.asTensor().toArray());
      assertArrayEquals(new float[] {1f, 4f, 9f}, ((TFloat32) raw.output(0).asTensor()).toArray());
      // Outputs belong to the session that ran the op; the other session made nothing.
      assertEquals(before, theirs.stats());
      assertTrue(mine.stats().createdTensors() >= mineBefore + 6);
      assertEquals(mine, sum.env());

      // The outputs outlive the other session; its own operands do not.
      theirs.close();
      assertArrayEquals(new float[] {2f, 3f, 4f}, sum.asTensor().toArray());
      assertEquals(6f, tf.math.add(total, tf.constant(0f)).asTensor().getFloat());
      assertThrows(IllegalStateException.class, a::asTensor);
    }
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void operandsOfAClosedOrReleasedOtherSessionAreClearErrors(ResourceCleanupStrategy strategy) {
    try (EagerSession mine = open(strategy)) {
      Ops tf = Ops.create(mine);
      EagerSession theirs = open(strategy);
      Ops other = Ops.create(theirs);
      Operand<TFloat32> a = other.constant(new float[] {1f, 2f});
      Operand<TFloat32> gone = other.constant(new float[] {1f, 2f});
      Operand<TInt32> dims = other.constant(new int[] {2});
      theirs.release(gone);
      IllegalStateException released =
          assertThrows(IllegalStateException.class, () -> tf.math.neg(gone));
      assertTrue(released.getMessage().contains("released"), released.getMessage());
      OperationBuilder pending = mine.opBuilder("AddV2", null).addInput(a.asOutput());
      theirs.close();
      long created = mine.stats().createdTensors();
      for (Runnable call :
          List.<Runnable>of(
              () -> tf.math.add(tf.constant(1f), a),
              () -> tf.reduceSum(a, tf.constant(0)),
              () -> tf.zeros(dims, TFloat32.class),
              pending::build)) {
        IllegalStateException e = assertThrows(IllegalStateException.class, call::run);
        assertTrue(e.getMessage().contains("another session"), e.getMessage());
        assertTrue(e.getMessage().contains("Eager session has been closed"), e.getMessage());
      }
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () -> mine.opBuilder("Neg", null).addInput(a.asOutput()));
      assertTrue(e.getMessage().contains("Eager session has been closed"), e.getMessage());
      // No op ran: only the two constants the calls made before they failed.
      assertEquals(created + 2, mine.stats().createdTensors());
    }
  }
}
