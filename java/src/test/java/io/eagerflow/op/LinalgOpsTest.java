package io.eagerflow.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.eagerflow.Operand;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TFloat64;
import io.eagerflow.types.TInt32;
import org.junit.jupiter.api.Test;

class LinalgOpsTest extends OpsTestBase {
  private Operand<TFloat32> a() {
    return tf.constant(new float[][] {{1, 2}, {3, 4}});
  }

  private Operand<TFloat32> b() {
    return tf.constant(new float[][] {{5, 6}, {7, 8}});
  }

  @Test
  void matMul() {
    assertFloats(tf.linalg.matMul(a(), b()), dims(2, 2), 19, 22, 43, 50);
    assertFloats(tf.linalg.matMul(a(), b(), MatMul.transposeA(true)), dims(2, 2), 26, 30, 38, 44);
    assertFloats(tf.linalg.matMul(a(), b(), MatMul.transposeB(true)), dims(2, 2), 17, 23, 39, 53);
    assertFloats(
        tf.linalg.matMul(a(), b(), MatMul.transposeA(true), MatMul.transposeB(true)),
        dims(2, 2),
        23,
        31,
        34,
        46);
    Operand<TFloat32> m23 = tf.constant(new float[][] {{1, 2, 3}, {4, 5, 6}});
    Operand<TFloat32> m31 = tf.constant(new float[][] {{1}, {0}, {-1}});
    assertFloats(tf.linalg.matMul(m23, m31), dims(2, 1), -2, -2);
    Operand<TFloat64> d = tf.constant(new double[][] {{2}});
    assertArrayEquals(new double[] {4}, doubles(tf.linalg.matMul(d, d)));
    Operand<TInt32> i = tf.constant(new int[][] {{1, 2}, {3, 4}});
    assertInts(tf.linalg.matMul(i, i), dims(2, 2), 7, 10, 15, 22);
  }

  @Test
  void transpose() {
    Operand<TFloat32> m23 = tf.constant(new float[][] {{1, 2, 3}, {4, 5, 6}});
    assertFloats(
        tf.linalg.transpose(m23, tf.constant(new int[] {1, 0})), dims(3, 2), 1, 4, 2, 5, 3, 6);
    Operand<TInt32> t = tf.constant(new int[][][] {{{1, 2, 3}}, {{4, 5, 6}}}); // [2, 1, 3]
    assertInts(
        tf.linalg.transpose(t, tf.constant(new long[] {2, 0, 1})), dims(3, 2, 1), 1, 4, 2, 5, 3, 6);
  }

  @Test
  void batchMatMul() {
    Operand<TFloat32> x = tf.constant(new float[][][] {{{1, 2}, {3, 4}}, {{1, 0}, {0, 1}}});
    assertFloats(tf.linalg.batchMatMul(x, b()), dims(2, 2, 2), 19, 22, 43, 50, 5, 6, 7, 8);
    assertFloats(
        tf.linalg.batchMatMul(x, b(), BatchMatMul.adjY(true)),
        dims(2, 2, 2),
        17,
        23,
        39,
        53,
        5,
        7,
        6,
        8);
    assertFloats(
        tf.linalg.batchMatMul(x, x, BatchMatMul.adjX(true)),
        dims(2, 2, 2),
        10,
        14,
        14,
        20,
        1,
        0,
        0,
        1);
  }
}
