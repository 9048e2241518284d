package io.eagerflow.tfbench;

import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The check before the timing: runs each workload once through the same {@link Kernels} methods
 * the benchmarks time, reads its output and compares it with {@link Expected}. Argument: the file
 * to write the checks to. Exits with 1 if any check fails.
 */
public final class Verify {
  private Verify() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: Verify <output file>");
    }
    Verifier v = new Verifier(Kernels.SYSTEM);
    try (Kernels k = Kernels.open()) {
      check(v, "scalarAdd", () -> k.readAndFree(k.scalarAdd()));
      check(v, "add1k", () -> k.readAndFree(k.add1k()));
      check(v, "add16m", () -> k.readAndFree(k.add16m()));
      check(v, "matMul1024", () -> k.readAndFree(k.matMul1024()));
      check(v, "conv2d3x3", () -> k.readAndFree(k.conv2d3x3()));
      check(v, "reduceSum16m", () -> k.readAndFree(k.reduceSum16m()));
      check(v, "softmax1024", () -> k.readAndFree(k.softmax1024()));
      check(v, "chain100", () -> k.readAndFree(k.chain100()));
      check(
          v,
          "copyOut1m",
          () -> {
            float[] dst = new float[Data.COPY];
            k.copyOut1m(dst);
            return dst;
          });
      check(v, "copyIn1m", () -> k.readAndFree(k.copyIn1m()));
    }
    try (Kernels k = Kernels.openTracked()) {
      check(v, "scalarAddBackground", () -> k.read(k.scalarAdd()));
    }
    System.exit(v.finish(Path.of(args[0])) ? 0 : 1);
  }

  private static void check(Verifier v, String workload, Supplier<float[]> run) {
    float[] values;
    try {
      values = run.get();
    } catch (RuntimeException | Error e) {
      v.failed(workload, e);
      return;
    }
    v.check(workload, values);
  }
}
