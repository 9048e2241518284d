package io.eagerflow.op;

import io.eagerflow.Operand;
import io.eagerflow.types.TBool;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import org.junit.jupiter.api.Test;

class ReductionsTest extends OpsTestBase {
  private static final boolean T = true;
  private static final boolean F = false;

  private Operand<TFloat32> m() {
    return tf.constant(new float[][] {{1, 2, 3}, {4, 5, 6}});
  }

  @Test
  void sum() {
    assertFloats(tf.reduceSum(m(), tf.constant(0)), dims(3), 5, 7, 9);
    assertFloats(tf.reduceSum(m(), tf.constant(1)), dims(2), 6, 15);
    assertFloats(tf.reduceSum(m(), tf.constant(-1)), dims(2), 6, 15);
    assertFloats(tf.reduceSum(m(), tf.constant(new int[] {0, 1})), dims(), 21);
    assertFloats(tf.reduceSum(m(), tf.constant(1), ReduceSum.keepDims(true)), dims(2, 1), 6, 15);
    assertFloats(
        tf.reduceSum(m(), tf.constant(new long[] {0, 1}), ReduceSum.keepDims(true)),
        dims(1, 1),
        21);
    // An empty axis list reduces nothing.
    assertFloats(tf.reduceSum(m(), tf.constant(new int[0])), dims(2, 3), 1, 2, 3, 4, 5, 6);
    assertInts(tf.reduceSum(tf.constant(new int[] {1, 2, 3}), tf.constant(0)), dims(), 6);
  }

  @Test
  void maxMinProd() {
    assertFloats(tf.reduceMax(m(), tf.constant(1)), dims(2), 3, 6);
    assertFloats(tf.reduceMin(m(), tf.constant(0)), dims(3), 1, 2, 3);
    assertFloats(tf.reduceProd(m(), tf.constant(1)), dims(2), 6, 120);
    assertFloats(tf.reduceMax(m(), tf.constant(0), ReduceMax.keepDims(true)), dims(1, 3), 4, 5, 6);
    assertFloats(tf.reduceMin(m(), tf.constant(1), ReduceMin.keepDims(true)), dims(2, 1), 1, 4);
    Operand<TInt32> v = tf.constant(new int[] {-2, 3, 4});
    assertInts(tf.reduceProd(v, tf.constant(0), ReduceProd.keepDims(false)), dims(), -24);
  }

  @Test
  void allAndAny() {
    Operand<TBool> b = tf.constant(new boolean[][] {{T, F}, {T, T}});
    assertBools(tf.reduceAll(b, tf.constant(1)), dims(2), F, T);
    assertBools(tf.reduceAll(b, tf.constant(0)), dims(2), T, F);
    assertBools(tf.reduceAny(b, tf.constant(1)), dims(2), T, T);
    Operand<TBool> c = tf.constant(new boolean[][] {{F, F}, {T, F}});
    assertBools(tf.reduceAny(c, tf.constant(0)), dims(2), T, F);
    assertBools(tf.reduceAny(c, tf.constant(0), ReduceAny.keepDims(true)), dims(1, 2), T, F);
    assertBools(
        tf.reduceAll(c, tf.constant(new int[] {0, 1}), ReduceAll.keepDims(true)), dims(1, 1), F);
  }

  @Test
  void tensorFlowJavaAliases() {
    assertFloats(tf.sum(m(), tf.constant(1)), dims(2), 6, 15);
    assertFloats(tf.max(m(), tf.constant(1)), dims(2), 3, 6);
    assertFloats(tf.min(m(), tf.constant(1)), dims(2), 1, 4);
    assertFloats(tf.prod(m(), tf.constant(0)), dims(3), 4, 10, 18);
    Operand<TBool> b = tf.constant(new boolean[] {T, F});
    assertBools(tf.all(b, tf.constant(0)), dims(), F);
    assertBools(tf.any(b, tf.constant(0)), dims(), T);
  }
}
