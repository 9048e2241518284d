package io.eagerflow.tfbench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects one system's checks of its outputs against {@link Expected}, prints them and writes them
 * to a file for the report: one line per workload, {@code system<TAB>workload<TAB>ok|FAIL<TAB>detail}.
 */
public final class Verifier {
  private final String system;
  private final List<Expected.Check> checks = new ArrayList<>();

  public Verifier(String system) {
    this.system = system;
  }

  /** Checks one workload's output. */
  public void check(String workload, float[] actual) {
    record(Expected.check(workload, actual));
  }

  /** Records a workload that could not run at all. */
  public void failed(String workload, Throwable e) {
    record(new Expected.Check(workload, false, "threw " + e));
  }

  private void record(Expected.Check c) {
    checks.add(c);
    System.out.printf("%-10s %-20s %-4s %s%n", system, c.workload(), c.ok() ? "ok" : "FAIL", c.detail());
  }

  /** Writes the checks to {@code out}; returns whether all passed and every workload was checked. */
  public boolean finish(Path out) throws IOException {
    StringBuilder text = new StringBuilder();
    boolean ok = true;
    for (Expected.Check c : checks) {
      ok &= c.ok();
      text.append(system)
          .append('\t')
          .append(c.workload())
          .append('\t')
          .append(c.ok() ? "ok" : "FAIL")
          .append('\t')
          .append(c.detail().replace('\t', ' ').replace('\n', ' '))
          .append('\n');
    }
    for (String w : Expected.WORKLOADS) {
      if (checks.stream().noneMatch(c -> c.workload().equals(w))) {
        ok = false;
        text.append(system).append('\t').append(w).append("\tFAIL\tnot checked\n");
      }
    }
    if (out.getParent() != null) {
      Files.createDirectories(out.getParent());
    }
    Files.writeString(out, text, StandardCharsets.UTF_8);
    return ok;
  }
}
