package example;

import io.eagerflow.EagerScope;
import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.SessionStats;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import java.util.SplittableRandom;
import org.tensorflow.ndarray.StdArrays;

/**
 * A consumer of the published artifact built by Maven: standardizes the columns of a matrix (each
 * column to mean 0 and standard deviation 1) with eagerflow ops inside an {@link EagerScope}, then
 * checks the result against the same arithmetic in plain Java and checks that the scope freed every
 * tensor it made. Exits with status 1 when a check fails.
 */
public final class Standardize {
  private static final int ROWS = 1000;
  private static final int COLUMNS = 3;
  private static final double TOLERANCE = 1e-4;

  private Standardize() {}

  /**
   * Returns {@code rows} with each column shifted to mean 0 and scaled to standard deviation 1
   * (population standard deviation, as NumPy's default). Every tensor it makes is freed before it
   * returns.
   *
   * @param session the session the ops run on
   * @param rows a matrix with at least one row, every row of one length, no constant column
   * @return a new matrix of the same shape
   */
  public static float[][] standardize(EagerSession session, float[][] rows) {
    Ops tf = Ops.create(session);
    try (EagerScope scope = session.newScope()) {
      Operand<TFloat32> x = tf.constant(rows);
      Operand<TInt32> rowsAxis = tf.constant(0);
      Operand<TFloat32> mean = tf.math.mean(x, rowsAxis);
      Operand<TFloat32> variance = tf.math.mean(tf.math.squaredDifference(x, mean), rowsAxis);
      Operand<TFloat32> z = tf.math.mul(tf.math.sub(x, mean), tf.math.rsqrt(variance));
      return StdArrays.array2dCopyOf(z.asTensor());
    }
  }

  /** The same computation in plain Java, in double precision: what the check compares with. */
  static float[][] standardizeInJava(float[][] rows) {
    int n = rows.length;
    int columns = rows[0].length;
    float[][] out = new float[n][columns];
    for (int c = 0; c < columns; c++) {
      double sum = 0;
      for (float[] row : rows) {
        sum += row[c];
      }
      double mean = sum / n;
      double squares = 0;
      for (float[] row : rows) {
        squares += (row[c] - mean) * (row[c] - mean);
      }
      double scale = 1 / Math.sqrt(squares / n);
      for (int r = 0; r < n; r++) {
        out[r][c] = (float) ((rows[r][c] - mean) * scale);
      }
    }
    return out;
  }

  /** Column c of row r is drawn from a normal distribution with mean 10 c and deviation c + 1. */
  static float[][] sample(int rows, int columns, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    float[][] data = new float[rows][columns];
    for (float[] row : data) {
      for (int c = 0; c < columns; c++) {
        row[c] = (float) (10 * c + (c + 1) * random.nextGaussian());
      }
    }
    return data;
  }

  static double largestDifference(float[][] a, float[][] b) {
    double largest = 0;
    for (int r = 0; r < a.length; r++) {
      for (int c = 0; c < a[r].length; c++) {
        largest = Math.max(largest, Math.abs((double) a[r][c] - b[r][c]));
      }
    }
    return largest;
  }

  public static void main(String[] args) {
    float[][] data = sample(ROWS, COLUMNS, 42);
    float[][] expected = standardizeInJava(data);
    try (EagerSession session = EagerSession.create()) {
      float[][] z = standardize(session, data);
      double difference = largestDifference(z, expected);
      SessionStats stats = session.stats();
      System.out.printf(
          "eagerflow from Maven: standardized %d x %d, first row %.4f %.4f %.4f, largest"
              + " difference from plain Java %.2e, %s%n",
          ROWS, COLUMNS, z[0][0], z[0][1], z[0][2], difference, stats);
      if (!(difference <= TOLERANCE)) {
        fail("the eagerflow result differs from plain Java by " + difference);
      }
      if (stats.liveTensors() != 0 || stats.liveBytes() != 0) {
        fail("the scope left " + stats.liveTensors() + " tensors live: " + stats);
      }
    }
  }

  private static void fail(String message) {
    System.err.println("check failed: " + message);
    System.exit(1);
  }
}
