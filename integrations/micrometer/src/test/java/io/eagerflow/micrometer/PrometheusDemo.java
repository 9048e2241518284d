package io.eagerflow.micrometer;

import io.eagerflow.EagerScope;
import io.eagerflow.EagerSession;
import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.NativeMemoryExhaustedException;
import io.eagerflow.Operand;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Locale;
import org.tensorflow.ndarray.Shape;

/**
 * The seed loop ({@code gradle demo}'s: 3 ops per iteration on 1 MiB tensors, nothing released by
 * hand) once per cleanup strategy and once with a scope per iteration, each session monitored under
 * its strategy's name, then the Prometheus scrape of eagerflow's meters: {@code gradle
 * :eagerflow-micrometer:prometheusDemo [-Pdemo.iterations=500]}. docs/observability.md shows its
 * output.
 */
public final class PrometheusDemo {
  private PrometheusDemo() {}

  public static void main(String[] args) {
    int iterations = Integer.getInteger("demo.iterations", 500);
    int floats = 1 << 18;
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new EagerflowMetrics().bindTo(registry);
    for (ResourceCleanupStrategy strategy : ResourceCleanupStrategy.values()) {
      loop(registry, strategy, false, iterations, floats);
    }
    loop(registry, ResourceCleanupStrategy.IN_BACKGROUND, true, iterations, floats);
    for (String line : registry.scrape().split("\n")) {
      if (line.contains("eagerflow")) {
        System.out.println(line);
      }
    }
  }

  private static void loop(
      PrometheusMeterRegistry registry,
      ResourceCleanupStrategy strategy,
      boolean scoped,
      int iterations,
      int floats) {
    String name = scoped ? "scoped" : strategy.name().toLowerCase(Locale.ROOT);
    try (EagerSession session =
        EagerSession.options()
            .resourceCleanupStrategy(strategy)
            .maxNativeBytes(256L << 20)
            .build()) {
      EagerSessionMetrics.monitor(registry, session, name);
      Ops tf = Ops.create(session);
      Operand<TFloat32> x = tf.constant(Shape.of(floats), new float[floats]);
      Operand<TFloat32> one = tf.constant(1f);
      try {
        for (int i = 0; i < iterations; i++) {
          try (EagerScope scope = scoped ? session.newScope() : null) {
            tf.math.add(tf.math.mul(tf.math.add(x, one), x), one);
          }
        }
      } catch (NativeMemoryExhaustedException e) {
        System.err.println(name + ": " + e.getMessage().lines().findFirst().orElse(""));
      }
    }
  }
}
