package io.eagerflow.tfbench;

import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.List;
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
 * ways to move a {@code float[]} in and out. (Its {@code tensor().copyTo(float[])} reads element by
 * element through JNI, hundreds of times slower: the README has the figures.)
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
  private Operand<Float> m1Large;
  private Operand<Float> m2Large;
  private final List<Operand<Float>> convInputs = new ArrayList<>();
  private final List<Operand<Float>> convFilters = new ArrayList<>();
  private final List<Operand<Float>> cnnWeights = new ArrayList<>();
  private Operand<Float> cnnImages;
  private Operand<Integer> poolWindow;
  private Operand<Integer> flatShape;
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
    m1Large =
        tf.constant(
            new long[] {Data.MATRIX_LARGE, Data.MATRIX_LARGE}, FloatBuffer.wrap(Data.m1Large()));
    m2Large =
        tf.constant(
            new long[] {Data.MATRIX_LARGE, Data.MATRIX_LARGE}, FloatBuffer.wrap(Data.m2Large()));
    for (Data.ConvCase cc : Data.CONVS) {
      convInputs.add(tf.constant(cc.inputShape(), FloatBuffer.wrap(cc.input())));
      convFilters.add(tf.constant(cc.filterShape(), FloatBuffer.wrap(cc.filter())));
    }
    float[][] w = Cnn.weights();
    for (int t = 0; t < w.length; t++) {
      cnnWeights.add(tf.constant(Cnn.SHAPES[t], FloatBuffer.wrap(w[t])));
    }
    cnnImages =
        tf.constant(new long[] {Cnn.BATCH, Cnn.SIDE, Cnn.SIDE, 1}, FloatBuffer.wrap(Cnn.images()));
    poolWindow = tf.constant(new int[] {1, 2, 2, 1});
    flatShape = tf.constant(new int[] {Cnn.BATCH, Cnn.FLAT});
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

  Operand<Float> matMul2048() {
    return tf.linalg.matMul(m1Large, m2Large);
  }

  /** The convolution of {@code Data.CONVS[which]}. */
  Operand<Float> conv2d(int which) {
    Data.ConvCase cc = Data.CONVS[which];
    return tf.nn.conv2d(convInputs.get(which), convFilters.get(which), cc.strides(), "SAME");
  }

  /** The network's logits for {@link Cnn#images}; every intermediate freed once used. */
  Operand<Float> cnn() {
    List<Long> unit = List.of(1L, 1L, 1L, 1L);
    Operand<Float> v = tf.nn.conv2d(cnnImages, cnnWeights.get(0), unit, "SAME");
    v = then(v, tf.nn.biasAdd(v, cnnWeights.get(1)));
    v = then(v, tf.nn.relu(v));
    v = then(v, tf.nn.maxPool(v, poolWindow, poolWindow, "VALID"));
    v = then(v, tf.nn.conv2d(v, cnnWeights.get(2), unit, "SAME"));
    v = then(v, tf.nn.biasAdd(v, cnnWeights.get(3)));
    v = then(v, tf.nn.relu(v));
    v = then(v, tf.nn.maxPool(v, poolWindow, poolWindow, "VALID"));
    v = then(v, tf.reshape(v, flatShape));
    v = then(v, tf.linalg.matMul(v, cnnWeights.get(4)));
    v = then(v, tf.nn.biasAdd(v, cnnWeights.get(5)));
    v = then(v, tf.nn.relu(v));
    v = then(v, tf.linalg.matMul(v, cnnWeights.get(6)));
    return then(v, tf.nn.biasAdd(v, cnnWeights.get(7)));
  }

  /** Frees {@code v} (its successor {@code next} is made) and returns {@code next}. */
  private Operand<Float> then(Operand<Float> v, Operand<Float> next) {
    free(v);
    return next;
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
