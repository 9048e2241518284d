package io.eagerflow.bench;

import io.eagerflow.EagerSession;
import io.eagerflow.EagerSession.ResourceCleanupStrategy;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Scalar {@code tf.math.add} end to end from Java: the per-op overhead of the facade, the JNI
 * crossing, the handle table and the cleanup strategy, with no arithmetic to speak of.
 *
 * <p>{@code add} leaves its output to the strategy. Under {@code IN_BACKGROUND} and {@code
 * ON_SAFE_POINTS} that is the tracked cost (a phantom reference per op, freed once the GC finds
 * it); under {@code ON_SESSION_CLOSE} nothing is freed until the session closes, so every iteration
 * gets a new session. {@code addAndRelease} frees each output at once with {@link
 * EagerSession#release}. {@link io.eagerflow.internal.ScalarAddFloorBenchmark} measures the native
 * calls alone.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 8, time = 1)
public class ScalarAddBenchmark {
  @Param({"IN_BACKGROUND", "ON_SAFE_POINTS", "ON_SESSION_CLOSE"})
  public ResourceCleanupStrategy strategy;

  private EagerSession session;
  private Ops tf;
  private Operand<TFloat32> x;
  private Operand<TFloat32> y;

  @Setup(Level.Iteration)
  public void open() {
    session = EagerSession.options().resourceCleanupStrategy(strategy).build();
    tf = Ops.create(session);
    x = tf.constant(1f);
    y = tf.constant(2f);
  }

  @TearDown(Level.Iteration)
  public void close() {
    session.close();
  }

  /** One add whose output the cleanup strategy frees. */
  @Benchmark
  public Operand<TFloat32> add() {
    return tf.math.add(x, y);
  }

  /** One add whose output is released at once. */
  @Benchmark
  public void addAndRelease() {
    session.release(tf.math.add(x, y));
  }
}
