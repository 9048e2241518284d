package io.eagerflow.internal;

import java.lang.ref.ReferenceQueue;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The JVM's floor under tracked outputs ({@code IN_BACKGROUND}), with no native call: per op an
 * owner object and a phantom reference to it, held in the session's {@link TrackedSet} until a
 * thread takes it off the reference queue after the collector found the owner unreachable. What
 * {@code ScalarAddBenchmark.add} costs above this and {@link ScalarAddFloorBenchmark} is the rest
 * of the library's per-op work.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 8, time = 1)
public class TrackingFloorBenchmark {
  private ReferenceQueue<Object> queue;
  private TrackedSet tracked;
  private Thread drainer;

  @Setup(Level.Iteration)
  public void start() {
    queue = new ReferenceQueue<>();
    tracked = new TrackedSet();
    ReferenceQueue<Object> q = queue;
    TrackedSet set = tracked;
    drainer =
        new Thread(
            () -> {
              try {
                while (true) {
                  set.remove((Tracking.Tracked) q.remove());
                }
              } catch (InterruptedException e) {
                // the iteration is over
              }
            });
    drainer.setDaemon(true);
    drainer.start();
  }

  @TearDown(Level.Iteration)
  public void stop() throws InterruptedException {
    drainer.interrupt();
    drainer.join();
  }

  /** An owner and its phantom reference, added to the set; the drain thread removes it. */
  @Benchmark
  public Object track() {
    Object owner = new Object();
    Tracking.Tracked t = new Tracking.Tracked(owner, queue, 1, null, null);
    tracked.add(t);
    return owner;
  }

  /** The owner alone: what allocating an object per op costs without a reference to it. */
  @Benchmark
  public Object ownerOnly() {
    return new Object();
  }
}
