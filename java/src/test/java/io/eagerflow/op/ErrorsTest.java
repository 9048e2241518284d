package io.eagerflow.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.types.TBool;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TType;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class ErrorsTest extends OpsTestBase {
  private static void assertMessageHas(Throwable e, String... parts) {
    for (String p : parts) {
      assertTrue(e.getMessage().contains(p), () -> "'" + e.getMessage() + "' lacks '" + p + "'");
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static <T extends TType> Operand<T> raw(Operand<?> o) {
    return (Operand) o;
  }

  @Test
  void shapeMismatchNamesOpOperandsAndShapes() {
    Operand<TFloat32> a = tf.constant(new float[] {1, 2});
    Operand<TFloat32> b = tf.constant(new float[] {1, 2, 3});
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> tf.math.add(a, b));
    assertMessageHas(e, "AddV2", "'x'", "[2]", "'y'", "[3]");

    Operand<TFloat32> m23 = tf.constant(new float[2][3]);
    e = assertThrows(IllegalArgumentException.class, () -> tf.linalg.matMul(m23, m23));
    assertMessageHas(e, "MatMul", "[2, 3]");

    e =
        assertThrows(
            IllegalArgumentException.class, () -> tf.reshape(m23, tf.constant(new int[] {4, 2})));
    assertMessageHas(e, "Reshape", "[2, 3]", "[4, 2]");

    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> tf.concat(List.of(m23, tf.constant(new float[2][2])), tf.constant(0)));
    assertMessageHas(e, "ConcatV2");
  }

  @Test
  void dtypeMismatchNamesOpAndDtypes() {
    Operand<TFloat32> f = tf.constant(new float[] {1, 2});
    Operand<TInt32> i = tf.constant(new int[] {1, 2});
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> tf.math.add(f, raw(i)));
    assertMessageHas(e, "AddV2", "FLOAT", "INT32");

    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> tf.linalg.matMul(raw(tf.constant(new int[1][1])), tf.constant(new float[1][1])));
    assertMessageHas(e, "MatMul", "INT32", "FLOAT");

    e = assertThrows(IllegalArgumentException.class, () -> tf.math.logicalNot(raw(f)));
    assertMessageHas(e, "LogicalNot", "FLOAT");
  }

  @Test
  void badAxisNamesOpAndRange() {
    Operand<TFloat32> m = tf.constant(new float[2][3]);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> tf.reduceSum(m, tf.constant(2)));
    assertMessageHas(e, "Sum", "2");
    e = assertThrows(IllegalArgumentException.class, () -> tf.math.argMax(m, tf.constant(-3)));
    assertMessageHas(e, "ArgMax", "-3");
    e =
        assertThrows(
            IllegalArgumentException.class, () -> tf.concat(List.of(m, m), tf.constant(5)));
    assertMessageHas(e, "ConcatV2", "5");
    e = assertThrows(IllegalArgumentException.class, () -> tf.squeeze(m, Squeeze.axis(0)));
    assertMessageHas(e, "Squeeze");
  }

  @Test
  void badAttributeValuesAreRejected() {
    Operand<TFloat32> m = tf.constant(new float[2][2]);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> tf.nn.biasAdd(m, tf.constant(new float[2]), BiasAdd.dataFormat("NWHC")));
    assertMessageHas(e, "BiasAdd", "data_format", "NWHC");
    e = assertThrows(IllegalArgumentException.class, () -> tf.unstack(m, 3));
    assertMessageHas(e, "Unpack", "3");
    e = assertThrows(IllegalArgumentException.class, () -> tf.split(tf.constant(0), m, 3));
    assertMessageHas(e, "Split", "3");
  }

  @Test
  void unknownOpTypeViaOpBuilder() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> session.opBuilder("NoSuchOp", null));
    assertMessageHas(e, "NoSuchOp");
  }

  @Test
  void nullArgumentsNameTheParameterBeforeAnythingRuns() {
    Operand<TFloat32> x = tf.constant(new float[] {1, 2});
    Operand<TInt32> axis = tf.constant(0);
    Operand<TBool> b = tf.constant(true);
    long created = session.stats().createdTensors();
    Map<String, List<Executable>> cases =
        Map.ofEntries(
            Map.entry(
                "x",
                List.of(
                    () -> tf.math.add(null, x),
                    () -> tf.math.exp(null),
                    () -> tf.math.greater(null, x),
                    () -> tf.math.logicalNot(null),
                    () -> tf.math.cumsum(null, axis),
                    () -> tf.dtypes.cast(null, TInt32.class),
                    () -> tf.linalg.transpose(null, axis),
                    () -> tf.zerosLike(null))),
            Map.entry(
                "y",
                List.of(
                    () -> tf.math.mul(x, null),
                    () -> tf.math.equal(x, null),
                    () -> tf.linalg.batchMatMul(x, null))),
            Map.entry("a", List.of(() -> tf.linalg.matMul(null, x))),
            Map.entry("b", List.of(() -> tf.linalg.matMul(x, null))),
            Map.entry(
                "input",
                List.of(
                    () -> tf.reduceSum(null, axis),
                    () -> tf.shape(null),
                    () -> tf.math.mean(null, axis),
                    () -> tf.math.argMax(null, axis),
                    () -> tf.squeeze(null),
                    () -> tf.identity(null),
                    () -> tf.rank(null))),
            Map.entry(
                "axis",
                List.of(
                    () -> tf.reduceSum(x, null),
                    () -> tf.math.mean(x, null),
                    () -> tf.concat(List.of(x), null),
                    () -> tf.expandDims(x, null))),
            Map.entry("tensor", List.of(() -> tf.reshape(null, axis), () -> tf.constantOf(null))),
            Map.entry(
                "shape",
                List.of(
                    () -> tf.reshape(x, null),
                    () -> tf.random.randomUniform(null, TFloat32.class),
                    () -> tf.constant(null, new float[0]))),
            Map.entry("values", List.of(() -> tf.concat(null, axis), () -> tf.stack(null))),
            Map.entry(
                "values[1]",
                List.of(
                    () -> tf.stack(Arrays.asList(x, null)),
                    () -> tf.concat(Arrays.asList(x, null), axis))),
            Map.entry("inputs[0]", List.of(() -> tf.math.addN(Arrays.asList(null, x)))),
            Map.entry("type", List.of(() -> tf.dtypes.cast(x, null), () -> tf.zeros(axis, null))),
            Map.entry("dtype", List.of(() -> tf.random.randomStandardNormal(axis, null))),
            Map.entry("outputType", List.of(() -> tf.math.argMin(x, axis, null))),
            Map.entry("outType", List.of(() -> tf.shape(x, null))),
            Map.entry("condition", List.of(() -> tf.select(null, x, x))),
            Map.entry("e", List.of(() -> tf.select(b, x, null))),
            Map.entry("logits", List.of(() -> tf.nn.softmax(null))),
            Map.entry(
                "features",
                List.of(
                    () -> tf.nn.relu(null), () -> tf.nn.softmaxCrossEntropyWithLogits(null, x))),
            Map.entry("labels", List.of(() -> tf.nn.softmaxCrossEntropyWithLogits(x, null))),
            Map.entry(
                "value",
                List.of(
                    () -> tf.constant((float[]) null),
                    () -> tf.constant((int[][]) null),
                    () -> tf.unstack(null, 2),
                    () -> tf.fill(axis, null))),
            Map.entry(
                "options",
                List.of(
                    () -> tf.linalg.matMul(x, x, (MatMul.Options) null),
                    () -> tf.reduceMax(x, axis, (ReduceMax.Options[]) null))),
            Map.entry("session", List.of(() -> Ops.create(null))));
    cases.forEach(
        (name, calls) -> {
          for (Executable call : calls) {
            NullPointerException e = assertThrows(NullPointerException.class, call);
            assertEquals(name, e.getMessage());
          }
        });
    assertEquals(created, session.stats().createdTensors(), "no op ran");
  }

  @Test
  void operandsOfAClosedSessionAreRejected() {
    EagerSession other = EagerSession.create();
    Operand<TFloat32> theirs = Ops.create(other).constant(1f);
    other.close();
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> tf.math.add(tf.constant(1f), theirs));
    assertMessageHas(e, "AddV2");
    assertMessageHas(e, "another session");
    assertMessageHas(e, "Eager session has been closed");
  }

  @Test
  void releasedOperandsAndClosedSessions() {
    Operand<TFloat32> x = tf.constant(1f);
    session.release(x);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> tf.math.add(x, x));
    assertMessageHas(e, "released");
    session.close();
    e = assertThrows(IllegalStateException.class, () -> tf.constant(2f));
    assertEquals("Eager session has been closed", e.getMessage());
    e = assertThrows(IllegalStateException.class, () -> tf.math.neg(x));
    assertEquals("Eager session has been closed", e.getMessage());
  }

  @Test
  void notATensorClass() {
    Operand<TFloat32> x = tf.constant(1f);
    assertThrows(IllegalArgumentException.class, () -> tf.dtypes.cast(x, TType.class));
  }
}
