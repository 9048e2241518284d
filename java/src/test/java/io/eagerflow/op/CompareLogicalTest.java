package io.eagerflow.op;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eagerflow.DataType;
import io.eagerflow.Operand;
import io.eagerflow.types.TBool;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import org.junit.jupiter.api.Test;

class CompareLogicalTest extends OpsTestBase {
  private static final boolean T = true;
  private static final boolean F = false;

  @Test
  void comparisons() {
    Operand<TFloat32> x = tf.constant(new float[] {1, 2, 3});
    Operand<TFloat32> y = tf.constant(new float[] {2, 2, 2});
    Operand<TBool> g = tf.math.greater(x, y);
    assertEquals(DataType.BOOL, g.dataType());
    assertBools(g, dims(3), F, F, T);
    assertBools(tf.math.greaterEqual(x, y), dims(3), F, T, T);
    assertBools(tf.math.less(x, y), dims(3), T, F, F);
    assertBools(tf.math.lessEqual(x, y), dims(3), T, T, F);
    assertBools(tf.math.equal(x, y), dims(3), F, T, F);
    assertBools(tf.math.notEqual(x, y), dims(3), T, F, T);
  }

  @Test
  void comparisonsBroadcastAndTakeIntegers() {
    Operand<TInt32> m = tf.constant(new int[][] {{1, 5}, {3, 2}});
    assertBools(tf.math.greater(m, tf.constant(2)), dims(2, 2), F, T, T, F);
    assertBools(tf.math.equal(m, tf.constant(new int[] {1, 2})), dims(2, 2), T, F, F, T);
    assertBools(tf.math.equal(tf.constant(new boolean[] {T, F}), tf.constant(T)), dims(2), T, F);
  }

  @Test
  void logic() {
    Operand<TBool> a = tf.constant(new boolean[] {T, T, F, F});
    Operand<TBool> b = tf.constant(new boolean[] {T, F, T, F});
    assertBools(tf.math.logicalAnd(a, b), dims(4), T, F, F, F);
    assertBools(tf.math.logicalOr(a, b), dims(4), T, T, T, F);
    assertBools(tf.math.logicalNot(a), dims(4), F, F, T, T);
    assertBools(tf.math.logicalAnd(a, tf.constant(T)), dims(4), T, T, F, F);
  }
}
