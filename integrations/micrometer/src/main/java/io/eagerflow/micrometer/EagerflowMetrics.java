package io.eagerflow.micrometer;

import io.eagerflow.NativeMemory;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Collections;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.ToDoubleFunction;

/**
 * The process-wide meters of eagerflow: native memory that the JVM's own memory meters cannot see,
 * tensors, sessions, and how tensors were freed. Every value comes from {@link NativeMemory} when
 * the registry reads it (one native call per meter read); nothing runs in between.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>Name</th><th>Type</th><th>Base unit</th><th>What</th></tr>
 *   <tr><td>{@code eagerflow.native.memory.live}</td><td>gauge</td><td>bytes</td>
 *       <td>held by live tensors ({@link NativeMemory#liveBytes()})</td></tr>
 *   <tr><td>{@code eagerflow.native.memory.peak}</td><td>gauge</td><td>bytes</td>
 *       <td>the most that has been live ({@link NativeMemory#peakBytes()})</td></tr>
 *   <tr><td>{@code eagerflow.native.memory.pooled}</td><td>gauge</td><td>bytes</td>
 *       <td>freed buffers kept for reuse ({@link NativeMemory#pooledBytes()})</td></tr>
 *   <tr><td>{@code eagerflow.tensors.live}</td><td>gauge</td><td>tensors</td>
 *       <td>tensors alive in every session and standalone</td></tr>
 *   <tr><td>{@code eagerflow.sessions.open}</td><td>gauge</td><td>sessions</td>
 *       <td>sessions built and not yet closed</td></tr>
 *   <tr><td>{@code eagerflow.tensors.created}</td><td>counter</td><td>tensors</td>
 *       <td>tensors ever created</td></tr>
 *   <tr><td>{@code eagerflow.tensors.freed}</td><td>counter</td><td>tensors</td>
 *       <td>tensors freed, tagged {@code path}: {@code explicit} (release, closing a standalone
 *       tensor), {@code scope}, {@code cleanup} (the cleanup strategy or the cleaner, once
 *       unreachable), {@code close} (when their session closed)</td></tr>
 *   <tr><td>{@code eagerflow.gc.requests}</td><td>counter</td><td>requests</td>
 *       <td>garbage collections sessions requested because of native memory pressure</td></tr>
 *   <tr><td>{@code eagerflow.native.memory.exhaustions}</td><td>counter</td>
 *       <td>exhaustions</td><td>{@code NativeMemoryExhaustedException}s thrown</td></tr>
 * </table>
 *
 * <p>At every moment {@code created = freed (all paths) + live tensors}. Gauges read static
 * suppliers and counters a static holder, so the meters work however long this binder is kept.
 *
 * <pre>{@code
 * new EagerflowMetrics().bindTo(registry);
 * }</pre>
 */
public class EagerflowMetrics implements MeterBinder {
  /** What the counters read through: held strongly here, so they never report NaN. */
  private static final Object PROCESS = new Object();

  private final Iterable<Tag> tags;

  /** The meters without extra tags. */
  public EagerflowMetrics() {
    this(Collections.emptyList());
  }

  /** The meters with {@code tags} added to each. */
  public EagerflowMetrics(Iterable<Tag> tags) {
    this.tags = Objects.requireNonNull(tags, "tags");
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    gauge("eagerflow.native.memory.live", BaseUnits.BYTES, NativeMemory::liveBytes)
        .description("Native memory held by live eagerflow tensors")
        .register(registry);
    gauge("eagerflow.native.memory.peak", BaseUnits.BYTES, NativeMemory::peakBytes)
        .description("The most native memory eagerflow tensors have held at once")
        .register(registry);
    gauge("eagerflow.native.memory.pooled", BaseUnits.BYTES, NativeMemory::pooledBytes)
        .description("Native memory of freed tensor buffers kept for reuse")
        .register(registry);
    gauge("eagerflow.tensors.live", Units.TENSORS, NativeMemory::liveTensors)
        .description("Live eagerflow tensors, in every session and standalone")
        .register(registry);
    gauge("eagerflow.sessions.open", BaseUnits.SESSIONS, NativeMemory::openSessions)
        .description("eagerflow sessions built and not closed yet")
        .register(registry);

    counter("eagerflow.tensors.created", Units.TENSORS, NativeMemory::createdTensors)
        .description("eagerflow tensors created")
        .register(registry);
    freed("explicit", NativeMemory::freedExplicitly, registry);
    freed("scope", NativeMemory::freedByScope, registry);
    freed("cleanup", NativeMemory::freedByCleanup, registry);
    freed("close", NativeMemory::freedAtClose, registry);
    counter("eagerflow.gc.requests", Units.REQUESTS, NativeMemory::gcRequests)
        .description("Garbage collections eagerflow sessions requested for native memory pressure")
        .register(registry);
    counter(
            "eagerflow.native.memory.exhaustions",
            Units.EXHAUSTIONS,
            NativeMemory::limitExhaustions)
        .description("NativeMemoryExhaustedExceptions thrown: a session's limit was reached")
        .register(registry);
  }

  private void freed(String path, LongSupplier count, MeterRegistry registry) {
    counter("eagerflow.tensors.freed", Units.TENSORS, count)
        .tag("path", path)
        .description("eagerflow tensors freed, by path: explicit, scope, cleanup, close")
        .register(registry);
  }

  private Gauge.Builder<?> gauge(String name, String unit, LongSupplier value) {
    return Gauge.builder(name, () -> value.getAsLong()).baseUnit(unit).tags(Tags.of(tags));
  }

  private FunctionCounter.Builder<Object> counter(String name, String unit, LongSupplier count) {
    ToDoubleFunction<Object> read = ignored -> count.getAsLong();
    return FunctionCounter.builder(name, PROCESS, read).baseUnit(unit).tags(Tags.of(tags));
  }
}
