package io.eagerflow.internal;

/** The process-wide native memory counters behind {@code NativeMemory}. */
public final class ProcessMemory {
  private ProcessMemory() {}

  /** Live bytes, peak bytes, live tensors and pooled bytes of the process, in that order. */
  public static long[] stats() {
    long[] out = new long[4];
    Native.memoryStats(out);
    return out;
  }

  /** Releases every idle pooled buffer; returns the bytes released. */
  public static long trimPool() {
    return Native.trimPool();
  }
}
