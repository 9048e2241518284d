package io.eagerflow.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link Wire} reads every constant the library sends, under the same name and with the same value,
 * and the values mean what their names say when the natives use them.
 */
class WireTest {
  private static Map<String, String> lines() {
    Map<String, String> out = new TreeMap<>();
    for (String line : Native.wire().split("\n")) {
      int eq = line.indexOf('=');
      assertTrue(eq > 0, "malformed line '" + line + "'");
      assertEquals(null, out.put(line.substring(0, eq), line.substring(eq + 1)), line);
    }
    return out;
  }

  private static Map<String, String> fields() throws IllegalAccessException {
    Map<String, String> out = new TreeMap<>();
    for (Field f : Wire.class.getDeclaredFields()) {
      int m = f.getModifiers();
      if (Modifier.isPublic(m) && Modifier.isStatic(m) && Modifier.isFinal(m)) {
        out.put(f.getName(), String.valueOf(f.get(null)));
      }
    }
    return out;
  }

  @Test
  void everyLineIsReadUnderItsNameWithItsValue() throws IllegalAccessException {
    Map<String, String> lines = lines();
    assertFalse(lines.isEmpty());
    assertEquals(lines, fields(), "Wire's public fields against the library's lines");
    assertEquals(lines.keySet(), new TreeSet<>(Wire.namesRead()), "names the initializer read");
  }

  @Test
  void eachLayoutFillsItsArrayOnce() {
    int[] stats = {
      Wire.STATS_LIVE_TENSORS, Wire.STATS_LIVE_BYTES, Wire.STATS_PEAK_BYTES,
      Wire.STATS_CREATED_TENSORS, Wire.STATS_FREED_EXPLICITLY, Wire.STATS_FREED_BY_CLEANUP,
      Wire.STATS_FREED_AT_CLOSE, Wire.STATS_GC_REQUESTS, Wire.STATS_FREED_BY_SCOPE,
    };
    int[] memory = {
      Wire.MEMORY_LIVE_BYTES,
      Wire.MEMORY_PEAK_BYTES,
      Wire.MEMORY_LIVE_TENSORS,
      Wire.MEMORY_POOLED_BYTES,
      Wire.MEMORY_OPEN_SESSIONS,
      Wire.MEMORY_CREATED_TENSORS,
      Wire.MEMORY_FREED_EXPLICITLY,
      Wire.MEMORY_FREED_BY_SCOPE,
      Wire.MEMORY_FREED_BY_CLEANUP,
      Wire.MEMORY_FREED_AT_CLOSE,
      Wire.MEMORY_GC_REQUESTS,
      Wire.MEMORY_LIMIT_EXHAUSTIONS,
    };
    int[] kinds = {
      Wire.ATTR_INT, Wire.ATTR_INTS, Wire.ATTR_FLOAT, Wire.ATTR_FLOATS, Wire.ATTR_BOOL,
      Wire.ATTR_BOOLS, Wire.ATTR_TYPE, Wire.ATTR_SHAPE, Wire.ATTR_STRING, Wire.ATTR_TENSOR,
      Wire.ATTR_FOREIGN_TENSOR,
    };
    assertPermutation(stats, Wire.STATS_LENGTH);
    assertPermutation(memory, Wire.MEMORY_LENGTH);
    assertPermutation(kinds, kinds.length);
    assertPermutation(
        new int[] {Wire.FREED_EXPLICITLY, Wire.FREED_BY_CLEANUP, Wire.FREED_BY_SCOPE}, 3);
  }

  private static void assertPermutation(int[] values, int length) {
    int[] sorted = values.clone();
    Arrays.sort(sorted);
    for (int i = 0; i < length; i++) {
      assertEquals(i, sorted[i], Arrays.toString(values));
    }
    assertEquals(length, values.length);
  }

  @Test
  void limitsAreSane() {
    assertEquals(0, Wire.MIN_GC_TRIGGER_BYTES % (1 << 20), "a whole number of MiB");
    assertTrue(Wire.MIN_GC_TRIGGER_BYTES >= 1 << 20);
    assertTrue(Wire.HEADROOM_DIVISOR >= 2, "headroom is a fraction of the cap");
    assertFalse(Wire.CLOSED_MESSAGE.isBlank());
  }

  /** The stats positions and free reasons, as the natives use them. */
  @Test
  void statsCountWhereTheLayoutSays() {
    long session = Native.newSession(0, 0, false);
    long[] stats = new long[Wire.STATS_LENGTH];
    long[] shape = {2};
    long a = Native.fromFloats(session, shape, new float[2]);
    long b = Native.fromFloats(session, shape, new float[2]);
    Native.fromFloats(session, shape, new float[2]);
    long c = Native.fromFloats(session, shape, new float[2]);
    Native.stats(session, stats);
    assertEquals(4, stats[Wire.STATS_LIVE_TENSORS]);
    assertEquals(4, stats[Wire.STATS_CREATED_TENSORS]);
    assertEquals(32, stats[Wire.STATS_LIVE_BYTES]);
    assertEquals(32, stats[Wire.STATS_PEAK_BYTES]);
    long[] memory = new long[Wire.MEMORY_LENGTH];
    Native.memoryStats(memory);
    assertTrue(memory[Wire.MEMORY_LIVE_TENSORS] >= 4);
    assertTrue(memory[Wire.MEMORY_LIVE_BYTES] >= 32);
    assertTrue(memory[Wire.MEMORY_OPEN_SESSIONS] >= 1);
    assertTrue(memory[Wire.MEMORY_CREATED_TENSORS] >= 4);
    assertTrue(memory[Wire.MEMORY_PEAK_BYTES] >= memory[Wire.MEMORY_LIVE_BYTES]);
    assertTrue(Native.free(session, a, Wire.FREED_EXPLICITLY));
    assertTrue(Native.free(session, b, Wire.FREED_BY_CLEANUP));
    assertTrue(Native.free(session, c, Wire.FREED_BY_SCOPE));
    Native.closeSession(session, stats);
    assertEquals(1, stats[Wire.STATS_FREED_EXPLICITLY]);
    assertEquals(1, stats[Wire.STATS_FREED_BY_CLEANUP]);
    assertEquals(1, stats[Wire.STATS_FREED_BY_SCOPE]);
    assertEquals(1, stats[Wire.STATS_FREED_AT_CLOSE]);
    assertEquals(0, stats[Wire.STATS_LIVE_TENSORS]);
    assertEquals(0, stats[Wire.STATS_LIVE_BYTES]);
    assertEquals(32, stats[Wire.STATS_PEAK_BYTES]);
    assertEquals(0, stats[Wire.STATS_GC_REQUESTS]);
    IllegalStateException closed =
        assertThrows(IllegalStateException.class, () -> Native.closeSession(session, null));
    assertEquals(Wire.CLOSED_MESSAGE, closed.getMessage());
  }
}
