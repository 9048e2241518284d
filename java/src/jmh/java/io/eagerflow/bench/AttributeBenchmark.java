package io.eagerflow.bench;

import io.eagerflow.EagerSession;
import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.Operand;
import io.eagerflow.op.BiasAdd;
import io.eagerflow.op.MatMul;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
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

/**
 * What attributes cost per op: tiny ops with and without them, each output released at once in an
 * untracked session. An op with attributes takes the general native call (arrays and strings
 * marshalled, attributes decoded); one without takes the fast path.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class AttributeBenchmark {
  private EagerSession session;
  private Ops tf;
  private Operand<TFloat32> m;
  private MatMul.Options transposeB;
  private Operand<TFloat32> bias;
  private BiasAdd.Options nchw;

  @Setup
  public void open() {
    session =
        EagerSession.options()
            .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
            .build();
    tf = Ops.create(session);
    m = tf.constant(new float[][] {{2}});
    transposeB = MatMul.transposeB(true);
    bias = tf.constant(new float[] {1});
    nchw = BiasAdd.dataFormat("NCHW");
  }

  @TearDown
  public void close() {
    session.close();
  }

  /** {@code MatMul} of 1x1 matrices, no attributes. */
  @Benchmark
  public void matMul() {
    session.release(tf.linalg.matMul(m, m));
  }

  /** The same with {@code transpose_b} set. */
  @Benchmark
  public void matMulTransposeB() {
    session.release(tf.linalg.matMul(m, m, transposeB));
  }

  /** {@code BiasAdd} of a 1x1 matrix with its string attribute {@code data_format} set. */
  @Benchmark
  public void biasAddDataFormat() {
    session.release(tf.nn.biasAdd(m, bias, nchw));
  }

  /** {@code Cast} of one float, whose {@code DstT} attribute is required. */
  @Benchmark
  public void cast() {
    session.release(tf.dtypes.cast(m, TInt32.class));
  }
}
