package io.eagerflow.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.Operand;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TFloat64;
import org.junit.jupiter.api.Test;
import org.tensorflow.ndarray.Shape;

/**
 * The decompositions and solvers of {@code tf.linalg} ({@code cholesky}, {@code det}, {@code inv},
 * {@code solve}, {@code triangularSolve}, {@code qr}, {@code svd}) through the facade: hand-checked
 * values, reconstructions, options and the errors.
 */
class LinalgDecompTest extends OpsTestBase {
  private static final double TOL = 1e-12;

  private Operand<TFloat64> m(double[][] v) {
    return tf.constant(v);
  }

  private static void assertMessage(RuntimeException e, String... parts) {
    for (String p : parts) {
      assertTrue(e.getMessage().contains(p), e.getMessage() + " should mention " + p);
    }
  }

  @Test
  void detInvAndSolve() {
    Operand<TFloat64> a = m(new double[][] {{4, 7}, {2, 6}});
    assertArrayEquals(new double[] {10}, doubles(tf.linalg.det(a)), TOL);
    assertArrayEquals(new double[] {0.6, -0.7, -0.2, 0.4}, doubles(tf.linalg.inv(a)), TOL);
    assertArrayEquals(
        new double[] {0.6, -0.2, -0.7, 0.4}, doubles(tf.linalg.inv(a, Inv.adjoint(true))), TOL);
    // [[4, 7], [2, 6]] x = [[18], [14]]: x = [[1], [2]]
    Operand<TFloat64> x = tf.linalg.solve(a, m(new double[][] {{18}, {14}}));
    assertEquals(Shape.of(2, 1), x.shape());
    assertArrayEquals(new double[] {1, 2}, doubles(x), TOL);
    Operand<TFloat32> f = tf.constant(new float[][][] {{{1, 2}, {3, 4}}, {{2, 0}, {0, 2}}});
    assertFloats(tf.linalg.det(f), dims(2), -2f, 4f);
  }

  @Test
  void choleskyAndTriangularSolve() {
    Operand<TFloat64> a = m(new double[][] {{4, 12, -16}, {12, 37, -43}, {-16, -43, 98}});
    Operand<TFloat64> l = tf.linalg.cholesky(a);
    assertArrayEquals(new double[] {2, 0, 0, 6, 1, 0, -8, 5, 3}, doubles(l), TOL);
    // L y = b, then Lᵀ x = y: x solves a x = b.
    Operand<TFloat64> b = m(new double[][] {{1}, {2}, {3}});
    Operand<TFloat64> y = tf.linalg.triangularSolve(l, b);
    Operand<TFloat64> sol = tf.linalg.triangularSolve(l, y, TriangularSolve.adjoint(true));
    assertArrayEquals(doubles(tf.linalg.solve(a, b)), doubles(sol), 1e-10);
    Operand<TFloat64> u =
        tf.linalg.triangularSolve(
            m(new double[][] {{2, 3}, {0, 1}}),
            m(new double[][] {{4}, {7}}),
            TriangularSolve.lower(false));
    assertArrayEquals(new double[] {-8.5, 7}, doubles(u), TOL);
  }

  @Test
  void qrAndSvdReconstruct() {
    Operand<TFloat64> a = m(new double[][] {{1, 2}, {3, 4}, {5, 6}});
    Qr<TFloat64> f = tf.linalg.qr(a);
    assertEquals(Shape.of(3, 2), f.q().shape());
    assertEquals(Shape.of(2, 2), f.r().shape());
    assertArrayEquals(doubles(a), doubles(tf.linalg.matMul(f.q(), f.r())), 1e-12);
    assertEquals(Shape.of(3, 3), tf.linalg.qr(a, Qr.fullMatrices(true)).q().shape());

    Svd<TFloat64> d = tf.linalg.svd(a);
    assertEquals(Shape.of(2), d.s().shape());
    assertEquals(Shape.of(3, 2), d.u().shape());
    assertEquals(Shape.of(2, 2), d.v().shape());
    Operand<TFloat64> us = tf.math.mul(d.u(), d.s());
    Operand<TFloat64> back = tf.linalg.matMul(us, d.v(), MatMul.transposeB(true));
    assertArrayEquals(doubles(a), doubles(back), 1e-12);
    Svd<TFloat64> values = tf.linalg.svd(a, Svd.computeUv(false));
    assertArrayEquals(doubles(d.s()), doubles(values.s()), 1e-12);
    assertEquals(Shape.of(0), values.u().shape());
    assertEquals(Shape.of(3, 3), tf.linalg.svd(a, Svd.fullMatrices(true)).u().shape());
  }

  @Test
  void errorsNameTheOpOperandAndShape() {
    Operand<TFloat64> singular = m(new double[][] {{1, 2}, {2, 4}});
    assertMessage(
        assertThrows(IllegalArgumentException.class, () -> doubles(tf.linalg.inv(singular))),
        "MatrixInverse",
        "Input is not invertible");
    assertMessage(
        assertThrows(
            IllegalArgumentException.class,
            () -> doubles(tf.linalg.solve(singular, m(new double[][] {{1}, {1}})))),
        "MatrixSolve",
        "not invertible");
    assertMessage(
        assertThrows(IllegalArgumentException.class, () -> doubles(tf.linalg.cholesky(singular))),
        "Cholesky",
        "not positive definite");
    Operand<TFloat64> rect = m(new double[][] {{1, 2, 3}, {4, 5, 6}});
    assertMessage(
        assertThrows(IllegalArgumentException.class, () -> doubles(tf.linalg.det(rect))),
        "MatrixDeterminant",
        "'input'",
        "[2, 3]");
    assertMessage(
        assertThrows(
            IllegalArgumentException.class,
            () ->
                doubles(
                    tf.linalg.solve(
                        m(new double[][] {{1, 0}, {0, 1}}), m(new double[][] {{1}, {2}, {3}})))),
        "MatrixSolve",
        "'rhs'");
    assertThrows(
        IllegalArgumentException.class, () -> tf.linalg.qr(tf.constant(new double[] {1, 2})));
  }
}
