package io.eagerflow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.exceptions.TFInvalidArgumentException;
import io.eagerflow.exceptions.TFResourceExhaustedException;
import io.eagerflow.op.Op;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tensorflow.ndarray.Shape;

/**
 * The parts of TensorFlow Java's eager surface that ported code touches besides tensors: exception
 * names, {@code DT_*} type names, {@code EagerOperation}'s accessors, op names from {@code
 * withName}/{@code withSubScope}, and {@code Operand.op()}/{@code env()}.
 */
class TensorFlowSurfaceTest {

  @Test
  void opErrorsAreTensorFlowsExceptionsAndStillTheOldOnes() {
    try (EagerSession session = EagerSession.create()) {
      Ops tf = Ops.create(session);
      Operand<TFloat32> v2 = tf.constant(new float[] {1f, 2f});
      Operand<TFloat32> v3 = tf.constant(new float[] {1f, 2f, 3f});
      TFInvalidArgumentException e =
          assertThrows(TFInvalidArgumentException.class, () -> tf.math.add(v2, v3));
      assertTrue(e.getMessage().contains("AddV2"), e.getMessage());
      assertTrue(e.getMessage().contains("[2]") && e.getMessage().contains("[3]"), e.getMessage());
      // An old catch block still catches it.
      try {
        tf.math.add(v2, v3);
      } catch (IllegalArgumentException old) {
        assertEquals(TFInvalidArgumentException.class, old.getClass());
      }
      assertThrows(TFInvalidArgumentException.class, () -> session.opBuilder("NoSuchOp", null));
      assertThrows(
          TFInvalidArgumentException.class,
          () -> session.opBuilder("Sum", null).addInput(v2.asOutput()).setAttr("nope", 1L).build());
    }
  }

  @Test
  void exhaustedMemoryIsTfResourceExhaustedAndNativeMemoryExhausted() {
    try (EagerSession session =
        EagerSession.options()
            .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
            .maxNativeBytes(1 << 20)
            .build()) {
      Ops tf = Ops.create(session);
      float[] big = new float[1 << 19]; // 2 MiB, twice the limit
      TFResourceExhaustedException e =
          assertThrows(TFResourceExhaustedException.class, () -> tf.constant(big));
      assertTrue(e instanceof NativeMemoryExhaustedException);
      assertTrue(e.getMessage().contains("native memory exhausted"), e.getMessage());
      assertTrue(e.getMessage().contains("ON_SESSION_CLOSE"), e.getMessage());
    }
  }

  @Test
  void dataTypesHaveTensorFlowsProtoNames() {
    assertSame(DataType.FLOAT, DataType.DT_FLOAT);
    assertSame(DataType.DOUBLE, DataType.DT_DOUBLE);
    assertSame(DataType.INT32, DataType.DT_INT32);
    assertSame(DataType.UINT8, DataType.DT_UINT8);
    assertSame(DataType.INT64, DataType.DT_INT64);
    assertSame(DataType.BOOL, DataType.DT_BOOL);
  }

  @Test
  void eagerOperationReadsDtypeShapeAndTensorOfEachOutput() {
    try (EagerSession session = EagerSession.create();
        TInt32 t = TInt32.tensorOf(Shape.of(2, 3), new int[6])) {
      EagerOperation op =
          (EagerOperation)
              session
                  .opBuilder("Const", "OutputAttrs")
                  .setAttr("dtype", t.dataType())
                  .setAttr("value", t)
                  .build();
      assertEquals(DataType.DT_INT32, op.dtype(0));
      assertEquals(2, op.shape(0).size(0));
      assertEquals(3, op.shape(0).size(1));
      Ops tf = Ops.create(session);
      EagerOperation add =
          (EagerOperation)
              session
                  .opBuilder("Add", "CompareResult")
                  .addInput(tf.constant(2).asOutput())
                  .addInput(tf.constant(4).asOutput())
                  .build();
      assertEquals(6, ((TInt32) add.tensor(0)).getInt());
      assertEquals(0, add.shape(0).numDimensions());
      assertEquals(DataType.DT_INT32, add.dtype(0));
      assertThrows(IndexOutOfBoundsException.class, () -> add.shape(1));
      assertThrows(IndexOutOfBoundsException.class, () -> add.dtype(1));
      assertThrows(IndexOutOfBoundsException.class, () -> add.tensor(1));
    }
  }

  @Test
  void inputAndOutputListLengthsFollowTensorFlowsArgumentNames() {
    try (EagerSession session = EagerSession.create()) {
      Ops tf = Ops.create(session);
      Output<TFloat32> c1 = tf.constant(new float[] {1f, 2f}).asOutput();
      Output<TFloat32> c2 = tf.constant(new float[] {3f, 4f}).asOutput();
      Output<TFloat32> c3 = tf.constant(new float[] {5f, 6f}).asOutput();
      Operation acc =
          session.opBuilder("AddN", "acc").addInputList(new Output<?>[] {c1, c2, c3}).build();
      assertEquals(3, acc.inputListLength("inputs"));
      assertEquals(1, acc.outputListLength("sum"));

      Operation split =
          session
              .opBuilder("Split", "split")
              .addInput(tf.constant(0).asOutput())
              .addInput(c1)
              .setAttr("num_split", 2)
              .build();
      assertEquals(1, split.inputListLength("split_dim"));
      assertEquals(1, split.inputListLength("value"));
      assertEquals(2, split.outputListLength("output"));
      Output<?>[] parts = split.outputList(0, split.outputListLength("output"));
      assertEquals(2, parts.length);
      assertEquals(2f, ((TFloat32) parts[1].asTensor()).getFloat(0));
      assertThrows(IndexOutOfBoundsException.class, () -> split.outputList(1, 2));

      Op result =
          tf.nn.softmaxCrossEntropyWithLogits(
              tf.constant(new float[][] {{1f, 2f}}), tf.constant(new float[][] {{0f, 1f}}));
      assertSame(session, result.env());
      Operation ce = result.op();
      assertEquals(1, ce.outputListLength("loss"));
      assertEquals(1, ce.outputListLength("backprop"));

      TFInvalidArgumentException e =
          assertThrows(TFInvalidArgumentException.class, () -> split.inputListLength("nope"));
      assertTrue(e.getMessage().contains("Split") && e.getMessage().contains("split_dim"));
      assertThrows(TFInvalidArgumentException.class, () -> split.outputListLength("nope"));
      // Fast-path ops know their argument names too.
      Operation add = tf.math.add(c1, c2).op();
      assertEquals(1, add.inputListLength("x"));
      assertEquals(1, add.outputListLength("z"));
      session.close();
      assertThrows(IllegalStateException.class, () -> add.outputListLength("z"));
      assertThrows(IllegalStateException.class, () -> acc.inputListLength("inputs"));
    }
  }

  @Test
  void operandsKnowTheirOpAndSession() {
    EagerSession session = EagerSession.create();
    Ops tf = Ops.create(session);
    Operand<TFloat32> x = tf.math.neg(tf.constant(1f));
    Op asOp = x;
    assertEquals("Neg", asOp.op().type());
    assertSame(session, x.env());
    assertSame(session, x.op().env());
    assertSame(x.asOutput(), x.op().output(0));
    session.close();
    assertThrows(IllegalStateException.class, x::op);
    assertThrows(IllegalStateException.class, x::env);
  }

  @Test
  void withNameAndWithSubScopeNameOpsAsTensorFlowDoes() {
    try (EagerSession session = EagerSession.create()) {
      Ops tf = Ops.create(session);
      Operand<TFloat32> x = tf.constant(new float[] {1f, 2f});
      Ops named = tf.withName("logits");
      assertEquals("logits", named.math.add(x, x).op().name());
      assertEquals("logits_1", named.math.mul(x, x).op().name());
      Ops layer = tf.withSubScope("layer");
      assertEquals("layer/AddV2", layer.math.add(x, x).op().name());
      assertEquals("layer/AddV2_1", layer.math.add(x, x).op().name());
      assertEquals("layer/Const", layer.constant(1f).op().name());
      assertEquals("layer/ConcatV2", layer.concat(List.of(x, x), tf.constant(0)).op().name());
      assertEquals(
          "layer/Fill", layer.zeros(tf.constant(new int[] {2}), TFloat32.class).op().name());
      assertEquals(
          "layer/dense/MatMul",
          layer
              .withSubScope("dense")
              .linalg
              .matMul(tf.constant(new float[][] {{1f}}), tf.constant(new float[][] {{2f}}))
              .op()
              .name());
      assertEquals("layer/out", layer.withName("out").math.neg(x).op().name());
      assertEquals("layer_1/Neg", tf.withSubScope("layer").math.neg(x).op().name());
      assertEquals("top/Neg", tf.withName("top").withSubScope("ignored").math.neg(x).op().name());
      // The values are those of unnamed ops; the session is the same.
      assertArrayEquals(new float[] {2f, 4f}, named.math.add(x, x).asTensor().toArray());
      assertSame(session, layer.session());
      // Ops of the plain Ops keep their generated names.
      assertTrue(tf.math.add(x, x).op().name().startsWith("AddV2"));
      assertThrows(IllegalArgumentException.class, () -> tf.withName("_bad"));
      assertThrows(IllegalArgumentException.class, () -> tf.withSubScope("a/b"));
      assertThrows(IllegalArgumentException.class, () -> tf.withName(null));
    }
  }
}
