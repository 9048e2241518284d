package io.eagerflow.tfbench;

import io.eagerflow.EagerSession;
import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.Operand;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import java.util.ArrayList;
import java.util.List;
import org.tensorflow.ndarray.Shape;

/**
 * The workloads on eagerflow. Each method that makes an output returns it unfreed; {@link #free}
 * releases it ({@link EagerSession#release}). The other systems' modules have a class of the same
 * name and methods, which the shared benchmarks call.
 */
final class Kernels implements AutoCloseable {
  static final String SYSTEM = "eagerflow";

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
    m1 = tf.constant(square, Data.m1());
    m2 = tf.constant(square, Data.m2());
    m1Large = tf.constant(Shape.of(Data.MATRIX_LARGE, Data.MATRIX_LARGE), Data.m1Large());
    m2Large = tf.constant(Shape.of(Data.MATRIX_LARGE, Data.MATRIX_LARGE), Data.m2Large());
    for (Data.ConvCase cc : Data.CONVS) {
      convInputs.add(tf.constant(Shape.of(cc.inputShape()), cc.input()));
      convFilters.add(tf.constant(Shape.of(cc.filterShape()), cc.filter()));
    }
    float[][] w = Cnn.weights();
    for (int t = 0; t < w.length; t++) {
      cnnWeights.add(tf.constant(Shape.of(Cnn.SHAPES[t]), w[t]));
    }
    cnnImages = tf.constant(Shape.of(Cnn.BATCH, Cnn.SIDE, Cnn.SIDE, 1), Cnn.images());
    poolWindow = tf.constant(new int[] {1, 2, 2, 1});
    flatShape = tf.constant(new int[] {Cnn.BATCH, Cnn.FLAT});
    logits = tf.constant(square, Data.logits());
    copy1m = tf.constant(copyShape, copyData);
    chainInput = tf.constant(Data.chainInput());
    chainAdd = tf.constant(Data.CHAIN_ADD);
    chainMul = tf.constant(Data.CHAIN_MUL);
  }

  /** A session with the default options ({@code IN_BACKGROUND}), every input made. */
  static Kernels open() {
    return new Kernels(EagerSession.create(), false);
  }

  /** A session whose outputs {@code IN_BACKGROUND} cleanup frees; only the scalars made. */
  static Kernels openTracked() {
    return new Kernels(
        EagerSession.options()
            .resourceCleanupStrategy(ResourceCleanupStrategy.IN_BACKGROUND)
            .build(),
        true);
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
        session.release(v);
      }
      v = next;
    }
    return v;
  }

  Operand<TFloat32> copyIn1m() {
    return tf.constant(copyShape, copyData);
  }

  void copyOut1m(float[] dst) {
    copy1m.asTensor().copyTo(dst);
  }

  void free(Operand<TFloat32> output) {
    session.release(output);
  }

  float[] read(Operand<TFloat32> output) {
    return output.asTensor().toArray();
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

  /** The seed loop in a session with the default options ({@code IN_BACKGROUND}). */
  static SeedLoop.Outcome seedLoop(boolean release, int iterations, SeedLoop.Control control) {
    float[] xs = Data.seedLoopX();
    try (EagerSession session = EagerSession.create()) {
      Ops tf = Ops.create(session);
      Operand<TFloat32> x = tf.constant(Shape.of(xs.length), xs);
      Operand<TFloat32> one = tf.constant(1f);
      float[] last = null;
      for (int i = 0; i < iterations && control.proceed(i); i++) {
        Operand<TFloat32> a = tf.math.add(x, one);
        Operand<TFloat32> b = tf.math.mul(a, x);
        Operand<TFloat32> c = tf.math.add(b, one);
        if (i == iterations - 1) {
          last = c.asTensor().toArray();
        }
        if (release) {
          session.release(a, b, c);
        }
      }
      return new SeedLoop.Outcome(last, session.stats().peakBytes() / (double) (1 << 20));
    }
  }
}
