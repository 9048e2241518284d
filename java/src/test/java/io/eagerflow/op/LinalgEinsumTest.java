package io.eagerflow.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.Operand;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TFloat64;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TInt64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tensorflow.ndarray.Shape;

/**
 * {@code tf.linalg.einsum} through the facade: products, transposes, traces, diagonals, sums,
 * ellipsis broadcasting, the integer dtypes, and the errors.
 */
class LinalgEinsumTest extends OpsTestBase {
  private static final double TOL = 1e-12;

  private static void assertMessage(RuntimeException e, String... parts) {
    for (String p : parts) {
      assertTrue(e.getMessage().contains(p), e.getMessage() + " should mention " + p);
    }
  }

  @Test
  void productsAgreeWithMatMul() {
    Operand<TFloat64> a = tf.constant(new double[][] {{1, 2, 3}, {4, 5, 6}});
    Operand<TFloat64> b = tf.constant(new double[][] {{7, 8}, {9, 10}, {11, 12}});
    Operand<TFloat64> ab = tf.linalg.einsum(List.of(a, b), "ij,jk->ik");
    assertEquals(Shape.of(2, 2), ab.shape());
    assertArrayEquals(doubles(tf.linalg.matMul(a, b)), doubles(ab), TOL);
    // (a b)^T, and a^T a with the first operand transposed.
    assertArrayEquals(
        new double[] {58, 139, 64, 154},
        doubles(tf.linalg.einsum(List.of(a, b), "ij,jk->ki")),
        TOL);
    assertArrayEquals(
        doubles(tf.linalg.matMul(a, a, MatMul.transposeA(true))),
        doubles(tf.linalg.einsum(List.of(a, a), "ji,jk->ik")),
        TOL);
    // A batch of products, and outer and inner products.
    Operand<TFloat32> x = tf.constant(new float[][][] {{{1, 2}, {3, 4}}, {{0, 1}, {1, 0}}});
    assertFloats(
        tf.linalg.einsum(List.of(x, x), "bij,bjk->bik"), dims(2, 2, 2), 7, 10, 15, 22, 1, 0, 0, 1);
    Operand<TFloat32> u = tf.constant(new float[] {1, 2});
    Operand<TFloat32> v = tf.constant(new float[] {3, 4, 5});
    assertFloats(tf.linalg.einsum(List.of(u, v), "i,j->ij"), dims(2, 3), 3, 4, 5, 6, 8, 10);
    assertFloats(tf.linalg.einsum(List.of(v, v), "i,i->"), dims(), 50);
  }

  @Test
  void oneOperandTransposesTracesDiagonalsAndSums() {
    Operand<TFloat64> m = tf.constant(new double[][] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
    assertArrayEquals(
        new double[] {1, 4, 7, 2, 5, 8, 3, 6, 9},
        doubles(tf.linalg.einsum(List.of(m), "ij->ji")),
        TOL);
    assertArrayEquals(new double[] {15}, doubles(tf.linalg.einsum(List.of(m), "ii->")), TOL);
    assertArrayEquals(new double[] {1, 5, 9}, doubles(tf.linalg.einsum(List.of(m), "ii->i")), TOL);
    assertArrayEquals(
        new double[] {12, 15, 18}, doubles(tf.linalg.einsum(List.of(m), "ij->j")), TOL);
    assertArrayEquals(new double[] {45}, doubles(tf.linalg.einsum(List.of(m), "ij->")), TOL);
    // A label repeated in the output: a diagonal matrix.
    Operand<TFloat64> d = tf.linalg.einsum(List.of(tf.constant(new double[] {1, 2})), "i->ii");
    assertArrayEquals(new double[] {1, 0, 0, 2}, doubles(d), TOL);
  }

  @Test
  void ellipsesBroadcastAndIntegersWork() {
    // [2, 1] batches of 2x2 by [3] batches of 2x1: [2, 3] batches of 2x1.
    Operand<TInt32> x = tf.constant(new int[][][][] {{{{1, 0}, {0, 1}}}, {{{2, 0}, {0, 2}}}});
    Operand<TInt32> y = tf.constant(new int[][][] {{{1}, {2}}, {{3}, {4}}, {{5}, {6}}});
    Operand<TInt32> p = tf.linalg.einsum(List.of(x, y), "...ij,...jk->...ik");
    assertInts(p, dims(2, 3, 2, 1), 1, 2, 3, 4, 5, 6, 2, 4, 6, 8, 10, 12);
    Operand<TInt64> big = tf.constant(new long[][] {{1L << 40, 1}, {1, 1}});
    assertLongs(tf.linalg.einsum(List.of(big), "ii->"), dims(), (1L << 40) + 1);
  }

  @Test
  void errorsNameTheEquationOperandsAndShapes() {
    Operand<TFloat32> m = tf.constant(new float[][] {{1, 2, 3}, {4, 5, 6}});
    Operand<TFloat32> n = tf.constant(new float[][] {{1, 2}, {3, 4}});
    assertMessage(
        assertThrows(
            IllegalArgumentException.class, () -> floats(tf.linalg.einsum(List.of(m, n), "ij,jk"))),
        "Einsum",
        "exactly one '->'");
    assertMessage(
        assertThrows(
            IllegalArgumentException.class,
            () -> floats(tf.linalg.einsum(List.of(m, n), "ij,jk->ik"))),
        "Einsum",
        "label 'j'",
        "[2, 3]",
        "[2, 2]");
    assertMessage(
        assertThrows(
            IllegalArgumentException.class,
            () -> floats(tf.linalg.einsum(List.of(m, m, m), "ij,ij,ij->ij"))),
        "Einsum",
        "1 or 2 operands");
    assertMessage(
        assertThrows(
            IllegalArgumentException.class, () -> floats(tf.linalg.einsum(List.of(m), "ijk->i"))),
        "Einsum",
        "inputs[0]",
        "rank");
    assertMessage(
        assertThrows(
            IllegalArgumentException.class,
            () -> floats(tf.linalg.einsum(List.of(m, n), "ij->ij"))),
        "Einsum",
        "1 input subscript(s) but 2 input(s)");
    assertMessage(
        assertThrows(
            IllegalArgumentException.class, () -> floats(tf.linalg.einsum(List.of(m), "ij->k"))),
        "Einsum",
        "output label 'k'");
    Operand<TFloat64> d = tf.constant(new double[][] {{1, 2}, {3, 4}});
    @SuppressWarnings("unchecked") // a DOUBLE operand among FLOAT ones, on purpose
    List<Operand<TFloat32>> mixed = List.of(n, (Operand<TFloat32>) (Operand<?>) d);
    assertMessage(
        assertThrows(
            IllegalArgumentException.class, () -> floats(tf.linalg.einsum(mixed, "ij,jk->ik"))),
        "Einsum",
        "DOUBLE");
    assertThrows(NullPointerException.class, () -> tf.linalg.einsum(List.of(m), null));
  }
}
