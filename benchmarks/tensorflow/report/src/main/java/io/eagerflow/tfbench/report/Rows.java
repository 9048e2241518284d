package io.eagerflow.tfbench.report;

import java.util.List;

/** The table's rows: which benchmark, how it is shown. */
final class Rows {
  private Rows() {}

  /** How a row turns seconds per operation into what the table shows. */
  enum Kind {
    NANOS("ns/op", false),
    MICROS("µs/op", false),
    GB_PER_S("GB/s", true),
    GFLOP_PER_S("GFLOP/s", true);

    final String unit;
    final boolean throughput;

    Kind(String unit, boolean throughput) {
      this.unit = unit;
      this.throughput = throughput;
    }
  }

  /** One JMH benchmark's row; {@code amount} is the bytes or flops of one operation. */
  record JmhRow(String benchmark, String label, Kind kind, double amount) {
    /** What the table shows for one operation taking {@code seconds}. */
    double shown(double seconds) {
      return switch (kind) {
        case NANOS -> seconds * 1e9;
        case MICROS -> seconds * 1e6;
        case GB_PER_S, GFLOP_PER_S -> amount / seconds / 1e9;
      };
    }
  }

  /** One seed-loop configuration's row. */
  record SeedRow(String mode, boolean live, String label) {}

  private static final double MEBI = 1 << 20;

  static final List<JmhRow> JMH =
      List.of(
          new JmhRow(
              "Workloads.scalarAddFree", "scalar add + explicit free", Kind.NANOS, 0),
          new JmhRow(
              "Tracked.scalarAddBackground",
              "scalar add, nothing freed (`IN_BACKGROUND`; TF Java 1.1: GC only)",
              Kind.NANOS,
              0),
          new JmhRow("Workloads.add1k", "add of 1,000 floats, freed", Kind.NANOS, 0),
          new JmhRow(
              "Workloads.chain100",
              "chain of 100 small ops (add, mul on 64 floats), each freed",
              Kind.MICROS,
              0),
          new JmhRow(
              "Workloads.add16m",
              "add 16M floats (8 bytes in, 4 out each)",
              Kind.GB_PER_S,
              3 * 4 * 16 * MEBI),
          new JmhRow(
              "Workloads.matMul1024",
              "MatMul 1024x1024 f32",
              Kind.GFLOP_PER_S,
              2.0 * 1024 * 1024 * 1024),
          new JmhRow(
              "Workloads.conv2d3x3",
              "Conv2D 8x32x32x64, 3x3x64x64 filter, SAME, f32",
              Kind.GFLOP_PER_S,
              2.0 * 8 * 32 * 32 * 64 * 64 * 9),
          new JmhRow("Workloads.reduceSum16m", "ReduceSum 16M floats", Kind.GB_PER_S, 4 * 16 * MEBI),
          new JmhRow("Workloads.softmax1024", "softmax 1024x1024 (over rows)", Kind.MICROS, 0),
          new JmhRow(
              "Workloads.copyOut1m",
              "copy out: 1M floats of an op output into a `float[]`",
              Kind.GB_PER_S,
              4 * MEBI),
          new JmhRow(
              "Workloads.copyIn1m",
              "copy in: a constant of 1M floats from a `float[]`",
              Kind.GB_PER_S,
              4 * MEBI));

  static final List<SeedRow> SEED =
      List.of(
          new SeedRow(
              "background",
              false,
              "seed loop, empty heap, nothing released (`IN_BACKGROUND`; TF Java 1.1: GC only)"),
          new SeedRow("release", false, "seed loop, empty heap, released each iteration"),
          new SeedRow(
              "background",
              true,
              "seed loop beside a live heap of 64-byte objects, nothing released"),
          new SeedRow("release", true, "same beside the live heap, released each iteration"));
}
