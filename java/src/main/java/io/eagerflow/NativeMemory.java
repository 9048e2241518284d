package io.eagerflow;

import io.eagerflow.internal.ProcessMemory;
import io.eagerflow.internal.Wire;

/**
 * Process-wide native memory: all sessions and standalone tensors together.
 *
 * <p>The tensor counts sum every session's {@link SessionStats} and the standalone tensors', since
 * the library was loaded: sessions closed long ago still count, so they never go down. At every
 * moment {@code createdTensors() == freedExplicitly() + freedByScope() + freedByCleanup() +
 * freedAtClose() + liveTensors()}, within one snapshot (each method reads its own, so two calls
 * made while other threads run ops may disagree by those ops). Counting them costs no op anything:
 * each session counts under the lock its table takes anyway, and these methods add the sessions up
 * when called.
 */
public final class NativeMemory {
  private NativeMemory() {}

  private static long read(int i) {
    return ProcessMemory.stats()[i];
  }

  /** Bytes held by live tensors' buffers. */
  public static long liveBytes() {
    return read(Wire.MEMORY_LIVE_BYTES);
  }

  /** The most {@link #liveBytes()} has been. */
  public static long peakBytes() {
    return read(Wire.MEMORY_PEAK_BYTES);
  }

  /** Tensors alive in every session and standalone. */
  public static long liveTensors() {
    return read(Wire.MEMORY_LIVE_TENSORS);
  }

  /**
   * Bytes of freed buffers kept for reuse. The pool is bounded, holds large buffers only, and gives
   * memory back on its own when a session comes near its {@code maxNativeBytes}; these bytes are
   * never part of {@link #liveBytes()}.
   */
  public static long pooledBytes() {
    return read(Wire.MEMORY_POOLED_BYTES);
  }

  /**
   * Sessions built and not closed yet, by {@link EagerSession#close()} or by the library's cleaner
   * after they became unreachable (the default session included once created).
   */
  public static long openSessions() {
    return read(Wire.MEMORY_OPEN_SESSIONS);
  }

  /** Tensors ever created, in every session (op outputs and constants) and standalone. */
  public static long createdTensors() {
    return read(Wire.MEMORY_CREATED_TENSORS);
  }

  /**
   * Tensors freed by {@link EagerSession#release} or by closing a standalone tensor: {@link
   * SessionStats#freedExplicitly()} over every session, plus the standalone tensors closed.
   */
  public static long freedExplicitly() {
    return read(Wire.MEMORY_FREED_EXPLICITLY);
  }

  /** Tensors freed when their {@link EagerScope} closed ({@link SessionStats#freedByScope()}). */
  public static long freedByScope() {
    return read(Wire.MEMORY_FREED_BY_SCOPE);
  }

  /**
   * Tensors freed once unreachable: by a session's cleanup strategy ({@link
   * SessionStats#freedByCleanup()}), and standalone tensors freed by the library's cleaner.
   */
  public static long freedByCleanup() {
    return read(Wire.MEMORY_FREED_BY_CLEANUP);
  }

  /** Tensors freed when their session closed ({@link SessionStats#freedAtClose()}). */
  public static long freedAtClose() {
    return read(Wire.MEMORY_FREED_AT_CLOSE);
  }

  /**
   * Garbage collections that sessions caused because of native memory pressure: {@link
   * SessionStats#gcRequests()} over every session.
   */
  public static long gcRequests() {
    return read(Wire.MEMORY_GC_REQUESTS);
  }

  /**
   * Times a {@link NativeMemoryExhaustedException} was thrown to a caller: after the session's one
   * collection and retry, if it tried. Each throw counts, so reading an asynchronous op's failed
   * output twice counts twice.
   */
  public static long limitExhaustions() {
    return read(Wire.MEMORY_LIMIT_EXHAUSTIONS);
  }

  /**
   * Releases the idle pooled buffers (see {@link #pooledBytes()}) to the allocator, which returns
   * large ones to the operating system. Live tensors are untouched; later allocations simply start
   * from fresh memory again.
   *
   * @return the bytes released
   */
  public static long trim() {
    return ProcessMemory.trimPool();
  }
}
