package io.eagerflow.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.Operand;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.tensorflow.ndarray.Shape;

/**
 * No op makes a tensor whose shape a Java {@code long} cannot hold: a dimension or element count
 * past {@link Long#MAX_VALUE} is refused when the op runs, with an {@link IllegalArgumentException}
 * naming the op, even for tensors with no elements at all.
 */
class ImpossibleShapesTest extends OpsTestBase {
  private static final long HALF = 1L << 62;

  private Operand<TFloat32> empty(long... dims) {
    return tf.constant(Shape.of(dims), new float[0]);
  }

  /** {@code call} throws an IllegalArgumentException naming {@code op}, and stores nothing. */
  private void refused(String op, Executable call) {
    long created = session.stats().createdTensors();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call, op);
    assertTrue(e.getMessage().startsWith(op + ": "), e.getMessage());
    assertEquals(created, session.stats().createdTensors(), op + " stored nothing");
  }

  @Test
  void emptyTensorsCannotGrowADimensionPastLongMax() {
    Operand<TFloat32> wide = empty(0, HALF);
    Operand<TInt64> axis = tf.constant(1L);
    Operand<TInt64> twice = tf.constant(new long[] {1, 2});
    Operand<TFloat32> deep = empty(0, HALF, 2);
    Operand<TInt64> inferred = tf.constant(new long[] {-1, 0});
    refused("ConcatV2", () -> tf.concat(List.of(wide, wide), axis));
    refused("Tile", () -> tf.tile(wide, twice));
    refused("Reshape", () -> tf.reshape(deep, inferred));

    // Up to the limit they work, and the shape reads back.
    Operand<TFloat32> edge = tf.concat(List.of(wide, empty(0, HALF - 1)), axis);
    assertEquals(Shape.of(0, Long.MAX_VALUE), edge.shape());
    assertEquals(0, edge.asTensor().toArray().length);
  }

  @Test
  void shapesGivenAsValuesAreBoundedToo() {
    // Each dimension fits, but the element count overflows before the zero: TensorFlow refuses.
    Operand<TInt64> dims = tf.constant(new long[] {Long.MAX_VALUE, 2, 0});
    Operand<TFloat32> one = tf.constant(1f);
    Operand<TFloat32> none = empty(0);
    refused("Fill", () -> tf.fill(dims, one));
    refused("Fill", () -> tf.zeros(dims, TFloat32.class));
    refused("BroadcastTo", () -> tf.broadcastTo(none, dims));
    refused("RandomUniform", () -> tf.random.randomUniform(dims, TFloat32.class));
    Operand<TInt64> min = tf.constant(Long.MIN_VALUE);
    Operand<TInt64> max = tf.constant(Long.MAX_VALUE);
    Operand<TInt64> step = tf.constant(1L);
    refused("Range", () -> tf.range(min, max, step));

    Operand<TFloat32> edge = tf.fill(tf.constant(new long[] {Long.MAX_VALUE, 0}), tf.constant(1f));
    assertEquals(Shape.of(Long.MAX_VALUE, 0), edge.shape());
    Operand<TFloat32> wide = empty(0, Long.MAX_VALUE);
    assertEquals(Shape.of(1, 0, Long.MAX_VALUE), tf.expandDims(wide, tf.constant(0)).shape());
    assertEquals(Shape.of(2, 0, Long.MAX_VALUE), tf.stack(List.of(wide, wide)).shape());
  }
}
