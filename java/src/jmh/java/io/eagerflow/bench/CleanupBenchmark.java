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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The two cleanup targets of DESIGN section 6, one shot each: {@code close()} of a session holding
 * 1M tensors (target under 100 ms), and {@code IN_BACKGROUND} freeing 1M unreachable outputs after
 * a collection (target at least 1M tensors per second, so under 1 s here; the time includes the
 * collection that finds them).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx4g"})
@Warmup(iterations = 2)
@Measurement(iterations = 5)
public class CleanupBenchmark {
  static final int TENSORS = 1_000_000;

  private EagerSession session;

  /** Makes {@link #TENSORS} scalar outputs that nothing refers to once this returns. */
  private static void makeGarbage(EagerSession session) {
    Ops tf = Ops.create(session);
    Operand<TFloat32> x = tf.constant(1f);
    for (int i = 1; i < TENSORS; i++) {
      tf.math.add(x, x);
    }
  }

  @State(Scope.Thread)
  public static class Full {
    EagerSession session;

    @Setup(Level.Invocation)
    public void fill() {
      session =
          EagerSession.options()
              .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
              .build();
      makeGarbage(session);
    }
  }

  @Benchmark
  public long closeHolding1MTensors(Full full) {
    full.session.close();
    return full.session.stats().freedAtClose();
  }

  @Setup(Level.Invocation)
  public void garbage() {
    session =
        EagerSession.options()
            .resourceCleanupStrategy(ResourceCleanupStrategy.IN_BACKGROUND)
            .build();
    makeGarbage(session);
  }

  @TearDown(Level.Invocation)
  public void close() {
    session.close();
  }

  @Benchmark
  public long backgroundFrees1MTensors() throws InterruptedException {
    System.gc();
    // Polls the counter; the session's own thread does the freeing.
    while (session.stats().freedByCleanup() < TENSORS - 1) {
      Thread.onSpinWait();
    }
    return session.stats().freedByCleanup();
  }
}
