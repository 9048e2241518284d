package io.eagerflow.internal;

/** The process-wide native memory counters behind {@code NativeMemory}. */
public final class ProcessMemory {
  private ProcessMemory() {}

  /** The process's counters, laid out as {@code Wire.MEMORY_*} says. */
  public static long[] stats() {
    long[] out = new long[Wire.MEMORY_LENGTH];
    Native.memoryStats(out);
    return out;
  }

  /** Releases every idle pooled buffer; returns the bytes released. */
  public static long trimPool() {
    return Native.trimPool();
  }
}
