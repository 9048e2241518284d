package io.eagerflow.bench;

import io.eagerflow.EagerScope;
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
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Scalar {@code tf.math.add} inside an {@link EagerScope}, to compare with {@link
 * ScalarAddBenchmark} (tracked, {@code ON_SESSION_CLOSE}, released) in the same run. {@code
 * addInScope} opens and closes a scope around every add (the scope's whole cost per op, like {@code
 * addAndRelease}); {@code addIn100Scope} runs 100 adds per scope, the usual shape of a loop body,
 * and reports the time per add. Scopes bypass the cleanup strategy, so the strategy should not
 * matter; it is a parameter to show that it does not.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 8, time = 1)
public class ScopeBenchmark {
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

  /** One add in a scope of its own. */
  @Benchmark
  public void addInScope() {
    try (EagerScope scope = session.newScope()) {
      tf.math.add(x, y);
    }
  }

  /** 100 adds in one scope; the score is per add. */
  @Benchmark
  @OperationsPerInvocation(100)
  public void addIn100Scope() {
    try (EagerScope scope = session.newScope()) {
      for (int i = 0; i < 100; i++) {
        tf.math.add(x, y);
      }
    }
  }
}
