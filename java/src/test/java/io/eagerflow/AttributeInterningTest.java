package io.eagerflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Nothing a caller names is kept: attribute names an op does not have, and string values, cross
 * with the call and are gone after it, in Java and in Rust. Measured as the resident memory of a
 * child JVM (whose heap is committed and touched up front, so only native and other growth shows)
 * over 100,000 unique rejected names and 100,000 unique string values of 1 KiB each.
 */
class AttributeInterningTest {
  static final int UNIQUE = 100_000;

  /** The child: churns through unique names and values and prints its resident-memory growth. */
  public static final class Churn {
    public static void main(String[] args) throws IOException {
      int n = Integer.parseInt(args[0]);
      try (EagerSession s =
          EagerSession.options()
              .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
              .build()) {
        Ops tf = Ops.create(s);
        Output<TFloat32> m = tf.constant(new float[][] {{1}}).asOutput();
        Output<TFloat32> bias = tf.constant(new float[] {1}).asOutput();
        churn(s, m, bias, 0, 20_000); // warms up the JIT and the allocators
        System.gc();
        long before = residentBytes();
        churn(s, m, bias, 20_000, 20_000 + n);
        System.gc();
        long after = residentBytes();
        System.out.println("GROWTH " + (after - before));
        if (s.stats().createdTensors() != 2) {
          throw new AssertionError("a rejected op stored something: " + s.stats());
        }
      }
    }

    private static void churn(EagerSession s, Output<?> m, Output<?> bias, int from, int to) {
      String pad = "x".repeat(1000);
      for (int i = from; i < to; i++) {
        String name = "attr_" + i + "_" + pad;
        OperationBuilder b = s.opBuilder("MatMul", null).addInput(m).addInput(m);
        refused(b.setAttr(name, true), "MatMul: unknown attribute 'attr_" + i + "_");
        String value = "format_" + i + "_" + pad;
        b = s.opBuilder("BiasAdd", null).addInput(m).addInput(bias);
        refused(b.setAttr("data_format", value), "\"format_" + i + "_");
      }
    }

    private static void refused(OperationBuilder b, String expected) {
      try {
        b.build();
      } catch (IllegalArgumentException e) {
        if (e.getMessage().contains(expected)) {
          return;
        }
        throw new AssertionError("unexpected message: " + e.getMessage(), e);
      }
      throw new AssertionError("not refused: " + expected);
    }

    private static long residentBytes() throws IOException {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
        }
      }
      throw new IOException("no VmRSS in /proc/self/status");
    }
  }

  @Test
  void uniqueRejectedNamesAndStringValuesDoNotAccumulate() throws Exception {
    assertTrue(Files.exists(Path.of("/proc/self/status")), "Linux /proc is needed to measure");
    ChildJvm.Result r =
        ChildJvm.runMain(
            List.of("-Xms256m", "-Xmx256m", "-XX:+AlwaysPreTouch", "-XX:+UseSerialGC"),
            Churn.class,
            List.of(Integer.toString(UNIQUE)),
            Duration.ofMinutes(5));
    assertEquals(0, r.exitCode(), r.describe());
    String line = r.lines().stream().filter(l -> l.startsWith("GROWTH ")).findFirst().orElseThrow();
    long growth = Long.parseLong(line.substring("GROWTH ".length()));
    assertTrue(growth < 64L << 20, "resident memory grew by " + (growth >> 20) + " MiB");
  }
}
