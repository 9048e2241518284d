package io.eagerflow.tfbench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** This process's resident set from {@code /proc/self/status} (Linux). */
public final class Proc {
  private static final Path STATUS = Path.of("/proc/self/status");

  private Proc() {}

  /** The peak resident set so far ({@code VmHWM}), in KiB. */
  public static long peakRssKiB() {
    return field("VmHWM:");
  }

  /** The resident set now ({@code VmRSS}), in KiB. */
  public static long rssKiB() {
    return field("VmRSS:");
  }

  private static long field(String name) {
    try {
      for (String line : Files.readAllLines(STATUS, StandardCharsets.US_ASCII)) {
        if (line.startsWith(name)) {
          // "VmHWM:	  123456 kB"
          return Long.parseLong(line.substring(name.length()).replace("kB", "").trim());
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + STATUS, e);
    }
    throw new IllegalStateException(STATUS + " has no " + name + " line");
  }
}
