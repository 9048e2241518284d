package io.eagerflow.tfbench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes a run's side-by-side table: {@code results/.../report.md} with every run's values, and
 * the section of {@code docs/benchmarks.md} between its markers (added at the end the first time).
 *
 * <p>Usage: {@code Report <results dir> [<markdown file to update>]}.
 */
public final class Report {
  static final String BEGIN =
      "<!-- tfbench:begin: written by benchmarks/tensorflow/run.sh; rerun it rather than edit -->";
  static final String END = "<!-- tfbench:end -->";
  static final String HEADING = "## Side by side with TensorFlow Java (`benchmarks/tensorflow`)";

  private Report() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 1 || args.length > 2) {
      throw new IllegalArgumentException("usage: Report <results dir> [<markdown file>]");
    }
    Results r = new Results(Path.of(args[0]));
    String table = Table.section(r);
    Files.writeString(
        r.dir.resolve("report.md"),
        HEADING + "\n\n" + table + "\n" + Table.perRun(r),
        StandardCharsets.UTF_8);
    System.out.println(table);
    if (args.length == 2) {
      Path doc = Path.of(args[1]);
      Files.writeString(doc, replaceSection(Files.readString(doc, StandardCharsets.UTF_8), table));
      System.out.println("Updated " + doc);
    }
  }

  /** The document with the text between the markers replaced, or the section appended. */
  static String replaceSection(String doc, String table) {
    int begin = doc.indexOf(BEGIN);
    int end = doc.indexOf(END);
    if (begin >= 0 && end > begin) {
      return doc.substring(0, begin + BEGIN.length())
          + "\n\n"
          + table
          + "\n"
          + doc.substring(end);
    }
    String sep = doc.endsWith("\n") ? "\n" : "\n\n";
    return doc + sep + HEADING + "\n\n" + BEGIN + "\n\n" + table + "\n" + END + "\n";
  }

  /** 1,234 / 12.3 / 1.23: three significant figures at most, and thousands separated. */
  static String number(double v) {
    double a = Math.abs(v);
    if (a >= 100) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    if (a >= 10) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    return String.format(Locale.ROOT, "%.2f", v);
  }

  static String ratio(double r) {
    return (r >= 10 ? String.format(Locale.ROOT, "%.1f", r) : String.format(Locale.ROOT, "%.2f", r))
        + "x";
  }

  static String range(Summary s) {
    return s.n() < 2 ? "" : " (" + number(s.min()) + "–" + number(s.max()) + ")";
  }

  static List<String> systems(Results r) {
    return new ArrayList<>(Results.SYSTEMS.keySet());
  }

  static String label(String system) {
    return Results.SYSTEMS.getOrDefault(system, system);
  }

  static String meta(Map<String, String> meta, String key) {
    return meta.getOrDefault(key, "?");
  }
}
