package example.spark;

import io.eagerflow.Operand;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt64;
import java.util.Arrays;
import org.tensorflow.ndarray.Shape;

/**
 * The scores of one batch of points: class probabilities ({@code n x 3}) and predicted classes
 * ({@code n}), as operands of the session the model lives in. The Spark tasks and the check without
 * Spark both score through {@link #of}, so they run the same ops.
 */
record BatchScores(Operand<TFloat32> probabilities, Operand<TInt64> classes) {

  /**
   * The native bytes {@link #of} makes for {@code n} points, all live until its scope closes: the
   * points (8 per row), {@code matMul}'s and {@code biasAdd}'s outputs (12 each), the probabilities
   * (12) and the classes (8, as INT64).
   */
  static long bytes(int n) {
    return 52L * n;
  }

  /**
   * Scores the first {@code n} points of {@code xy} (x and y interleaved). Its tensors belong to
   * the calling thread's innermost open scope on the session, if any.
   */
  static BatchScores of(Ops tf, SoftmaxModel.Loaded model, float[] xy, int n) {
    float[] values =
        xy.length == n * SoftmaxModel.FEATURES ? xy : Arrays.copyOf(xy, n * SoftmaxModel.FEATURES);
    Operand<TFloat32> x = tf.constant(Shape.of(n, SoftmaxModel.FEATURES), values);
    Operand<TFloat32> logits = tf.nn.biasAdd(tf.linalg.matMul(x, model.w), model.b);
    return new BatchScores(tf.nn.softmax(logits), tf.math.argMax(logits, model.classAxis));
  }
}
