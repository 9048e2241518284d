package io.eagerflow.bench;

import io.eagerflow.EagerScope;
import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
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
import org.tensorflow.ndarray.Shape;

/**
 * The seed loop of DESIGN section 6 (and of {@code gradle demo}): 3 ops per iteration on 1 MiB
 * float tensors, 3,000 iterations per measured shot ({@code batchSize}), in a default ({@code
 * IN_BACKGROUND}) session. {@code releaseEachOutput} frees each intermediate with {@link
 * EagerSession#release} as soon as the next op has used it; {@code scopePerIteration} opens an
 * {@link EagerScope} per iteration and lets its close free the iteration's three outputs. The
 * target: the scope within 1.1x of explicit release.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, batchSize = 3000)
@Measurement(iterations = 10, batchSize = 3000)
public class SeedLoopBenchmark {
  static final int FLOATS = 1 << 18;
  static final int OPS = 3;

  private EagerSession session;
  private Ops tf;
  private Operand<TFloat32> x;
  private Operand<TFloat32> one;

  @Setup(Level.Iteration)
  public void open() {
    session = EagerSession.create();
    tf = Ops.create(session);
    x = tf.constant(Shape.of(FLOATS), new float[FLOATS]);
    one = tf.constant(1f);
  }

  @TearDown(Level.Iteration)
  public void close() {
    if (session.stats().liveTensors() != 2) {
      throw new IllegalStateException("the loop left tensors behind: " + session.stats());
    }
    session.close();
  }

  private Operand<TFloat32> step(int k, Operand<TFloat32> y) {
    return (k % 2 == 0) ? tf.math.add(y, one) : tf.math.mul(y, x);
  }

  /** One iteration, each output released once the next op has read it. */
  @Benchmark
  public void releaseEachOutput() {
    Operand<TFloat32> y = x;
    for (int k = 0; k < OPS; k++) {
      Operand<TFloat32> next = step(k, y);
      if (y != x) {
        session.release(y);
      }
      y = next;
    }
    session.release(y);
  }

  /** One iteration in a scope of its own. */
  @Benchmark
  public void scopePerIteration() {
    try (EagerScope scope = session.newScope()) {
      Operand<TFloat32> y = x;
      for (int k = 0; k < OPS; k++) {
        y = step(k, y);
      }
    }
  }
}
