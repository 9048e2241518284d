package io.eagerflow;

import io.eagerflow.internal.Native;

/** Process-wide native memory: all sessions and standalone tensors together. */
public final class NativeMemory {
  private NativeMemory() {}

  private static long read(int i) {
    long[] out = new long[4];
    Native.memoryStats(out);
    return out[i];
  }

  /** Bytes held by live tensors' buffers. */
  public static long liveBytes() {
    return read(0);
  }

  /** The most {@link #liveBytes()} has been. */
  public static long peakBytes() {
    return read(1);
  }

  /** Tensors alive in every session and standalone. */
  public static long liveTensors() {
    return read(2);
  }

  /** Bytes of freed buffers kept for reuse (the pool is bounded). */
  public static long pooledBytes() {
    return read(3);
  }
}
