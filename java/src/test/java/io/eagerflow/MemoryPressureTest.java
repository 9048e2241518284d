package io.eagerflow;

import static io.eagerflow.TestSupport.add;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.internal.SessionAccess;
import io.eagerflow.types.TFloat32;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.tensorflow.ndarray.Shape;

class MemoryPressureTest {
  private static final int MIB_FLOATS = 1 << 18;

  static Output<TFloat32> mib(EagerSession s) {
    return SessionAccess.get()
        .constant(s, DataType.FLOAT, Shape.of(MIB_FLOATS), new float[MIB_FLOATS]);
  }

  /** The seed loop in a fresh JVM with a large heap: 3 ops x 3,000 iterations on 1 MiB. */
  public static final class SeedLoop {
    public static void main(String[] args) {
      ResourceCleanupStrategy strategy = ResourceCleanupStrategy.valueOf(args[0]);
      try (EagerSession s = EagerSession.options().resourceCleanupStrategy(strategy).build()) {
        Output<TFloat32> x = mib(s);
        for (int i = 0; i < 3_000; i++) {
          Output<TFloat32> y = add(s, x, x);
          Output<TFloat32> z = add(s, y, x);
          add(s, z, y);
        }
        SessionStats st = s.stats();
        System.out.println("peakBytes=" + st.peakBytes() + " gcRequests=" + st.gcRequests());
      }
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = ResourceCleanupStrategy.class,
      names = {"IN_BACKGROUND", "ON_SAFE_POINTS"})
  void seedLoopStaysBoundedWithALargeHeap(ResourceCleanupStrategy strategy)
      throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> cmd = new ArrayList<>(List.of(java.toString(), "-Xmx4g"));
    // The collector this JVM runs on (.ci/run repeats this test under each): the seed loop's
    // bound is the cleanup strategies' promise under every collector, not only the default.
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.matches("-XX:\\+Use\\w+GC"))
        .forEach(cmd::add);
    String lib = System.getProperty("eagerflow.library.path");
    if (lib != null) {
      cmd.add("-Deagerflow.library.path=" + lib);
    }
    cmd.addAll(List.of("-cp", classPath(), SeedLoop.class.getName(), strategy.name()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(5, TimeUnit.MINUTES), "child finished");
    assertEquals(0, p.exitValue(), out);
    String line = out.lines().filter(l -> l.startsWith("peakBytes=")).findFirst().orElseThrow();
    long peak = Long.parseLong(line.replaceAll(".*peakBytes=(\\d+).*", "$1"));
    long gcRequests = Long.parseLong(line.replaceAll(".*gcRequests=(\\d+).*", "$1"));
    assertTrue(peak < 256L << 20, "peak live native bytes " + peak + " under 256 MiB");
    assertTrue(gcRequests > 0, "GC requests were made: " + out);
  }

  /** The test's class path, plus where this test and the library were loaded from. */
  static String classPath() throws IOException {
    List<String> parts = new ArrayList<>();
    parts.add(System.getProperty("java.class.path"));
    for (Class<?> c : List.of(SeedLoop.class, EagerSession.class)) {
      try {
        parts.add(
            Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
      } catch (java.net.URISyntaxException e) {
        throw new IOException(e);
      }
    }
    return String.join(java.io.File.pathSeparator, parts);
  }

  @Test
  void hardLimitThrowsAndTheSessionKeepsWorking() {
    long limit = 64L << 20;
    EagerSession s =
        EagerSession.options()
            .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
            .maxNativeBytes(limit)
            .build();
    List<Output<TFloat32>> held = new ArrayList<>();
    NativeMemoryExhaustedException e =
        assertThrows(
            NativeMemoryExhaustedException.class,
            () -> {
              while (true) {
                held.add(mib(s));
              }
            });
    assertTrue(e.getMessage().contains(Long.toString(limit)), e.getMessage());
    assertTrue(e.getMessage().contains("ON_SESSION_CLOSE"), e.getMessage());
    assertEquals(64, held.size());
    assertTrue(s.stats().peakBytes() <= limit);
    assertThrows(NativeMemoryExhaustedException.class, () -> add(s, held.get(0), held.get(1)));
    s.release(held.remove(0));
    Output<TFloat32> sum = add(s, held.get(0), held.get(1));
    assertEquals(0f, sum.asTensor().getFloat(5));
    assertTrue(s.stats().peakBytes() <= limit);
    s.close();
    assertEquals(0, s.stats().liveBytes());
    assertEquals(0, s.stats().liveTensors());
  }

  @Test
  void onSessionCloseNeverRequestsAGc() {
    try (EagerSession s =
        EagerSession.options()
            .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
            .gcTriggerBytes(1 << 20)
            .build()) {
      Output<TFloat32> x = mib(s);
      for (int i = 0; i < 8; i++) {
        s.release(add(s, x, x));
      }
      assertEquals(0, s.stats().gcRequests());
    }
  }

  @Test
  void aFixedTriggerRequestsCollections() {
    try (EagerSession s = EagerSession.options().gcTriggerBytes(4L << 20).build()) {
      Output<TFloat32> x = mib(s);
      for (int i = 0; i < 40; i++) {
        add(s, x, x);
      }
      assertTrue(s.stats().gcRequests() > 0, s.stats().toString());
      assertTrue(s.stats().peakBytes() < 40L << 20, s.stats().toString());
    }
  }
}
