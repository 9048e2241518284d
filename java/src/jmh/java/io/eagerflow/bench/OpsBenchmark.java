package io.eagerflow.bench;

import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.tensorflow.ndarray.Shape;

/**
 * Ops on larger tensors through the facade, in a default ({@code IN_BACKGROUND}) session. Each
 * output is released at once, so that native memory stays flat whatever the GC does; release is one
 * cheap native call next to the work measured.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class OpsBenchmark {
  private static final int SMALL = 1024;
  private static final int MATRIX = 1024;
  private static final int LARGE = 16 * 1024 * 1024;

  private EagerSession session;
  private Ops tf;
  private Operand<TFloat32> a1k;
  private Operand<TFloat32> b1k;
  private Operand<TFloat32> m1;
  private Operand<TFloat32> m2;
  private Operand<TFloat32> v16m;
  private Operand<TInt32> axis0;

  private static float[] random(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) r.nextDouble(-1, 1);
    }
    return v;
  }

  @Setup
  public void open() {
    session = EagerSession.create();
    tf = Ops.create(session);
    a1k = tf.constant(random(SMALL, 1));
    b1k = tf.constant(random(SMALL, 2));
    Shape square = Shape.of(MATRIX, MATRIX);
    m1 = tf.constant(square, random(MATRIX * MATRIX, 3));
    m2 = tf.constant(square, random(MATRIX * MATRIX, 4));
    v16m = tf.constant(random(LARGE, 5));
    axis0 = tf.constant(0);
  }

  @TearDown
  public void close() {
    session.close();
  }

  /** {@code AddV2} of two 1,024-float vectors. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public void add1k() {
    session.release(tf.math.add(a1k, b1k));
  }

  /** {@code MatMul} of two 1024x1024 float matrices (2.1 GFLOP per call). */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public void matMul1024() {
    session.release(tf.linalg.matMul(m1, m2));
  }

  /** {@code Sum} of 16M floats (64 MiB read) to a scalar. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public void reduceSum16m() {
    session.release(tf.reduceSum(v16m, axis0));
  }
}
