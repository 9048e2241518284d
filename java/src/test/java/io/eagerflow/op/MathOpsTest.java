package io.eagerflow.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.DataType;
import io.eagerflow.Operand;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TFloat64;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TInt64;
import java.util.List;
import org.junit.jupiter.api.Test;

class MathOpsTest extends OpsTestBase {
  private Operand<TFloat32> f(float... v) {
    return tf.constant(v);
  }

  private Operand<TInt32> i(int... v) {
    return tf.constant(v);
  }

  @Test
  void arithmetic() {
    assertFloats(tf.math.add(f(1, 2, 3), f(10, 20, 30)), dims(3), 11, 22, 33);
    assertFloats(tf.math.sub(f(5, 7), f(1, 2)), dims(2), 4, 5);
    assertFloats(tf.math.mul(f(2, 3), f(4, 5)), dims(2), 8, 15);
    assertFloats(tf.math.div(f(1, 3), f(2, 4)), dims(2), 0.5f, 0.75f);
    assertFloats(tf.math.realDiv(f(1, -3), f(4, 4)), dims(2), 0.25f, -0.75f);
    assertFloats(tf.math.pow(f(2, 3, 4), f(3, 2, 0.5f)), dims(3), 8, 9, 2);
    assertFloats(tf.math.maximum(f(1, 5), f(3, 2)), dims(2), 3, 5);
    assertFloats(tf.math.minimum(f(1, 5), f(3, 2)), dims(2), 1, 2);
    assertFloats(tf.math.squaredDifference(f(1, 5), f(3, 2)), dims(2), 4, 9);
    assertFloats(tf.math.divNoNan(f(1, 2), f(0, 4)), dims(2), 0, 0.5f);
  }

  @Test
  void integerArithmetic() {
    assertInts(tf.math.add(i(1, -2), i(3, 4)), dims(2), 4, 2);
    assertInts(tf.math.mul(i(6, -7), i(7, 6)), dims(2), 42, -42);
    assertInts(tf.math.pow(i(2, 3), i(10, 3)), dims(2), 1024, 27);
    assertInts(tf.math.floorDiv(i(7, -7, 7, -7), i(2, 2, -2, -2)), dims(4), 3, -4, -4, 3);
    assertInts(tf.math.floorMod(i(7, -7, 7, -7), i(3, 3, -3, -3)), dims(4), 1, 2, -2, -1);
    assertLongs(
        tf.math.sub(tf.constant(new long[] {1L << 40}), tf.constant(new long[] {1})),
        dims(1),
        (1L << 40) - 1);
  }

  @Test
  void integerDivisionTruncatesAndRejectsZero() {
    assertInts(tf.math.div(i(7, -7, 6), i(2, 2, -4)), dims(3), 3, -3, -1);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> tf.math.div(i(1, 2), i(1, 0)));
    assertTrue(e.getMessage().contains("RealDiv"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> tf.math.floorMod(i(1), i(0)));
  }

  @Test
  void floorDivAndModOnFloats() {
    assertFloats(tf.math.floorDiv(f(7.5f, -7.5f), f(2, 2)), dims(2), 3, -4);
    assertFloats(tf.math.floorMod(f(7.5f, -7.5f), f(2, 2)), dims(2), 1.5f, 0.5f);
  }

  @Test
  void broadcasting() {
    Operand<TFloat32> col = tf.constant(new float[][] {{1}, {2}});
    assertFloats(tf.math.add(col, f(10, 20, 30)), dims(2, 3), 11, 21, 31, 12, 22, 32);
    assertFloats(tf.math.mul(tf.constant(2f), f(1, 2)), dims(2), 2, 4);
    assertFloats(tf.math.sub(f(1, 2), tf.constant(1f)), dims(2), 0, 1);
  }

  @Test
  void unaryFunctions() {
    float e = (float) Math.E;
    float pi = (float) Math.PI;
    assertFloats(tf.math.exp(f(0, 1)), dims(2), 1, e);
    assertFloats(tf.math.neg(f(1, -2)), dims(2), -1, 2);
    assertFloats(tf.math.abs(f(-1.5f, 2)), dims(2), 1.5f, 2);
    assertFloats(tf.math.sign(f(-3, 0, 2)), dims(3), -1, 0, 1);
    assertFloats(tf.math.log(f(1, e)), dims(2), 0, 1);
    assertFloats(tf.math.log1p(f(0, e - 1)), dims(2), 0, 1);
    assertFloats(tf.math.expm1(f(0, (float) Math.log(2))), dims(2), 0, 1);
    assertFloats(tf.math.sqrt(f(4, 9)), dims(2), 2, 3);
    assertFloats(tf.math.rsqrt(f(4, 0.25f)), dims(2), 0.5f, 2);
    assertFloats(tf.math.square(f(3, -2)), dims(2), 9, 4);
    assertFloats(tf.math.reciprocal(f(2, -4)), dims(2), 0.5f, -0.25f);
    assertFloats(tf.math.sin(f(0, pi / 2)), dims(2), 0, 1);
    assertFloats(tf.math.cos(f(0, pi)), dims(2), 1, -1);
    assertFloats(tf.math.tan(f(0, pi / 4)), dims(2), 0, 1);
    assertFloats(tf.math.tanh(f(0, 1)), dims(2), 0, 0.7615942f);
    assertFloats(tf.math.sigmoid(f(0, (float) Math.log(3))), dims(2), 0.5f, 0.75f);
    assertFloats(tf.math.floor(f(1.5f, -1.5f)), dims(2), 1, -2);
    assertFloats(tf.math.ceil(f(1.5f, -1.5f)), dims(2), 2, -1);
    // Halves round to even, as TensorFlow's Round does.
    assertFloats(tf.math.round(f(0.5f, 1.5f, 2.5f, -0.5f, -1.7f)), dims(5), 0, 2, 2, 0, -2);
  }

  @Test
  void unaryOnIntegersAndDoubles() {
    assertInts(tf.math.abs(i(-3, 4)), dims(2), 3, 4);
    assertInts(tf.math.neg(i(5)), dims(1), -5);
    assertInts(tf.math.square(i(-3)), dims(1), 9);
    assertInts(tf.math.sign(i(-9, 0, 9)), dims(3), -1, 0, 1);
    Operand<TFloat64> d = tf.constant(new double[] {4, 16});
    assertArrayEquals(new double[] {2, 4}, doubles(tf.math.sqrt(d)), 1e-12);
  }

  @Test
  void unaryKeepsShape() {
    Operand<TFloat32> m = tf.constant(new float[][] {{1, 4}, {9, 16}});
    assertFloats(tf.math.sqrt(m), dims(2, 2), 1, 2, 3, 4);
  }

  @Test
  void mean() {
    Operand<TFloat32> m = tf.constant(new float[][] {{1, 2}, {3, 4}});
    assertFloats(tf.math.mean(m, tf.constant(0)), dims(2), 2, 3);
    assertFloats(tf.math.mean(m, tf.constant(1)), dims(2), 1.5f, 3.5f);
    assertFloats(tf.math.mean(m, tf.constant(-1), Mean.keepDims(true)), dims(2, 1), 1.5f, 3.5f);
    assertFloats(tf.math.mean(m, tf.constant(new int[] {0, 1})), dims(), 2.5f);
    assertFloats(tf.math.mean(m, tf.constant(new long[] {0, 1})), dims(), 2.5f);
    // Integer means truncate, as TensorFlow's do.
    assertInts(tf.math.mean(i(1, 2), tf.constant(0)), dims(), 1);
  }

  @Test
  void argMaxAndArgMin() {
    Operand<TFloat32> m = tf.constant(new float[][] {{1, 5, 3}, {7, 2, 7}});
    Operand<TInt64> am = tf.math.argMax(m, tf.constant(1));
    assertEquals(DataType.INT64, am.dataType());
    assertLongs(am, dims(2), 1, 0); // ties give the first index
    assertLongs(tf.math.argMax(m, tf.constant(0)), dims(3), 1, 0, 1);
    assertLongs(tf.math.argMin(m, tf.constant(1)), dims(2), 0, 1);
    assertInts(tf.math.argMax(m, tf.constant(-1), TInt32.class), dims(2), 1, 0);
    assertInts(tf.math.argMin(m, tf.constant(0L), TInt32.class), dims(3), 0, 1, 0);
  }

  @Test
  void cumsum() {
    Operand<TFloat32> x = f(1, 2, 3);
    Operand<TInt32> axis = tf.constant(0);
    assertFloats(tf.math.cumsum(x, axis), dims(3), 1, 3, 6);
    assertFloats(tf.math.cumsum(x, axis, Cumsum.exclusive(true)), dims(3), 0, 1, 3);
    assertFloats(tf.math.cumsum(x, axis, Cumsum.reverse(true)), dims(3), 6, 5, 3);
    assertFloats(
        tf.math.cumsum(x, axis, Cumsum.exclusive(true), Cumsum.reverse(true)), dims(3), 5, 3, 0);
    Operand<TInt32> m = tf.constant(new int[][] {{1, 2}, {3, 4}});
    assertInts(tf.math.cumsum(m, tf.constant(1)), dims(2, 2), 1, 3, 3, 7);
  }

  @Test
  void addN() {
    assertFloats(tf.math.addN(List.of(f(1, 2), f(3, 4), f(5, 6))), dims(2), 9, 12);
    assertInts(tf.math.addN(List.of(i(7))), dims(1), 7);
  }
}
