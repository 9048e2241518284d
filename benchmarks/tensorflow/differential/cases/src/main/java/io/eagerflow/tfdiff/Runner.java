package io.eagerflow.tfdiff;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs every case of a cases file on one system and writes one result line per case: {@code id
 * TAB OK TAB outputs} (as {@link Values}, joined by {@code |}) or {@code id TAB ERR TAB
 * ExceptionClass TAB message}.
 */
public final class Runner {
  private Runner() {}

  public static void run(Sys sys, Path cases, Path results) throws IOException {
    List<String> lines = Files.readAllLines(cases);
    try (BufferedWriter out = Files.newBufferedWriter(results)) {
      int n = 0;
      for (String line : lines) {
        if (++n % 200 == 0) {
          sys.renew();
        }
        Case c = Case.parse(line);
        String result;
        try {
          List<Object> in = new ArrayList<>();
          for (Values v : c.inputs()) {
            in.add(sys.constant(v));
          }
          List<String> outs = new ArrayList<>();
          for (Object o : sys.run(c.op(), in, c.attrs())) {
            outs.add(sys.read(o).toString());
          }
          result = "OK\t" + String.join("|", outs);
        } catch (RuntimeException | Error e) {
          String m = String.valueOf(e.getMessage()).replaceAll("[\\t\\r\\n]+", " ");
          result = "ERR\t" + e.getClass().getSimpleName() + "\t"
              + m.substring(0, Math.min(m.length(), 160));
        }
        out.write(c.id() + "\t" + result + "\n");
      }
    }
  }
}
