package io.eagerflow;

import static io.eagerflow.TestSupport.add;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.types.TFloat32;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.zip.ZipFile;
import jdk.jfr.Configuration;
import jdk.jfr.EventType;
import jdk.jfr.Recording;
import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;

/**
 * The JDK Flight Recorder events (docs/observability.md): a recording made while sessions run the
 * seed loop under each strategy holds every event type, with the fields the session's own counts
 * and the loop say.
 */
class FlightRecorderTest {
  private static final String JFC = "/io/eagerflow/eagerflow.jfc";
  private static final long MIB = 1 << 20;
  private static final int ITERATIONS = 300;

  private static final Set<String> EVENTS =
      Set.of(
          "io.eagerflow.SessionOpened",
          "io.eagerflow.SessionClosed",
          "io.eagerflow.CleanupBatch",
          "io.eagerflow.CollectionRequested",
          "io.eagerflow.LimitReached",
          "io.eagerflow.Warning",
          "io.eagerflow.ScopeClosed",
          "io.eagerflow.OpExecution");

  /** One run of the loop: its session's options, marked by a unique limit, and what it did. */
  private record Run(
      ResourceCleanupStrategy strategy,
      boolean scoped,
      long maxNativeBytes,
      int ops,
      SessionStats stats,
      NativeMemoryExhaustedException thrown) {}

  /**
   * The seed loop of the demo and MemoryPressureTest (3 ops per iteration on 1 MiB float tensors),
   * {@code iterations} long; a scope per iteration if {@code scoped}. Stops at the hard limit.
   */
  private static Run seedLoop(
      ResourceCleanupStrategy strategy, boolean scoped, long maxNativeBytes, int iterations) {
    EagerSession s =
        EagerSession.options()
            .resourceCleanupStrategy(strategy)
            .maxNativeBytes(maxNativeBytes)
            .build();
    int ops = 0;
    NativeMemoryExhaustedException thrown = null;
    try (s) {
      Output<TFloat32> x = MemoryPressureTest.mib(s);
      for (int i = 0; i < iterations; i++) {
        try (EagerScope scope = scoped ? s.newScope() : null) {
          Output<TFloat32> y = add(s, x, x);
          ops++;
          Output<TFloat32> z = add(s, y, x);
          ops++;
          add(s, z, y);
          ops++;
        }
      }
    } catch (NativeMemoryExhaustedException e) {
      thrown = e;
    }
    return new Run(strategy, scoped, maxNativeBytes, ops, s.stats(), thrown);
  }

  /** The jar's settings, with op timing on for every op. */
  private static Recording recording() throws IOException, java.text.ParseException {
    Configuration settings;
    try (InputStream in = EagerSession.class.getResourceAsStream(JFC);
        Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
      settings = Configuration.create(reader);
    }
    assertEquals("false", settings.getSettings().get("io.eagerflow.OpExecution#enabled"));
    assertEquals("1 ms", settings.getSettings().get("io.eagerflow.OpExecution#threshold"));
    Recording r = new Recording(settings);
    r.enable("io.eagerflow.OpExecution").withThreshold(Duration.ZERO);
    return r;
  }

  private static List<RecordedEvent> named(List<RecordedEvent> all, String name) {
    return all.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
  }

  private static List<RecordedEvent> of(List<RecordedEvent> events, long sessionId) {
    return events.stream().filter(e -> e.getLong("sessionId") == sessionId).toList();
  }

  @Test
  void aRecordingOfTheSeedLoopHoldsEveryEventWithItsFields() throws Exception {
    Path file = Files.createTempFile("eagerflow-test", ".jfr");
    List<Run> runs = new ArrayList<>();
    try (Recording r = recording()) {
      r.start();
      long marker = 1L << 30;
      for (ResourceCleanupStrategy strategy : ResourceCleanupStrategy.values()) {
        // ON_SESSION_CLOSE frees nothing: a small limit makes it reach it.
        long limit =
            (strategy == ResourceCleanupStrategy.ON_SESSION_CLOSE ? 64 * MIB : marker)
                + runs.size();
        runs.add(seedLoop(strategy, false, limit, ITERATIONS));
      }
      runs.add(seedLoop(ResourceCleanupStrategy.IN_BACKGROUND, true, marker + runs.size(), 100));
      leakOneTrackedTensor();
      r.stop();
      r.dump(file);
    }
    List<RecordedEvent> all = RecordingFile.readAllEvents(file);
    checkMetadata(file);
    Map<Long, Long> idByLimit = new HashMap<>();
    for (RecordedEvent e : named(all, "io.eagerflow.SessionOpened")) {
      idByLimit.put(e.getLong("maxNativeBytes"), e.getLong("sessionId"));
    }
    for (Run run : runs) {
      Long id = idByLimit.get(run.maxNativeBytes());
      assertNotNull(id, "a SessionOpened event for " + run);
      checkSession(all, run, id);
      checkOps(of(named(all, "io.eagerflow.OpExecution"), id), run);
      if (run.scoped()) {
        checkScopes(of(named(all, "io.eagerflow.ScopeClosed"), id));
      } else if (run.strategy() == ResourceCleanupStrategy.ON_SESSION_CLOSE) {
        checkLimit(of(named(all, "io.eagerflow.LimitReached"), id), run);
      } else {
        checkCleanup(all, run, id);
      }
    }
    List<RecordedEvent> leaks =
        named(all, "io.eagerflow.Warning").stream()
            .filter(e -> e.getString("kind").equals("LEAK"))
            .toList();
    assertFalse(leaks.isEmpty(), "a Warning event for the leaked tensor");
    RecordedEvent leak = leaks.get(0);
    assertEquals("WARNING", leak.getString("level"));
    assertTrue(leak.getString("message").contains("eagerflow leak: tensor created at"), "" + leak);
    assertTrue(leak.getString("message").contains("leakOneTrackedTensor"), "" + leak);
    Files.delete(file);
  }

  /** A tracked output freed at close: the library logs where it was created. */
  private static void leakOneTrackedTensor() {
    try (EagerSession s = EagerSession.options().trackLeaks(true).build()) {
      add(s, TestSupport.constant(s, 1f), TestSupport.constant(s, 2f));
    }
  }

  /** Each event type is named, labelled, described and grouped; bytes and times have units. */
  private static void checkMetadata(Path file) throws IOException {
    Map<String, EventType> types;
    try (RecordingFile f = new RecordingFile(file)) {
      types =
          f.readEventTypes().stream()
              .filter(t -> t.getName().startsWith("io.eagerflow."))
              .collect(Collectors.toMap(EventType::getName, t -> t));
    }
    assertEquals(EVENTS, types.keySet());
    for (EventType t : types.values()) {
      assertEquals("eagerflow", t.getCategoryNames().get(0), t.getName());
      assertNotNull(t.getLabel(), t.getName());
      assertNotNull(t.getDescription(), t.getName());
      for (ValueDescriptor field : t.getFields()) {
        String name = field.getName();
        if (name.equals("bytes") || name.endsWith("Bytes")) {
          assertEquals("jdk.jfr.DataAmount", field.getContentType(), t.getName() + "." + name);
        }
        if (name.equals("gcTime") || name.equals("duration")) {
          assertEquals("jdk.jfr.Timespan", field.getContentType(), t.getName() + "." + name);
        }
        if (!name.equals("startTime") && !name.equals("duration")) {
          assertNotNull(field.getLabel(), t.getName() + "." + name);
        }
      }
    }
  }

  private static void checkSession(List<RecordedEvent> all, Run run, long id) {
    RecordedEvent opened = only(of(named(all, "io.eagerflow.SessionOpened"), id), "opened");
    assertEquals(run.strategy().name(), opened.getString("strategy"));
    assertFalse(opened.getBoolean("async"));
    assertEquals(0, opened.getInt("asyncQueueCapacity"));
    assertEquals(0, opened.getLong("gcTriggerBytes"), "adaptive");
    assertEquals(0.6, opened.getDouble("maxGcTimeShare"), 1e-9);
    assertFalse(opened.getBoolean("trackLeaks"));
    assertNotNull(opened.getStackTrace(), "where the session was built");

    RecordedEvent closed = only(of(named(all, "io.eagerflow.SessionClosed"), id), "closed");
    SessionStats st = run.stats();
    assertEquals(run.strategy().name(), closed.getString("strategy"));
    assertEquals(run.maxNativeBytes(), closed.getLong("maxNativeBytes"));
    assertEquals(st.peakBytes(), closed.getLong("peakBytes"));
    assertEquals(st.createdTensors(), closed.getLong("createdTensors"));
    assertEquals(st.freedExplicitly(), closed.getLong("freedExplicitly"));
    assertEquals(st.freedByScope(), closed.getLong("freedByScope"));
    assertEquals(st.freedByCleanup(), closed.getLong("freedByCleanup"));
    assertEquals(st.freedAtClose(), closed.getLong("freedAtClose"));
    assertEquals(st.gcRequests(), closed.getLong("gcRequests"));
    assertEquals(1 + run.ops(), st.createdTensors(), "the constant and each op's output");
    assertTrue(closed.getStartTime().isAfter(opened.getStartTime()));
  }

  private static void checkOps(List<RecordedEvent> ops, Run run) {
    assertEquals(run.ops(), ops.size(), "one OpExecution per op that ran: " + run);
    for (RecordedEvent e : ops) {
      assertEquals("AddV2", e.getString("op"));
      assertEquals("FLOAT, FLOAT", e.getString("inputTypes"));
      assertEquals("[262144], [262144]", e.getString("inputShapes"));
      assertEquals(1, e.getLong("outputs"));
      assertFalse(e.getDuration().isNegative());
    }
  }

  private static void checkScopes(List<RecordedEvent> scopes) {
    assertEquals(100, scopes.size(), "one per scope");
    for (RecordedEvent e : scopes) {
      assertEquals(3, e.getLong("tensors"));
      assertEquals(3 * MIB, e.getLong("bytes"), "its three 1 MiB outputs");
    }
  }

  private static void checkLimit(List<RecordedEvent> limits, Run run) {
    assertNotNull(run.thrown(), "ON_SESSION_CLOSE reached its limit: " + run);
    RecordedEvent e = only(limits, "limit reached");
    assertEquals(run.thrown().getMessage(), e.getString("message"));
    assertEquals("ON_SESSION_CLOSE", e.getString("strategy"));
    assertEquals(run.maxNativeBytes(), e.getLong("maxNativeBytes"));
    assertTrue(e.getLong("liveBytes") > run.maxNativeBytes() - 2 * MIB, "" + e);
    assertNotNull(e.getStackTrace());
  }

  private static void checkCleanup(List<RecordedEvent> all, Run run, long id) {
    SessionStats st = run.stats();
    List<RecordedEvent> batches = of(named(all, "io.eagerflow.CleanupBatch"), id);
    assertEquals(
        st.freedByCleanup(),
        batches.stream().mapToLong(e -> e.getLong("tensors")).sum(),
        "every tensor the cleanup freed is in a batch");
    assertFalse(batches.isEmpty(), "batches: " + run);
    Predicate<String> thread =
        run.strategy() == ResourceCleanupStrategy.IN_BACKGROUND
            ? n -> n.startsWith("eagerflow-cleanup-")
            : n -> n.equals(Thread.currentThread().getName());
    for (RecordedEvent e : batches) {
      assertEquals(run.strategy().name(), e.getString("strategy"));
      assertTrue(e.getLong("tensors") > 0);
      assertTrue(e.getLong("bytes") <= e.getLong("tensors") * MIB, "" + e);
      assertTrue(thread.test(e.getThread().getJavaName()), "freed on " + e.getThread());
    }
    List<RecordedEvent> requests = of(named(all, "io.eagerflow.CollectionRequested"), id);
    assertEquals(
        st.gcRequests(),
        requests.stream().filter(e -> e.getBoolean("collected")).count(),
        "each counted request is an event");
    assertTrue(st.gcRequests() > 0, "the loop made the session ask: " + run);
    Set<String> methods = Set.of("YOUNG_FILL", "SYSTEM_GC", "YOUNG_FILL_THEN_SYSTEM_GC", "NONE");
    for (RecordedEvent e : requests) {
      assertEquals("SOFT_THRESHOLD", e.getString("cause"));
      assertTrue(methods.contains(e.getString("method")), "" + e);
      assertTrue(e.getLong("trigger") >= 64 * MIB, "the adaptive floor: " + e);
      assertTrue(e.getLong("nextTrigger") >= 64 * MIB, "" + e);
      assertTrue(e.getLong("freedBytes") <= e.getLong("liveBytes"), "" + e);
      assertTrue(e.getLong("gcTime") >= 0);
      assertTrue(e.getDuration().toNanos() > 0, "the wait");
    }
  }

  private static RecordedEvent only(List<RecordedEvent> events, String what) {
    assertEquals(1, events.size(), what + ": " + events);
    return events.get(0);
  }

  /** A small seed loop with a scope, for {@link #theJarsSettingsWorkFromTheCommandLine}. */
  public static final class Main {
    public static void main(String[] args) {
      seedLoop(ResourceCleanupStrategy.ON_SAFE_POINTS, false, 1L << 30, 50);
      seedLoop(ResourceCleanupStrategy.IN_BACKGROUND, true, (1L << 30) + 1, 20);
    }
  }

  @Test
  void theJarsSettingsWorkFromTheCommandLine() throws Exception {
    Path jar = ChildJvm.eagerflowJar();
    if (jar != null) {
      try (ZipFile zip = new ZipFile(jar.toFile())) {
        assertNotNull(zip.getEntry(JFC.substring(1)), "the jar ships " + JFC);
      }
    }
    // What docs/observability.md tells users to do: extract the file, then name it.
    Path dir = Files.createTempDirectory("eagerflow-jfc");
    Path jfc = dir.resolve("eagerflow.jfc");
    try (InputStream in = EagerSession.class.getResourceAsStream(JFC)) {
      Files.copy(in, jfc);
    }
    Path file = dir.resolve("run.jfr");
    // Its options turn op timing on, for every op.
    ChildJvm.Result child =
        ChildJvm.runMain(
            List.of(
                "-XX:StartFlightRecording:settings=default,settings="
                    + jfc
                    + ",eagerflow-ops=true,eagerflow-op-threshold=0ms,filename="
                    + file),
            Main.class,
            List.of(),
            Duration.ofMinutes(3));
    assertEquals(0, child.exitCode(), child.describe());
    Map<String, Long> counts =
        RecordingFile.readAllEvents(file).stream()
            .collect(Collectors.groupingBy(e -> e.getEventType().getName(), Collectors.counting()));
    assertEquals(2, counts.get("io.eagerflow.SessionOpened"), "" + counts);
    assertEquals(2, counts.get("io.eagerflow.SessionClosed"), "" + counts);
    assertEquals(20, counts.get("io.eagerflow.ScopeClosed"), "" + counts);
    assertEquals(3 * (50 + 20), counts.get("io.eagerflow.OpExecution"), "" + counts);
    assertTrue(counts.containsKey("jdk.GarbageCollection"), "the JDK's default profile too");
    for (Path p : List.of(file, jfc, dir)) {
      Files.delete(p);
    }
  }

  @Test
  void theJdkProfileAloneRecordsEverythingButOpTiming() throws Exception {
    Path file = Files.createTempFile("eagerflow-test", ".jfr");
    try (Recording r = new Recording(Configuration.getConfiguration("default"))) {
      r.start();
      seedLoop(ResourceCleanupStrategy.ON_SESSION_CLOSE, true, 1L << 30, 5);
      r.stop();
      r.dump(file);
    }
    List<RecordedEvent> all = RecordingFile.readAllEvents(file);
    // The events' own defaults apply where the profile does not name them.
    assertEquals(5, named(all, "io.eagerflow.ScopeClosed").size());
    assertEquals(1, named(all, "io.eagerflow.SessionOpened").size());
    assertTrue(named(all, "io.eagerflow.OpExecution").isEmpty(), "off by default");
    Files.delete(file);
  }
}
