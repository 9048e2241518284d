package io.eagerflow.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.eagerflow.DataType;
import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.SessionStats;
import io.eagerflow.types.TBool;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TInt64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tensorflow.ndarray.Shape;

class ShapeOpsTest extends OpsTestBase {
  private Operand<TInt32> v(int... values) {
    return tf.constant(values);
  }

  private Operand<TFloat32> m23() {
    return tf.constant(new float[][] {{1, 2, 3}, {4, 5, 6}});
  }

  @Test
  void reshape() {
    Operand<TFloat32> x = tf.constant(new float[] {1, 2, 3, 4, 5, 6});
    assertFloats(tf.reshape(x, v(2, 3)), dims(2, 3), 1, 2, 3, 4, 5, 6);
    assertFloats(tf.reshape(x, v(3, -1)), dims(3, 2), 1, 2, 3, 4, 5, 6);
    assertFloats(tf.reshape(x, tf.constant(new long[] {6})), dims(6), 1, 2, 3, 4, 5, 6);
    assertFloats(tf.reshape(tf.constant(new float[] {7}), v()), dims(), 7);
  }

  @Test
  void concat() {
    Operand<TFloat32> a = tf.constant(new float[][] {{1, 2}});
    Operand<TFloat32> b = tf.constant(new float[][] {{3, 4}, {5, 6}});
    assertFloats(tf.concat(List.of(a, b), tf.constant(0)), dims(3, 2), 1, 2, 3, 4, 5, 6);
    Operand<TFloat32> c = tf.constant(new float[][] {{1}, {2}});
    Operand<TFloat32> d = tf.constant(new float[][] {{3}, {4}});
    assertFloats(tf.concat(List.of(c, d), tf.constant(1)), dims(2, 2), 1, 3, 2, 4);
    assertFloats(tf.concat(List.of(c, d), tf.constant(-1L)), dims(2, 2), 1, 3, 2, 4);
    assertFloats(tf.concat(List.of(c), tf.constant(0)), dims(2, 1), 1, 2);
  }

  @Test
  void fillZerosOnes() {
    assertFloats(tf.fill(v(2, 2), tf.constant(7f)), dims(2, 2), 7, 7, 7, 7);
    Operand<TFloat32> z = tf.zeros(v(2, 3), TFloat32.class);
    assertEquals(DataType.FLOAT, z.dataType());
    assertFloats(z, dims(2, 3), 0, 0, 0, 0, 0, 0);
    assertLongs(tf.ones(v(2), TInt64.class), dims(2), 1, 1);
    assertBools(tf.zeros(v(1), TBool.class), dims(1), false);
    assertBools(tf.ones(v(2), TBool.class), dims(2), true, true);
  }

  @Test
  void zerosCountsOnlyItsResult() {
    // ON_SESSION_CLOSE, so that nothing but release frees anything during the count.
    try (EagerSession s =
        EagerSession.options()
            .resourceCleanupStrategy(EagerSession.ResourceCleanupStrategy.ON_SESSION_CLOSE)
            .build()) {
      Ops ops = Ops.create(s);
      Operand<TInt32> shape = ops.constant(new int[] {3});
      SessionStats before = s.stats();
      ops.zeros(shape, TInt32.class);
      SessionStats after = s.stats();
      // API.md "Counting": temporaries are never counted; the fill value is none.
      assertEquals(1, after.createdTensors() - before.createdTensors());
      assertEquals(0, after.freedExplicitly() - before.freedExplicitly());
      assertEquals(before.liveTensors() + 1, after.liveTensors());
    }
  }

  @Test
  void stackAndUnstack() {
    Operand<TInt32> a = v(1, 2);
    Operand<TInt32> b = v(3, 4);
    assertInts(tf.stack(List.of(a, b)), dims(2, 2), 1, 2, 3, 4);
    assertInts(tf.stack(List.of(a, b), Stack.axis(1)), dims(2, 2), 1, 3, 2, 4);
    assertInts(tf.stack(List.of(a, b), Stack.axis(-1)), dims(2, 2), 1, 3, 2, 4);

    Operand<TInt32> m = tf.constant(new int[][] {{1, 2, 3}, {4, 5, 6}});
    List<Operand<TInt32>> rows = tf.unstack(m, 2);
    assertEquals(2, rows.size());
    assertInts(rows.get(0), dims(3), 1, 2, 3);
    assertInts(rows.get(1), dims(3), 4, 5, 6);
    List<Operand<TInt32>> cols = tf.unstack(m, 3, Unstack.axis(1));
    assertEquals(3, cols.size());
    assertInts(cols.get(2), dims(2), 3, 6);
    assertThrows(UnsupportedOperationException.class, () -> cols.add(a));
  }

  @Test
  void split() {
    List<Operand<TInt32>> parts = tf.split(tf.constant(0), v(1, 2, 3, 4, 5, 6), 3);
    assertEquals(3, parts.size());
    assertInts(parts.get(0), dims(2), 1, 2);
    assertInts(parts.get(2), dims(2), 5, 6);
    List<Operand<TFloat32>> halves = tf.split(tf.constant(1), tf.constant(new float[2][4]), 2);
    assertEquals(Shape.of(2, 2), halves.get(1).shape());
  }

  @Test
  void squeezeAndExpandDims() {
    Operand<TFloat32> x = tf.reshape(m23(), v(1, 2, 1, 3));
    assertFloats(tf.squeeze(x), dims(2, 3), 1, 2, 3, 4, 5, 6);
    assertEquals(Shape.of(2, 1, 3), tf.squeeze(x, Squeeze.axis(0)).shape());
    assertEquals(Shape.of(1, 2, 3), tf.squeeze(x, Squeeze.axis(List.of(-2L))).shape());
    assertEquals(Shape.of(1, 2, 3), tf.expandDims(m23(), tf.constant(0)).shape());
    assertEquals(Shape.of(2, 3, 1), tf.expandDims(m23(), tf.constant(-1)).shape());
    assertFloats(tf.expandDims(m23(), tf.constant(1L)), dims(2, 1, 3), 1, 2, 3, 4, 5, 6);
  }

  @Test
  void slice() {
    assertFloats(tf.slice(m23(), v(0, 1), v(2, 2)), dims(2, 2), 2, 3, 5, 6);
    assertFloats(tf.slice(m23(), v(1, 0), v(-1, -1)), dims(1, 3), 4, 5, 6);
  }

  @Test
  void stridedSlice() {
    Operand<TInt32> r = v(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    assertInts(tf.stridedSlice(r, v(1), v(8), v(3)), dims(3), 1, 4, 7);
    assertInts(
        tf.stridedSlice(
            v(0, 1, 2, 3), v(0), v(0), v(-1), StridedSlice.beginMask(1), StridedSlice.endMask(1)),
        dims(4),
        3,
        2,
        1,
        0);
    Operand<TFloat32> row =
        tf.stridedSlice(m23(), v(1, 0), v(2, 3), v(1, 1), StridedSlice.shrinkAxisMask(1));
    assertFloats(row, dims(3), 4, 5, 6);
    assertInts(tf.stridedSlice(r, v(-3), v(0), v(1), StridedSlice.endMask(1)), dims(3), 7, 8, 9);
  }

  @Test
  void gather() {
    Operand<TInt32> p = v(10, 20, 30, 40);
    assertInts(tf.gather(p, v(3, 0, 2), tf.constant(0)), dims(3), 40, 10, 30);
    assertFloats(tf.gather(m23(), v(2, 0), tf.constant(1)), dims(2, 2), 3, 1, 6, 4);
    assertFloats(
        tf.gather(m23(), tf.constant(new long[][] {{1}, {0}}), tf.constant(0)),
        dims(2, 1, 3),
        4,
        5,
        6,
        1,
        2,
        3);
  }

  @Test
  void tile() {
    assertInts(tf.tile(v(1, 2), v(3)), dims(6), 1, 2, 1, 2, 1, 2);
    assertInts(tf.tile(tf.constant(new int[][] {{1, 2}}), v(2, 1)), dims(2, 2), 1, 2, 1, 2);
  }

  @Test
  void likesIdentityAndRange() {
    assertInts(tf.zerosLike(v(5, 6)), dims(2), 0, 0);
    assertFloats(tf.onesLike(m23()), dims(2, 3), 1, 1, 1, 1, 1, 1);
    assertFloats(tf.identity(m23()), dims(2, 3), 1, 2, 3, 4, 5, 6);
    assertFloats(tf.stopGradient(m23()), dims(2, 3), 1, 2, 3, 4, 5, 6);
    assertInts(tf.broadcastTo(v(1, 2), v(2, 2)), dims(2, 2), 1, 2, 1, 2);
    assertInts(tf.range(tf.constant(0), tf.constant(5), tf.constant(1)), dims(5), 0, 1, 2, 3, 4);
    assertInts(tf.range(tf.constant(5), tf.constant(0), tf.constant(-2)), dims(3), 5, 3, 1);
    assertFloats(
        tf.range(tf.constant(1f), tf.constant(2f), tf.constant(0.25f)),
        dims(4),
        1,
        1.25f,
        1.5f,
        1.75f);
  }

  @Test
  void shapeSizeRank() {
    Operand<TInt32> s = tf.shape(m23());
    assertInts(s, dims(2), 2, 3);
    assertLongs(tf.shape(m23(), TInt64.class), dims(2), 2, 3);
    assertInts(tf.size(m23()), dims(), 6);
    assertLongs(tf.size(m23(), TInt64.class), dims(), 6);
    assertInts(tf.rank(m23()), dims(), 2);
    assertInts(tf.rank(tf.constant(1f)), dims(), 0);
    assertInts(tf.shape(tf.constant(1f)), dims(0));
  }

  @Test
  void select() {
    Operand<TBool> c = tf.constant(new boolean[] {true, false, true});
    assertInts(tf.select(c, v(1, 2, 3), v(10, 20, 30)), dims(3), 1, 20, 3);
    assertInts(tf.select(c, v(1, 2, 3), tf.constant(0)), dims(3), 1, 0, 3);
    Operand<TBool> col = tf.constant(new boolean[][] {{true}, {false}});
    assertInts(tf.select(col, v(1, 2), v(7, 8)), dims(2, 2), 1, 2, 7, 8);
  }

  @Test
  void oneHot() {
    Operand<TInt32> idx = v(0, 2, -1);
    assertFloats(
        tf.oneHot(idx, tf.constant(3), tf.constant(1f), tf.constant(0f)),
        dims(3, 3),
        1,
        0,
        0,
        0,
        0,
        1,
        0,
        0,
        0);
    assertInts(
        tf.oneHot(idx, tf.constant(3), tf.constant(5), tf.constant(-1), OneHot.axis(0)),
        dims(3, 3),
        5,
        -1,
        -1,
        -1,
        -1,
        -1,
        -1,
        5,
        -1);
  }

  @Test
  void clipByValue() {
    assertFloats(
        tf.clipByValue(tf.constant(new float[] {-5, 0.5f, 7}), tf.constant(0f), tf.constant(1f)),
        dims(3),
        0,
        0.5f,
        1);
  }
}
