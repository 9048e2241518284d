package io.eagerflow.micrometer;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import io.eagerflow.EagerScope;
import io.eagerflow.EagerSession;
import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.NativeMemory;
import io.eagerflow.NativeMemoryExhaustedException;
import io.eagerflow.Operand;
import io.eagerflow.SessionStats;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import java.util.function.Consumer;

/**
 * A workload whose every count is known: in an {@code ON_SESSION_CLOSE} session, 2 constants of 1
 * KiB, one released, 2 tensors made in a scope, one left for close; a standalone tensor closed and
 * one dropped for the cleaner; one allocation over a session's limit.
 */
final class Workload {
  static final long CREATED = 2 + 2 + 1 + 1;
  static final long EXPLICIT = 1 + 1;
  static final long SCOPE = 2;
  static final long CLEANUP = 1;
  static final long CLOSE = 1;
  static final long EXHAUSTIONS = 1;
  static final long KIB = 1024;

  private Workload() {}

  /**
   * Runs it; {@code whileOpen} sees the session with its two constants live, before any is freed.
   *
   * @return the final stats of the session
   */
  static SessionStats run(Consumer<EagerSession> whileOpen) {
    SessionStats stats;
    EagerSession s =
        EagerSession.options()
            .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
            .build();
    try (s) {
      Ops tf = Ops.create(s);
      Operand<TFloat32> a = tf.constant(new float[256]);
      Operand<TFloat32> b = tf.constant(new float[256]);
      whileOpen.accept(s);
      s.release(a);
      try (EagerScope scope = s.newScope()) {
        tf.math.add(b, tf.constant(1f));
      }
    }
    stats = s.stats();
    TFloat32.vectorOf(1f, 2f, 3f).close();
    dropAStandaloneTensor();
    try (EagerSession small =
        EagerSession.options()
            .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
            .maxNativeBytes(KIB)
            .build()) {
      Ops tf = Ops.create(small);
      assertThrows(NativeMemoryExhaustedException.class, () -> tf.constant(new float[1024]));
    }
    return stats;
  }

  /** Drops a standalone tensor and waits (polling, with collections) for the cleaner to free it. */
  private static void dropAStandaloneTensor() {
    long freed = NativeMemory.freedByCleanup();
    TFloat32.vectorOf(4f);
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (NativeMemory.freedByCleanup() == freed) {
      if (System.nanoTime() > deadline) {
        fail("the cleaner did not free a dropped standalone tensor within 30 s");
      }
      System.gc();
      Thread.onSpinWait();
    }
  }
}
