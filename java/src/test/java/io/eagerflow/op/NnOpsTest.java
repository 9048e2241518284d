package io.eagerflow.op;

import io.eagerflow.Operand;
import io.eagerflow.types.TFloat32;
import org.junit.jupiter.api.Test;

class NnOpsTest extends OpsTestBase {
  private static final float THIRD = 1f / 3;

  private Operand<TFloat32> f(float... v) {
    return tf.constant(v);
  }

  @Test
  void softmaxAndLogSoftmax() {
    assertFloats(tf.nn.softmax(f(1, 2, 3)), dims(3), 0.09003057f, 0.24472848f, 0.66524094f);
    assertFloats(
        tf.nn.softmax(tf.constant(new float[][] {{1, 2, 3}, {0, 0, 0}})),
        dims(2, 3),
        0.09003057f,
        0.24472848f,
        0.66524094f,
        THIRD,
        THIRD,
        THIRD);
    // Stable for large logits: exp(1000) would overflow.
    assertFloats(tf.nn.softmax(f(1000, 1000)), dims(2), 0.5f, 0.5f);
    assertFloats(tf.nn.logSoftmax(f(1, 2, 3)), dims(3), -2.4076059f, -1.4076059f, -0.4076059f);
  }

  @Test
  void activations() {
    assertFloats(tf.nn.relu(f(-1, 0, 2)), dims(3), 0, 0, 2);
    assertFloats(tf.nn.relu6(f(-1, 3, 7)), dims(3), 0, 3, 6);
    assertFloats(tf.nn.elu(f(-1, 2)), dims(2), -0.63212055f, 2);
    assertFloats(tf.nn.selu(f(-1, 2)), dims(2), -1.1113307f, 2.101402f);
    assertInts(tf.nn.relu(tf.constant(new int[] {-3, 3})), dims(2), 0, 3);
  }

  @Test
  void biasAddAndL2Loss() {
    assertFloats(
        tf.nn.biasAdd(tf.constant(new float[][] {{1, 2}, {3, 4}}), f(10, 20)),
        dims(2, 2),
        11,
        22,
        13,
        24);
    // NCHW: the bias goes along dimension 1 of [1, 2, 1, 2].
    assertFloats(
        tf.nn.biasAdd(
            tf.constant(new float[][][][] {{{{1, 2}}, {{3, 4}}}}),
            f(10, 20),
            BiasAdd.dataFormat("NCHW")),
        dims(1, 2, 1, 2),
        11,
        12,
        23,
        24);
    assertFloats(tf.nn.l2Loss(f(1, 2, 3)), dims(), 7);
    assertFloats(tf.nn.l2Loss(tf.constant(new float[][] {{1}, {-1}})), dims(), 1);
  }

  @Test
  void softmaxCrossEntropyWithLogits() {
    Operand<TFloat32> logits = tf.constant(new float[][] {{1, 2, 3}, {0, 0, 0}});
    Operand<TFloat32> labels = tf.constant(new float[][] {{0, 0, 1}, {1, 0, 0}});
    SoftmaxCrossEntropyWithLogits<TFloat32> r = tf.nn.softmaxCrossEntropyWithLogits(logits, labels);
    assertFloats(r.loss(), dims(2), 0.4076059f, 1.0986123f);
    assertFloats(
        r.backprop(), dims(2, 3), 0.09003057f, 0.24472848f, -0.33475906f, THIRD - 1, THIRD, THIRD);
  }

  @Test
  void sparseSoftmaxCrossEntropyWithLogits() {
    Operand<TFloat32> logits = tf.constant(new float[][] {{1, 2, 3}, {0, 0, 0}});
    SparseSoftmaxCrossEntropyWithLogits<TFloat32> r =
        tf.nn.sparseSoftmaxCrossEntropyWithLogits(logits, tf.constant(new int[] {2, 0}));
    assertFloats(r.loss(), dims(2), 0.4076059f, 1.0986123f);
    assertFloats(
        r.backprop(), dims(2, 3), 0.09003057f, 0.24472848f, -0.33475906f, THIRD - 1, THIRD, THIRD);
    SparseSoftmaxCrossEntropyWithLogits<TFloat32> r64 =
        tf.nn.sparseSoftmaxCrossEntropyWithLogits(logits, tf.constant(new long[] {2, 0}));
    assertFloats(r64.loss(), dims(2), 0.4076059f, 1.0986123f);
  }
}
