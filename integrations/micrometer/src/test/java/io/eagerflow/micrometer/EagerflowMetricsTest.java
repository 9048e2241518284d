package io.eagerflow.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.NativeMemory;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** The process-wide binder against {@link NativeMemory}, after a workload of known counts. */
class EagerflowMetricsTest {

  /** Every meter's value by name (and path tag), read now. */
  private static Map<String, Double> read(MeterRegistry registry) {
    Map<String, Double> values = new TreeMap<>();
    for (Meter m : registry.getMeters()) {
      String path = m.getId().getTag("path");
      String key = m.getId().getName() + (path == null ? "" : "{" + path + "}");
      double v =
          m instanceof Gauge g
              ? g.value()
              : m instanceof FunctionCounter c ? c.count() : Double.NaN;
      values.put(key, v);
    }
    return values;
  }

  /** What NativeMemory says now, under the meters' keys. */
  private static Map<String, Double> nativeMemory() {
    Map<String, Double> values = new TreeMap<>();
    Map<String, LongSupplier> sources =
        Map.ofEntries(
            Map.entry("eagerflow.native.memory.live", NativeMemory::liveBytes),
            Map.entry("eagerflow.native.memory.peak", NativeMemory::peakBytes),
            Map.entry("eagerflow.native.memory.pooled", NativeMemory::pooledBytes),
            Map.entry("eagerflow.tensors.live", NativeMemory::liveTensors),
            Map.entry("eagerflow.sessions.open", NativeMemory::openSessions),
            Map.entry("eagerflow.tensors.created", NativeMemory::createdTensors),
            Map.entry("eagerflow.tensors.freed{explicit}", NativeMemory::freedExplicitly),
            Map.entry("eagerflow.tensors.freed{scope}", NativeMemory::freedByScope),
            Map.entry("eagerflow.tensors.freed{cleanup}", NativeMemory::freedByCleanup),
            Map.entry("eagerflow.tensors.freed{close}", NativeMemory::freedAtClose),
            Map.entry("eagerflow.gc.requests", NativeMemory::gcRequests),
            Map.entry("eagerflow.native.memory.exhaustions", NativeMemory::limitExhaustions));
    sources.forEach((k, v) -> values.put(k, (double) v.getAsLong()));
    return values;
  }

  private static double delta(Map<String, Double> after, Map<String, Double> before, String k) {
    return after.get(k) - before.get(k);
  }

  @Test
  void theMetersAreNativeMemoryAndCountAKnownWorkload() {
    MeterRegistry registry = new SimpleMeterRegistry();
    new EagerflowMetrics().bindTo(registry);
    Map<String, Double> before = read(registry);
    assertEquals(nativeMemory(), before, "the meters read NativeMemory");

    double[] whileOpen = new double[3];
    Workload.run(
        s -> {
          Map<String, Double> now = read(registry);
          whileOpen[0] = delta(now, before, "eagerflow.sessions.open");
          whileOpen[1] = delta(now, before, "eagerflow.tensors.live");
          whileOpen[2] = delta(now, before, "eagerflow.native.memory.live");
        });
    assertEquals(1, whileOpen[0], "one session open");
    assertEquals(2, whileOpen[1], "two constants live");
    assertEquals(2 * Workload.KIB, whileOpen[2], "two KiB live");

    Map<String, Double> after = read(registry);
    assertEquals(nativeMemory(), after, "the meters read NativeMemory");
    assertEquals(Workload.CREATED, delta(after, before, "eagerflow.tensors.created"));
    assertEquals(Workload.EXPLICIT, delta(after, before, "eagerflow.tensors.freed{explicit}"));
    assertEquals(Workload.SCOPE, delta(after, before, "eagerflow.tensors.freed{scope}"));
    assertEquals(Workload.CLEANUP, delta(after, before, "eagerflow.tensors.freed{cleanup}"));
    assertEquals(Workload.CLOSE, delta(after, before, "eagerflow.tensors.freed{close}"));
    assertEquals(Workload.EXHAUSTIONS, delta(after, before, "eagerflow.native.memory.exhaustions"));
    assertEquals(0, delta(after, before, "eagerflow.sessions.open"));
    assertEquals(0, delta(after, before, "eagerflow.tensors.live"));
    assertEquals(0, delta(after, before, "eagerflow.native.memory.live"));
    assertTrue(after.get("eagerflow.native.memory.peak") >= 2 * Workload.KIB);
    double freed =
        after.get("eagerflow.tensors.freed{explicit}")
            + after.get("eagerflow.tensors.freed{scope}")
            + after.get("eagerflow.tensors.freed{cleanup}")
            + after.get("eagerflow.tensors.freed{close}");
    assertEquals(
        after.get("eagerflow.tensors.created"),
        freed + after.get("eagerflow.tensors.live"),
        "created = freed + live: " + after);
  }

  @Test
  void gaugesAndCountersInMicrometersConventions() {
    MeterRegistry registry = new SimpleMeterRegistry();
    new EagerflowMetrics().bindTo(registry);
    assertEquals(12, registry.getMeters().size(), () -> read(registry).toString());
    for (String bytes :
        List.of(
            "eagerflow.native.memory.live",
            "eagerflow.native.memory.peak",
            "eagerflow.native.memory.pooled")) {
      Gauge g = registry.get(bytes).gauge();
      assertEquals("bytes", g.getId().getBaseUnit(), bytes);
    }
    assertEquals("tensors", registry.get("eagerflow.tensors.live").gauge().getId().getBaseUnit());
    assertEquals("sessions", registry.get("eagerflow.sessions.open").gauge().getId().getBaseUnit());
    assertEquals(4, registry.get("eagerflow.tensors.freed").functionCounters().size());
    registry.get("eagerflow.tensors.created").functionCounter();
    registry.get("eagerflow.gc.requests").functionCounter();
    registry.get("eagerflow.native.memory.exhaustions").functionCounter();
    for (Meter m : registry.getMeters()) {
      assertFalse(m.getId().getDescription() == null, m.getId().toString());
    }
  }

  @Test
  void theTagsGivenGoOnEveryMeter() {
    MeterRegistry registry = new SimpleMeterRegistry();
    new EagerflowMetrics(Tags.of("service", "ranker")).bindTo(registry);
    for (Meter m : registry.getMeters()) {
      assertTrue(m.getId().getTags().contains(Tag.of("service", "ranker")), m.getId().toString());
    }
  }

  @Test
  void theMetersKeepWorkingWhenTheBinderIsNotKept() {
    MeterRegistry registry = new SimpleMeterRegistry();
    new EagerflowMetrics().bindTo(registry);
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    assertEquals(nativeMemory(), read(registry));
    assertFalse(Double.isNaN(registry.get("eagerflow.tensors.created").functionCounter().count()));
  }
}
