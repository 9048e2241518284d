package io.eagerflow;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.eagerflow.EagerSession.DevicePlacementPolicy;
import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import java.util.ArrayList;
import java.util.List;

/**
 * Jazzer fuzz target: sessions built with every {@link EagerSession.Options} setter called with
 * whatever the input says, in any order and any number of times ({@code async}, {@code
 * asyncQueueCapacity} over all of {@code int}, {@code maxNativeBytes} and {@code gcTriggerBytes}
 * over all of {@code long}, {@code maxGcTimeShare} over all of {@code double} with NaN, infinities,
 * 0, 1 and their neighbours, {@code trackLeaks}, both enums and null), then used: a workload of
 * small ops (whose size the input picks, never a large allocation), a scope, a release, sometimes a
 * sync, and closed, sometimes with ops still queued. A setter or {@code build()} may refuse a value
 * only with a documented exception naming it; a session built must compute the right values or
 * refuse with a documented exception (its limit), and hold nothing after close; the process's
 * tensors and bytes return to what they were.
 *
 * <p>{@code gradle fuzz -Pfuzz.target=io.eagerflow.SessionOptionsFuzzTest#sessionOptions}.
 */
class SessionOptionsFuzzTest {
  @FuzzTest(maxDuration = "10m")
  void sessionOptions(FuzzedDataProvider data) {
    FuzzInput in = new FuzzInput(data);
    long bytes = NativeMemory.liveBytes();
    long tensors = NativeMemory.liveTensors();
    EagerSession.Options options = EagerSession.options();
    List<String> set = new ArrayList<>();
    for (int n = in.between(0, 12); n > 0; n--) {
      String what = "?";
      try {
        switch (in.between(0, 7)) {
          case 0 -> {
            boolean v = in.bool();
            what = "async(" + v + ")";
            options.async(v);
          }
          case 1 -> {
            int v =
                in.bool()
                    ? in.between(1, EagerSession.Options.MAX_ASYNC_QUEUE_CAPACITY)
                    : in.anyInt();
            what = "asyncQueueCapacity(" + v + ")";
            options.asyncQueueCapacity(v);
          }
          case 2 -> {
            DevicePlacementPolicy v =
                in.between(0, 7) == 0 ? null : in.of(DevicePlacementPolicy.values());
            what = "devicePlacementPolicy(" + v + ")";
            options.devicePlacementPolicy(v);
          }
          case 3 -> {
            ResourceCleanupStrategy v =
                in.between(0, 7) == 0 ? null : in.of(ResourceCleanupStrategy.values());
            what = "resourceCleanupStrategy(" + v + ")";
            options.resourceCleanupStrategy(v);
          }
          case 4 -> {
            long v = in.anyLong();
            what = "maxNativeBytes(" + v + ")";
            options.maxNativeBytes(v);
          }
          case 5 -> {
            long v = in.anyLong();
            what = "gcTriggerBytes(" + v + ")";
            options.gcTriggerBytes(v);
          }
          case 6 -> {
            double v = in.anyDouble();
            what = "maxGcTimeShare(" + v + ")";
            options.maxGcTimeShare(v);
          }
          default -> {
            boolean v = in.bool();
            what = "trackLeaks(" + v + ")";
            options.trackLeaks(v);
          }
        }
        set.add(what);
      } catch (RuntimeException e) {
        FuzzInput.requireDocumented(e, what);
        if (!e.getMessage().contains(what.substring(0, what.indexOf('(')))
            && !(e instanceof NullPointerException)) {
          throw new AssertionError("the refusal of " + what + " does not name it", e);
        }
      }
    }
    EagerSession s;
    try {
      s = options.build();
    } catch (RuntimeException e) {
      FuzzInput.requireDocumented(e, "build() after " + set);
      return;
    }
    try {
      workload(in, s, set);
    } finally {
      s.close();
    }
    SessionStats last = s.stats();
    if (last.liveTensors() != 0 || last.liveBytes() != 0) {
      throw new AssertionError("live after close: " + last + " with " + set);
    }
    if (NativeMemory.liveBytes() > bytes || NativeMemory.liveTensors() > tensors) {
      throw new AssertionError(
          "process bytes " + bytes + " -> " + NativeMemory.liveBytes() + " with " + set);
    }
  }

  /** Small ops whose results are known; the session's limit may refuse some. */
  private static void workload(FuzzInput in, EagerSession s, List<String> set) {
    Ops tf = Ops.create(s);
    int n = in.between(1, 64);
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = i;
    }
    try {
      Operand<TFloat32> x = tf.constant(values);
      Operand<TFloat32> y = x;
      int steps = in.between(0, 32);
      for (int i = 0; i < steps; i++) {
        y = tf.math.neg(y);
      }
      try (EagerScope scope = s.newScope()) {
        Operand<TFloat32> sum = scope.keep(tf.reduceSum(tf.math.add(y, x), tf.constant(0)));
        float expected = steps % 2 == 0 ? (float) n * (n - 1) : 0f;
        if (in.bool()) {
          s.sync();
        }
        if (in.between(0, 3) > 0) {
          float got = sum.asTensor().getFloat();
          if (got != expected) {
            throw new AssertionError("sum " + got + " != " + expected + " with " + set);
          }
        }
        s.release(sum);
      }
      for (int i = in.between(0, 200); i > 0; i--) {
        tf.math.neg(x); // left queued, or for the cleanup strategy, when the session closes
      }
    } catch (RuntimeException e) {
      FuzzInput.requireDocumented(e, "the workload with " + set);
      if (!(e instanceof NativeMemoryExhaustedException)) {
        throw new AssertionError("small ops failed with " + set, e);
      }
    }
  }
}
