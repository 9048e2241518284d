package io.eagerflow.tfbench;

import java.util.ArrayList;
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
  private Operand<TFloat32> m1Large;
  private Operand<TFloat32> m2Large;
  private final List<Operand<TFloat32>> convInputs = new ArrayList<>();
  private final List<Operand<TFloat32>> convFilters = new ArrayList<>();
  private final List<Operand<TFloat32>> cnnWeights = new ArrayList<>();
  private Operand<TFloat32> cnnImages;
  private Operand<TInt32> poolWindow;
  private Operand<TInt32> flatShape;
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
    m1Large =
        tf.constant(
            Shape.of(Data.MATRIX_LARGE, Data.MATRIX_LARGE),
            DataBuffers.of(Data.m1Large(), true, false));
    m2Large =
        tf.constant(
            Shape.of(Data.MATRIX_LARGE, Data.MATRIX_LARGE),
            DataBuffers.of(Data.m2Large(), true, false));
    for (Data.ConvCase cc : Data.CONVS) {
      convInputs.add(
          tf.constant(Shape.of(cc.inputShape()), DataBuffers.of(cc.input(), true, false)));
      convFilters.add(
          tf.constant(Shape.of(cc.filterShape()), DataBuffers.of(cc.filter(), true, false)));
    }
    float[][] w = Cnn.weights();
    for (int t = 0; t < w.length; t++) {
      cnnWeights.add(tf.constant(Shape.of(Cnn.SHAPES[t]), DataBuffers.of(w[t], true, false)));
    }
    cnnImages =
        tf.constant(
            Shape.of(Cnn.BATCH, Cnn.SIDE, Cnn.SIDE, 1), DataBuffers.of(Cnn.images(), true, false));
    poolWindow = tf.constant(new int[] {1, 2, 2, 1});
    flatShape = tf.constant(new int[] {Cnn.BATCH, Cnn.FLAT});
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

  Operand<TFloat32> matMul2048() {
    return tf.linalg.matMul(m1Large, m2Large);
  }

  /** The convolution of {@code Data.CONVS[which]}. */
  Operand<TFloat32> conv2d(int which) {
    Data.ConvCase cc = Data.CONVS[which];
    return tf.nn.conv2d(convInputs.get(which), convFilters.get(which), cc.strides(), "SAME");
  }

  /** The network's logits for {@link Cnn#images}; every intermediate freed once used. */
  Operand<TFloat32> cnn() {
    List<Long> unit = List.of(1L, 1L, 1L, 1L);
    Operand<TFloat32> v = tf.nn.conv2d(cnnImages, cnnWeights.get(0), unit, "SAME");
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
  private Operand<TFloat32> then(Operand<TFloat32> v, Operand<TFloat32> next) {
    free(v);
    return next;
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
