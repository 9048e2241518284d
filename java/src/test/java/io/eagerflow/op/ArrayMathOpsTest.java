package io.eagerflow.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.Operand;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TFloat64;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TInt64;
import org.junit.jupiter.api.Test;

/**
 * The array ops of {@code Ops} ({@code pad}, {@code mirrorPad}, {@code reverse}, {@code roll},
 * {@code where}, {@code gatherNd} and the scatters) and the math ops of issue 24 in {@code
 * tf.math}, through the facade: values from TensorFlow's documentation, and the errors.
 */
class ArrayMathOpsTest extends OpsTestBase {
  private Operand<TInt32> i(int... v) {
    return tf.constant(v);
  }

  private Operand<TInt32> m(int[][] v) {
    return tf.constant(v);
  }

  private static void assertMessage(RuntimeException e, String... parts) {
    for (String p : parts) {
      assertTrue(e.getMessage().contains(p), e.getMessage() + " should mention " + p);
    }
  }

  @Test
  void padAndMirrorPad() {
    Operand<TInt32> t = m(new int[][] {{1, 2, 3}, {4, 5, 6}});
    Operand<TInt32> p = m(new int[][] {{1, 1}, {2, 2}});
    assertInts(
        tf.pad(t, p, tf.constant(-1)),
        dims(4, 7),
        -1,
        -1,
        -1,
        -1,
        -1,
        -1,
        -1,
        -1,
        -1,
        1,
        2,
        3,
        -1,
        -1,
        -1,
        -1,
        4,
        5,
        6,
        -1,
        -1,
        -1,
        -1,
        -1,
        -1,
        -1,
        -1,
        -1);
    assertInts(
        tf.mirrorPad(t, p, "REFLECT"),
        dims(4, 7),
        6,
        5,
        4,
        5,
        6,
        5,
        4,
        3,
        2,
        1,
        2,
        3,
        2,
        1,
        6,
        5,
        4,
        5,
        6,
        5,
        4,
        3,
        2,
        1,
        2,
        3,
        2,
        1);
    assertInts(
        tf.mirrorPad(i(1, 2, 3), m(new int[][] {{2, 2}}), "SYMMETRIC"),
        dims(7),
        2,
        1,
        1,
        2,
        3,
        3,
        2);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> tf.pad(t, m(new int[][] {{0, -1}, {0, 0}}), tf.constant(0)));
    assertMessage(e, "PadV2", "paddings", "non-negative");
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> tf.mirrorPad(i(1, 2), m(new int[][] {{2, 0}}), "REFLECT"));
    assertMessage(e, "MirrorPad", "no greater than");
    assertThrows(NullPointerException.class, () -> tf.mirrorPad(t, p, null));
  }

  @Test
  void reverseRollWhere() {
    Operand<TInt32> t = m(new int[][] {{1, 2, 3}, {4, 5, 6}});
    assertInts(tf.reverse(t, i(1)), dims(2, 3), 3, 2, 1, 6, 5, 4);
    assertInts(tf.reverse(t, tf.constant(new long[] {0, -1})), dims(2, 3), 6, 5, 4, 3, 2, 1);
    assertInts(tf.roll(i(0, 1, 2, 3, 4), tf.constant(2), tf.constant(0)), dims(5), 3, 4, 0, 1, 2);
    assertInts(tf.roll(t, i(1, -1), i(0, 1)), dims(2, 3), 5, 6, 4, 2, 3, 1);
    assertLongs(
        tf.where(tf.constant(new boolean[][] {{true, false}, {true, true}})),
        dims(3, 2),
        0,
        0,
        1,
        0,
        1,
        1);
    assertLongs(tf.where(tf.constant(new float[] {0, Float.NaN, -0f, 2})), dims(2, 1), 1, 3);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> tf.reverse(t, i(0, 0)));
    assertMessage(e, "ReverseV2", "specified more than once");
  }

  @Test
  void gatherAndScatter() {
    Operand<TInt32> p = m(new int[][] {{1, 2}, {3, 4}});
    assertInts(tf.gatherNd(p, m(new int[][] {{0, 0}, {1, 1}})), dims(2), 1, 4);
    assertInts(tf.gatherNd(p, m(new int[][] {{1}, {0}})), dims(2, 2), 3, 4, 1, 2);
    assertFloats(
        tf.scatterNd(
            m(new int[][] {{4}, {3}, {1}, {7}}), tf.constant(new float[] {9, 10, 11, 12}), i(8)),
        dims(8),
        0,
        11,
        0,
        10,
        9,
        0,
        0,
        12);
    Operand<TInt64> t = tf.constant(new long[][] {{1, 2}, {3, 4}});
    Operand<TInt64> u = tf.constant(new long[][] {{10, 20}, {30, 40}});
    assertLongs(
        tf.tensorScatterNdUpdate(t, m(new int[][] {{1}, {1}}), u), dims(2, 2), 1, 2, 30, 40);
    assertLongs(tf.tensorScatterNdAdd(t, m(new int[][] {{1}, {1}}), u), dims(2, 2), 1, 2, 43, 64);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> tf.gatherNd(p, m(new int[][] {{0, 2}})));
    assertMessage(e, "GatherNd", "indices[0] = [0, 2]", "[2, 2]");
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> tf.tensorScatterNdUpdate(t, m(new int[][] {{1}}), tf.constant(new long[] {1})));
    assertMessage(e, "TensorScatterUpdate", "updates", "[1, 2]");
  }

  @Test
  void elementwiseMath() {
    Operand<TFloat64> x = tf.constant(new double[] {0, Double.NaN, Double.POSITIVE_INFINITY, -1});
    assertBools(tf.math.isNan(x), dims(4), false, true, false, false);
    assertBools(tf.math.isInf(x), dims(4), false, false, true, false);
    assertBools(tf.math.isFinite(x), dims(4), true, false, false, true);
    assertArrayEquals(
        new double[] {0, 0.8427007929497149, 0.1572992070502851, 0.5723649429247001},
        new double[] {
          doubles(tf.math.erf(tf.constant(0.0)))[0],
          doubles(tf.math.erf(tf.constant(1.0)))[0],
          doubles(tf.math.erfc(tf.constant(1.0)))[0],
          doubles(tf.math.lgamma(tf.constant(0.5)))[0]
        },
        1e-14);
    assertFloats(
        tf.math.atan2(tf.constant(new float[] {1, -1}), tf.constant(1f)),
        dims(2),
        (float) Math.PI / 4,
        (float) -Math.PI / 4);
    assertInts(tf.math.truncateDiv(i(7, -7), i(2)), dims(2), 3, -3);
    assertInts(tf.math.truncateMod(i(7, -7), i(-2)), dims(2), 1, -1);
    assertInts(tf.math.floorMod(i(7, -7), i(-2)), dims(2), -1, -1);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> tf.math.truncateDiv(i(1), i(0)));
    assertMessage(e, "TruncateDiv", "division by zero");
    e = assertThrows(IllegalArgumentException.class, () -> tf.math.isNan(i(1)));
    assertMessage(e, "IsNan", "INT32");
  }

  @Test
  void cumprodAndSegments() {
    Operand<TFloat32> x = tf.constant(new float[] {1, 2, 3, 4});
    Operand<TInt32> axis = tf.constant(0);
    assertFloats(tf.math.cumprod(x, axis), dims(4), 1, 2, 6, 24);
    assertFloats(tf.math.cumprod(x, axis, Cumprod.exclusive(true)), dims(4), 1, 1, 2, 6);
    assertFloats(
        tf.math.cumprod(x, axis, Cumprod.exclusive(true), Cumprod.reverse(true)),
        dims(4),
        24,
        12,
        4,
        1);
    Operand<TInt32> c = m(new int[][] {{1, 2, 3, 4}, {4, 3, 2, 1}, {5, 6, 7, 8}});
    Operand<TInt32> ids = i(0, 0, 1);
    assertInts(tf.math.segmentSum(c, ids), dims(2, 4), 5, 5, 5, 5, 5, 6, 7, 8);
    assertInts(tf.math.segmentMean(c, ids), dims(2, 4), 2, 2, 2, 2, 5, 6, 7, 8);
    assertInts(tf.math.segmentMax(c, ids), dims(2, 4), 4, 3, 3, 4, 5, 6, 7, 8);
    assertInts(tf.math.segmentMin(c, ids), dims(2, 4), 1, 2, 2, 1, 5, 6, 7, 8);
    assertInts(
        tf.math.unsortedSegmentSum(c, i(0, 1, 0), tf.constant(2)),
        dims(2, 4),
        6,
        8,
        10,
        12,
        4,
        3,
        2,
        1);
    assertInts(
        tf.math.unsortedSegmentMax(c, i(1, -1, 1), tf.constant(2L)),
        dims(2, 4),
        Integer.MIN_VALUE,
        Integer.MIN_VALUE,
        Integer.MIN_VALUE,
        Integer.MIN_VALUE,
        5,
        6,
        7,
        8);
    assertFloats(
        tf.math.bincount(i(1, 1, 3, 9), tf.constant(4), tf.constant(new float[0])),
        dims(4),
        0,
        2,
        0,
        1);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> tf.math.segmentSum(c, i(1, 0, 0)));
    assertMessage(e, "SegmentSum", "not increasing");
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> tf.math.unsortedSegmentSum(c, i(0, 2, 0), tf.constant(2)));
    assertMessage(e, "UnsortedSegmentSum", "segment_ids[1] = 2", "[0, 2)");
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> tf.math.bincount(i(-1), tf.constant(2), tf.constant(new int[0])));
    assertMessage(e, "Bincount", "non-negative");
  }

  @Test
  void uniqueLinSpaceBandPartAndBlocks() {
    Unique<TInt32, TInt32> u = tf.unique(i(1, 1, 2, 4, 4, 4, 7, 8, 8), i());
    assertInts(u.y(), dims(5), 1, 2, 4, 7, 8);
    assertInts(u.idx(), dims(9), 0, 0, 1, 2, 2, 2, 3, 4, 4);
    Unique<TInt32, TInt64> cols =
        tf.unique(m(new int[][] {{1, 2, 1}, {3, 4, 3}}), i(1), TInt64.class);
    assertInts(cols.y(), dims(2, 2), 1, 2, 3, 4);
    assertLongs(cols.idx(), dims(3), 0, 1, 0);
    assertFloats(
        tf.linSpace(tf.constant(10f), tf.constant(12f), tf.constant(3)), dims(3), 10, 11, 12);
    Operand<TInt32> x = m(new int[][] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
    assertInts(
        tf.linalg.bandPart(x, tf.constant(0), tf.constant(-1)),
        dims(3, 3),
        1,
        2,
        3,
        0,
        5,
        6,
        0,
        0,
        9);
    Operand<TInt32> img = tf.reshape(i(1, 2, 3, 4), tf.constant(new long[] {1, 2, 2, 1}));
    Operand<TInt32> deep = tf.nn.spaceToDepth(img, 2L);
    assertInts(deep, dims(1, 1, 1, 4), 1, 2, 3, 4);
    assertInts(
        tf.nn.depthToSpace(deep, 2L, DepthToSpace.dataFormat("NHWC")),
        dims(1, 2, 2, 1),
        1,
        2,
        3,
        4);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> tf.linSpace(tf.constant(0.0), tf.constant(1.0), tf.constant(0)));
    assertMessage(e, "LinSpace", "num");
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> tf.nn.spaceToDepth(img, 2L, SpaceToDepth.dataFormat("NCHW")));
    assertMessage(e, "SpaceToDepth", "NHWC");
  }

  @Test
  void matrixDiagonals() {
    Operand<TInt32> zero = tf.constant(0);
    Operand<TInt32> auto = tf.constant(-1);
    assertInts(
        tf.linalg.matrixDiag(i(1, 2), tf.constant(-1), tf.constant(3), auto, tf.constant(9)),
        dims(3, 2),
        9,
        9,
        1,
        9,
        9,
        2);
    assertInts(
        tf.linalg.matrixDiagV3(
            m(new int[][] {{8, 9, 0}, {1, 2, 3}, {0, 4, 5}}),
            i(-1, 1),
            auto,
            auto,
            zero,
            MatrixDiagV3.align("LEFT_RIGHT")),
        dims(3, 3),
        1,
        8,
        0,
        4,
        2,
        9,
        0,
        5,
        3);
    Operand<TInt32> x = m(new int[][] {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 8, 7, 6}});
    assertInts(tf.linalg.matrixDiagPart(x, zero, zero), dims(3), 1, 6, 7);
    assertInts(
        tf.linalg.matrixDiagPartV3(x, i(-1, 2), zero),
        dims(4, 3),
        0,
        3,
        8,
        2,
        7,
        6,
        1,
        6,
        7,
        5,
        8,
        0);
    assertInts(
        tf.linalg.matrixDiagPartV3(x, i(-1, 2), zero, MatrixDiagPartV3.align("LEFT_RIGHT")),
        dims(4, 3),
        3,
        8,
        0,
        2,
        7,
        6,
        1,
        6,
        7,
        0,
        5,
        8);
  }
}
