package io.eagerflow.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.NativeMemoryExhaustedException;
import io.eagerflow.exceptions.TFInvalidArgumentException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The copy paths of the JNI boundary with shapes, offsets and lengths that claim sizes no buffer
 * has: each is refused before anything is copied or allocated, with exact counts afterwards; an
 * input list past the per-call bound is refused, and a large decoded one counts against the cap.
 */
class NativeCopyBoundsTest {
  private static final long CAP = 64L << 20;
  private long session;
  private final long[] stats = new long[Wire.STATS_LENGTH];

  @BeforeEach
  void open() {
    session = Native.newSession(CAP, 0, false);
  }

  @AfterEach
  void close() {
    Native.closeSession(session, stats);
    assertEquals(0, stats[0], "live tensors after close");
    assertEquals(0, stats[1], "live bytes after close");
  }

  private long liveBytes() {
    Native.stats(session, stats);
    return stats[1];
  }

  private long liveTensors() {
    Native.stats(session, stats);
    return stats[0];
  }

  @Test
  void shapesThatClaimHugeSizesAreRefused() {
    float[] four = new float[4];
    long[][] shapes = {
      {1L << 20, 1L << 21}, // 2^41 elements, a valid size, but not these four
      {1L << 40, 1L << 40}, // overflows
      {Long.MAX_VALUE, 2},
      {-1, -4},
    };
    for (long[] shape : shapes) {
      assertThrows(IllegalArgumentException.class, () -> Native.fromFloats(session, shape, four));
      assertThrows(
          IllegalArgumentException.class, () -> Native.fromBytes(session, shape, new byte[4]));
    }
    // Rank past TensorFlow's 254, even with the right number of elements.
    long[] ones = new long[255];
    java.util.Arrays.fill(ones, 1);
    assertThrows(
        IllegalArgumentException.class, () -> Native.fromFloats(session, ones, new float[1]));
    assertEquals(0, liveBytes());
    assertEquals(0, liveTensors());
    long h = Native.fromFloats(session, new long[] {2, 2}, four);
    assertEquals(16, liveBytes());
    assertTrue(h > 0);
  }

  @Test
  void offsetsAndLengthsPastTheEndAreRefusedBeforeCopying() {
    long h = Native.fromFloats(session, new long[] {4}, new float[] {1, 2, 3, 4});
    long[] offsets = {4, 3, -1, Long.MAX_VALUE, Long.MIN_VALUE, (1L << 62) + 1};
    for (long offset : offsets) {
      assertThrows(
          IndexOutOfBoundsException.class,
          () -> Native.writeFloats(session, h, offset, new float[2]),
          "write at " + offset);
      assertThrows(
          IndexOutOfBoundsException.class,
          () -> Native.readFloats(session, h, offset, new float[2]),
          "read at " + offset);
    }
    for (long at : new long[] {4, 5, -1, Long.MAX_VALUE, Long.MIN_VALUE}) {
      assertThrows(
          IndexOutOfBoundsException.class, () -> Native.getFloat(session, h, at), "get at " + at);
    }
    assertThrows(
        IndexOutOfBoundsException.class, () -> Native.writeFloats(session, h, 0, new float[5]));
    float[] back = new float[4];
    Native.readFloats(session, h, 0, back);
    assertArrayEquals(new float[] {1, 2, 3, 4}, back, "nothing was written");
    Native.writeFloats(session, h, 2, new float[] {7, 8});
    Native.readFloats(session, h, 0, back);
    assertArrayEquals(new float[] {1, 2, 7, 8}, back);
    assertEquals(16, liveBytes());
  }

  @Test
  void everyByteValueCrossesUnchanged() {
    byte[] all = new byte[256];
    for (int i = 0; i < 256; i++) {
      all[i] = (byte) i;
    }
    long h = Native.fromBytes(session, new long[] {256}, all);
    byte[] back = new byte[256];
    Native.readBytes(session, h, 0, back);
    assertArrayEquals(all, back);
    assertEquals((byte) 0xA5, Native.getByte(session, h, 0xA5));
    Native.writeBytes(session, h, 254, new byte[] {(byte) 0x80, 0x7f});
    byte[] tail = new byte[3];
    Native.readBytes(session, h, 253, tail);
    assertArrayEquals(new byte[] {(byte) 253, (byte) 0x80, 0x7f}, tail);
    boolean[] bits = {true, false, true};
    long b = Native.fromBooleans(session, new long[] {3}, bits);
    boolean[] bitsBack = new boolean[3];
    Native.readBooleans(session, b, 0, bitsBack);
    assertArrayEquals(bits, bitsBack);
    assertEquals(256 + 3, liveBytes());
  }

  /** More inputs than one call may name are refused before the array is decoded. */
  @Test
  void tooManyInputsAreRefusedBeforeDecoding() {
    long x = Native.fromFloats(session, new long[] {2}, new float[] {1, 2});
    long[] inputs = new long[16 << 20];
    java.util.Arrays.fill(inputs, x);
    int addN = Native.opIndex("AddN");
    TFInvalidArgumentException e =
        assertThrows(
            TFInvalidArgumentException.class,
            () -> Native.execute(session, addN, inputs, new int[] {inputs.length}, null));
    assertTrue(e.getMessage().contains(Integer.toString(16 << 20)), e.getMessage());
    assertTrue(e.getMessage().contains(Integer.toString(1 << 20)), e.getMessage());
    assertEquals(8, liveBytes());
    assertEquals(1, liveTensors());
    long[] sum = Native.execute(session, addN, new long[] {x, x, x}, new int[] {3}, null);
    float[] back = new float[2];
    Native.readFloats(session, sum[0], 0, back);
    assertArrayEquals(new float[] {3, 6}, back);
  }

  /**
   * The largest input list (8 MiB of handles decoded) counts against a 1 MiB cap while it lives.
   */
  @Test
  void aLargeDecodedArrayCountsAgainstTheCap() {
    long small = Native.newSession(1L << 20, 0, false);
    try {
      long x = Native.fromFloats(small, new long[] {2}, new float[] {1, 2});
      long[] inputs = new long[1 << 20];
      java.util.Arrays.fill(inputs, x);
      int addN = Native.opIndex("AddN");
      NativeMemoryExhaustedException e =
          assertThrows(
              NativeMemoryExhaustedException.class,
              () -> Native.execute(small, addN, inputs, new int[] {inputs.length}, null));
      assertTrue(e.getMessage().contains(Long.toString(1L << 20)), e.getMessage());
      long[] now = new long[Wire.STATS_LENGTH];
      Native.stats(small, now);
      assertEquals(1, now[Wire.STATS_LIVE_TENSORS]);
      assertEquals(8, now[Wire.STATS_LIVE_BYTES]);
    } finally {
      Native.closeSession(small, new long[Wire.STATS_LENGTH]);
    }
  }

  /** Freeing copies handles in chunks: any count, no allocation, exact counts. */
  @Test
  void freeManyTakesAnyNumberOfHandles() {
    long[] handles = new long[1500];
    for (int i = 0; i < handles.length; i++) {
      handles[i] = Native.fromFloats(session, new long[] {1}, new float[] {i});
    }
    assertEquals(1500, liveTensors());
    assertEquals(1000, Native.freeMany(session, handles, 1000, Wire.FREED_EXPLICITLY), "a count");
    assertEquals(
        500,
        Native.freeMany(session, handles, Integer.MAX_VALUE, Wire.FREED_EXPLICITLY),
        "a count past the array's end frees the rest");
    assertEquals(0, liveTensors());
    assertEquals(0, liveBytes());
    Native.stats(session, stats);
    assertEquals(1500, stats[4], "freed explicitly");
  }
}
