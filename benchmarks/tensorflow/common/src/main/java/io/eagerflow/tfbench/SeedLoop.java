package io.eagerflow.tfbench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * The seed loop, a whole JVM per run: {@code a = x + 1; b = a * x; c = b + 1} for 3,000 iterations
 * on 1 MiB float tensors, in a new session, either releasing the three outputs each iteration or
 * leaving them all to the system's automatic cleanup. It times the loop (the session's creation and
 * close included), reads the process's peak resident set, checks the last {@code c} against {@link
 * Expected} and prints one {@code RESULT key=value ...} line for the report.
 *
 * <p>Arguments: {@code release|background}, the live heap in MiB (0 for none), the iterations, and
 * a cap on the resident set in MiB: a watchdog stops the loop once the process holds more, so that
 * a system whose cleanup cannot keep up does not take a shared machine's memory.
 */
public final class SeedLoop {
  /** One system's loop. */
  public interface Body {
    /**
     * Opens a session, runs the loop while {@code control.proceed} says so, reads the last {@code
     * c} (if every iteration ran) and closes the session.
     *
     * @param release release {@code a}, {@code b} and {@code c} at the end of each iteration
     */
    Outcome run(boolean release, int iterations, Control control) throws Exception;
  }

  /** What a loop returns: its last output and, where the system reports it, its native peak. */
  public record Outcome(float[] last, double nativePeakMiB) {}

  /** Asked before each iteration; says whether to go on. */
  public static final class Control {
    private volatile boolean stop;
    private volatile int completed;

    /** Called with the number of iterations done so far; false once the watchdog has fired. */
    public boolean proceed(int done) {
      completed = done;
      return !stop;
    }
  }

  private SeedLoop() {}

  /** Runs one system's seed loop as the command line says; see the class comment. */
  public static void main(String system, String[] args, Body body) {
    if (args.length != 4) {
      throw new IllegalArgumentException(
          "usage: release|background <live heap MiB> <iterations> <RSS cap MiB>");
    }
    boolean release =
        switch (args[0]) {
          case "release" -> true;
          case "background" -> false;
          default -> throw new IllegalArgumentException("mode must be release or background");
        };
    int liveMiB = Integer.parseInt(args[1]);
    int iterations = Integer.parseInt(args[2]);
    long capKiB = Long.parseLong(args[3]) << 10;

    Object[] heap = LiveHeap.build(liveMiB);
    // A server's caches are old: settle them in the old generation before the loop, or its first
    // young collections pay for promoting them.
    System.gc();

    Control control = new Control();
    Thread watchdog =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                if (Proc.rssKiB() > capKiB) {
                  control.stop = true;
                  return;
                }
                try {
                  Thread.sleep(20);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "rss-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();

    long gcs0 = collections();
    long gcMs0 = collectionMillis();
    long start = System.nanoTime();
    Outcome outcome = null;
    String end;
    try {
      outcome = body.run(release, iterations, control);
      end =
          outcome.last() != null
              ? "completed"
              : control.stop ? "stopped at the RSS cap of " + (capKiB >> 10) + " MiB" : "stopped";
    } catch (Throwable e) {
      end = "threw " + e;
    }
    double ms = (System.nanoTime() - start) / 1e6;
    watchdog.interrupt();
    int completed = outcome != null && outcome.last() != null ? iterations : control.completed;
    String check = "not checked";
    if (outcome != null && outcome.last() != null) {
      Expected.Check c = Expected.check("seedLoop", outcome.last());
      check = c.ok() ? "ok" : "FAIL: " + c.detail();
    }
    System.out.printf(
        Locale.ROOT,
        "RESULT system=%s mode=%s liveMiB=%d iterations=%d completed=%d wallMs=%.1f"
            + " peakRssMiB=%.1f nativePeakMiB=%s gcs=%d gcMs=%d check=%s end=%s%n",
        system,
        args[0],
        liveMiB,
        iterations,
        completed,
        ms,
        Proc.peakRssKiB() / 1024.0,
        outcome == null || Double.isNaN(outcome.nativePeakMiB())
            ? "-"
            : String.format(Locale.ROOT, "%.1f", outcome.nativePeakMiB()),
        collections() - gcs0,
        collectionMillis() - gcMs0,
        check.replace(' ', '_'),
        end.replace('\n', ' '));
    java.lang.ref.Reference.reachabilityFence(heap);
  }

  private static long collections() {
    long n = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, gc.getCollectionCount());
    }
    return n;
  }

  private static long collectionMillis() {
    long ms = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ms += Math.max(0, gc.getCollectionTime());
    }
    return ms;
  }
}
