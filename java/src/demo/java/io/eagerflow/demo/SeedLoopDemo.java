package io.eagerflow.demo;

import io.eagerflow.EagerScope;
import io.eagerflow.EagerSession;
import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.NativeMemoryExhaustedException;
import io.eagerflow.Operand;
import io.eagerflow.SessionStats;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.tensorflow.ndarray.Shape;

/**
 * The problem eagerflow solves, shown: a loop of {@code m} iterations running {@code n} ops leaves
 * {@code n*m} native tensors behind unless something frees them. Runs the loop once per cleanup
 * strategy in one JVM, then once more in a default session with an {@link EagerScope} per iteration
 * (freed deterministically, no GC), prints a table and writes an SVG chart of live native memory.
 *
 * <p>System properties: {@code demo.ops} (n, default 3), {@code demo.iterations} (m, default 3000),
 * {@code demo.floats} (elements per tensor, default 262144 = 1 MiB), {@code demo.closeLimitMiB}
 * (hard limit for {@code ON_SESSION_CLOSE}, default 1024; 0 = none), {@code demo.svg} (output
 * path).
 */
public final class SeedLoopDemo {
  private static final double MIB = 1 << 20;

  private record Run(
      String label,
      double seconds,
      long ops,
      SessionStats stats,
      double[] liveMiB,
      int completed,
      String note) {}

  private SeedLoopDemo() {}

  public static void main(String[] args) throws IOException {
    int n = Integer.getInteger("demo.ops", 3);
    int m = Integer.getInteger("demo.iterations", 3000);
    int floats = Integer.getInteger("demo.floats", 1 << 18);
    long closeLimit = Long.getLong("demo.closeLimitMiB", 1024) << 20;
    Path svg = Path.of(System.getProperty("demo.svg", "build/reports/eagerflow-demo.svg"));
    PrintStream out = System.out;
    out.printf(
        Locale.ROOT,
        "Seed loop: %d ops x %d iterations on %.2f MiB float tensors (%.1f GiB allocated), max heap"
            + " %d MiB%n%n",
        n,
        m,
        floats * 4 / MIB,
        (double) n * m * floats * 4 / (1L << 30),
        Runtime.getRuntime().maxMemory() >> 20);
    List<Run> runs = new ArrayList<>();
    for (ResourceCleanupStrategy strategy : ResourceCleanupStrategy.values()) {
      runs.add(run(strategy, false, n, m, floats, closeLimit, out));
    }
    runs.add(run(ResourceCleanupStrategy.IN_BACKGROUND, true, n, m, floats, closeLimit, out));
    printTable(runs, out);
    Files.createDirectories(svg.toAbsolutePath().getParent());
    Files.writeString(svg, chart(runs, m));
    out.println();
    out.println("Chart of live native MiB per iteration: " + svg.toAbsolutePath());
  }

  private static Run run(
      ResourceCleanupStrategy strategy,
      boolean scoped,
      int n,
      int m,
      int floats,
      long closeLimit,
      PrintStream out) {
    String label = scoped ? "scope per iteration" : strategy.name();
    EagerSession.Options options = EagerSession.options().resourceCleanupStrategy(strategy);
    if (strategy == ResourceCleanupStrategy.ON_SESSION_CLOSE && closeLimit > 0) {
      options.maxNativeBytes(closeLimit);
    }
    double[] live = new double[m];
    int completed = 0;
    String note = "";
    long start = System.nanoTime();
    SessionStats stats;
    try (EagerSession session = options.build()) {
      Ops tf = Ops.create(session);
      Operand<TFloat32> x = tf.constant(Shape.of(floats), new float[floats]);
      Operand<TFloat32> one = tf.constant(1f);
      try {
        for (int i = 0; i < m; i++) {
          // The scoped run frees the iteration's tensors at the end of the block; the others
          // leave them to the strategy.
          EagerScope scope = scoped ? session.newScope() : null;
          try {
            Operand<TFloat32> y = x;
            for (int k = 0; k < n; k++) {
              y = (k % 2 == 0) ? tf.math.add(y, one) : tf.math.mul(y, x);
            }
            live[i] = session.stats().liveBytes() / MIB;
          } finally {
            if (scope != null) {
              scope.close();
            }
          }
          completed = i + 1;
          // A live bar on a terminal; a line per 10% when the output is captured.
          int every = System.console() != null ? Math.max(1, m / 50) : Math.max(1, m / 10);
          if (i % every == 0 || i == m - 1) {
            progress(out, label, i + 1, m, live[i]);
          }
        }
      } catch (NativeMemoryExhaustedException e) {
        note =
            "hit the hard limit of "
                + (closeLimit >> 20)
                + " MiB at iteration "
                + (completed + 1)
                + ": this strategy frees nothing before close()";
      }
      out.println();
      stats = session.stats();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    SessionStats closed = stats;
    return new Run(
        label, seconds, (long) completed * n, closedStats(closed), live, completed, note);
  }

  private static SessionStats closedStats(SessionStats beforeClose) {
    // Whatever was live at the end was freed by close().
    return new SessionStats(
        0,
        0,
        beforeClose.peakBytes(),
        beforeClose.createdTensors(),
        beforeClose.freedExplicitly(),
        beforeClose.freedByCleanup(),
        beforeClose.freedAtClose() + beforeClose.liveTensors(),
        beforeClose.gcRequests(),
        beforeClose.freedByScope());
  }

  private static void progress(PrintStream out, String label, int done, int total, double liveMiB) {
    int width = 40;
    int filled = (int) ((long) done * width / total);
    out.printf(
        Locale.ROOT,
        (System.console() != null ? "\r" : "%n") + "%-19s [%s%s] %3d%%  live %7.1f MiB",
        label,
        "#".repeat(filled),
        ".".repeat(width - filled),
        done * 100 / total,
        liveMiB);
    out.flush();
  }

  private static void printTable(List<Run> runs, PrintStream out) {
    out.println();
    String header =
        String.format(
            Locale.ROOT,
            "| %-19s | %8s | %10s | %15s | %15s | %15s | %15s | %15s | %11s |",
            "strategy",
            "wall s",
            "ops/s",
            "peak live MiB",
            "freed cleanup",
            "freed explicit",
            "freed by scope",
            "freed at close",
            "GC requests");
    out.println(header);
    out.println(header.replaceAll("[^|]", "-"));
    for (Run r : runs) {
      out.printf(
          Locale.ROOT,
          "| %-19s | %8.2f | %10.0f | %15.1f | %15d | %15d | %15d | %15d | %11d |%n",
          r.label(),
          r.seconds(),
          r.ops() / r.seconds(),
          r.stats().peakBytes() / MIB,
          r.stats().freedByCleanup(),
          r.stats().freedExplicitly(),
          r.stats().freedByScope(),
          r.stats().freedAtClose(),
          r.stats().gcRequests());
    }
    for (Run r : runs) {
      if (!r.note().isEmpty()) {
        out.println();
        out.println(r.label() + ": " + r.note() + ".");
      }
    }
  }

  private static String chart(List<Run> runs, int m) {
    int w = 760;
    int h = 420;
    int left = 70;
    int right = 250;
    int top = 40;
    int bottom = 50;
    double maxMiB = 1;
    for (Run r : runs) {
      for (int i = 0; i < r.completed(); i++) {
        maxMiB = Math.max(maxMiB, r.liveMiB()[i]);
      }
    }
    double yMax = niceCeiling(maxMiB);
    String[] colors = {"#1f77b4", "#2ca02c", "#d62728", "#9467bd"};
    // The two tracking strategies often coincide: dash one so both stay visible.
    String[] dashes = {"", " stroke-dasharray=\"6 4\"", "", ""};
    StringBuilder svg = new StringBuilder();
    svg.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-family=\"sans-serif\" font-size=\"12\">%n"
                + "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n"
                + "<text x=\"%d\" y=\"24\" font-size=\"15\">Live native memory per iteration"
                + " (MiB)</text>%n",
            w,
            h,
            left));
    int plotW = w - left - right;
    int plotH = h - top - bottom;
    for (int t = 0; t <= 4; t++) {
      double v = yMax * t / 4;
      double y = top + plotH - plotH * t / 4.0;
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                  + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>%n",
              left,
              y,
              left + plotW,
              y,
              left - 8,
              y + 4,
              v));
    }
    for (int t = 0; t <= 4; t++) {
      double x = left + plotW * t / 4.0;
      svg.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>%n",
              x,
              top + plotH + 18,
              m * t / 4));
    }
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">iteration</text>%n"
                + "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\""
                + " stroke=\"#333\"/>%n",
            left + plotW / 2.0,
            h - 10,
            left,
            top,
            plotW,
            plotH));
    for (int k = 0; k < runs.size(); k++) {
      Run r = runs.get(k);
      StringBuilder pts = new StringBuilder();
      int step = Math.max(1, r.completed() / 600);
      for (int i = 0; i < r.completed(); i += step) {
        double x = left + plotW * (double) i / Math.max(1, m - 1);
        double y = top + plotH - plotH * r.liveMiB()[i] / yMax;
        pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
      }
      svg.append(
          String.format(
              Locale.ROOT,
              "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"%s\"/>%n"
                  + "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\""
                  + " stroke-width=\"3\"/><text x=\"%d\" y=\"%d\">%s</text>%n",
              colors[k % colors.length],
              dashes[k % dashes.length],
              pts.toString().trim(),
              left + plotW + 15,
              top + 20 + 22 * k,
              left + plotW + 35,
              top + 20 + 22 * k,
              colors[k % colors.length],
              left + plotW + 40,
              top + 24 + 22 * k,
              r.label() + (r.note().isEmpty() ? "" : " (limit hit)")));
    }
    svg.append("</svg>\n");
    return svg.toString();
  }

  private static double niceCeiling(double v) {
    double p = Math.pow(10, Math.floor(Math.log10(v)));
    for (double f : new double[] {1, 1.2, 1.6, 2, 2.4, 3.2, 4, 6, 8, 10}) {
      if (f * p >= v) {
        return f * p;
      }
    }
    return 10 * p;
  }
}
