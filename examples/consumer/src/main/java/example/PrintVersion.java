package example;

import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;

/**
 * A consumer of the published artifact: runs a few ops through the public API and prints the result
 * and the session's counters.
 */
public final class PrintVersion {
  private PrintVersion() {}

  public static void main(String[] args) {
    try (EagerSession session = EagerSession.create()) {
      Ops tf = Ops.create(session);
      Operand<TFloat32> x = tf.constant(new float[][] {{1f, 2f}, {3f, 4f}});
      Operand<TFloat32> y = tf.math.add(tf.linalg.matMul(x, x), tf.constant(1f));
      float[] values = y.asTensor().toArray();
      System.out.println(
          "eagerflow: x @ x + 1 = " + java.util.Arrays.toString(values) + ", " + session.stats());
      if (values[0] != 8f || values[3] != 23f) {
        throw new AssertionError("unexpected result " + java.util.Arrays.toString(values));
      }
    }
  }
}
