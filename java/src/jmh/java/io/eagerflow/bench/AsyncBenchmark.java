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
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Asynchronous against synchronous sessions ({@code async} false or true), under {@code
 * ON_SESSION_CLOSE} with every output released: {@code dispatch} is the cost per op on the building
 * thread (a scalar add released at once; the async session's executor runs it meanwhile, and the
 * bounded queue makes the builder wait when it falls behind), {@code chain1000} a chain of 1,000
 * small ops (16 floats) built and read at the end, per op.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class AsyncBenchmark {
  @Param({"false", "true"})
  public boolean async;

  private EagerSession session;
  private Ops tf;
  private Operand<TFloat32> x;
  private Operand<TFloat32> y;
  private Operand<TFloat32> v;

  @Setup(Level.Iteration)
  public void open() {
    session =
        EagerSession.options()
            .async(async)
            .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
            .build();
    tf = Ops.create(session);
    x = tf.constant(1f);
    y = tf.constant(2f);
    v = tf.constant(new float[16]);
  }

  @TearDown(Level.Iteration)
  public void close() {
    session.close();
  }

  /** One scalar add, released at once, as the building thread sees it. */
  @Benchmark
  public void dispatch() {
    session.release(tf.math.add(x, y));
  }

  /** 1,000 dependent small ops, then one read of the last; per op. */
  @Benchmark
  @OperationsPerInvocation(1000)
  public float chain1000() {
    Operand<TFloat32> a = v;
    for (int i = 0; i < 1000; i++) {
      Operand<TFloat32> next = tf.math.add(a, x);
      if (a != v) {
        session.release(a);
      }
      a = next;
    }
    float r = a.asTensor().getFloat(3);
    session.release(a);
    return r;
  }
}
