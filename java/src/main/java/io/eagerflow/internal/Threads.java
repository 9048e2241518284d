package io.eagerflow.internal;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/** The library's own threads: a session's cleanup thread and an async session's executor. */
final class Threads {
  private static final AtomicInteger EXECUTOR_IDS = new AtomicInteger();
  private static final System.Logger LOG = System.getLogger("io.eagerflow");

  private Threads() {}

  /** Starts a daemon thread named {@code name} running {@code body}. */
  static Thread startDaemon(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  /**
   * Starts the daemon thread that runs an asynchronous session's queued ops until it closes. It
   * holds the session's id and its relief (which holds the {@link NativeSession}), never the {@code
   * EagerSession}; the Rust side holds the executor, never the session.
   */
  static Thread startExecutor(long sessionId, Relief relief) {
    BooleanSupplier relieve = relief::relieveForQueuedOp;
    return startDaemon(
        "eagerflow-exec-" + EXECUTOR_IDS.incrementAndGet(), () -> runExecutor(sessionId, relieve));
  }

  private static void runExecutor(long sessionId, BooleanSupplier relieve) {
    try {
      Native.runExecutor(sessionId, relieve);
    } catch (IllegalStateException e) {
      // The session closed before this thread started: there is nothing to run.
    } catch (Throwable t) {
      Flight.log(
          LOG,
          System.Logger.Level.ERROR,
          Flight.Kind.EXECUTOR_FAILED,
          "eagerflow executor failed",
          t);
    }
  }

  /** Joins {@code t} (unless null or this thread), keeping an interrupt for later. */
  static void join(Thread t) {
    if (t == null || t == Thread.currentThread()) {
      return;
    }
    boolean interrupted = false;
    while (t.isAlive()) {
      try {
        t.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
