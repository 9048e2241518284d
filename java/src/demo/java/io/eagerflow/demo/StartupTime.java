package io.eagerflow.demo;

import io.eagerflow.EagerSession;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Time from a JVM's start to its first op result: what a user's program pays before its first
 * result, loading the library included (from the jar: extracting it to a temporary file, mapping
 * and relocating it). Starts {@code startup.runs} (default 10) fresh JVMs on this class path one
 * after the other, each of which prints its time; prints them and their median.
 *
 * <p>A child's time runs from its process's start time ({@link ProcessHandle.Info#startInstant()},
 * as the operating system reports it) to the moment {@code 1 + 1}'s value is in Java.
 */
public final class StartupTime {
  private StartupTime() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("child")) {
      child();
      return;
    }
    int runs = Integer.getInteger("startup.runs", 10);
    List<Double> millis = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      Process p =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "--enable-native-access=ALL-UNNAMED",
                  "-cp",
                  System.getProperty("java.class.path"),
                  StartupTime.class.getName(),
                  "child")
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (p.waitFor() != 0 || !out.startsWith("MILLIS ")) {
        throw new IllegalStateException("child JVM failed: " + out);
      }
      millis.add(Double.parseDouble(out.substring("MILLIS ".length())));
    }
    List<Double> sorted = new ArrayList<>(millis);
    Collections.sort(sorted);
    double median =
        sorted.size() % 2 == 1
            ? sorted.get(sorted.size() / 2)
            : (sorted.get(sorted.size() / 2 - 1) + sorted.get(sorted.size() / 2)) / 2;
    List<String> shown = new ArrayList<>();
    for (double m : millis) {
      shown.add(String.format(Locale.ROOT, "%.0f", m));
    }
    System.out.printf(
        Locale.ROOT,
        "JVM start to first op result, %d runs (ms): %s; median %.0f, min %.0f, max %.0f%n",
        runs,
        String.join(" ", shown),
        median,
        sorted.get(0),
        sorted.get(sorted.size() - 1));
  }

  private static void child() {
    Instant start =
        ProcessHandle.current()
            .info()
            .startInstant()
            .orElseThrow(() -> new IllegalStateException("no process start time"));
    float value;
    try (EagerSession session = EagerSession.create()) {
      Ops tf = Ops.create(session);
      TFloat32 sum = tf.math.add(tf.constant(1f), tf.constant(1f)).asTensor();
      value = sum.getFloat();
    }
    Duration d = Duration.between(start, Instant.now());
    if (value != 2f) {
      throw new AssertionError("1 + 1 = " + value);
    }
    System.out.printf(Locale.ROOT, "MILLIS %.1f%n", d.toNanos() / 1e6);
  }
}
