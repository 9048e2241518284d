package io.eagerflow.internal;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The floor under every op: one JNI crossing through the error-mapping choke point, alone and with
 * the session lookup every op makes ({@code collected} on a session without GC signals does nothing
 * else).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class NativeCallBenchmark {
  private long session;

  @Setup
  public void load() {
    Native.ensureLoaded();
    session = Native.newSession(0, 0, false);
  }

  @TearDown
  public void close() {
    Native.closeSession(session, null);
  }

  /** A crossing that allocates a Java string on the way back. */
  @Benchmark
  public String version() {
    return Native.version();
  }

  /** A crossing that looks its session up and returns nothing. */
  @Benchmark
  public void sessionLookup() {
    Native.collected(session, false, 0);
  }
}
