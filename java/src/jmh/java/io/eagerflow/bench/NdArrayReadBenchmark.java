package io.eagerflow.bench;

import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.ndarray.buffer.FloatDataBuffer;

/**
 * Reading an op output's values through the NdArray API (issue 13's targets): a bulk copy of 16M
 * floats against {@code System.arraycopy} of the same 64 MiB, and one {@code getFloat(i, j)}. The
 * first NdArray access of a tensor copies it to a heap mirror; {@code firstCopyTo} measures a fresh
 * tensor each time, the others the steady state.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@Fork(
    value = 1,
    jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class NdArrayReadBenchmark {
  private static final int SIDE = 4096;
  private static final int N = SIDE * SIDE;
  private static final int SMALL = 256;

  private EagerSession session;
  private Ops tf;
  private Operand<TFloat32> matrix;
  private TFloat32 view;
  private TFloat32 standalone;
  private TFloat32 small;
  private FloatNdArray heap;
  private float[] src;
  private float[] dst;
  private FloatDataBuffer dstBuffer;
  private Operand<TFloat32> one;
  private Operand<TFloat32> two;
  private int i;

  /** An op output never read before, one per invocation. */
  @State(Scope.Thread)
  public static class Fresh {
    Operand<TFloat32> output;
    private EagerSession session;

    @Setup(Level.Invocation)
    public void make(NdArrayReadBenchmark b) {
      session = b.session;
      output = b.tf.identity(b.matrix);
    }

    @TearDown(Level.Invocation)
    public void release() {
      session.release(output);
    }
  }

  @Setup
  public void open() {
    session = EagerSession.create();
    tf = Ops.create(session);
    src = new float[N];
    for (int k = 0; k < N; k++) {
      src[k] = k;
    }
    dst = new float[N];
    dstBuffer = DataBuffers.of(dst, false, false);
    matrix = tf.math.neg(tf.constant(Shape.of(SIDE, SIDE), src));
    view = matrix.asTensor();
    view.getFloat(0, 0); // makes the mirror: the steady state
    standalone = TFloat32.tensorOf(Shape.of(SIDE, SIDE), src);
    standalone.getFloat(0, 0);
    small =
        tf.math
            .neg(tf.constant(Shape.of(SMALL, SMALL), Arrays.copyOf(src, SMALL * SMALL)))
            .asTensor();
    small.getFloat(0, 0);
    one = tf.constant(1f);
    two = tf.constant(2f);
    heap = NdArrays.wrap(Shape.of(SIDE, SIDE), DataBuffers.of(src, true, false));
  }

  @TearDown
  public void close() {
    standalone.close();
    session.close();
  }

  /** The baseline: {@code System.arraycopy} of 16M floats between heap arrays. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public float[] arraycopy16m() {
    System.arraycopy(src, 0, dst, 0, N);
    return dst;
  }

  /** {@code FloatNdArray.copyTo(FloatDataBuffer)} of an op output read before. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public FloatDataBuffer copyTo16m() {
    view.copyTo(dstBuffer);
    return dstBuffer;
  }

  /** {@code FloatDataBuffer.read(float[])} of an op output read before. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public float[] bufferRead16m() {
    view.buffer().read(dst);
    return dst;
  }

  /** {@code copyTo(FloatDataBuffer)} of an op output never read: makes its mirror, then copies. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public FloatDataBuffer firstCopyTo16m(Fresh fresh) {
    fresh.output.asTensor().copyTo(dstBuffer);
    return dstBuffer;
  }

  /** eagerflow's {@code copyTo(float[])} of an op output never read: from native memory. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public float[] firstCopyToArray16m(Fresh fresh) {
    fresh.output.asTensor().copyTo(dst);
    return dst;
  }

  /** One element of a 256 x 256 op output (256 KiB: the cost of the call, not of the memory). */
  @Benchmark
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public float getFloat2d() {
    int k = (i = (i + 7919) & (SMALL * SMALL - 1));
    return small.getFloat(k >>> 8, k & (SMALL - 1));
  }

  /** One element, hopping across a 4096 x 4096 op output: mostly a cache and TLB miss. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public float getFloat2dLarge() {
    int k = (i = (i + 7919) & (N - 1));
    return view.getFloat(k >>> 12, k & (SIDE - 1));
  }

  /** The same hops on a standalone 4096 x 4096 tensor. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public float getFloat2dLargeStandalone() {
    int k = (i = (i + 7919) & (N - 1));
    return standalone.getFloat(k >>> 12, k & (SIDE - 1));
  }

  /** The baseline: the same hops on ndarray's own read-only heap array of the same values. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public float getFloat2dLargeHeapNdArray() {
    int k = (i = (i + 7919) & (N - 1));
    return heap.getFloat(k >>> 12, k & (SIDE - 1));
  }

  /** The baseline for the next one: a scalar {@code AddV2}, released at once. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public void scalarAdd() {
    session.release(tf.math.add(one, two));
  }

  /** The same, reading the result with {@code asTensor().getFloat()}, as eager code does. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public float scalarAddAndRead() {
    Operand<TFloat32> y = tf.math.add(one, two);
    float v = y.asTensor().getFloat();
    session.release(y);
    return v;
  }

  /** {@code asTensor()} alone, to split the read's cost. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public Object scalarAddAndAsTensor() {
    Operand<TFloat32> y = tf.math.add(one, two);
    Object t = y.asTensor();
    session.release(y);
    return t;
  }

  /** eagerflow's {@code toArray()}, which reads native memory directly (no mirror). */
  @Benchmark
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public float scalarAddAndToArray() {
    Operand<TFloat32> y = tf.math.add(one, two);
    float v = y.asTensor().toArray()[0];
    session.release(y);
    return v;
  }
}
