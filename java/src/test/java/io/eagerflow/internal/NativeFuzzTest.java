package io.eagerflow.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.NativeMemoryExhaustedException;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Calls every {@code native} method of {@link Native}, found by reflection (so natives added later
 * are covered), thousands of times with closed, stale, forged and random session ids, random
 * handles and edge values (null, empty and short arrays, negative and huge offsets, lengths and
 * counts). Every call must return or throw one of the exceptions {@link Native} documents; a crash,
 * an {@link Error} or any other exception fails. A session the fuzzer never sees is used alongside
 * and must keep exact counts. {@code TestHooks} natives are left out: they panic and fail on
 * purpose.
 *
 * <p>Seeded: {@code -Deagerflow.fuzz.seed=N} and {@code -Deagerflow.fuzz.calls=N} replay or
 * lengthen a run. Tensor data stays small (element values -2 to 4), so no op the fuzzer happens to
 * build can ask for a huge output; limits, shapes and offsets take any value.
 */
class NativeFuzzTest {
  private static final long SEED = Long.getLong("eagerflow.fuzz.seed", 0x5e551_0_1dL);
  private static final int CALLS = Integer.getInteger("eagerflow.fuzz.calls", 20_000);

  private static final List<Class<? extends RuntimeException>> DOCUMENTED =
      List.of(
          IllegalArgumentException.class,
          IllegalStateException.class,
          IndexOutOfBoundsException.class,
          NullPointerException.class,
          UnsupportedOperationException.class,
          NativeMemoryExhaustedException.class);

  /** Natives that return new tensor handles (besides {@code from*}). */
  private static final Set<String> CREATORS =
      Set.of("execute", "execute1", "execute2", "executeWithScalar", "copyTensor");

  private static final String[] STRINGS = {
    null, "", "AddV2", "MatMul", "Sum", "Fill", "Tile", "NoSuchOp", "axis", "T", "\0", "Ç€😀"
  };

  /** Ops the fuzzer runs by index half the time (any index the other half). */
  private static final String[] OPS = {
    "AddV2",
    "Neg",
    "Identity",
    "Sum",
    "Fill",
    "Reshape",
    "MatMul",
    "Cast",
    "Tile",
    "Range",
    "Shape",
    "ConcatV2",
    "Pack",
    "Unpack",
    "Split",
    "Squeeze",
    "StridedSlice",
    "Softmax",
    "OneHot"
  };

  private static final String[] TYPES = {"Float", "Double", "Int", "Long", "Byte", "Boolean"};

  private static final float[] FLOATS = {
    -2f, -1f, -0f, 0f, 0.5f, 1f, 2f, 4f, Float.NaN, Float.POSITIVE_INFINITY, Float.MIN_VALUE
  };

  /** The tag of session ids in bits 56 to 62 (src/handles.rs). */
  private static final long SESSION_TAG = 127;

  /** A generation bit (bit 23 of 24) that no slot reaches in a test run. */
  private static final long UNREACHED_GENERATION = 1L << 55;

  private final Random rnd = new Random(SEED);
  private final List<Integer> opIndices = new ArrayList<>();

  // The fuzzer's own sessions (open and closed), and every value it saw that may be a handle.
  private final List<Long> openSessions = new ArrayList<>();
  private final List<Long> closedSessions = new ArrayList<>();
  private final List<Long> handles = new ArrayList<>();
  private final Set<Long> standaloneCreated = new LinkedHashSet<>();
  private final Map<Long, List<Long>> handlesBySession = new HashMap<>();
  // {session, handle} of tensors made by from<Type>s, by element type ("Float", "Int", ...).
  private final Map<String, List<long[]>> tensorsByType = new HashMap<>();

  // The session only the checker uses; the fuzzer never gets its id.
  private long liveSession;

  @Test
  void everyNativeSurvivesForgedIdsAndEdgeArguments() throws Exception {
    List<Method> natives = natives();
    assertTrue(natives.size() > 30, "found only " + natives.size() + " natives");
    Set<String> called = new HashSet<>();
    Map<String, Integer> outcomes = new TreeMap<>();

    for (String op : OPS) {
      opIndices.add(Native.opIndex(op));
    }
    liveSession = Native.newSession(0, 0, false);
    int add = Native.opIndex("AddV2");
    long x = Native.fromFloats(liveSession, new long[] {2}, new float[] {1f, 2f});
    handles.add(x);
    long liveBytes = stats(liveSession)[1];
    long[] standaloneBefore = stats(0);
    long checks = 0;

    for (int i = 0; i < 3; i++) {
      openSessions.add(Native.newSession(1 << 20, 0, rnd.nextBoolean()));
    }
    closeFuzzSession(openSessions.get(0));

    for (int call = 0; call < CALLS; call++) {
      Method m = natives.get(rnd.nextInt(natives.size()));
      Object[] args = arguments(m);
      String outcome = invoke(m, args);
      called.add(m.getName());
      outcomes.merge(outcome, 1, Integer::sum);
      if (openSessions.size() < 3) {
        openSessions.add(Native.newSession(1 << 20, 0, rnd.nextBoolean()));
      }
      if (call % 50 == 0) {
        // The live session computes, and counts, exactly as if nothing else happened.
        long y = Native.execute2(liveSession, add, x, x);
        float[] out = new float[2];
        Native.readFloats(liveSession, y, 0, out);
        assertArrayEquals(new float[] {2f, 4f}, out);
        assertTrue(Native.free(liveSession, y, Wire.FREED_EXPLICITLY));
        checks++;
      }
    }

    for (long id : new ArrayList<>(openSessions)) {
      closeFuzzSession(id);
    }
    for (long h : standaloneCreated) {
      Native.free(0, h, Wire.FREED_EXPLICITLY);
      assertThrows(IllegalStateException.class, () -> Native.describe(0, h, true));
    }
    long[] standaloneAfter = stats(0);
    assertEquals(
        standaloneCreated.size(),
        standaloneAfter[3] - standaloneBefore[3],
        "every standalone tensor the fuzzer made reached Java as a handle");

    long[] live = stats(liveSession);
    assertEquals(1, live[0], "live tensors");
    assertEquals(liveBytes, live[1], "live bytes");
    assertEquals(1 + checks, live[3], "created");
    assertEquals(checks, live[4], "freed explicitly");
    assertEquals(
        0,
        live[5] + live[6] + live[Wire.STATS_FREED_BY_SCOPE],
        "freed by cleanup, at close or by a scope");
    long[] last = new long[Wire.STATS_LENGTH];
    Native.closeSession(liveSession, last);
    assertEquals(1, last[6]);

    Set<String> missing = new LinkedHashSet<>();
    natives.forEach(m -> missing.add(m.getName()));
    missing.removeAll(called);
    assertTrue(missing.isEmpty(), "never called: " + missing);
    System.out.println(
        "NativeFuzzTest: "
            + CALLS
            + " calls to "
            + natives.size()
            + " natives (seed "
            + SEED
            + "), "
            + checks
            + " checks of the live session; outcomes "
            + outcomes);
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
    long forged = closed ^ UNREACHED_GENERATION;
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
        last[3], last[4] + last[5] + last[6] + last[Wire.STATS_FREED_BY_SCOPE], "created = freed");
    assertThrows(
        IllegalStateException.class, () -> Native.stats(session, new long[Wire.STATS_LENGTH]));
    // Calls that raced with close held inputs and outputs for a moment (counted live in the
    // stats at close); once they returned, nothing of the session is left anywhere.
    long[] after = new long[Wire.MEMORY_LENGTH];
    Native.memoryStats(after);
    assertTrue(after[0] <= before[0], "live bytes " + before[0] + " -> " + after[0]);
    assertTrue(after[2] <= before[2], "live tensors " + before[2] + " -> " + after[2]);
  }

  private static List<Method> natives() {
    List<Method> natives = new ArrayList<>();
    for (Method m : Native.class.getDeclaredMethods()) {
      // runExecutor blocks until its session closes, and an asynchronous session's reads wait for
      // that executor: AsyncSessionTest drives both through EagerSession.
      if (Modifier.isNative(m.getModifiers())
          && !m.getName().equals("runExecutor")
          && !m.getName().equals("newAsyncSession")) {
        m.setAccessible(true);
        natives.add(m);
      }
    }
    natives.sort(Comparator.comparing(Method::toString));
    return natives;
  }

  /** Calls {@code m}; returns the outcome's name, or fails on anything undocumented. */
  private String invoke(Method m, Object[] args) throws IllegalAccessException {
    try {
      record(m, args, m.invoke(null, args));
      return "returned";
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      for (Class<? extends RuntimeException> c : DOCUMENTED) {
        if (c.isInstance(cause)) {
          return cause.getClass().getSimpleName();
        }
      }
      throw new AssertionError(
          m.getName() + describe(args) + " threw an undocumented " + cause, cause);
    } finally {
      if (m.getName().equals("closeSession")) {
        // Closed even if writing the stats failed afterwards (a short array).
        long id = (Long) args[0];
        if (openSessions.contains(id) && !isOpen(id)) {
          openSessions.remove(id);
          closedSessions.add(id);
        }
      }
    }
  }

  private static boolean isOpen(long id) {
    try {
      stats(id);
      return true;
    } catch (IllegalStateException e) {
      return false;
    }
  }

  /** Keeps what a call made, so later calls can use it and cleanup can free it. */
  private void record(Method m, Object[] args, Object result) {
    String name = m.getName();
    if (name.equals("newSession")) {
      openSessions.add((Long) result);
    } else if (name.equals("free") && Boolean.TRUE.equals(result)) {
      // Keep the pools mostly live, so that later calls get past the handle checks.
      handlesBySession.getOrDefault((Long) args[0], new ArrayList<>()).remove(args[1]);
      long session = (Long) args[0];
      long h = (Long) args[1];
      tensorsByType.values().forEach(l -> l.removeIf(t -> t[0] == session && t[1] == h));
    } else if (CREATORS.contains(name) || name.startsWith("from")) {
      if (name.startsWith("from")) {
        long h = (Long) result;
        tensorsByType
            .computeIfAbsent(elementType(name), k -> new ArrayList<>())
            .add(new long[] {(Long) args[0], h < 0 ? ~h : h});
      }
      long[] made = result instanceof long[] ? (long[]) result : new long[] {(Long) result};
      for (long h : made) {
        h = h < 0 ? ~h : h; // the memory-pressure signal
        handles.add(h);
        handlesBySession.computeIfAbsent((Long) args[0], k -> new ArrayList<>()).add(h);
        if ((Long) args[0] == 0) {
          standaloneCreated.add(h);
        }
      }
    }
  }

  private void closeFuzzSession(long id) {
    long[] last = new long[Wire.STATS_LENGTH];
    Native.closeSession(id, last);
    openSessions.remove(id);
    closedSessions.add(id);
    assertEquals(0, last[0], "live tensors of a closed session");
    assertEquals(0, last[1], "live bytes of a closed session");
    assertEquals(
        last[3], last[4] + last[5] + last[6] + last[Wire.STATS_FREED_BY_SCOPE], "created = freed");
    assertThrows(IllegalStateException.class, () -> Native.stats(id, new long[Wire.STATS_LENGTH]));
    assertThrows(IllegalStateException.class, () -> Native.closeSession(id, null));
  }

  private static final Pattern ELEMENT_ACCESS = Pattern.compile("(get|read|write)[A-Z]\\w*");

  /** "Float" for fromFloats, readFloats, writeFloats and getFloat. */
  private static String elementType(String method) {
    String t = method.replaceFirst("^(from|get|read|write)", "");
    return t.endsWith("s") ? t.substring(0, t.length() - 1) : t;
  }

  private static long[] stats(long session) {
    long[] out = new long[Wire.STATS_LENGTH];
    Native.stats(session, out);
    return out;
  }

  private Object[] arguments(Method m) {
    Class<?>[] types = m.getParameterTypes();
    Object[] args = new Object[types.length];
    String name = m.getName();
    // Element data of new and written tensors stays small: an op may use it as a shape.
    boolean data = m.getName().startsWith("from") || m.getName().startsWith("write");
    // Most calls name a usable session and one of its tensors, so that the checks behind the
    // lookups run too; the rest take whatever value comes.
    boolean sessionFirst =
        types.length > 0 && types[0] == long.class && !m.getName().equals("newSession");
    for (int i = 0; i < types.length; i++) {
      boolean last = i == types.length - 1;
      args[i] = value(types[i], data && last, m.getName(), i);
      if (sessionFirst && rnd.nextInt(3) > 0) {
        if (i == 0) {
          args[0] = usableSession();
        } else if (!(data && last)
            && !(name.equals("execute") && last) // the attributes
            && (types[i] == long.class || types[i] == long[].class)) {
          List<Long> own = handlesBySession.getOrDefault((Long) args[0], List.of());
          if (!own.isEmpty() && rnd.nextInt(4) > 0) {
            long h = from(own);
            args[i] = types[i] == long.class ? (Object) h : new long[] {h, from(own)};
          } else if (types[i] == long.class && rnd.nextBoolean()) {
            args[i] = (long) rnd.nextInt(4); // an offset or index that may fit
          }
        }
      }
      if (args[i] instanceof Long) {
        args[i] = notSomeoneElsesSession((Long) args[i]);
      }
    }
    // Element access mostly names a tensor of its type, in its session.
    List<long[]> typed = tensorsByType.get(elementType(name));
    if (typed != null && ELEMENT_ACCESS.matcher(name).matches() && rnd.nextBoolean()) {
      long[] t = typed.get(rnd.nextInt(typed.size()));
      args[0] = t[0];
      args[1] = t[1];
      if (rnd.nextBoolean() && m.getParameterTypes()[2] == long.class) {
        args[2] = (long) rnd.nextInt(4);
      }
    }
    List<long[]> made = tensorsByType.get(TYPES[rnd.nextInt(TYPES.length)]);
    if (name.equals("copyTensor") && made != null && rnd.nextBoolean()) {
      long[] t = made.get(rnd.nextInt(made.size()));
      args[1] = t[0];
      args[2] = t[1];
    }
    if (name.startsWith("execute") && rnd.nextBoolean()) {
      args[1] = opIndices.get(rnd.nextInt(opIndices.size()));
    }
    // Half the new tensors get a shape that fits their data.
    if (m.getName().startsWith("from") && args[2] != null && rnd.nextBoolean()) {
      int n = Array.getLength(args[2]);
      args[1] = n == 1 && rnd.nextBoolean() ? new long[0] : new long[] {n};
    }
    // Reading another test's standalone tensors is harmless; freeing or writing them is not.
    if (args.length > 1
        && Long.valueOf(0).equals(args[0])
        && (name.startsWith("free") || name.startsWith("write"))) {
      if (args[1] instanceof Long) {
        args[1] = mine((Long) args[1]);
      } else if (args[1] instanceof long[]) {
        long[] hs = (long[]) args[1];
        for (int i = 0; i < hs.length; i++) {
          hs[i] = mine(hs[i]);
        }
      }
    }
    return args;
  }

  /** Standalone, an open session with tensors, or any open session. */
  private long usableSession() {
    int r = rnd.nextInt(4);
    if (r == 0 || openSessions.isEmpty()) {
      return 0L;
    }
    if (r < 3) {
      List<Long> withTensors = new ArrayList<>(handlesBySession.keySet());
      withTensors.retainAll(openSessions);
      if (!withTensors.isEmpty()) {
        return from(withTensors);
      }
    }
    return from(openSessions);
  }

  /**
   * {@code v}, unless it may name a session this test does not own (another test's, or the live
   * one): then a copy with a generation no slot reaches, so it names nothing.
   */
  private long notSomeoneElsesSession(long v) {
    boolean sessionTag = (v >>> 56) == SESSION_TAG;
    if (sessionTag && !openSessions.contains(v) && !closedSessions.contains(v)) {
      return v ^ UNREACHED_GENERATION;
    }
    return v;
  }

  /** A standalone handle this test made, or one that names no tensor. */
  private long mine(long h) {
    return standaloneCreated.contains(h) ? h : h | UNREACHED_GENERATION;
  }

  private Object value(Class<?> type, boolean data, String method, int index) {
    if (type == long.class) {
      if (method.equals("newSession") && index == 0) {
        return pick(-1L, 0L, 1L, 4096L, 1L << 20); // the limit: no run may grow large
      }
      return someLong();
    }
    if (type == int.class) {
      // op indices, reasons, counts
      return pick(
          0, 1, 2, -1, rnd.nextInt(200), rnd.nextInt(), Integer.MIN_VALUE, Integer.MAX_VALUE);
    }
    if (type == boolean.class) {
      return rnd.nextBoolean();
    }
    if (type == double.class) {
      // fill values (executeWithScalar)
      return rnd.nextBoolean()
          ? (double) FLOATS[rnd.nextInt(FLOATS.length)]
          : pick(-1e300, 1e300, (double) Long.MAX_VALUE, Double.NEGATIVE_INFINITY);
    }
    if (type == String.class) {
      return STRINGS[rnd.nextInt(STRINGS.length)];
    }
    if (type.isArray()) {
      if (rnd.nextInt(8) == 0) {
        return null;
      }
      int n = pick(0, 0, 1, 2, 3, 4, 8, 9);
      Class<?> c = type.getComponentType();
      if (c == long.class) {
        long[] a = new long[n];
        int kind = data ? 0 : rnd.nextInt(4);
        for (int i = 0; i < n; i++) {
          a[i] =
              switch (kind) {
                case 0 -> rnd.nextInt(7) - 2L; // small values: data, shapes, attributes
                case 1 -> pick(0L, 1L, 2L, -1L, 8L, 9L);
                case 2 -> someLong(); // handles and edge values
                default -> attributeWord();
              };
        }
        return a;
      }
      if (c == int.class) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
          a[i] =
              data || rnd.nextBoolean()
                  ? rnd.nextInt(7) - 2
                  : pick(-1, Integer.MAX_VALUE, Integer.MIN_VALUE);
        }
        return a;
      }
      if (c == float.class) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
          a[i] = FLOATS[rnd.nextInt(FLOATS.length)];
        }
        return a;
      }
      if (c == double.class) {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
          a[i] = FLOATS[rnd.nextInt(FLOATS.length)];
        }
        return a;
      }
      if (c == byte.class) {
        byte[] a = new byte[n];
        rnd.nextBytes(a);
        return a;
      }
      if (c == boolean.class) {
        boolean[] a = new boolean[n];
        for (int i = 0; i < n; i++) {
          a[i] = rnd.nextBoolean();
        }
        return a;
      }
    }
    throw new AssertionError("no generator for " + type + " in " + method + "; add one");
  }

  /** Session ids, handles (valid, freed, of other sessions, tampered with) and edge numbers. */
  private long someLong() {
    long v =
        switch (rnd.nextInt(10)) {
          case 0 -> 0L;
          case 1 -> from(openSessions);
          case 2 -> from(closedSessions);
          case 3, 4 -> from(handles);
          case 5 -> from(handles) ^ (1L << rnd.nextInt(64)); // another index, generation or tag
          case 6 -> from(openSessions) + pick(1L, -1L, 1L << 32, -(1L << 32));
          case 7 -> pick(-1L, 1L, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE + 1L, 8L);
          case 8 -> ~from(handles); // a handle still carrying the memory-pressure signal
          default -> rnd.nextLong();
        };
    return v;
  }

  /** A word of the attribute encoding: names, kinds, counts, small values, table numbers. */
  private long attributeWord() {
    return switch (rnd.nextInt(4)) {
      case 0 -> rnd.nextInt(10); // a kind, a name's position, a string's length
      case 1 -> rnd.nextInt(4) - 1L; // a count or a table
      case 2 -> from(handles);
      default -> Float.floatToIntBits(FLOATS[rnd.nextInt(FLOATS.length)]);
    };
  }

  private long from(List<Long> values) {
    return values.isEmpty() ? rnd.nextLong() : values.get(rnd.nextInt(values.size()));
  }

  @SafeVarargs
  private <T> T pick(T... values) {
    return values[rnd.nextInt(values.length)];
  }

  private static String describe(Object[] args) {
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < args.length; i++) {
      Object a = args[i];
      if (i > 0) {
        sb.append(", ");
      }
      if (a instanceof long[]) {
        sb.append(Arrays.toString((long[]) a));
      } else if (a instanceof int[]) {
        sb.append(Arrays.toString((int[]) a));
      } else if (a instanceof float[]) {
        sb.append(Arrays.toString((float[]) a));
      } else if (a instanceof Long) {
        sb.append(String.format("%#x", a));
      } else {
        sb.append(a);
      }
    }
    return sb.append(')').toString();
  }
}
