package io.eagerflow.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.DataType;
import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TFloat64;
import io.eagerflow.types.TInt32;
import java.util.Arrays;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.tensorflow.ndarray.Shape;

class RandomOpsTest extends OpsTestBase {
  private static final int N = 20_000;

  private Operand<TInt32> shape() {
    return tf.constant(new int[] {N});
  }

  private static double mean(float[] v) {
    double s = 0;
    for (float x : v) {
      s += x;
    }
    return s / v.length;
  }

  private static double stddev(float[] v) {
    double m = mean(v);
    double s = 0;
    for (float x : v) {
      s += (x - m) * (x - m);
    }
    return Math.sqrt(s / v.length);
  }

  @Test
  void uniformIsInUnitIntervalWithMeanOneHalf() {
    Operand<TFloat32> u = tf.random.randomUniform(shape(), TFloat32.class, RandomUniform.seed(1));
    assertEquals(Shape.of(N), u.shape());
    float[] v = floats(u);
    for (float x : v) {
      assertTrue(x >= 0 && x < 1, () -> x + " outside [0, 1)");
    }
    assertEquals(0.5, mean(v), 0.02);
    assertEquals(Math.sqrt(1.0 / 12), stddev(v), 0.02);
    Operand<TFloat64> d =
        tf.random.randomUniform(
            tf.constant(new int[] {2, 3}), TFloat64.class, RandomUniform.seed(2));
    assertEquals(DataType.DOUBLE, d.dataType());
    assertEquals(Shape.of(2, 3), d.shape());
  }

  @Test
  void standardNormalHasMeanZeroAndUnitDeviation() {
    float[] v =
        floats(
            tf.random.randomStandardNormal(
                shape(),
                TFloat32.class,
                RandomStandardNormal.seed(3),
                RandomStandardNormal.seed2(4)));
    assertEquals(0, mean(v), 0.05);
    assertEquals(1, stddev(v), 0.05);
  }

  @Test
  void truncatedNormalStaysWithinTwoDeviations() {
    float[] v = floats(tf.random.truncatedNormal(shape(), TFloat32.class, TruncatedNormal.seed(5)));
    for (float x : v) {
      assertTrue(x >= -2 && x <= 2, () -> x + " outside [-2, 2]");
    }
    assertEquals(0, mean(v), 0.05);
    // The standard deviation of a standard normal truncated to [-2, 2] is about 0.88.
    assertEquals(0.88, stddev(v), 0.05);
  }

  @Test
  void seededDrawsRepeatWithinASessionAndUnseededOnesDoNot() {
    Operand<TInt32> shape = tf.constant(new int[] {64});
    assertArrayEquals(
        floats(tf.random.randomUniform(shape, TFloat32.class, RandomUniform.seed2(5))),
        floats(tf.random.randomUniform(shape, TFloat32.class, RandomUniform.seed2(5))));
    assertFalse(
        Arrays.equals(
            floats(tf.random.randomUniform(shape, TFloat32.class)),
            floats(tf.random.randomUniform(shape, TFloat32.class))));
  }

  /** Draws with {@code op} in a new session. */
  private static float[] drawInNewSession(BiFunction<Ops, Operand<TInt32>, Operand<TFloat32>> op) {
    try (EagerSession s = EagerSession.create()) {
      Ops ops = Ops.create(s);
      return floats(op.apply(ops, ops.constant(new int[] {64})));
    }
  }

  @Test
  void seededDrawsRepeatAcrossSessions() {
    BiFunction<Ops, Operand<TInt32>, Operand<TFloat32>> uniform =
        (ops, shape) -> ops.random.randomUniform(shape, TFloat32.class, RandomUniform.seed(42));
    assertArrayEquals(drawInNewSession(uniform), drawInNewSession(uniform));
    BiFunction<Ops, Operand<TInt32>, Operand<TFloat32>> normal =
        (ops, shape) ->
            ops.random.randomStandardNormal(
                shape,
                TFloat32.class,
                RandomStandardNormal.seed(42),
                RandomStandardNormal.seed2(7));
    assertArrayEquals(drawInNewSession(normal), drawInNewSession(normal));
    BiFunction<Ops, Operand<TInt32>, Operand<TFloat32>> truncated =
        (ops, shape) -> ops.random.truncatedNormal(shape, TFloat32.class, TruncatedNormal.seed(9));
    assertArrayEquals(drawInNewSession(truncated), drawInNewSession(truncated));

    BiFunction<Ops, Operand<TInt32>, Operand<TFloat32>> otherSeed =
        (ops, shape) -> ops.random.randomUniform(shape, TFloat32.class, RandomUniform.seed(43));
    assertFalse(Arrays.equals(drawInNewSession(uniform), drawInNewSession(otherSeed)));
  }
}
