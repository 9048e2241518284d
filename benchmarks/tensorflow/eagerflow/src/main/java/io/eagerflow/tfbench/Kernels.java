package io.eagerflow.tfbench;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
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
    m1 = tf.constant(square, Data.m1());
    m2 = tf.constant(square, Data.m2());
    Shape convIn = Shape.of(Data.CONV_BATCH, Data.CONV_SIDE, Data.CONV_SIDE, Data.CONV_DEPTH);
    Shape convW = Shape.of(Data.CONV_WINDOW, Data.CONV_WINDOW, Data.CONV_DEPTH, Data.CONV_DEPTH);
    convInput = tf.constant(convIn, Data.convInput());
    convFilter = tf.constant(convW, Data.convFilter());
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
