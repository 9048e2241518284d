package io.eagerflow.tfbench;

/**
 * A large heap of small live objects, as a server's caches make it: the seed loop runs beside it
 * to show what the collector's work on a big old generation does to each system's cleanup.
 */
public final class LiveHeap {
  private LiveHeap() {}

  /** A 64-byte object: a 12-byte header, 4 + 6 x 8 bytes of fields. */
  private record Small(int a, long b, long c, long d, long e, long f, long g) {}

  /**
   * About {@code mib} MiB of 64-byte objects held in arrays of a million each (68 bytes per object
   * with its reference): 2 GiB is about 32 million objects. Keep the result reachable.
   */
  public static Object[] build(int mib) {
    long count = ((long) mib << 20) / 68;
    int chunk = 1 << 20;
    Object[] chunks = new Object[(int) ((count + chunk - 1) / chunk)];
    long made = 0;
    for (int c = 0; c < chunks.length; c++) {
      Small[] a = new Small[(int) Math.min(chunk, count - made)];
      for (int i = 0; i < a.length; i++) {
        long v = made + i;
        a[i] = new Small(i, v, v, v, v, v, v);
      }
      made += a.length;
      chunks[c] = a;
    }
    return chunks;
  }
}
