package io.eagerflow.tfbench.report;

import static io.eagerflow.tfbench.report.Report.label;
import static io.eagerflow.tfbench.report.Report.meta;
import static io.eagerflow.tfbench.report.Report.number;
import static io.eagerflow.tfbench.report.Report.range;
import static io.eagerflow.tfbench.report.Report.ratio;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The markdown of a run: its circumstances, the table, and every run's values. */
final class Table {
  private static final String REFERENCE = "eagerflow";

  private Table() {}

  static String section(Results r) {
    Map<String, String> m = r.meta;
    List<String> systems = Report.systems(r);
    StringBuilder s = new StringBuilder();
    s.append("**Command:** `").append(meta(m, "command")).append("` (")
        .append(meta(m, "duration")).append(").\n\n");
    s.append("**Run:** ").append(meta(m, "date")).append("; eagerflow ")
        .append(meta(m, "eagerflow")).append("; TensorFlow Java 1.1.0 (`tensorflow-core-api` with")
        .append(" `tensorflow-core-native` linux-x86_64); libtensorflow 1.15.0 (with")
        .append(" `libtensorflow_jni`); ").append(meta(m, "java")).append(". ")
        .append(meta(m, "runs")).append(" runs, the systems alternating (each run starts with")
        .append(" the next system); in each run every JMH workload runs in a JVM of its own per")
        .append(" system (`").append(meta(m, "jmh")).append("`, G1, `-Xmx4g`) and every seed-loop")
        .append(" configuration in a JVM of its own.\n\n");
    s.append("**Machine:** ").append(meta(m, "machine")).append(".\n\n");
    s.append("**Load:** ").append(load(r)).append(loaded(r)).append("\n\n");
    s.append(reduced(r));
    s.append("**Checked before timing:** ").append(checks(r)).append("\n\n");

    s.append("| workload |");
    for (String sys : systems) {
      s.append(' ').append(label(sys)).append(" |");
    }
    for (String sys : systems) {
      if (!sys.equals(REFERENCE)) {
        s.append(" eagerflow vs ").append(label(sys)).append(" |");
      }
    }
    s.append('\n').append("|---".repeat(2 * systems.size())).append("|\n");
    for (Rows.JmhRow row : Rows.JMH) {
      jmhRow(r, systems, row, s);
    }
    for (Rows.SeedRow row : Rows.SEED) {
      seedRow(r, systems, row, s);
    }
    s.append('\n');
    s.append("Cells: the median over the runs, in parentheses the lowest and highest run. Each")
        .append(" run's value is the mean of its JMH measurement iterations. \"eagerflow vs X\":")
        .append(" how many times faster eagerflow is than X, from the medians (below 1: slower).")
        .append(" Seed loop: 3 ops x ").append(meta(m, "seedIterations"))
        .append(" iterations on 1 MiB tensors in a new session, wall time including the")
        .append(" session's creation and close, peak RSS of the whole process (`VmHWM`, the live")
        .append(" heap included; eagerflow's own native peak in parentheses); JVM: G1, `-Xmx4g`,")
        .append(" `-Xmx6g` beside the live heap of ").append(meta(m, "liveMiB"))
        .append(" MiB; a watchdog stops a loop whose process passes ")
        .append(meta(m, "rssCapMiB")).append(" MiB.\n");
    return s.toString();
  }

  private static void jmhRow(
      Results r, List<String> systems, Rows.JmhRow row, StringBuilder s) {
    s.append("| ").append(row.label()).append(", ").append(row.kind().unit).append(" |");
    for (String sys : systems) {
      List<Double> seconds = r.jmh.getOrDefault(sys, Map.of()).get(row.benchmark());
      if (seconds == null || seconds.isEmpty()) {
        s.append(" – |");
        continue;
      }
      Summary v = Summary.of(seconds.stream().map(row::shown).toList());
      s.append(' ').append(number(v.median())).append(range(v)).append(missing(r, v.n()))
          .append(" |");
    }
    List<Double> ref = r.jmh.getOrDefault(REFERENCE, Map.of()).get(row.benchmark());
    for (String sys : systems) {
      if (sys.equals(REFERENCE)) {
        continue;
      }
      List<Double> other = r.jmh.getOrDefault(sys, Map.of()).get(row.benchmark());
      if (ref == null || other == null || ref.isEmpty() || other.isEmpty()) {
        s.append(" – |");
      } else {
        s.append(' ')
            .append(ratio(Summary.of(other).median() / Summary.of(ref).median()))
            .append(" |");
      }
    }
    s.append('\n');
  }

  /** Says so when a JMH fork failed and a cell has fewer values than the run had runs. */
  private static String missing(Results r, int n) {
    int runs = Integer.parseInt(r.meta.getOrDefault("runs", "0"));
    return n < runs ? " [" + n + " of " + runs + " runs; see the logs]" : "";
  }

  private static List<Results.SeedRun> seedRuns(
      Results r, String system, Rows.SeedRow row) {
    return r.seed.stream()
        .filter(x -> system.equals(x.system()))
        .filter(x -> row.mode().equals(x.fields().get("mode")))
        .filter(x -> (x.number("liveMiB") > 0) == row.live())
        .toList();
  }

  private static void seedRow(
      Results r, List<String> systems, Rows.SeedRow row, StringBuilder s) {
    s.append("| ").append(row.label()).append(", ms / peak RSS MiB |");
    for (String sys : systems) {
      s.append(' ').append(seedCell(seedRuns(r, sys, row))).append(" |");
    }
    Double ref = medianWall(seedRuns(r, REFERENCE, row));
    for (String sys : systems) {
      if (sys.equals(REFERENCE)) {
        continue;
      }
      Double other = medianWall(seedRuns(r, sys, row));
      s.append(' ').append(ref == null || other == null ? "–" : ratio(other / ref)).append(" |");
    }
    s.append('\n');
  }

  /** The median wall time if every run completed, else null. */
  private static Double medianWall(List<Results.SeedRun> runs) {
    if (runs.isEmpty() || !runs.stream().allMatch(Results.SeedRun::completed)) {
      return null;
    }
    return Summary.of(runs.stream().map(x -> x.number("wallMs")).toList()).median();
  }

  private static String seedCell(List<Results.SeedRun> runs) {
    if (runs.isEmpty()) {
      return "–";
    }
    List<Results.SeedRun> done = runs.stream().filter(Results.SeedRun::completed).toList();
    if (done.size() == runs.size()) {
      Summary ms = Summary.of(done.stream().map(x -> x.number("wallMs")).toList());
      Summary rss = Summary.of(done.stream().map(x -> x.number("peakRssMiB")).toList());
      String cell = number(ms.median()) + range(ms) + " / " + number(rss.median());
      List<Double> natives =
          done.stream()
              .filter(x -> !"-".equals(x.fields().get("nativePeakMiB")))
              .map(x -> x.number("nativePeakMiB"))
              .toList();
      if (!natives.isEmpty()) {
        cell += " (native " + number(Summary.of(natives).median()) + ")";
      }
      return cell;
    }
    Results.SeedRun failed = runs.stream().filter(x -> !x.completed()).findFirst().orElseThrow();
    return "did not finish in "
        + (runs.size() - done.size())
        + " of "
        + runs.size()
        + " runs: "
        + failed.fields().get("end")
        + " after "
        + number(failed.number("completed"))
        + " iterations, "
        + number(failed.number("wallMs"))
        + " ms, peak RSS "
        + number(failed.number("peakRssMiB"));
  }

  private static String load(Results r) {
    if (r.load.isEmpty()) {
      return "not recorded.";
    }
    Summary one = Summary.of(r.load.stream().map(Results.Load::one).toList());
    return "the 1-minute load average, sampled every 30 s and at every step ("
        + one.n()
        + " samples), had a median of "
        + number(one.median())
        + " (lowest "
        + number(one.min())
        + ", highest "
        + number(one.max())
        + "); "
        + number(r.load.get(0).one())
        + " at the start, "
        + number(r.load.get(r.load.size() - 1).one())
        + " at the end, on "
        + meta(r.meta, "cores")
        + " cores.";
  }

  /** run.sh's defaults, the configuration the table was measured with. */
  private static final String DEFAULT_RUNS = "3";

  private static final String DEFAULT_JMH = "-f 1 -wi 3 -i 5 -w 1s -r 1s";
  private static final int DEFAULT_SEED_ITERATIONS = 3000;
  private static final int DEFAULT_LIVE_MIB = 2048;

  /** A paragraph naming what a run measured less of than the defaults, or nothing. */
  private static String reduced(Results r) {
    Map<String, String> m = r.meta;
    List<String> less = new ArrayList<>();
    if (!DEFAULT_RUNS.equals(meta(m, "runs"))) {
      less.add(meta(m, "runs") + " runs (default " + DEFAULT_RUNS + ")");
    }
    if (!DEFAULT_JMH.equals(meta(m, "jmh"))) {
      less.add("JMH `" + meta(m, "jmh") + "` (default `" + DEFAULT_JMH + "`)");
    }
    int seedIterations = Integer.parseInt(m.getOrDefault("seedIterations", "0"));
    if (seedIterations != DEFAULT_SEED_ITERATIONS) {
      less.add(
          "seed loops of "
              + seedIterations
              + " iterations (default "
              + DEFAULT_SEED_ITERATIONS
              + ")");
    }
    if (!String.valueOf(DEFAULT_LIVE_MIB).equals(meta(m, "liveMiB"))) {
      less.add("a live heap of " + meta(m, "liveMiB") + " MiB (default " + DEFAULT_LIVE_MIB + ")");
    }
    if (less.isEmpty()) {
      return "";
    }
    StringBuilder s =
        new StringBuilder("**Reduced configuration:** ")
            .append(String.join(", ", less))
            .append(". Short JMH iterations leave the JIT and the collectors less time to settle;");
    if (seedIterations < DEFAULT_SEED_ITERATIONS) {
      // Each iteration makes three 1 MiB outputs: the whole loop's, unreleased, is 3 MiB each.
      s.append(" a seed loop that releases nothing makes ")
          .append(3 * seedIterations)
          .append(" MiB of outputs in all against ")
          .append(3 * DEFAULT_SEED_ITERATIONS)
          .append(" MiB by default, so a system whose cleanup waits for the collector may finish")
          .append(" without freeing anything (its `gcs` in report.md), which the default length")
          .append(" would not allow;");
    }
    return s.append(" compare these figures with a default run only as a rough guide.\n\n")
        .toString();
  }

  /**
   * Whether the run shared its cores: above one runnable task per core the systems' JVMs waited
   * for the CPU, so a run under load only indicates the ratios.
   */
  private static String loaded(Results r) {
    String nice = meta(r.meta, "nice");
    String niceNote =
        nice.equals("0") || nice.equals("?")
            ? ""
            : " The benchmark's processes ran at niceness " + nice + ", yielding to other work.";
    if (r.lockWaitSeconds > 0) {
      niceNote +=
          " Another JMH benchmark ran on the machine meanwhile: this run's JMH forks waited "
              + r.lockWaitSeconds
              + " s in all for its lock (`/tmp/jmh.lock`).";
    }
    if (r.load.isEmpty()) {
      return niceNote;
    }
    double median = Summary.of(r.load.stream().map(Results.Load::one).toList()).median();
    double cores = Double.parseDouble(r.meta.getOrDefault("cores", "1"));
    if (median <= cores) {
      return " The machine was quiet: absolute figures still drift between machines, so compare"
          + " the systems within this run (the ratios)."
          + niceNote;
    }
    return " **This run was under load** (other work kept more tasks runnable than there are"
        + " cores), so every JVM here waited for the CPU for part of its time: the figures are"
        + " far below what the systems do on a quiet machine and the ratios are indicative only."
        + niceNote
        + " For a quiet run, run `benchmarks/tensorflow/run.sh --publish` on an otherwise idle"
        + " machine.";
  }

  private static String checks(Results r) {
    int ok = 0;
    List<String> failures = new ArrayList<>();
    for (Map.Entry<String, List<String[]>> e : r.checks.entrySet()) {
      for (String[] c : e.getValue()) {
        if (c[1].equals("ok")) {
          ok++;
        } else {
          failures.add(label(e.getKey()) + " " + c[0] + ": " + c[2]);
        }
      }
    }
    long seedOk = r.seed.stream().filter(x -> "ok".equals(x.fields().get("check"))).count();
    long seedChecked =
        r.seed.stream().filter(x -> !"not_checked".equals(x.fields().get("check"))).count();
    String seed =
        " The seed loops' last outputs: "
            + seedOk
            + " of "
            + seedChecked
            + " completed loops matched"
            + (seedOk == seedChecked ? "." : " (see report.md for the others).");
    String intro =
        "each system ran every workload once through the code the benchmarks time and its"
            + " output was compared with plain Java on the same inputs (bit for bit: the inputs"
            + " are chosen so that every sum is exact in any order; softmax within 1e-5"
            + " relative). ";
    if (failures.isEmpty()) {
      return intro + ok + " of " + ok + " checks passed." + seed;
    }
    return intro + ok + " passed, " + failures.size() + " FAILED: " + String.join("; ", failures)
        + "." + seed;
  }

  /** Every run's value, for report.md. */
  static String perRun(Results r) {
    StringBuilder s = new StringBuilder("\n### Every run\n\n");
    s.append("| system | run | workload | value |\n|---|---|---|---|\n");
    for (var sys : r.jmhByRun.entrySet()) {
      for (var run : sys.getValue().entrySet()) {
        for (Rows.JmhRow row : Rows.JMH) {
          Double sec = run.getValue().get(row.benchmark());
          if (sec != null) {
            s.append("| ").append(label(sys.getKey())).append(" | ").append(run.getKey())
                .append(" | ").append(row.label()).append(" | ").append(number(row.shown(sec)))
                .append(' ').append(row.kind().unit).append(" |\n");
          }
        }
      }
    }
    s.append("\n| run | seed-loop result |\n|---|---|\n");
    for (Results.SeedRun x : r.seed) {
      s.append("| ").append(x.run()).append(" | ").append(x.fields()).append(" |\n");
    }
    s.append("\n| system | workload | check | detail |\n|---|---|---|---|\n");
    for (var e : r.checks.entrySet()) {
      for (String[] c : e.getValue()) {
        s.append("| ").append(label(e.getKey())).append(" | ").append(c[0]).append(" | ")
            .append(c[1]).append(" | ").append(c[2]).append(" |\n");
      }
    }
    s.append("\n| time (s since start) | 1-min load | phase |\n|---|---|---|\n");
    long t0 = r.load.isEmpty() ? 0 : r.load.get(0).epochSeconds();
    for (Results.Load l : r.load) {
      s.append("| ").append(l.epochSeconds() - t0).append(" | ").append(l.one()).append(" | ")
          .append(l.phase()).append(" |\n");
    }
    return s.toString();
  }
}
