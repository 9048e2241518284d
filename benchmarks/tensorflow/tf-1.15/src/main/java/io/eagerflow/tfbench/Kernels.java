package io.eagerflow.tfbench;

import java.nio.FloatBuffer;
import org.tensorflow.EagerSession;
import org.tensorflow.EagerSession.ResourceCleanupStrategy;
import org.tensorflow.Operand;
import org.tensorflow.Tensor;
import org.tensorflow.op.Ops;

/**
 * The workloads on the legacy libtensorflow 1.15.0 (JNI bindings, {@code Tensor<Float>}). Each
 * method that makes an output returns it unfreed; {@link #free} frees its op at once (see {@link
 * Free}: 1.15 has no public call for that). Its sessions default to {@code IN_BACKGROUND}: a thread
 * frees what the collector finds unreachable.
 *
 * <p>{@code tf.math.add} runs TensorFlow's {@code Add} (1.15's facade has no {@code AddV2}; the two
 * share TensorFlow's CPU kernel). Copies in go through {@code tf.constant(long[], FloatBuffer)}
 * over the array, copies out through {@code tensor().writeTo(FloatBuffer)} over it: 1.15's fast
 * ways to move a {@code float[]} in and out. (Its {@code tensor().copyTo(float[])} reads element
 * by element through JNI, hundreds of times slower: the README has the figures.)
 */
final class Kernels implements AutoCloseable {
  static final String SYSTEM = "tf-1.15";

  private final EagerSession session;
  private final Ops tf;
  private final Operand<Float> x;
  private final Operand<Float> y;
  private Operand<Float> a1k;
  private Operand<Float> b1k;
  private Operand<Float> a16m;
  private Operand<Float> b16m;
  private Operand<Float> v16m;
  private Operand<Integer> axis0;
  private Operand<Float> m1;
  private Operand<Float> m2;
  private Operand<Float> convInput;
  private Operand<Float> convFilter;
  private Operand<Float> logits;
  private Operand<Float> copy1m;
  private Operand<Float> chainInput;
  private Operand<Float> chainAdd;
  private Operand<Float> chainMul;
  private final float[] copyData = Data.copy1m();
  private final long[] copyShape = {Data.COPY};

  private Kernels(EagerSession session, boolean scalarsOnly) {
    this.session = session;
    tf = Ops.create(session);
    x = tf.constant(Data.SCALAR_X);
    y = tf.constant(Data.SCALAR_Y);
    if (scalarsOnly) {
      return;
    }
    a1k = vector(Data.a1k());
    b1k = vector(Data.b1k());
    a16m = vector(Data.a16m());
    b16m = vector(Data.b16m());
    v16m = vector(Data.v16m());
    axis0 = tf.constant(0);
    long[] square = {Data.MATRIX, Data.MATRIX};
    m1 = tf.constant(square, FloatBuffer.wrap(Data.m1()));
    m2 = tf.constant(square, FloatBuffer.wrap(Data.m2()));
    long[] convIn = {Data.CONV_BATCH, Data.CONV_SIDE, Data.CONV_SIDE, Data.CONV_DEPTH};
    long[] convW = {Data.CONV_WINDOW, Data.CONV_WINDOW, Data.CONV_DEPTH, Data.CONV_DEPTH};
    convInput = tf.constant(convIn, FloatBuffer.wrap(Data.convInput()));
    convFilter = tf.constant(convW, FloatBuffer.wrap(Data.convFilter()));
    logits = tf.constant(square, FloatBuffer.wrap(Data.logits()));
    copy1m = tf.constant(copyShape, FloatBuffer.wrap(copyData));
    chainInput = vector(Data.chainInput());
    chainAdd = tf.constant(Data.CHAIN_ADD);
    chainMul = tf.constant(Data.CHAIN_MUL);
  }

  private Operand<Float> vector(float[] values) {
    return tf.constant(new long[] {values.length}, FloatBuffer.wrap(values));
  }

  private static EagerSession inBackground() {
    return EagerSession.options()
        .resourceCleanupStrategy(ResourceCleanupStrategy.IN_BACKGROUND)
        .build();
  }

  /** A session with {@code IN_BACKGROUND} cleanup (the default), every input made. */
  static Kernels open() {
    return new Kernels(inBackground(), false);
  }

  /** A session with {@code IN_BACKGROUND} cleanup; only the scalars made. */
  static Kernels openTracked() {
    return new Kernels(inBackground(), true);
  }

  Operand<Float> scalarAdd() {
    return tf.math.add(x, y);
  }

  Operand<Float> add1k() {
    return tf.math.add(a1k, b1k);
  }

  Operand<Float> add16m() {
    return tf.math.add(a16m, b16m);
  }

  Operand<Float> matMul1024() {
    return tf.linalg.matMul(m1, m2);
  }

  Operand<Float> conv2d3x3() {
    return tf.nn.conv2d(convInput, convFilter, java.util.Arrays.asList(1L, 1L, 1L, 1L), "SAME");
  }

  Operand<Float> reduceSum16m() {
    return tf.reduceSum(v16m, axis0);
  }

  Operand<Float> softmax1024() {
    return tf.nn.softmax(logits);
  }

  /** Add and mul in turn, each intermediate freed once the next is made; returns the last. */
  Operand<Float> chain100() {
    Operand<Float> v = chainInput;
    for (int i = 0; i < Data.CHAIN_LENGTH; i++) {
      Operand<Float> next = i % 2 == 0 ? tf.math.add(v, chainAdd) : tf.math.mul(v, chainMul);
      if (v != chainInput) {
        Free.free(session, v);
      }
      v = next;
    }
    return v;
  }

  Operand<Float> copyIn1m() {
    return tf.constant(copyShape, FloatBuffer.wrap(copyData));
  }

  void copyOut1m(float[] dst) {
    copy1m.asOutput().tensor().writeTo(FloatBuffer.wrap(dst));
  }

  void free(Operand<Float> output) {
    Free.free(session, output);
  }

  float[] read(Operand<Float> output) {
    Tensor<Float> t = output.asOutput().tensor();
    float[] values = new float[t.numElements()];
    t.writeTo(FloatBuffer.wrap(values));
    return values;
  }

  float[] readAndFree(Operand<Float> output) {
    float[] values = read(output);
    free(output);
    return values;
  }

  @Override
  public void close() {
    session.close();
  }

  /** The seed loop in an {@code IN_BACKGROUND} session. */
  static SeedLoop.Outcome seedLoop(boolean release, int iterations, SeedLoop.Control control) {
    float[] xs = Data.seedLoopX();
    try (EagerSession session = inBackground()) {
      Ops tf = Ops.create(session);
      Operand<Float> x = tf.constant(new long[] {xs.length}, FloatBuffer.wrap(xs));
      Operand<Float> one = tf.constant(1f);
      float[] last = null;
      for (int i = 0; i < iterations && control.proceed(i); i++) {
        Operand<Float> a = tf.math.add(x, one);
        Operand<Float> b = tf.math.mul(a, x);
        Operand<Float> c = tf.math.add(b, one);
        if (i == iterations - 1) {
          last = new float[xs.length];
          c.asOutput().tensor().writeTo(FloatBuffer.wrap(last));
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
