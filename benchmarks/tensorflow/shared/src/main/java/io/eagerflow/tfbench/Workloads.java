package io.eagerflow.tfbench;

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
 * The side-by-side workloads, compiled unchanged into each system's module around its own {@link
 * Kernels}. One session for the whole fork; every output is freed as soon as it is made (see each
 * system's {@code Kernels.free} for what that means there), so native memory stays flat whatever
 * the collector does. The JVM settings are the issue's: G1, 4 GiB of heap.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@Fork(
    value = 1,
    jvmArgsAppend = {"-XX:+UseG1GC", "-Xmx4g", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class Workloads {
  private Kernels k;
  private final float[] copyOut = new float[Data.COPY];

  @Setup
  public void open() {
    k = Kernels.open();
  }

  @TearDown
  public void close() {
    k.close();
  }

  /** Scalar add, its output freed at once: the per-op cost. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public void scalarAddFree() {
    k.free(k.scalarAdd());
  }

  /** Add of two 1,000-float vectors, freed. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public void add1k() {
    k.free(k.add1k());
  }

  /** 100 small ops in a row (add, mul, ... on 64 floats), each output freed once used. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public void chain100() {
    k.free(k.chain100());
  }

  /** Add of two 16M-float vectors into a new output, freed. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public void add16m() {
    k.free(k.add16m());
  }

  /** MatMul of two 1024x1024 float matrices, freed. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public void matMul1024() {
    k.free(k.matMul1024());
  }

  /** Conv2D of 8 32x32x64 images with a 3x3x64x64 filter, SAME, freed. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public void conv2d3x3() {
    k.free(k.conv2d3x3());
  }

  /** Sum of 16M floats to a scalar, freed. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public void reduceSum16m() {
    k.free(k.reduceSum16m());
  }

  /** Softmax over the rows of a 1024x1024 float matrix, freed. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public void softmax1024() {
    k.free(k.softmax1024());
  }

  /** Copy of a 1M-float op output into a {@code float[]}. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public float[] copyOut1m() {
    k.copyOut1m(copyOut);
    return copyOut;
  }

  /** A constant of shape [1M] from a {@code float[]}, freed. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public void copyIn1m() {
    k.free(k.copyIn1m());
  }
}
