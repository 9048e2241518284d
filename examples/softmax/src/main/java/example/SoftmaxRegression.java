package example;

import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.op.MatMul;
import io.eagerflow.op.Ops;
import io.eagerflow.op.RandomStandardNormal;
import io.eagerflow.op.SoftmaxCrossEntropyWithLogits;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TInt64;
import java.util.Arrays;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.StdArrays;
import org.tensorflow.ndarray.index.Indices;

/**
 * Softmax regression on three clusters of 2-D points, trained by gradient descent, in TensorFlow
 * Java's eager style: the code is what TensorFlow Java code would be with its imports changed from
 * {@code org.tensorflow} to {@code io.eagerflow}. The gradient of the cross-entropy with respect to
 * the logits comes from {@code softmaxCrossEntropyWithLogits}' backprop output, so no automatic
 * differentiation is needed: {@code dW = x^T backprop / n}, {@code db = mean(backprop)}.
 *
 * <p>Prints the loss as it falls, the final accuracy, and the session's tensor counts (a run this
 * short usually ends before the first garbage collection, so close frees most tensors).
 */
public final class SoftmaxRegression {
  private static final int POINTS = 300;
  private static final int CLASSES = 3;
  private static final int STEPS = 200;
  private static final float LEARNING_RATE = 0.5f;

  private SoftmaxRegression() {}

  public static void main(String[] args) {
    try (EagerSession session = EagerSession.create()) {
      Ops tf = Ops.create(session);

      // Data: point i belongs to class i % 3 and lies near that class's centre.
      int[] classOf = new int[POINTS];
      for (int i = 0; i < POINTS; i++) {
        classOf[i] = i % CLASSES;
      }
      Operand<TInt32> labels = tf.constant(classOf);
      FloatNdArray centreValues = StdArrays.ndCopyOf(new float[][] {{0, 3}, {3, -2}, {-3, -2}});
      Operand<TFloat32> centres = tf.constant(centreValues);
      Operand<TFloat32> noise =
          tf.random.randomStandardNormal(
              tf.constant(new int[] {POINTS, 2}), TFloat32.class, RandomStandardNormal.seed(7));
      Operand<TFloat32> x = tf.math.add(tf.gather(centres, labels, tf.constant(0)), noise);
      Operand<TFloat32> y =
          tf.oneHot(labels, tf.constant(CLASSES), tf.constant(1f), tf.constant(0f));

      // Model: logits = x W + b, starting from zeros.
      Operand<TFloat32> w = tf.zeros(tf.constant(Shape.of(2, CLASSES)), TFloat32.class);
      Operand<TFloat32> b = tf.zeros(tf.constant(new int[] {CLASSES}), TFloat32.class);
      Operand<TFloat32> rate = tf.constant(LEARNING_RATE);
      Operand<TFloat32> count = tf.constant((float) POINTS);
      Operand<TInt32> batchAxis = tf.constant(0);

      for (int step = 0; step <= STEPS; step++) {
        Operand<TFloat32> logits = tf.nn.biasAdd(tf.linalg.matMul(x, w), b);
        SoftmaxCrossEntropyWithLogits<TFloat32> xent =
            tf.nn.softmaxCrossEntropyWithLogits(logits, y);
        if (step % 40 == 0) {
          float loss = tf.math.mean(xent.loss(), batchAxis).asTensor().getFloat();
          System.out.printf("step %3d  loss %.4f%n", step, loss);
        }
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
      System.out.printf("accuracy %.1f%% on %d points%n", 100 * accuracy, POINTS);
      TInt64 classes = predicted.asTensor();
      System.out.println(
          "first predictions "
              + Arrays.toString(StdArrays.array1dCopyOf(classes.slice(Indices.range(0, 6)))));
      TFloat32 weights = w.asTensor();
      weights
          .elements(1)
          .forEachIndexed(
              (coordinates, weight) ->
                  System.out.printf(
                      "W[%d][%d] = %.3f%n", coordinates[0], coordinates[1], weight.getFloat()));
      System.out.println("session " + session.stats());
    }
  }
}
