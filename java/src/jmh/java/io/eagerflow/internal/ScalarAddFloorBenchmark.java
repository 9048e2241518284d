package io.eagerflow.internal;

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
 * The native floor under {@link io.eagerflow.bench.ScalarAddBenchmark}: the same scalar {@code
 * AddV2} through the internal {@link Native} calls alone, with no session guard, operand objects or
 * tracking. The difference between the two is what the Java layers (facade, session, outputs) cost
 * per op.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 8, time = 1)
public class ScalarAddFloorBenchmark {
  private long session;
  private int add;
  private long x;
  private long y;

  @Setup(Level.Iteration)
  public void open() {
    session = Native.newSession(0, 0, false);
    add = Native.opIndex("AddV2");
    x = Native.fromFloats(session, new long[0], new float[] {1});
    y = Native.fromFloats(session, new long[0], new float[] {2});
  }

  @TearDown(Level.Iteration)
  public void close() {
    Native.closeSession(session, new long[Wire.STATS_LENGTH]);
  }

  /** {@code execute2} alone; the outputs pile up until the session closes after the iteration. */
  @Benchmark
  public long execute() {
    return Native.execute2(session, add, x, y);
  }

  /** {@code execute2} then {@code free}: two crossings, as {@code add} then {@code release}. */
  @Benchmark
  public boolean executeAndFree() {
    return Native.free(session, Native.execute2(session, add, x, y), Wire.FREED_EXPLICITLY);
  }
}
