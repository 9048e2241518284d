package io.eagerflow.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Every {@code native} method of {@link Native}, found by reflection (so natives added later are
 * covered), called with arguments a fuzzer chooses: {@link #everyNative} is a Jazzer fuzz target
 * ({@code gradle fuzz -Pfuzz.target=io.eagerflow.internal.NativeFuzzTest#everyNative}); in {@code
 * gradle test} it replays the committed inputs in {@code NativeFuzzTestInputs/everyNative}. See
 * {@link NativeCalls} for what an input chooses. Every call must return or throw one of the
 * exceptions {@link Native} documents; a crash, an {@link Error} or any other exception fails, as
 * does a session that holds anything after close, process bytes or tensors above what they were
 * before the input, or a session the input never sees whose counts changed. {@code TestHooks}
 * natives are left out: they panic and fail on purpose.
 */
class NativeFuzzTest {
  /** Calls one input may make. */
  private static final int MAX_CALLS = 48;

  private static final AtomicLong INPUTS = new AtomicLong();
  private static final AtomicLong CALLS = new AtomicLong();
  private static final Map<String, Integer> OUTCOMES = Collections.synchronizedMap(new TreeMap<>());

  /** A session no input sees; each input checks that it computes and counts as if alone. */
  private static long liveSession;

  private static long liveInput;
  private static long liveBytes;
  private static long liveChecks;

  @FuzzTest(maxDuration = "10m")
  void everyNative(FuzzedDataProvider data) throws Exception {
    int add = Native.opIndex("AddV2");
    synchronized (NativeFuzzTest.class) {
      if (liveSession == 0) {
        liveSession = Native.newSession(0, 0, false);
        liveInput = Native.fromFloats(liveSession, new long[] {2}, new float[] {1f, 2f});
        liveBytes = stats(liveSession)[Wire.STATS_LIVE_BYTES];
      }
    }
    long[] before = memory();
    NativeCalls calls = new NativeCalls(data);
    try {
      calls.openLimitedSession(false);
      calls.openLimitedSession(data.consumeBoolean());
      int n = 0;
      while (n < MAX_CALLS && data.remainingBytes() > 0) {
        calls.callOne();
        n++;
      }
      CALLS.addAndGet(n);
    } finally {
      for (long id : new ArrayList<>(calls.openSessions)) {
        calls.closeAndCheck(id);
      }
      for (long h : calls.standaloneCreated) {
        Native.free(0, h, Wire.FREED_EXPLICITLY);
      }
    }
    calls.outcomes.forEach((k, v) -> OUTCOMES.merge(k, v, Integer::sum));
    INPUTS.incrementAndGet();
    long[] after = memory();
    assertTrue(
        after[Wire.MEMORY_LIVE_TENSORS] <= before[Wire.MEMORY_LIVE_TENSORS]
            && after[Wire.MEMORY_LIVE_BYTES] <= before[Wire.MEMORY_LIVE_BYTES],
        "process tensors/bytes "
            + before[2]
            + "/"
            + before[0]
            + " -> "
            + after[2]
            + "/"
            + after[0]);

    // The session no input sees computes, and counts, exactly as if nothing else happened.
    long y = Native.execute2(liveSession, add, liveInput, liveInput);
    float[] out = new float[2];
    Native.readFloats(liveSession, y, 0, out);
    assertArrayEquals(new float[] {2f, 4f}, out);
    assertTrue(Native.free(liveSession, y, Wire.FREED_EXPLICITLY));
    liveChecks++;
    long[] live = stats(liveSession);
    assertEquals(1, live[Wire.STATS_LIVE_TENSORS], "live tensors");
    assertEquals(liveBytes, live[Wire.STATS_LIVE_BYTES], "live bytes");
    assertEquals(1 + liveChecks, live[Wire.STATS_CREATED_TENSORS], "created");
    assertEquals(liveChecks, live[Wire.STATS_FREED_EXPLICITLY], "freed explicitly");
  }

  @AfterAll
  static void report() {
    if (liveSession != 0) {
      long[] last = new long[Wire.STATS_LENGTH];
      Native.closeSession(liveSession, last);
      liveSession = 0;
      assertEquals(1, last[Wire.STATS_FREED_AT_CLOSE]);
    }
    System.out.println(
        "NativeFuzzTest: "
            + INPUTS.get()
            + " inputs, "
            + CALLS.get()
            + " calls to "
            + NativeCalls.NATIVES.size()
            + " natives; outcomes "
            + OUTCOMES);
  }

  @Test
  void copyTensorAndCloseWithMixedValidAndClosedIds() {
    long a = Native.newSession(0, 0, false);
    long b = Native.newSession(0, 0, false);
    long closed = Native.newSession(0, 0, false);
    long inClosed = Native.fromInts(closed, new long[] {1}, new int[] {7});
    Native.closeSession(closed, null);
    long ha = Native.fromInts(a, new long[] {2}, new int[] {1, 2});
    long standalone = Native.fromInts(0, new long[] {1}, new int[] {3});
    long forged = closed ^ NativeCalls.UNREACHED_GENERATION;
    long[] notSessions = {closed, forged, ha, -1, Long.MAX_VALUE, Long.MIN_VALUE};

    for (long bad : notSessions) {
      assertThrows(IllegalStateException.class, () -> Native.copyTensor(bad, a, ha));
      assertThrows(IllegalStateException.class, () -> Native.copyTensor(a, bad, ha));
      assertThrows(IllegalStateException.class, () -> Native.copyTensor(bad, bad, ha));
      assertThrows(IllegalStateException.class, () -> Native.copyTensor(bad, 0, standalone));
      assertThrows(
          IllegalStateException.class, () -> Native.closeSession(bad, new long[Wire.STATS_LENGTH]));
      assertThrows(
          IllegalStateException.class, () -> Native.stats(bad, new long[Wire.STATS_LENGTH]));
    }
    // A valid pair with a handle from the wrong session or a closed one.
    assertThrows(IllegalStateException.class, () -> Native.copyTensor(b, a, inClosed));
    assertThrows(IllegalStateException.class, () -> Native.copyTensor(b, closed, inClosed));
    assertThrows(IllegalStateException.class, () -> Native.copyTensor(a, b, ha));
    assertThrows(IllegalArgumentException.class, () -> Native.closeSession(0, null));

    long copied = Native.copyTensor(b, a, ha);
    long fromStandalone = Native.copyTensor(b, 0, standalone);
    long back = Native.copyTensor(0, b, copied);
    int[] out = new int[2];
    Native.readInts(b, copied, 0, out);
    assertArrayEquals(new int[] {1, 2}, out);
    assertEquals(3, Native.getInt(b, fromStandalone, 0));
    assertEquals(2, Native.getInt(0, back, 1));
    assertTrue(Native.free(0, back, Wire.FREED_EXPLICITLY));
    assertTrue(Native.free(0, standalone, Wire.FREED_EXPLICITLY));

    long[] sa = new long[Wire.STATS_LENGTH];
    long[] sb = new long[Wire.STATS_LENGTH];
    Native.closeSession(a, sa);
    // b is unaffected by a's close, and a's id is now refused everywhere.
    assertEquals(2, stats(b)[0]);
    assertThrows(IllegalStateException.class, () -> Native.copyTensor(b, a, ha));
    assertThrows(IllegalStateException.class, () -> Native.copyTensor(a, b, copied));
    assertThrows(IllegalStateException.class, () -> Native.closeSession(a, null));
    Native.closeSession(b, sb);
    assertArrayEquals(new long[] {0, 0, sa[2], 1, 0, 0, 1, 0, 0}, sa);
    assertArrayEquals(new long[] {0, 0, sb[2], 2, 0, 0, 2, 0, 0}, sb);
  }

  @Test
  void closingWhileOtherThreadsUseTheSessionIsSafeAndFinal() throws Exception {
    long[] before = new long[Wire.MEMORY_LENGTH];
    Native.memoryStats(before);
    long session = Native.newSession(0, 0, false);
    int add = Native.opIndex("AddV2");
    long x = Native.fromFloats(session, new long[] {4}, new float[] {1, 2, 3, 4});
    AtomicLong done = new AtomicLong();
    List<Throwable> unexpected = Collections.synchronizedList(new ArrayList<>());
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      Thread thread =
          new Thread(
              () -> {
                while (true) {
                  try {
                    long y = Native.execute2(session, add, x, x);
                    Native.getFloat(session, y, 3);
                    if (y % 2 == 0) {
                      Native.free(session, y, Wire.FREED_EXPLICITLY);
                    }
                    done.incrementAndGet();
                  } catch (IllegalStateException e) {
                    return; // closed under us: every later call fails the same way
                  } catch (Throwable e) {
                    unexpected.add(e);
                    return;
                  }
                }
              });
      threads.add(thread);
      thread.start();
    }
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (done.get() < 3_000 && unexpected.isEmpty()) {
      assertTrue(System.nanoTime() < deadline, "the callers made no progress");
      Thread.onSpinWait();
    }
    long[] last = new long[Wire.STATS_LENGTH];
    Native.closeSession(session, last);
    for (Thread t : threads) {
      t.join(60_000);
      assertTrue(!t.isAlive(), "a caller is stuck after close");
    }
    assertEquals(List.of(), unexpected);
    assertEquals(0, last[0], "live tensors at close");
    assertEquals(
        last[Wire.STATS_CREATED_TENSORS],
        last[Wire.STATS_FREED_EXPLICITLY]
            + last[Wire.STATS_FREED_BY_CLEANUP]
            + last[Wire.STATS_FREED_AT_CLOSE]
            + last[Wire.STATS_FREED_BY_SCOPE],
        "created = freed");
    assertThrows(
        IllegalStateException.class, () -> Native.stats(session, new long[Wire.STATS_LENGTH]));
    // Calls that raced with close held inputs and outputs for a moment (counted live in the
    // stats at close); once they returned, nothing of the session is left anywhere.
    long[] after = new long[Wire.MEMORY_LENGTH];
    Native.memoryStats(after);
    assertTrue(after[0] <= before[0], "live bytes " + before[0] + " -> " + after[0]);
    assertTrue(after[2] <= before[2], "live tensors " + before[2] + " -> " + after[2]);
  }

  private static long[] stats(long session) {
    long[] out = new long[Wire.STATS_LENGTH];
    Native.stats(session, out);
    return out;
  }

  private static long[] memory() {
    long[] out = new long[Wire.MEMORY_LENGTH];
    Native.memoryStats(out);
    return out;
  }
}
