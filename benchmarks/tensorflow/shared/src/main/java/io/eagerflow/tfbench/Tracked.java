package io.eagerflow.tfbench;

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
 * The scalar add with nothing freed by hand: every output is left to the system's automatic
 * cleanup ({@code IN_BACKGROUND} where the system has strategies; the collector alone in TensorFlow
 * Java 1.1). A new session each iteration, closed at its end, so that whatever the cleanup has not
 * freed yet goes then and one iteration's leftovers do not weigh on the next.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@Fork(
    value = 1,
    jvmArgsAppend = {"-XX:+UseG1GC", "-Xmx4g", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class Tracked {
  private Kernels k;

  @Setup(Level.Iteration)
  public void open() {
    k = Kernels.openTracked();
  }

  @TearDown(Level.Iteration)
  public void close() {
    k.close();
  }

  /** Scalar add whose output the automatic cleanup frees. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public Object scalarAddBackground() {
    return k.scalarAdd();
  }
}
