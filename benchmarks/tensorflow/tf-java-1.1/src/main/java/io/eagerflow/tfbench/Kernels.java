package io.eagerflow.tfbench;

import java.util.List;
import org.tensorflow.EagerSession;
import org.tensorflow.Operand;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.op.Ops;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TInt32;

/**
 * The workloads on TensorFlow Java 1.1 ({@code tensorflow-core-api} 1.1.0). Each method that makes
 * an output returns it unfreed; {@link #free} frees its op at once (see {@link Free}: 1.1 has no
 * public call for that). Its sessions have no cleanup strategies: what is not freed by hand goes
 * when the collector finds it, or at {@code close()}.
 *
 * <p>{@code tf.math.add} runs TensorFlow's {@code Add} (eagerflow's runs {@code AddV2}; the two
 * share TensorFlow's CPU kernel). Copies in go through {@code tf.constant(Shape, FloatDataBuffer)}
 * over the array, copies out through {@code asTensor().copyTo(FloatDataBuffer)} into it: 1.1's way
 * to move a {@code float[]} in and out.
 */
final class Kernels implements AutoCloseable {
  static final String SYSTEM = "tf-java-1.1";

  private final EagerSession session;
  private final Ops tf;
  private final Operand<TFloat32> x;
  private final Operand<TFloat32> y;
  private Operand<TFloat32> a1k;
  private Operand<TFloat32> b1k;
  private Operand<TFloat32> a16m;
  private Operand<TFloat32> b16m;
  private Operand<TFloat32> v16m;
  private Operand<TInt32> axis0;
  private Operand<TFloat32> m1;
  private Operand<TFloat32> m2;
  private Operand<TFloat32> convInput;
  private Operand<TFloat32> convFilter;
  private Operand<TFloat32> logits;
  private Operand<TFloat32> copy1m;
  private Operand<TFloat32> chainInput;
  private Operand<TFloat32> chainAdd;
  private Operand<TFloat32> chainMul;
  private final float[] copyData = Data.copy1m();
  private final Shape copyShape = Shape.of(Data.COPY);

  private Kernels(EagerSession session, boolean scalarsOnly) {
    this.session = session;
    tf = Ops.create(session);
    x = tf.constant(Data.SCALAR_X);
    y = tf.constant(Data.SCALAR_Y);
    if (scalarsOnly) {
      return;
    }
    a1k = tf.constant(Data.a1k());
    b1k = tf.constant(Data.b1k());
    a16m = tf.constant(Data.a16m());
    b16m = tf.constant(Data.b16m());
    v16m = tf.constant(Data.v16m());
    axis0 = tf.constant(0);
    Shape square = Shape.of(Data.MATRIX, Data.MATRIX);
    m1 = tf.constant(square, DataBuffers.of(Data.m1(), true, false));
    m2 = tf.constant(square, DataBuffers.of(Data.m2(), true, false));
    Shape convIn = Shape.of(Data.CONV_BATCH, Data.CONV_SIDE, Data.CONV_SIDE, Data.CONV_DEPTH);
    Shape convW = Shape.of(Data.CONV_WINDOW, Data.CONV_WINDOW, Data.CONV_DEPTH, Data.CONV_DEPTH);
    convInput = tf.constant(convIn, DataBuffers.of(Data.convInput(), true, false));
    convFilter = tf.constant(convW, DataBuffers.of(Data.convFilter(), true, false));
    logits = tf.constant(square, DataBuffers.of(Data.logits(), true, false));
    copy1m = tf.constant(copyShape, DataBuffers.of(copyData, true, false));
    chainInput = tf.constant(Data.chainInput());
    chainAdd = tf.constant(Data.CHAIN_ADD);
    chainMul = tf.constant(Data.CHAIN_MUL);
  }

  /** A session with the default options, every input made. */
  static Kernels open() {
    return new Kernels(EagerSession.create(), false);
  }

  /** A session with the default options (no strategies: the collector frees); only scalars. */
  static Kernels openTracked() {
    return new Kernels(EagerSession.create(), true);
  }

  Operand<TFloat32> scalarAdd() {
    return tf.math.add(x, y);
  }

  Operand<TFloat32> add1k() {
    return tf.math.add(a1k, b1k);
  }

  Operand<TFloat32> add16m() {
    return tf.math.add(a16m, b16m);
  }

  Operand<TFloat32> matMul1024() {
    return tf.linalg.matMul(m1, m2);
  }

  Operand<TFloat32> conv2d3x3() {
    return tf.nn.conv2d(convInput, convFilter, List.of(1L, 1L, 1L, 1L), "SAME");
  }

  Operand<TFloat32> reduceSum16m() {
    return tf.reduceSum(v16m, axis0);
  }

  Operand<TFloat32> softmax1024() {
    return tf.nn.softmax(logits);
  }

  /** Add and mul in turn, each intermediate freed once the next is made; returns the last. */
  Operand<TFloat32> chain100() {
    Operand<TFloat32> v = chainInput;
    for (int i = 0; i < Data.CHAIN_LENGTH; i++) {
      Operand<TFloat32> next = i % 2 == 0 ? tf.math.add(v, chainAdd) : tf.math.mul(v, chainMul);
      if (v != chainInput) {
        Free.free(session, v);
      }
      v = next;
    }
    return v;
  }

  Operand<TFloat32> copyIn1m() {
    return tf.constant(copyShape, DataBuffers.of(copyData, true, false));
  }

  void copyOut1m(float[] dst) {
    copy1m.asTensor().copyTo(DataBuffers.of(dst, false, false));
  }

  void free(Operand<TFloat32> output) {
    Free.free(session, output);
  }

  float[] read(Operand<TFloat32> output) {
    TFloat32 t = output.asTensor();
    float[] values = new float[Math.toIntExact(t.size())];
    t.copyTo(DataBuffers.of(values, false, false));
    return values;
  }

  float[] readAndFree(Operand<TFloat32> output) {
    float[] values = read(output);
    free(output);
    return values;
  }

  @Override
  public void close() {
    session.close();
  }

  /** The seed loop; without {@code release}, the collector alone frees (1.1 has no strategies). */
  static SeedLoop.Outcome seedLoop(boolean release, int iterations, SeedLoop.Control control) {
    float[] xs = Data.seedLoopX();
    try (EagerSession session = EagerSession.create()) {
      Ops tf = Ops.create(session);
      Operand<TFloat32> x = tf.constant(Shape.of(xs.length), DataBuffers.of(xs, true, false));
      Operand<TFloat32> one = tf.constant(1f);
      float[] last = null;
      for (int i = 0; i < iterations && control.proceed(i); i++) {
        Operand<TFloat32> a = tf.math.add(x, one);
        Operand<TFloat32> b = tf.math.mul(a, x);
        Operand<TFloat32> c = tf.math.add(b, one);
        if (i == iterations - 1) {
          TFloat32 t = c.asTensor();
          last = new float[xs.length];
          t.copyTo(DataBuffers.of(last, false, false));
        }
        if (release) {
          Free.free(session, a);
          Free.free(session, b);
          Free.free(session, c);
        }
      }
      return new SeedLoop.Outcome(last, Double.NaN);
    }
  }
}
