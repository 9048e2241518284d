package io.eagerflow.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TInt64;
import org.junit.jupiter.api.Test;

/**
 * TensorFlow Java eager code, unchanged apart from its imports: there they were {@code
 * org.tensorflow.EagerSession}, {@code org.tensorflow.Operand}, {@code org.tensorflow.op.Ops},
 * {@code org.tensorflow.op.linalg.MatMul}, {@code org.tensorflow.op.core.ReduceSum} and {@code
 * org.tensorflow.types.*}.
 */
class PortedTensorFlowCodeTest {
  @Test
  void linearSoftmaxForwardPass() {
    float v;
    float total;
    float p0;
    long[] predicted;
    int[] shape;
    // ---- from here on, TensorFlow Java source -------------------------------------------------
    try (EagerSession session = EagerSession.create()) {
      Ops tf = Ops.create(session);
      Operand<TFloat32> x = tf.constant(new float[][] {{1, 2}, {3, 4}});
      Operand<TFloat32> w = tf.constant(new float[][] {{0.5f, -1}, {1, 0.5f}});
      Operand<TFloat32> b = tf.constant(new float[] {0.1f, -0.2f});
      Operand<TFloat32> logits = tf.nn.biasAdd(tf.linalg.matMul(x, w), b);
      Operand<TFloat32> probs = tf.nn.softmax(logits);
      Operand<TInt64> labels = tf.math.argMax(probs, tf.constant(1));
      Operand<TFloat32> y = tf.linalg.matMul(x, x, MatMul.transposeB(true));
      Operand<TFloat32> sum =
          tf.reduceSum(y, tf.constant(new int[] {0, 1}), ReduceSum.keepDims(false));
      Operand<TInt32> dims = tf.shape(tf.math.mul(y, tf.constant(2f)));
      v = y.asTensor().getFloat(0, 1);
      total = sum.asTensor().getFloat();
      p0 = probs.asTensor().getFloat(0, 0);
      predicted = labels.asTensor().toArray();
      shape = dims.asTensor().toArray();
    }
    // ---- end of TensorFlow Java source --------------------------------------------------------
    assertEquals(11f, v); // [1, 2] . [3, 4]
    assertEquals(52f, total); // 5 + 11 + 11 + 25
    assertEquals(1 / (1 + Math.exp(-2.8)), p0, 1e-5); // logits [2.6, -0.2]
    assertArrayEquals(new long[] {0, 0}, predicted);
    assertArrayEquals(new int[] {2, 2}, shape);
  }
}
