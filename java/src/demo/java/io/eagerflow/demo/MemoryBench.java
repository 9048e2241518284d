package io.eagerflow.demo;

import io.eagerflow.EagerScope;
import io.eagerflow.EagerSession;
import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.NativeMemoryExhaustedException;
import io.eagerflow.Operand;
import io.eagerflow.SessionStats;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.tensorflow.ndarray.Shape;

/**
 * The seed loop (3 ops x 3,000 iterations on 1 MiB float tensors) under several JVM configurations,
 * each in its own forked JVM: collector, live heap (empty, or many small objects), {@code
 * -XX:+DisableExplicitGC}, and how tensors are freed. Prints one row per configuration: wall time
 * of the loop, peak live native MiB, the session's GC requests, and the collections and collection
 * time the GC MX beans reported during the loop.
 *
 * <p>System properties: {@code bench.heap} (-Xmx of the children, default 6g), {@code
 * bench.collectors} (comma-separated of G1, Parallel, Z; default all), {@code bench.liveMiB}
 * (comma-separated live heap sizes, default "0,2048"), {@code bench.modes} (of {@link Mode},
 * default all), {@code bench.disableExplicitGc} (also run the G1 configurations with {@code
 * -XX:+DisableExplicitGC}, default true), {@code bench.iterations} (default 3000), {@code
 * bench.maxGcTimeShare} and {@code bench.gcTriggerBytes} (the session options; default: the
 * library's), {@code bench.passes} (default 2).
 *
 * <p>Each configuration's JVM runs the loop {@code bench.passes} times, each pass in a new session,
 * and prints a row per pass: the first pass of a fresh JVM also pays for faulting in the memory the
 * loop needs for the first time (Eden pages a fill touches, the batch of native buffers a
 * collection frees and the pool then keeps), which a server that has run a while has paid already;
 * later passes show the steady state.
 */
public final class MemoryBench {
  /** How the loop's tensors are freed. */
  enum Mode {
    /** {@code release} of every output each iteration (the baseline). */
    EXPLICIT,
    /** One {@code session.newScope()} per iteration, default strategy. */
    SCOPE,
    /** Nothing released; {@code IN_BACKGROUND} cleanup with default options. */
    IN_BACKGROUND,
    /** Nothing released; {@code ON_SAFE_POINTS} cleanup with default options. */
    ON_SAFE_POINTS
  }

  private MemoryBench() {}

  public static void main(String[] args) throws java.io.IOException, InterruptedException {
    if (args.length > 0 && args[0].equals("--child")) {
      Mode mode = Mode.valueOf(args[1]);
      Object[] heap = liveHeap(Integer.parseInt(args[2]));
      // A server's caches are old: settle them in the old generation before the loop, or the
      // loop's first young collection pays for promoting them.
      System.gc();
      for (int pass = 1; pass <= Integer.parseInt(args[4]); pass++) {
        pass(mode, Integer.parseInt(args[3]), pass);
      }
      java.lang.ref.Reference.reachabilityFence(heap);
      return;
    }
    String heap = System.getProperty("bench.heap", "6g");
    List<String> collectors =
        List.of(System.getProperty("bench.collectors", "G1,Parallel,Z").split(","));
    List<String> lives = List.of(System.getProperty("bench.liveMiB", "0,2048").split(","));
    List<String> modes =
        List.of(
            System.getProperty("bench.modes", "EXPLICIT,SCOPE,IN_BACKGROUND,ON_SAFE_POINTS")
                .split(","));
    boolean disabled = Boolean.parseBoolean(System.getProperty("bench.disableExplicitGc", "true"));
    int iterations = Integer.getInteger("bench.iterations", 3000);
    int passes = Integer.getInteger("bench.passes", 2);

    List<List<String>> flagSets = new ArrayList<>();
    for (String c : collectors) {
      flagSets.add(List.of("-XX:+Use" + c.trim() + "GC"));
    }
    if (disabled) {
      flagSets.add(List.of("-XX:+UseG1GC", "-XX:+DisableExplicitGC"));
    }
    System.out.printf(
        Locale.ROOT,
        "%-40s %6s %-15s %4s %9s %9s %8s %7s %9s  %s%n",
        "JVM flags",
        "live",
        "mode",
        "pass",
        "wall s",
        "peak MiB",
        "requests",
        "GCs",
        "GC s",
        "end");
    for (List<String> flags : flagSets) {
      for (String live : lives) {
        for (String mode : modes) {
          List<String> cmd = new ArrayList<>();
          cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
          cmd.add("-Xmx" + heap);
          cmd.add("--enable-native-access=ALL-UNNAMED");
          cmd.addAll(flags);
          for (String key : List.of("bench.maxGcTimeShare", "bench.gcTriggerBytes")) {
            String value = System.getProperty(key);
            if (value != null) {
              cmd.add("-D" + key + "=" + value);
            }
          }
          String lib = System.getProperty("eagerflow.library.path");
          if (lib != null) {
            cmd.add("-Deagerflow.library.path=" + lib);
          }
          cmd.addAll(
              List.of(
                  "-cp",
                  System.getProperty("java.class.path"),
                  MemoryBench.class.getName(),
                  "--child",
                  mode.trim(),
                  live.trim(),
                  Integer.toString(iterations),
                  Integer.toString(passes)));
          Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
          String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
          p.waitFor();
          List<String> rows =
              out.lines().filter(l -> l.startsWith("RESULT ")).map(l -> l.substring(7)).toList();
          if (rows.isEmpty()) {
            rows = List.of("   failed (exit " + p.exitValue() + "): " + out.replace('\n', ' '));
          }
          for (String row : rows) {
            System.out.printf(
                Locale.ROOT,
                "%-40s %6s %-15s %s%n",
                String.join(" ", flags),
                live.trim(),
                mode.trim(),
                row);
          }
        }
      }
    }
  }

  /**
   * Many small objects, reachable until the loop ends: what a server's heap looks like. 2 GiB is
   * about 32 million of them, as in the measurements (33 million).
   */
  private static Object[] liveHeap(int mib) {
    // A 64-byte object (12-byte header, 52 bytes of fields) and its 4-byte slot: 68 bytes each.
    long count = ((long) mib << 20) / 68;
    int chunk = 1 << 20;
    Object[] chunks = new Object[(int) ((count + chunk - 1) / chunk)];
    long made = 0;
    for (int c = 0; c < chunks.length; c++) {
      Small[] a = new Small[(int) Math.min(chunk, count - made)];
      for (int i = 0; i < a.length; i++) {
        long v = made + i;
        a[i] = new Small(i, v, v, v, v, v, v);
      }
      made += a.length;
      chunks[c] = a;
    }
    return chunks;
  }

  private record Small(int a, long b, long c, long d, long e, long f, long g) {}

  private static void pass(Mode mode, int iterations, int pass) {
    int floats = 1 << 18;
    EagerSession.Options options = EagerSession.options();
    String share = System.getProperty("bench.maxGcTimeShare");
    if (share != null) {
      options.maxGcTimeShare(Double.parseDouble(share));
    }
    String trigger = System.getProperty("bench.gcTriggerBytes");
    if (trigger != null) {
      options.gcTriggerBytes(Long.parseLong(trigger));
    }
    if (mode == Mode.ON_SAFE_POINTS) {
      options.resourceCleanupStrategy(ResourceCleanupStrategy.ON_SAFE_POINTS);
    }
    long gcs0 = collections();
    long gcMs0 = collectionMillis();
    long start = System.nanoTime();
    String end = "completed";
    SessionStats stats;
    try (EagerSession session = options.build()) {
      Ops tf = Ops.create(session);
      Operand<TFloat32> x = tf.constant(Shape.of(floats), new float[floats]);
      Operand<TFloat32> one = tf.constant(1f);
      try {
        for (int i = 0; i < iterations; i++) {
          if (mode == Mode.SCOPE) {
            try (EagerScope scope = session.newScope()) {
              Operand<TFloat32> a = tf.math.add(x, one);
              tf.math.add(tf.math.mul(a, x), one);
            }
            continue;
          }
          Operand<TFloat32> a = tf.math.add(x, one);
          Operand<TFloat32> b = tf.math.mul(a, x);
          Operand<TFloat32> c = tf.math.add(b, one);
          if (mode == Mode.EXPLICIT) {
            session.release(a, b, c);
          }
        }
      } catch (NativeMemoryExhaustedException e) {
        end = "NativeMemoryExhaustedException: " + e.getMessage();
      }
      stats = session.stats();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(
        Locale.ROOT,
        "RESULT %4d %9.2f %9.1f %8d %7d %9.2f  %s%n",
        pass,
        seconds,
        stats.peakBytes() / (double) (1 << 20),
        stats.gcRequests(),
        collections() - gcs0,
        (collectionMillis() - gcMs0) / 1e3,
        end);
  }

  private static long collections() {
    long n = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, gc.getCollectionCount());
    }
    return n;
  }

  /** Summed collection times; for ZGC its cycles (concurrent) and pauses both count. */
  private static long collectionMillis() {
    long ms = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ms += Math.max(0, gc.getCollectionTime());
    }
    return ms;
  }
}
