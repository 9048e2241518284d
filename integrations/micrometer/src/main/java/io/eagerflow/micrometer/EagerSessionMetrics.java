package io.eagerflow.micrometer;

import io.eagerflow.EagerSession;
import io.eagerflow.SessionStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * One session's meters, on request: its {@link SessionStats} under the names of {@link
 * EagerflowMetrics} with {@code session} in front ({@code eagerflow.session.native.memory.live},
 * {@code eagerflow.session.tensors.freed} ...), tagged {@code session=<name>} plus the tags given.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>Name</th><th>Type</th><th>Base unit</th><th>{@link SessionStats} component</th></tr>
 *   <tr><td>{@code eagerflow.session.native.memory.live}</td><td>gauge</td><td>bytes</td>
 *       <td>{@code liveBytes}</td></tr>
 *   <tr><td>{@code eagerflow.session.native.memory.peak}</td><td>gauge</td><td>bytes</td>
 *       <td>{@code peakBytes}</td></tr>
 *   <tr><td>{@code eagerflow.session.tensors.live}</td><td>gauge</td><td>tensors</td>
 *       <td>{@code liveTensors}</td></tr>
 *   <tr><td>{@code eagerflow.session.tensors.created}</td><td>counter</td><td>tensors</td>
 *       <td>{@code createdTensors}</td></tr>
 *   <tr><td>{@code eagerflow.session.tensors.freed}</td><td>counter</td><td>tensors</td>
 *       <td>tagged {@code path}: {@code explicit} ({@code freedExplicitly}), {@code scope}
 *       ({@code freedByScope}), {@code cleanup} ({@code freedByCleanup}), {@code close}
 *       ({@code freedAtClose})</td></tr>
 *   <tr><td>{@code eagerflow.session.gc.requests}</td><td>counter</td><td>requests</td>
 *       <td>{@code gcRequests}</td></tr>
 * </table>
 *
 * <p><b>A bounded tag set.</b> Each name you monitor adds one series per meter, so names must come
 * from a small fixed set (a role such as {@code "inference"} or {@code "training"}), never from
 * requests or users. Monitoring a name again in the same registry (with the same tags) replaces the
 * meters of the session monitored under it before, so a service that opens a new session per job
 * under one name keeps one set of series; {@link #close()} removes them. The meters hold the
 * session weakly: after it closes they show its final counts, and once it is collected gauges read
 * NaN, as Micrometer's gauges of collected objects do.
 *
 * <pre>{@code
 * EagerSessionMetrics.monitor(registry, session, "inference");
 * }</pre>
 */
public final class EagerSessionMetrics implements MeterBinder, AutoCloseable {
  private static final String PREFIX = "eagerflow.session.";

  private final EagerSession session;
  private final Tags tags;
  private final List<Registered> registered = new ArrayList<>();

  /** A meter this binder registered, to remove on {@link #close()}. */
  private static final class Registered {
    final MeterRegistry registry;
    final Meter.Id id;

    Registered(MeterRegistry registry, Meter.Id id) {
      this.registry = registry;
      this.id = id;
    }
  }

  /**
   * Meters for {@code session}, tagged {@code session=name} and {@code tags}, once bound.
   *
   * @throws IllegalArgumentException if {@code name} is empty
   */
  public EagerSessionMetrics(EagerSession session, String name, Iterable<Tag> tags) {
    this.session = Objects.requireNonNull(session, "session");
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("the session's name (the tag session) is empty");
    }
    this.tags = Tags.of(Objects.requireNonNull(tags, "tags")).and("session", name);
  }

  /** Binds the meters of {@code session}, tagged {@code session=name}, to {@code registry}. */
  public static EagerSessionMetrics monitor(
      MeterRegistry registry, EagerSession session, String name, Iterable<Tag> tags) {
    EagerSessionMetrics metrics = new EagerSessionMetrics(session, name, tags);
    metrics.bindTo(registry);
    return metrics;
  }

  /** As {@link #monitor(MeterRegistry, EagerSession, String, Iterable)}, without more tags. */
  public static EagerSessionMetrics monitor(
      MeterRegistry registry, EagerSession session, String name) {
    return monitor(registry, session, name, Tags.empty());
  }

  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    removeEarlier(registry);
    gauge(
        registry,
        "native.memory.live",
        BaseUnits.BYTES,
        "Native memory held by the session's live tensors",
        SessionStats::liveBytes);
    gauge(
        registry,
        "native.memory.peak",
        BaseUnits.BYTES,
        "The most native memory the session's tensors have held at once",
        SessionStats::peakBytes);
    gauge(
        registry,
        "tensors.live",
        Units.TENSORS,
        "The session's live tensors",
        SessionStats::liveTensors);
    counter(
        registry,
        "tensors.created",
        Tags.empty(),
        Units.TENSORS,
        "Tensors the session created",
        SessionStats::createdTensors);
    String freed = "Tensors the session freed, by path: explicit, scope, cleanup, close";
    counter(
        registry,
        "tensors.freed",
        Tags.of("path", "explicit"),
        Units.TENSORS,
        freed,
        SessionStats::freedExplicitly);
    counter(
        registry,
        "tensors.freed",
        Tags.of("path", "scope"),
        Units.TENSORS,
        freed,
        SessionStats::freedByScope);
    counter(
        registry,
        "tensors.freed",
        Tags.of("path", "cleanup"),
        Units.TENSORS,
        freed,
        SessionStats::freedByCleanup);
    counter(
        registry,
        "tensors.freed",
        Tags.of("path", "close"),
        Units.TENSORS,
        freed,
        SessionStats::freedAtClose);
    counter(
        registry,
        "gc.requests",
        Tags.empty(),
        Units.REQUESTS,
        "Garbage collections the session requested for native memory pressure",
        SessionStats::gcRequests);
  }

  /** Removes these meters from every registry they were bound to. Idempotent. */
  @Override
  public synchronized void close() {
    for (Registered r : registered) {
      r.registry.remove(r.id);
    }
    registered.clear();
  }

  /** The meters an earlier session left under this name and these tags. */
  private void removeEarlier(MeterRegistry registry) {
    List<Meter> earlier = new ArrayList<>();
    for (Meter m : registry.getMeters()) {
      if (m.getId().getName().startsWith(PREFIX) && sameTags(m.getId())) {
        earlier.add(m);
      }
    }
    earlier.forEach(registry::remove);
  }

  /** Whether {@code id} has exactly these tags, besides {@code path}. */
  private boolean sameTags(Meter.Id id) {
    List<Tag> others = new ArrayList<>();
    for (Tag t : id.getTagsAsIterable()) {
      if (!t.getKey().equals("path")) {
        others.add(t);
      }
    }
    return Tags.of(others).equals(tags);
  }

  private void gauge(
      MeterRegistry registry,
      String name,
      String unit,
      String description,
      ToDoubleFunction<SessionStats> value) {
    Gauge g =
        Gauge.builder(PREFIX + name, session, s -> value.applyAsDouble(s.stats()))
            .baseUnit(unit)
            .tags(tags)
            .description(description)
            .register(registry);
    registered.add(new Registered(registry, g.getId()));
  }

  private void counter(
      MeterRegistry registry,
      String name,
      Tags extra,
      String unit,
      String description,
      ToDoubleFunction<SessionStats> count) {
    FunctionCounter c =
        FunctionCounter.builder(PREFIX + name, session, s -> count.applyAsDouble(s.stats()))
            .baseUnit(unit)
            .tags(tags.and(extra))
            .description(description)
            .register(registry);
    registered.add(new Registered(registry, c.getId()));
  }
}
