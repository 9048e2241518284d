package example.spark;

import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.op.MatMul;
import io.eagerflow.op.Ops;
import io.eagerflow.op.RandomStandardNormal;
import io.eagerflow.op.SoftmaxCrossEntropyWithLogits;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TInt64;
import java.io.Serializable;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.StdArrays;

/**
 * The model of {@code examples/softmax}: softmax regression on three clusters of 2-D points (300
 * points, point i of class i % 3, seed 7), 200 steps of gradient descent at rate 0.5, trained with
 * the same ops in the same order, so its weights are that example's.
 */
final class SoftmaxModel {
  static final int FEATURES = 2;
  static final int CLASSES = 3;
  static final float[][] CENTRES = {{0, 3}, {3, -2}, {-3, -2}};
  private static final int POINTS = 300;
  private static final int STEPS = 200;
  private static final float LEARNING_RATE = 0.5f;

  /** What the driver broadcasts: {@code w} is FEATURES x CLASSES, row-major; {@code b} CLASSES. */
  record Weights(float[] w, float[] b, float trainingAccuracy) implements Serializable {}

  private SoftmaxModel() {}

  static Weights train() {
    try (EagerSession session = EagerSession.create()) {
      Ops tf = Ops.create(session);
      int[] classOf = new int[POINTS];
      for (int i = 0; i < POINTS; i++) {
        classOf[i] = i % CLASSES;
      }
      Operand<TInt32> labels = tf.constant(classOf);
      Operand<TFloat32> centres = tf.constant(StdArrays.ndCopyOf(CENTRES));
      Operand<TFloat32> noise =
          tf.random.randomStandardNormal(
              tf.constant(new int[] {POINTS, FEATURES}),
              TFloat32.class,
              RandomStandardNormal.seed(7));
      Operand<TFloat32> x = tf.math.add(tf.gather(centres, labels, tf.constant(0)), noise);
      Operand<TFloat32> y =
          tf.oneHot(labels, tf.constant(CLASSES), tf.constant(1f), tf.constant(0f));

      Operand<TFloat32> w = tf.zeros(tf.constant(Shape.of(FEATURES, CLASSES)), TFloat32.class);
      Operand<TFloat32> b = tf.zeros(tf.constant(new int[] {CLASSES}), TFloat32.class);
      Operand<TFloat32> rate = tf.constant(LEARNING_RATE);
      Operand<TFloat32> count = tf.constant((float) POINTS);
      Operand<TInt32> batchAxis = tf.constant(0);
      for (int step = 0; step <= STEPS; step++) {
        Operand<TFloat32> logits = tf.nn.biasAdd(tf.linalg.matMul(x, w), b);
        SoftmaxCrossEntropyWithLogits<TFloat32> xent =
            tf.nn.softmaxCrossEntropyWithLogits(logits, y);
        Operand<TFloat32> gradW =
            tf.math.div(tf.linalg.matMul(x, xent.backprop(), MatMul.transposeA(true)), count);
        Operand<TFloat32> gradB = tf.math.mean(xent.backprop(), batchAxis);
        w = tf.math.sub(w, tf.math.mul(rate, gradW));
        b = tf.math.sub(b, tf.math.mul(rate, gradB));
      }
      Operand<TInt64> predicted =
          tf.math.argMax(tf.nn.biasAdd(tf.linalg.matMul(x, w), b), tf.constant(1));
      Operand<TFloat32> correct =
          tf.dtypes.cast(
              tf.math.equal(predicted, tf.dtypes.cast(labels, TInt64.class)), TFloat32.class);
      float accuracy = tf.math.mean(correct, batchAxis).asTensor().getFloat();
      return new Weights(w.asTensor().toArray(), b.asTensor().toArray(), accuracy);
    }
  }

  /** The weights as constants of {@code session}, with the axis the scorer reduces over. */
  static final class Loaded {
    final Operand<TFloat32> w;
    final Operand<TFloat32> b;
    final Operand<TInt32> classAxis;

    Loaded(Ops tf, Weights weights) {
      w = tf.constant(Shape.of(FEATURES, CLASSES), weights.w());
      b = tf.constant(weights.b());
      classAxis = tf.constant(1);
    }

    /** Tensors a loaded model holds in its session: w, b and the axis. */
    static final int TENSORS = 3;

    /** Their bytes: w and b as floats, the axis an int. */
    static final long BYTES = 4L * (FEATURES * CLASSES + CLASSES + 1);
  }
}
