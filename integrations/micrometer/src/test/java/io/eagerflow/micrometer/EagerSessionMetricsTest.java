package io.eagerflow.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession;
import io.eagerflow.SessionStats;
import io.eagerflow.op.Ops;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** One session's meters against its {@link SessionStats}. */
class EagerSessionMetricsTest {

  private static double gauge(MeterRegistry r, String name, String session) {
    return r.get("eagerflow.session." + name).tag("session", session).gauge().value();
  }

  private static double counter(MeterRegistry r, String name, String session) {
    return r.get("eagerflow.session." + name).tag("session", session).functionCounter().count();
  }

  private static double freed(MeterRegistry r, String path, String session) {
    return r.get("eagerflow.session.tensors.freed")
        .tags("session", session, "path", path)
        .functionCounter()
        .count();
  }

  /** Every meter of {@code session} equals the matching component of {@code stats}. */
  private static void assertMeters(MeterRegistry r, String session, SessionStats stats) {
    assertEquals(stats.liveBytes(), gauge(r, "native.memory.live", session), stats::toString);
    assertEquals(stats.peakBytes(), gauge(r, "native.memory.peak", session), stats::toString);
    assertEquals(stats.liveTensors(), gauge(r, "tensors.live", session), stats::toString);
    assertEquals(stats.createdTensors(), counter(r, "tensors.created", session), stats::toString);
    assertEquals(stats.freedExplicitly(), freed(r, "explicit", session), stats::toString);
    assertEquals(stats.freedByScope(), freed(r, "scope", session), stats::toString);
    assertEquals(stats.freedByCleanup(), freed(r, "cleanup", session), stats::toString);
    assertEquals(stats.freedAtClose(), freed(r, "close", session), stats::toString);
    assertEquals(stats.gcRequests(), counter(r, "gc.requests", session), stats::toString);
  }

  @Test
  void theMetersAreTheSessionsStatsWhileOpenAndItsFinalCountsAfterClose() {
    MeterRegistry registry = new SimpleMeterRegistry();
    EagerSession[] session = new EagerSession[1];
    SessionStats last =
        Workload.run(
            s -> {
              session[0] = s;
              EagerSessionMetrics.monitor(registry, s, "workload");
              assertMeters(registry, "workload", s.stats());
              assertEquals(2, gauge(registry, "tensors.live", "workload"));
            });
    assertEquals(Workload.CLOSE, last.freedAtClose());
    assertEquals(1, last.freedExplicitly());
    assertEquals(Workload.SCOPE, last.freedByScope());
    assertMeters(registry, "workload", last);
    assertEquals(last, session[0].stats());
  }

  @Test
  void theTagSetIsTheNameThePathAndTheTagsGiven() {
    MeterRegistry registry = new SimpleMeterRegistry();
    try (EagerSession s = EagerSession.create()) {
      EagerSessionMetrics.monitor(registry, s, "inference", Tags.of("model", "ranker"));
      Set<Set<String>> keys = new HashSet<>();
      for (Meter m : registry.getMeters()) {
        Set<String> k = new HashSet<>();
        m.getId().getTags().forEach(t -> k.add(t.getKey()));
        keys.add(k);
        assertTrue(m.getId().getTags().contains(Tag.of("session", "inference")));
        assertTrue(m.getId().getTags().contains(Tag.of("model", "ranker")));
      }
      assertEquals(Set.of(Set.of("session", "model"), Set.of("session", "model", "path")), keys);
      assertEquals(9, registry.getMeters().size());
    }
  }

  @Test
  void monitoringANameAgainReplacesTheEarlierSessionsMeters() {
    MeterRegistry registry = new SimpleMeterRegistry();
    try (EagerSession first = EagerSession.create()) {
      EagerSessionMetrics.monitor(registry, first, "jobs");
      Ops.create(first).constant(new float[] {1f, 2f});
      assertEquals(1, gauge(registry, "tensors.live", "jobs"));
    }
    try (EagerSession second = EagerSession.create();
        EagerSession other = EagerSession.create()) {
      EagerSessionMetrics.monitor(registry, second, "jobs");
      EagerSessionMetrics.monitor(registry, other, "other");
      assertEquals(
          0, gauge(registry, "tensors.live", "jobs"), "the second session's, not the first's");
      Ops.create(second).constant(new float[] {1f, 2f, 3f});
      assertEquals(12, gauge(registry, "native.memory.live", "jobs"));
      assertEquals(18, registry.getMeters().size(), "two names, nine meters each");
    }
  }

  @Test
  void closeRemovesTheMeters() {
    MeterRegistry registry = new SimpleMeterRegistry();
    new EagerflowMetrics().bindTo(registry);
    int processWide = registry.getMeters().size();
    try (EagerSession s = EagerSession.create()) {
      EagerSessionMetrics metrics = EagerSessionMetrics.monitor(registry, s, "a");
      assertEquals(processWide + 9, registry.getMeters().size());
      metrics.close();
      metrics.close();
      assertEquals(processWide, registry.getMeters().size());
      assertTrue(registry.find("eagerflow.session.tensors.live").meters().isEmpty());
    }
  }

  @Test
  void badArgumentsSayWhich() {
    MeterRegistry registry = new SimpleMeterRegistry();
    try (EagerSession s = EagerSession.create()) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> EagerSessionMetrics.monitor(registry, s, ""));
      assertTrue(e.getMessage().contains("name"), e.getMessage());
      NullPointerException npe =
          assertThrows(
              NullPointerException.class,
              () -> EagerSessionMetrics.monitor(registry, null, "x", List.of()));
      assertEquals("session", npe.getMessage());
    }
  }
}
