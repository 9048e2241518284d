package io.eagerflow.tfbench.report;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Everything run.sh left in a results directory. */
final class Results {
  /** The systems in the table's order, with their column names. */
  static final Map<String, String> SYSTEMS = new LinkedHashMap<>();

  static {
    SYSTEMS.put("eagerflow", "eagerflow");
    SYSTEMS.put("tf-java-1.1", "TF Java 1.1");
    SYSTEMS.put("tf-1.15", "TF 1.15");
  }

  /** One seed-loop JVM's result line. */
  record SeedRun(int run, Map<String, String> fields) {
    String system() {
      return fields.get("system");
    }

    boolean completed() {
      return "completed".equals(fields.get("end"));
    }

    double number(String key) {
      return Double.parseDouble(fields.get(key));
    }
  }

  /** One load-average sample. */
  record Load(long epochSeconds, double one, String phase) {}

  final Path dir;
  final Map<String, String> meta = new LinkedHashMap<>();

  /** How long the JMH forks waited in all for another JMH instance's machine-wide lock. */
  long lockWaitSeconds;

  /** system -> benchmark (Class.method) -> seconds per operation, one value per fork. */
  final Map<String, Map<String, List<Double>>> jmh = new TreeMap<>();

  /** system -> run -> benchmark -> seconds per op, for the per-run table. */
  final Map<String, Map<Integer, Map<String, Double>>> jmhByRun = new TreeMap<>();

  final List<SeedRun> seed = new ArrayList<>();
  final List<Load> load = new ArrayList<>();

  /** system -> lines of its checks: workload, ok|FAIL, detail. */
  final Map<String, List<String[]>> checks = new LinkedHashMap<>();

  private static final Pattern JMH_FILE = Pattern.compile("jmh-(.+)-r(\\d+)\\.json");

  Results(Path dir) throws IOException {
    this.dir = dir;
    for (String line : lines(dir.resolve("meta.tsv"))) {
      int tab = line.indexOf('\t');
      if (tab > 0) {
        String key = line.substring(0, tab);
        if (key.equals("jmhLockWait")) {
          // system, run, seconds: one line per JMH fork that waited for /tmp/jmh.lock.
          lockWaitSeconds += Long.parseLong(line.substring(line.lastIndexOf('\t') + 1));
        } else {
          meta.put(key, line.substring(tab + 1));
        }
      }
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.sorted().toList()) {
        String name = f.getFileName().toString();
        Matcher m = JMH_FILE.matcher(name);
        if (m.matches()) {
          readJmh(m.group(1), Integer.parseInt(m.group(2)), f);
        } else if (name.startsWith("verify-") && name.endsWith(".tsv")) {
          for (String line : lines(f)) {
            String[] cols = line.split("\t", 4);
            if (cols.length == 4) {
              checks.computeIfAbsent(cols[0], k -> new ArrayList<>()).add(
                  new String[] {cols[1], cols[2], cols[3]});
            }
          }
        }
      }
    }
    Path seedFile = dir.resolve("seed.txt");
    if (Files.exists(seedFile)) {
      for (String line : lines(seedFile)) {
        seed.add(parseSeed(line));
      }
    }
    Path loadFile = dir.resolve("load.tsv");
    if (Files.exists(loadFile)) {
      for (String line : lines(loadFile)) {
        String[] cols = line.split("\t");
        if (cols.length >= 3) {
          load.add(
              new Load(
                  Long.parseLong(cols[0]),
                  Double.parseDouble(cols[1]),
                  cols.length > 4 ? cols[4] : ""));
        }
      }
    }
  }

  private static List<String> lines(Path f) throws IOException {
    return Files.readAllLines(f, StandardCharsets.UTF_8).stream()
        .filter(l -> !l.isBlank())
        .toList();
  }

  /** "run=2 RESULT system=x mode=y ... end=free text to the end of the line". */
  private static SeedRun parseSeed(String line) {
    Map<String, String> fields = new LinkedHashMap<>();
    int endAt = line.indexOf(" end=");
    String head = endAt < 0 ? line : line.substring(0, endAt);
    for (String token : head.trim().split("\\s+")) {
      int eq = token.indexOf('=');
      if (eq > 0) {
        fields.put(token.substring(0, eq), token.substring(eq + 1));
      }
    }
    if (endAt >= 0) {
      fields.put("end", line.substring(endAt + 5).trim());
    }
    return new SeedRun(Integer.parseInt(fields.getOrDefault("run", "1")), fields);
  }

  private void readJmh(String system, int run, Path f) throws IOException {
    String text = Files.readString(f, StandardCharsets.UTF_8).trim();
    if (text.isEmpty()) {
      return;
    }
    for (JsonElement e : JsonParser.parseString(text).getAsJsonArray()) {
      JsonObject b = e.getAsJsonObject();
      String name = b.get("benchmark").getAsString();
      String[] parts = name.split("\\.");
      String key = parts[parts.length - 2] + "." + parts[parts.length - 1];
      JsonObject metric = b.getAsJsonObject("primaryMetric");
      double toSeconds = secondsPer(metric.get("scoreUnit").getAsString());
      for (JsonElement fork : metric.getAsJsonArray("rawData")) {
        JsonArray iterations = fork.getAsJsonArray();
        double sum = 0;
        for (JsonElement it : iterations) {
          sum += it.getAsDouble();
        }
        double seconds = sum / iterations.size() * toSeconds;
        jmh.computeIfAbsent(system, k -> new TreeMap<>())
            .computeIfAbsent(key, k -> new ArrayList<>())
            .add(seconds);
        jmhByRun
            .computeIfAbsent(system, k -> new TreeMap<>())
            .computeIfAbsent(run, k -> new TreeMap<>())
            .put(key, seconds);
      }
    }
  }

  private static double secondsPer(String unit) {
    return switch (unit) {
      case "ns/op" -> 1e-9;
      case "us/op" -> 1e-6;
      case "ms/op" -> 1e-3;
      case "s/op" -> 1;
      default -> throw new IllegalArgumentException("unexpected JMH unit " + unit);
    };
  }
}
