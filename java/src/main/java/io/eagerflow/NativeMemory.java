package io.eagerflow;

import io.eagerflow.internal.ProcessMemory;
import io.eagerflow.internal.Wire;

/** Process-wide native memory: all sessions and standalone tensors together. */
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
