package io.eagerflow.micrometer;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The names Prometheus users see (the scrape docs/observability.md shows). */
class PrometheusScrapeTest {

  @Test
  void theScrapeNamesEveryMeterInPrometheusConventions() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new EagerflowMetrics().bindTo(registry);
    Workload.run(s -> EagerSessionMetrics.monitor(registry, s, "workload"));
    String scrape = registry.scrape();
    for (String line :
        List.of(
            "# TYPE eagerflow_native_memory_live_bytes gauge",
            "# TYPE eagerflow_native_memory_peak_bytes gauge",
            "# TYPE eagerflow_native_memory_pooled_bytes gauge",
            "# TYPE eagerflow_tensors_live_tensors gauge",
            "# TYPE eagerflow_sessions_open_sessions gauge",
            "# TYPE eagerflow_tensors_created_tensors_total counter",
            "# TYPE eagerflow_tensors_freed_tensors_total counter",
            "# TYPE eagerflow_gc_requests_total counter",
            "# TYPE eagerflow_native_memory_exhaustions_total counter",
            "# TYPE eagerflow_session_native_memory_live_bytes gauge",
            "# TYPE eagerflow_session_tensors_freed_tensors_total counter",
            "eagerflow_session_tensors_created_tensors_total{session=\"workload\"} 4.0",
            "eagerflow_session_tensors_freed_tensors_total{path=\"scope\",session=\"workload\"}"
                + " 2.0",
            "eagerflow_session_tensors_freed_tensors_total{path=\"close\",session=\"workload\"}"
                + " 1.0",
            "eagerflow_session_native_memory_peak_bytes{session=\"workload\"} 2052.0")) {
      assertTrue(scrape.contains(line + "\n"), () -> "no line " + line + " in\n" + scrape);
    }
    assertTrue(
        scrape.matches("(?s).*\neagerflow_tensors_freed_tensors_total\\{path=\"cleanup\"} [1-9].*"),
        scrape);
  }
}
