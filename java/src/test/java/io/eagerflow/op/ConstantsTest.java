package io.eagerflow.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.DataType;
import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.SessionStats;
import io.eagerflow.types.TBool;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TFloat64;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TInt64;
import io.eagerflow.types.TUint8;
import org.junit.jupiter.api.Test;
import org.tensorflow.ndarray.Shape;

class ConstantsTest extends OpsTestBase {
  @Test
  void scalarsOfEveryType() {
    assertFloats(tf.constant(1.5f), dims(), 1.5f);
    assertEquals(2.25, tf.constant(2.25).asTensor().getDouble());
    assertInts(tf.constant(-7), dims(), -7);
    assertLongs(tf.constant(1L << 40), dims(), 1L << 40);
    assertBools(tf.constant(true), dims(), true);
    Operand<TUint8> b = tf.constant((byte) -1);
    assertEquals(DataType.UINT8, b.dataType());
    assertEquals(TUint8.class, b.type());
    assertEquals((byte) -1, b.asTensor().getByte()); // 255 as unsigned
  }

  @Test
  void vectorsOfEveryType() {
    assertFloats(tf.constant(new float[] {1, 2, 3}), dims(3), 1, 2, 3);
    assertArrayEquals(new double[] {0.5, -1}, doubles(tf.constant(new double[] {0.5, -1})));
    assertInts(tf.constant(new int[] {4, 5}), dims(2), 4, 5);
    assertLongs(tf.constant(new long[] {6, 7, 8}), dims(3), 6, 7, 8);
    assertBools(tf.constant(new boolean[] {true, false}), dims(2), true, false);
    assertArrayEquals(new byte[] {1, (byte) 200}, bytes(tf.constant(new byte[] {1, (byte) 200})));
    assertEquals(Shape.of(0), tf.constant(new float[0]).shape());
  }

  @Test
  void matricesAreRowMajor() {
    Operand<TFloat32> m = tf.constant(new float[][] {{1, 2, 3}, {4, 5, 6}});
    assertFloats(m, dims(2, 3), 1, 2, 3, 4, 5, 6);
    assertEquals(6f, m.asTensor().getFloat(1, 2));
    assertEquals(2f, m.asTensor().getFloat(0, 1));
    assertArrayEquals(
        new double[] {1, 2, 3, 4}, doubles(tf.constant(new double[][] {{1, 2}, {3, 4}})));
    assertLongs(tf.constant(new long[][] {{1}, {2}}), dims(2, 1), 1, 2);
    assertBools(tf.constant(new boolean[][] {{true}, {false}}), dims(2, 1), true, false);
    assertArrayEquals(new byte[] {9, 8}, bytes(tf.constant(new byte[][] {{9, 8}})));
    assertEquals(Shape.of(2, 0), tf.constant(new int[2][0]).shape());
  }

  @Test
  void rank3And4() {
    int[][][] a = {{{1, 2}, {3, 4}, {5, 6}}, {{7, 8}, {9, 10}, {11, 12}}};
    Operand<TInt32> c = tf.constant(a);
    assertInts(c, dims(2, 3, 2), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
    assertEquals(10, c.asTensor().getInt(1, 1, 1));

    float[][][][] f = new float[2][1][2][3];
    float v = 0;
    for (float[][][] x : f) {
      for (float[][] y : x) {
        for (float[] z : y) {
          for (int i = 0; i < z.length; i++) {
            z[i] = v++;
          }
        }
      }
    }
    Operand<TFloat32> c4 = tf.constant(f);
    assertEquals(Shape.of(2, 1, 2, 3), c4.shape());
    assertEquals(10f, c4.asTensor().getFloat(1, 0, 1, 1)); // 6 + 3 + 1
    assertArrayEquals(new long[] {1, 2}, longs(tf.constant(new long[][][][] {{{{1, 2}}}})));
    assertBools(tf.constant(new boolean[][][] {{{true, false}}}), dims(1, 1, 2), true, false);
    assertEquals(Shape.of(1, 1, 1, 1), tf.constant(new double[][][][] {{{{3}}}}).shape());
    assertEquals(DataType.UINT8, tf.constant(new byte[][][] {{{1}}}).dataType());
  }

  @Test
  void flatFormsTakeAShape() {
    assertFloats(tf.constant(Shape.of(2, 2), new float[] {1, 2, 3, 4}), dims(2, 2), 1, 2, 3, 4);
    assertInts(tf.constant(Shape.of(3, 1), new int[] {1, 2, 3}), dims(3, 1), 1, 2, 3);
    assertLongs(tf.constant(Shape.scalar(), new long[] {5}), dims(), 5);
    assertArrayEquals(
        new double[] {1, 2}, doubles(tf.constant(Shape.of(1, 2), new double[] {1, 2})));
    assertBools(tf.constant(Shape.of(1), new boolean[] {true}), dims(1), true);
    assertEquals(Shape.of(2), tf.constant(Shape.of(2), new byte[] {1, 2}).shape());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> tf.constant(Shape.of(2, 2), new float[] {1, 2, 3}));
    assertEquals("shape [2, 2] needs 4 elements but data has 3", e.getMessage());
  }

  @Test
  void arrayAndTypedScalarHelpers() {
    assertFloats(tf.array(1f, 2f), dims(2), 1, 2);
    assertInts(tf.array(3, 4, 5), dims(3), 3, 4, 5);
    assertInts(tf.constant(TInt32.class, 2.7), dims(), 2);
    assertEquals(2.5f, tf.constant(TFloat32.class, 2.5).asTensor().getFloat());
    assertEquals(7L, tf.constant(TInt64.class, 7).asTensor().getLong());
    assertEquals(0.25, tf.constant(TFloat64.class, 0.25f).asTensor().getDouble());
    assertThrows(IllegalArgumentException.class, () -> tf.constant(bool(), 1));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Class bool() {
    return TBool.class;
  }

  @Test
  void constantCopiesTheArray() {
    float[] data = {1, 2};
    Operand<TFloat32> c = tf.constant(data);
    data[0] = 100;
    assertFloats(c, dims(2), 1, 2);
  }

  @Test
  void constantOfSnapshotsATensor() {
    try (TFloat32 t = TFloat32.tensorOf(Shape.of(2), new float[] {1, 2})) {
      Operand<TFloat32> c = tf.constantOf(t);
      t.setFloat(50, 0);
      assertFloats(c, dims(2), 1, 2);
      assertEquals(TFloat32.class, c.type());
      // A tensor read from an output of the same session can be snapshot too.
      Operand<TFloat32> again = tf.constantOf(c.asTensor());
      assertFloats(again, dims(2), 1, 2);
    }
  }

  @Test
  void raggedArraysNameTheRow() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> tf.constant(new float[][] {{1, 2, 3}, {4, 5}}));
    assertEquals("ragged array: row [1] has length 2 but row [0] has 3", e.getMessage());

    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> tf.constant(new int[][][] {{{1, 2}, {3, 4}}, {{5, 6}, {7}}}));
    assertEquals("ragged array: row [1][1] has length 1 but row [0][0] has 2", e.getMessage());

    e =
        assertThrows(
            IllegalArgumentException.class, () -> tf.constant(new long[][][] {{{1}, {2}}, {{3}}}));
    assertEquals("ragged array: row [1] has length 1 but row [0] has 2", e.getMessage());

    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> tf.constant(new boolean[][][][] {{{{true}}}, {{{true, false}}}}));
    assertTrue(e.getMessage().contains("row [1][0][0] has length 2 but row [0][0][0] has 1"));

    NullPointerException n =
        assertThrows(NullPointerException.class, () -> tf.constant(new double[][] {{1}, null}));
    assertEquals("row [1] is null", n.getMessage());
  }

  @Test
  void aConstantCountsOnceWithExactBytes() {
    try (EagerSession s =
        EagerSession.options()
            .resourceCleanupStrategy(EagerSession.ResourceCleanupStrategy.ON_SESSION_CLOSE)
            .build()) {
      Ops ops = Ops.create(s);
      SessionStats before = s.stats();
      Operand<TFloat32> c = ops.constant(new float[512][512]);
      SessionStats after = s.stats();
      assertEquals(1, after.createdTensors() - before.createdTensors());
      assertEquals(1024 * 1024, after.liveBytes() - before.liveBytes());
      s.release(c);
      assertEquals(before.liveBytes(), s.stats().liveBytes());
    }
  }
}
