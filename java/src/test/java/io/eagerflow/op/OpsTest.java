package io.eagerflow.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.Operation;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpsTest extends OpsTestBase {
  @Test
  void createWithoutSessionUsesTheDefaultSession() {
    Ops ops = Ops.create();
    assertSame(EagerSession.getDefault(), ops.session());
    assertEquals(3f, ops.math.add(ops.constant(1f), ops.constant(2f)).asTensor().getFloat());
  }

  @Test
  void opsRunTheTensorFlowOpTypesNamedInTheirDocs() {
    Operand<TFloat32> x = tf.constant(new float[][] {{1, 2}, {3, 4}});
    assertEquals("AddV2", op(tf.math.add(x, x)).type());
    assertEquals("RealDiv", op(tf.math.div(x, x)).type());
    assertEquals("Sum", op(tf.reduceSum(x, tf.constant(0))).type());
    assertEquals("ConcatV2", op(tf.concat(List.of(x), tf.constant(0))).type());
    assertEquals("MatMul", op(tf.linalg.matMul(x, x, MatMul.transposeA(true))).type());
    assertEquals("Cast", op(tf.dtypes.cast(x, TInt32.class)).type());
    assertEquals("SelectV2", op(tf.select(tf.constant(true), x, x)).type());
    Operation xent = tf.nn.softmaxCrossEntropyWithLogits(x, x).op();
    assertEquals("SoftmaxCrossEntropyWithLogits", xent.type());
    assertEquals(2, xent.numOutputs());
  }

  @Test
  void generatedNamesAreUniquePerSession() {
    Operand<TFloat32> x = tf.constant(1f);
    String a = op(tf.math.add(x, x)).name();
    String b = op(tf.math.add(x, x)).name();
    assertTrue(a.startsWith("AddV2") && b.startsWith("AddV2"), a + " " + b);
    assertTrue(!a.equals(b), a);
  }

  @Test
  void optionsAreImmutableValuesThatCanBeReused() {
    MatMul.Options t = MatMul.transposeB(true);
    Operand<TFloat32> x = tf.constant(new float[][] {{1, 2}});
    assertFloats(tf.linalg.matMul(x, x, t), dims(1, 1), 5);
    assertFloats(tf.linalg.matMul(x, x, t), dims(1, 1), 5);
    assertEquals("transpose_b=true", t.toString());
  }

  private static Operation op(Operand<?> o) {
    return o.asOutput().op();
  }
}
