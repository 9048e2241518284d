package io.eagerflow.op;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eagerflow.EagerSession;
import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.Operand;
import io.eagerflow.SessionStats;
import io.eagerflow.types.TBool;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TFloat64;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TInt64;
import io.eagerflow.types.TType;
import io.eagerflow.types.TUint8;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * API.md "Counting": every facade method adds exactly one tensor per output to {@code stats()}; a
 * constant counts as one; temporaries used while building are never counted, and {@code
 * createdTensors = freedExplicitly + freedByCleanup + freedAtClose + liveTensors} throughout.
 */
class ExactCountingTest {
  /** Runs {@code call} and checks it added exactly {@code outputs} tensors and freed none. */
  private static void counts(EagerSession s, String what, int outputs, Supplier<?> call) {
    SessionStats before = s.stats();
    call.get();
    SessionStats after = s.stats();
    assertEquals(outputs, after.createdTensors() - before.createdTensors(), what + ": created");
    assertEquals(outputs, after.liveTensors() - before.liveTensors(), what + ": live");
    assertEquals(before.freedExplicitly(), after.freedExplicitly(), what + ": freed explicitly");
    assertEquals(before.freedByCleanup(), after.freedByCleanup(), what + ": freed by cleanup");
    assertBalanced(after, what);
  }

  private static void assertBalanced(SessionStats s, String what) {
    assertEquals(
        s.createdTensors(),
        s.freedExplicitly()
            + s.freedByScope()
            + s.freedByCleanup()
            + s.freedAtClose()
            + s.liveTensors(),
        what + ": created = freed + live in " + s);
  }

  private static <T extends TType> void countsOne(
      EagerSession s, String what, Supplier<Operand<T>> call) {
    counts(s, what, 1, call);
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void zerosAndOnesCountOnlyTheirResult(ResourceCleanupStrategy strategy) {
    try (EagerSession s = EagerSession.options().resourceCleanupStrategy(strategy).build()) {
      Ops tf = Ops.create(s);
      Operand<TInt32> dims = tf.constant(new int[] {2, 3});
      for (Class<? extends TType> type :
          List.of(
              TFloat32.class,
              TFloat64.class,
              TInt32.class,
              TInt64.class,
              TUint8.class,
              TBool.class)) {
        SessionStats before = s.stats();
        Operand<?> zeros = tf.zeros(dims, type);
        Operand<?> ones = tf.ones(dims, type);
        SessionStats after = s.stats();
        assertEquals(2, after.createdTensors() - before.createdTensors(), type + ": created");
        assertEquals(0, after.freedExplicitly() - before.freedExplicitly(), type + ": freed");
        assertEquals(type, zeros.type());
        assertEquals(type, ones.type());
        assertBalanced(after, type.getSimpleName());
      }
      assertEquals(1f, tf.ones(tf.constant(new long[] {2}), TFloat32.class).asTensor().getFloat(1));
    }
  }

  @Test
  void zerosHoldNoScalarsBytesEvenForAMoment() {
    try (EagerSession s = onClose()) {
      Ops tf = Ops.create(s);
      Operand<TInt32> dims = tf.constant(new int[] {256, 1024});
      SessionStats before = s.stats();
      Operand<TFloat32> big = tf.zeros(dims, TFloat32.class);
      SessionStats after = s.stats();
      assertEquals(1L << 20, after.liveBytes() - before.liveBytes());
      assertEquals(after.liveBytes(), after.peakBytes());
      assertEquals(0f, big.asTensor().getFloat(255, 1023));
    }
  }

  /** A session that frees nothing behind the test's back. */
  private static EagerSession onClose() {
    return EagerSession.options()
        .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
        .build();
  }

  @Test
  void everyFacadeMethodCountsOnePerOutput() {
    try (EagerSession s = onClose();
        TFloat32 standalone = TFloat32.scalarOf(1f)) {
      Ops tf = Ops.create(s);
      // Every input first: only the call under test may add tensors.
      Operand<TFloat32> m = tf.constant(new float[][] {{1, 2, 3}, {4, 5, 6}});
      Operand<TFloat32> m1 = tf.constant(new float[][] {{1}});
      Operand<TFloat32> v = tf.constant(new float[] {1, 2, 3});
      Operand<TFloat32> v2 = tf.constant(new float[] {3, 4});
      Operand<TFloat32> f = tf.constant(2f);
      Operand<TFloat32> f0 = tf.constant(0f);
      Operand<TFloat32> f5 = tf.constant(5f);
      Operand<TInt32> i = tf.constant(new int[] {0, 1});
      Operand<TInt32> i12 = tf.constant(new int[] {1, 2});
      Operand<TInt32> i2 = tf.constant(new int[] {2});
      Operand<TInt32> i0 = tf.constant(new int[] {0});
      Operand<TInt32> i1 = tf.constant(new int[] {1});
      Operand<TInt32> i23 = tf.constant(new int[] {2, 3});
      Operand<TInt32> i32 = tf.constant(new int[] {3, 2});
      Operand<TInt32> perm = tf.constant(new int[] {1, 0});
      Operand<TInt32> zero = tf.constant(0);
      Operand<TInt32> one = tf.constant(1);
      Operand<TInt32> three = tf.constant(3);
      Operand<TInt32> four = tf.constant(4);
      Operand<TBool> b = tf.constant(new boolean[] {true, false});
      Operand<TFloat32> mt = tf.linalg.transpose(m, perm);

      countsOne(s, "constant(float)", () -> tf.constant(1f));
      countsOne(s, "constant(float[][])", () -> tf.constant(new float[2][2]));
      countsOne(s, "constant(Class, Number)", () -> tf.constant(TInt64.class, 3));
      countsOne(s, "constantOf", () -> tf.constantOf(standalone));
      countsOne(s, "fill", () -> tf.fill(i, f));
      countsOne(s, "zeros", () -> tf.zeros(i, TFloat32.class));
      countsOne(s, "ones", () -> tf.ones(i, TInt32.class));
      countsOne(s, "reshape", () -> tf.reshape(m, i32));
      countsOne(s, "concat", () -> tf.concat(List.of(m, m), zero));
      countsOne(s, "stack", () -> tf.stack(List.of(v, v)));
      counts(s, "unstack", 2, () -> tf.unstack(m, 2));
      counts(s, "split", 3, () -> tf.split(one, m, 3));
      countsOne(s, "squeeze", () -> tf.squeeze(m1));
      countsOne(s, "expandDims", () -> tf.expandDims(v, zero));
      countsOne(s, "slice", () -> tf.slice(m, i, i12));
      countsOne(s, "stridedSlice", () -> tf.stridedSlice(v, i0, i2, i1));
      countsOne(s, "gather", () -> tf.gather(v, i, zero));
      countsOne(s, "tile", () -> tf.tile(v, i2));
      countsOne(s, "zerosLike", () -> tf.zerosLike(m));
      countsOne(s, "onesLike", () -> tf.onesLike(m));
      countsOne(s, "range", () -> tf.range(zero, four, one));
      countsOne(s, "identity", () -> tf.identity(m));
      countsOne(s, "stopGradient", () -> tf.stopGradient(m));
      countsOne(s, "broadcastTo", () -> tf.broadcastTo(v, i23));
      countsOne(s, "shape", () -> tf.shape(m));
      countsOne(s, "shape(TInt64)", () -> tf.shape(m, TInt64.class));
      countsOne(s, "size", () -> tf.size(m));
      countsOne(s, "rank", () -> tf.rank(m));
      countsOne(s, "select", () -> tf.select(b, v2, v2));
      countsOne(s, "oneHot", () -> tf.oneHot(i, three, f, f0));
      countsOne(s, "clipByValue", () -> tf.clipByValue(m, f, f5));
      countsOne(s, "reduceSum", () -> tf.reduceSum(m, zero, ReduceSum.keepDims(true)));
      countsOne(s, "reduceMax", () -> tf.reduceMax(m, zero));
      countsOne(s, "reduceMin", () -> tf.reduceMin(m, one));
      countsOne(s, "reduceProd", () -> tf.reduceProd(m, zero));
      countsOne(s, "reduceAll", () -> tf.reduceAll(b, zero));
      countsOne(s, "reduceAny", () -> tf.reduceAny(b, zero));

      countsOne(s, "math.add", () -> tf.math.add(m, v));
      countsOne(s, "math.pow", () -> tf.math.pow(m, f));
      countsOne(s, "math.divNoNan", () -> tf.math.divNoNan(m, f));
      countsOne(s, "math.exp", () -> tf.math.exp(m));
      countsOne(s, "math.sigmoid", () -> tf.math.sigmoid(m));
      countsOne(s, "math.greater", () -> tf.math.greater(m, f));
      countsOne(s, "math.logicalNot", () -> tf.math.logicalNot(b));
      countsOne(s, "math.logicalAnd", () -> tf.math.logicalAnd(b, b));
      countsOne(s, "math.mean", () -> tf.math.mean(m, one));
      countsOne(s, "math.argMax", () -> tf.math.argMax(m, one));
      countsOne(s, "math.argMin(TInt32)", () -> tf.math.argMin(m, one, TInt32.class));
      countsOne(s, "math.cumsum", () -> tf.math.cumsum(v, zero, Cumsum.reverse(true)));
      countsOne(s, "math.addN", () -> tf.math.addN(List.of(v, v, v)));
      countsOne(s, "linalg.matMul", () -> tf.linalg.matMul(m, m, MatMul.transposeB(true)));
      countsOne(s, "linalg.batchMatMul", () -> tf.linalg.batchMatMul(m, mt));
      countsOne(s, "linalg.transpose", () -> tf.linalg.transpose(m, perm));
      countsOne(s, "nn.relu", () -> tf.nn.relu(m));
      countsOne(s, "nn.softmax", () -> tf.nn.softmax(m));
      countsOne(s, "nn.logSoftmax", () -> tf.nn.logSoftmax(m));
      countsOne(s, "nn.l2Loss", () -> tf.nn.l2Loss(m));
      countsOne(s, "nn.biasAdd", () -> tf.nn.biasAdd(m, v, BiasAdd.dataFormat("NHWC")));
      counts(
          s,
          "nn.softmaxCrossEntropyWithLogits",
          2,
          () -> tf.nn.softmaxCrossEntropyWithLogits(m, m));
      counts(
          s,
          "nn.sparseSoftmaxCrossEntropyWithLogits",
          2,
          () -> tf.nn.sparseSoftmaxCrossEntropyWithLogits(m, i));
      countsOne(s, "dtypes.cast", () -> tf.dtypes.cast(m, TInt32.class));
      countsOne(
          s,
          "random.randomUniform",
          () -> tf.random.randomUniform(i12, TFloat32.class, RandomUniform.seed(1)));
      countsOne(
          s,
          "random.randomStandardNormal",
          () -> tf.random.randomStandardNormal(i12, TFloat64.class));
      countsOne(s, "random.truncatedNormal", () -> tf.random.truncatedNormal(i12, TFloat32.class));
    }
  }
}
