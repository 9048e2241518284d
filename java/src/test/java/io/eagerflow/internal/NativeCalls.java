package io.eagerflow.internal;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * One fuzz input's calls to {@link Native} ({@link NativeFuzzTest#everyNative}): which native, and
 * every argument, come from the input; the calls a call made possible (sessions, handles) are kept
 * so that later calls name them, usable, freed, closed or tampered with. Sizes take any value:
 * shapes, offsets, indices, counts, list and string lengths, queue capacities and limits range over
 * small numbers, zero, negative numbers and the extremes of {@code int} and {@code long}.
 *
 * <p>Three rules keep a run on this machine's memory, not on the library's safety: ops run only in
 * sessions with a hard limit of at most {@link #OP_LIMIT} (a session asked for without a limit, or
 * with a larger one, is closed at once after the call that made it: the call itself is what is
 * tested; an op in a session without a limit may allocate whatever it is asked, that is what no
 * limit means), so an op the input builds on the standalone table (id 0, which has no limit) runs
 * on a limited session instead; and Java arrays stay at most {@link #MAX_ARRAY} long (the sizes
 * inside them take any value).
 */
final class NativeCalls {
  /** The largest hard limit of a session that ops run in. */
  static final long OP_LIMIT = 16L << 20;

  static final int MAX_ARRAY = 4096;

  /** The tag of session ids in bits 56 to 62 (src/handles.rs). */
  private static final long SESSION_TAG = 127;

  /** A generation bit (bit 23 of 24) that no slot reaches in a test run. */
  static final long UNREACHED_GENERATION = 1L << 55;

  static final List<Class<? extends RuntimeException>> DOCUMENTED =
      List.of(
          IllegalArgumentException.class,
          IllegalStateException.class,
          IndexOutOfBoundsException.class,
          NullPointerException.class,
          UnsupportedOperationException.class,
          io.eagerflow.NativeMemoryExhaustedException.class);

  /** Every native of {@link Native}, in a fixed order so that an input names the same one. */
  static final List<Method> NATIVES = natives();

  private static final Set<String> EXECUTES =
      Set.of("execute", "execute1", "execute2", "executeWithScalar", "executeMixed");

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
    "OneHot",
    "GatherV2",
    "BroadcastTo",
    "Transpose",
    "AddN",
    "Slice",
    "ExpandDims",
    "Cumsum",
    "ArgMax",
    "RandomUniform",
    "SelectV2",
    "BatchMatMulV2",
    "SoftmaxCrossEntropyWithLogits"
  };

  private static final String[] STRINGS = {
    null, "", "AddV2", "MatMul", "Sum", "Fill", "NoSuchOp", "axis", "T", "\0", "Ç€😀", "\uD800"
  };

  private static final long[] EDGE_LONGS = {
    0,
    1,
    -1,
    2,
    8,
    Integer.MAX_VALUE,
    Integer.MAX_VALUE + 1L,
    Integer.MIN_VALUE,
    1L << 32,
    1L << 40,
    3037000500L,
    Long.MAX_VALUE,
    Long.MIN_VALUE,
    Long.MAX_VALUE / 4,
    -(1L << 40)
  };

  private static final int[] EDGE_INTS = {
    0, 1, -1, 2, 3, 8, 65536, 65537, Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE / 4
  };

  private final FuzzedDataProvider in;
  final List<Integer> opIndices = new ArrayList<>();

  final List<Long> openSessions = new ArrayList<>();
  final List<Long> closedSessions = new ArrayList<>();
  final Map<Long, Thread> executors = new HashMap<>();
  final List<Long> handles = new ArrayList<>();
  final Set<Long> standaloneCreated = new LinkedHashSet<>();
  final Map<Long, List<Long>> handlesBySession = new HashMap<>();
  final Map<String, Integer> outcomes = new HashMap<>();

  NativeCalls(FuzzedDataProvider in) {
    this.in = in;
    for (String op : OPS) {
      opIndices.add(Native.opIndex(op));
    }
  }

  private static List<Method> natives() {
    List<Method> natives = new ArrayList<>();
    for (Method m : Native.class.getDeclaredMethods()) {
      if (Modifier.isNative(m.getModifiers())) {
        m.setAccessible(true);
        natives.add(m);
      }
    }
    natives.sort(Comparator.comparing(Method::toString));
    return List.copyOf(natives);
  }

  // ---- sessions -------------------------------------------------------------------------------

  /** A session ops may run in, made by the harness. */
  long openLimitedSession(boolean async) {
    long limit = in.consumeLong(0, OP_LIMIT);
    boolean gcSignals = in.consumeBoolean();
    long id =
        async
            ? Native.newAsyncSession(limit, 0, gcSignals, in.consumeInt(1, 8))
            : Native.newSession(limit <= 0 ? 1 : limit, 0, gcSignals);
    adoptSession(id, async);
    return id;
  }

  private void adoptSession(long id, boolean async) {
    openSessions.add(id);
    if (async) {
      Thread t = new Thread(() -> runExecutor(id), "native-fuzz-exec");
      t.setDaemon(true);
      t.start();
      executors.put(id, t);
    }
  }

  private static void runExecutor(long id) {
    try {
      Native.runExecutor(id, () -> false);
    } catch (IllegalStateException e) {
      // closed before the thread got here
    }
  }

  /** Closes a session the fuzzer made and checks that it holds nothing afterwards. */
  void closeAndCheck(long id) {
    long[] last = new long[Wire.STATS_LENGTH];
    Native.closeSession(id, last);
    sessionClosed(id);
    if (last[Wire.STATS_LIVE_TENSORS] != 0 || last[Wire.STATS_LIVE_BYTES] != 0) {
      throw new AssertionError("a closed session holds " + Arrays.toString(last));
    }
    long freed =
        last[Wire.STATS_FREED_EXPLICITLY]
            + last[Wire.STATS_FREED_BY_CLEANUP]
            + last[Wire.STATS_FREED_AT_CLOSE]
            + last[Wire.STATS_FREED_BY_SCOPE];
    if (last[Wire.STATS_CREATED_TENSORS] != freed) {
      throw new AssertionError("created != freed at close: " + Arrays.toString(last));
    }
  }

  private void sessionClosed(long id) {
    if (openSessions.remove(id)) {
      closedSessions.add(id);
    }
    Thread executor = executors.remove(id);
    if (executor != null) {
      try {
        executor.join(60_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (executor.isAlive()) {
        throw new AssertionError("the executor of a closed session still runs");
      }
    }
  }

  private static boolean isOpen(long id) {
    try {
      Native.stats(id, new long[Wire.STATS_LENGTH]);
      return true;
    } catch (IllegalStateException e) {
      return false;
    }
  }

  // ---- one call -------------------------------------------------------------------------------

  /** Makes one call chosen by the input; fails on an outcome {@link Native} does not document. */
  void callOne() throws IllegalAccessException {
    Method m = NATIVES.get(in.consumeInt(0, NATIVES.size() - 1));
    Object[] args = arguments(m);
    String outcome;
    try {
      Object result = m.invoke(null, args);
      record(m, args, result);
      outcome = "returned";
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      outcome = null;
      for (Class<? extends RuntimeException> c : DOCUMENTED) {
        if (c.isInstance(cause)) {
          outcome = cause.getClass().getSimpleName();
        }
      }
      if (outcome == null) {
        throw new AssertionError(
            m.getName() + describe(args) + " threw an undocumented " + cause, cause);
      }
    } finally {
      if (m.getName().equals("closeSession")) {
        long id = (Long) args[0];
        // Closed even if writing the stats failed afterwards (a short array).
        if (openSessions.contains(id) && !isOpen(id)) {
          sessionClosed(id);
        }
      }
    }
    outcomes.merge(m.getName() + " " + outcome, 1, Integer::sum);
  }

  /** Keeps what a call made, so later calls can use it and the end of the input can free it. */
  private void record(Method m, Object[] args, Object result) {
    String name = m.getName();
    if (name.equals("newSession") || name.equals("newAsyncSession")) {
      long id = (Long) result;
      long limit = (Long) args[0];
      if (limit > 0 && limit <= OP_LIMIT) {
        adoptSession(id, name.equals("newAsyncSession"));
      } else {
        // No limit or a large one: the call that made it is the test; no op runs in it.
        openSessions.add(id);
        closeAndCheck(id);
      }
    } else if (name.equals("free") && Boolean.TRUE.equals(result)) {
      handlesBySession.getOrDefault((Long) args[0], new ArrayList<>()).remove(args[1]);
    } else if (EXECUTES.contains(name) || name.startsWith("from") || name.equals("copyTensor")) {
      long[] made = result instanceof long[] a ? a : new long[] {(Long) result};
      long session = (Long) args[0];
      for (long h : made) {
        h = h < 0 ? ~h : h; // the memory-pressure signal
        handles.add(h);
        handlesBySession.computeIfAbsent(session, k -> new ArrayList<>()).add(h);
        if (session == 0) {
          standaloneCreated.add(h);
        }
      }
    }
  }

  // ---- arguments ------------------------------------------------------------------------------

  private Object[] arguments(Method m) {
    Class<?>[] types = m.getParameterTypes();
    String name = m.getName();
    Object[] args = new Object[types.length];
    boolean sessionFirst =
        types.length > 0
            && types[0] == long.class
            && !name.equals("newSession")
            && !name.equals("newAsyncSession");
    long session = sessionFirst ? sessionArgument(name) : 0;
    for (int i = 0; i < types.length; i++) {
      if (sessionFirst && i == 0) {
        args[0] = session;
      } else if (sessionFirst && i == 1 && types[1] == long.class) {
        // A handle (or, for copyTensor, the source session).
        args[1] = name.equals("copyTensor") ? sessionArgument(name) : handleIn(session);
      } else if (sessionFirst && i == 2 && types[2] == long.class && name.equals("copyTensor")) {
        args[2] = handleIn((Long) args[1]);
      } else if (i == 2 && types[2] == long[].class && EXECUTES.contains(name)) {
        args[2] = inputs(session); // an op's inputs
      } else if (i == 3 && name.equals("executeMixed")) {
        args[3] = inputSessions((long[]) args[2], session);
      } else {
        args[i] = value(types[i], name);
      }
    }
    if (EXECUTES.contains(name) && in.consumeBoolean()) {
      args[1] = opIndices.get(in.consumeInt(0, opIndices.size() - 1));
    }
    if (name.equals("runExecutor") && executors.containsKey((Long) args[0])) {
      // Its executor may not have entered yet: this call would then become it and never return.
      args[0] = closedOrForged();
    }
    // Reading another test's standalone tensors is harmless; freeing or writing them is not.
    if (args.length > 1
        && Long.valueOf(0).equals(args[0])
        && (name.startsWith("free") || name.startsWith("write"))) {
      if (args[1] instanceof Long h) {
        args[1] = mine(h);
      } else if (args[1] instanceof long[] hs) {
        for (int i = 0; i < hs.length; i++) {
          hs[i] = mine(hs[i]);
        }
      }
    }
    for (int i = 0; i < args.length; i++) {
      if (args[i] instanceof Long v) {
        args[i] = notSomeoneElsesSession(v);
      } else if (args[i] instanceof long[] vs && name.equals("executeMixed") && i == 3) {
        for (int j = 0; j < vs.length; j++) {
          vs[j] = notSomeoneElsesSession(vs[j]);
        }
      }
    }
    return args;
  }

  /** Mostly a handle of {@code session}; else any handle, tampered with or not, or a number. */
  private long handleIn(long session) {
    List<Long> own = handlesBySession.getOrDefault(session, List.of());
    return !own.isEmpty() && in.consumeInt(0, 3) > 0 ? pick(own) : handleOrSize();
  }

  private long[] inputs(long session) {
    if (in.consumeInt(0, 3) == 0) {
      return (long[]) array(long.class);
    }
    long[] a = new long[in.consumeInt(0, 5)];
    for (int i = 0; i < a.length; i++) {
      a[i] = in.consumeInt(0, 7) == 0 ? handleIn(0) : handleIn(session);
    }
    return a;
  }

  /** The session of each input: mostly its own, or the standalone table, or anything. */
  private long[] inputSessions(long[] inputs, long session) {
    if (inputs == null || in.consumeInt(0, 3) == 0) {
      return (long[]) array(long.class);
    }
    long[] a = new long[inputs.length];
    for (int i = 0; i < a.length; i++) {
      long h = inputs[i];
      long owner = session;
      for (Map.Entry<Long, List<Long>> e : handlesBySession.entrySet()) {
        if (e.getValue().contains(h)) {
          owner = e.getKey();
        }
      }
      a[i] = in.consumeInt(0, 5) == 0 ? sessionArgument("input") : owner;
    }
    return a;
  }

  private long sessionArgument(String name) {
    long id =
        switch (in.consumeInt(0, 7)) {
          case 0 -> 0L;
          case 1 -> closedOrForged();
          case 2 -> someLong();
          default -> openSessions.isEmpty() ? 0L : pick(openSessions);
        };
    // Ops run only in limited sessions: the standalone table has no limit.
    if (id == 0 && EXECUTES.contains(name)) {
      id = openSessions.isEmpty() ? closedOrForged() : pick(openSessions);
    }
    return id;
  }

  private long closedOrForged() {
    return closedSessions.isEmpty() || in.consumeBoolean()
        ? (SESSION_TAG << 56) | UNREACHED_GENERATION | in.consumeInt(0, 64)
        : pick(closedSessions);
  }

  private Object value(Class<?> type, String method) {
    if (type == long.class) {
      return in.consumeBoolean() ? handleOrSize() : someLong();
    }
    if (type == int.class) {
      return someInt();
    }
    if (type == boolean.class) {
      return in.consumeBoolean();
    }
    if (type == double.class) {
      return in.consumeBoolean() ? in.consumeDouble() : (double) someLong();
    }
    if (type == String.class) {
      return in.consumeBoolean()
          ? STRINGS[in.consumeInt(0, STRINGS.length - 1)]
          : in.consumeString(in.consumeInt(0, 40));
    }
    if (type == BooleanSupplier.class) {
      return in.consumeBoolean() ? null : (BooleanSupplier) () -> false;
    }
    if (type.isArray()) {
      return array(type.getComponentType());
    }
    throw new AssertionError("no generator for " + type + " in " + method + "; add one");
  }

  private int arrayLength() {
    return switch (in.consumeInt(0, 5)) {
      case 0 -> -1; // null
      case 1, 2, 3 -> in.consumeInt(0, 9);
      case 4 -> in.consumeInt(0, 64);
      default -> in.consumeInt(0, MAX_ARRAY);
    };
  }

  private Object array(Class<?> c) {
    int n = arrayLength();
    if (n < 0) {
      return null;
    }
    if (c == long.class) {
      long[] a = new long[n];
      int kind = in.consumeInt(0, 3);
      for (int i = 0; i < n; i++) {
        a[i] =
            switch (kind) {
              case 0 -> in.consumeLong(-2, 8); // shapes, data, attribute words
              case 1 -> handleOrSize();
              case 2 -> attributeWord();
              default -> someLong();
            };
      }
      return a;
    }
    if (c == int.class) {
      int[] a = new int[n];
      for (int i = 0; i < n; i++) {
        a[i] = in.consumeBoolean() ? in.consumeInt(-2, 8) : someInt();
      }
      return a;
    }
    if (c == float.class) {
      float[] a = new float[n];
      for (int i = 0; i < n; i++) {
        a[i] = in.consumeBoolean() ? in.consumeInt(-2, 8) : in.consumeFloat();
      }
      return a;
    }
    if (c == double.class) {
      double[] a = new double[n];
      for (int i = 0; i < n; i++) {
        a[i] = in.consumeBoolean() ? in.consumeInt(-2, 8) : in.consumeDouble();
      }
      return a;
    }
    if (c == byte.class) {
      byte[] a = in.consumeBytes(n);
      return a.length == n ? a : Arrays.copyOf(a, n);
    }
    if (c == short.class) {
      short[] a = new short[n];
      for (int i = 0; i < n; i++) {
        a[i] = in.consumeShort();
      }
      return a;
    }
    if (c == boolean.class) {
      boolean[] a = new boolean[n];
      for (int i = 0; i < n; i++) {
        a[i] = in.consumeBoolean();
      }
      return a;
    }
    throw new AssertionError("no generator for arrays of " + c + "; add one");
  }

  /** A tensor handle (usable, freed, of another session, tampered with) or a size or offset. */
  private long handleOrSize() {
    return switch (in.consumeInt(0, 5)) {
      case 0, 1 -> handles.isEmpty() ? 0 : pick(handles);
      case 2 -> handles.isEmpty() ? 1 : pick(handles) ^ (1L << in.consumeInt(0, 63));
      case 3 -> in.consumeLong(-2, 8);
      default -> someLong();
    };
  }

  private long someLong() {
    return switch (in.consumeInt(0, 3)) {
      case 0 -> EDGE_LONGS[in.consumeInt(0, EDGE_LONGS.length - 1)];
      case 1 -> in.consumeLong(-4, 64);
      case 2 -> handles.isEmpty() ? in.consumeLong() : ~pick(handles); // the pressure signal
      default -> in.consumeLong();
    };
  }

  private int someInt() {
    return switch (in.consumeInt(0, 3)) {
      case 0 -> EDGE_INTS[in.consumeInt(0, EDGE_INTS.length - 1)];
      case 1 -> in.consumeInt(-4, 64);
      case 2 -> pick(opIndices);
      default -> in.consumeInt();
    };
  }

  /** A word of the attribute encoding: names, kinds, counts, small values, table numbers. */
  private long attributeWord() {
    return switch (in.consumeInt(0, 4)) {
      case 0 -> in.consumeInt(0, 12); // a kind, a name's position, a string's length
      case 1 -> in.consumeInt(-1, 3); // a count or a table
      case 2 -> handles.isEmpty() ? 0 : pick(handles);
      case 3 -> Float.floatToIntBits(in.consumeFloat());
      default -> someLong();
    };
  }

  private <T> T pick(List<T> values) {
    return values.get(in.consumeInt(0, values.size() - 1));
  }

  /** A standalone handle this input made, or one that names no tensor. */
  private long mine(long h) {
    return standaloneCreated.contains(h) ? h : h | UNREACHED_GENERATION;
  }

  /**
   * {@code v}, unless it may name a session this input does not own (another test's): then a copy
   * with a generation no slot reaches, so it names nothing.
   */
  private long notSomeoneElsesSession(long v) {
    boolean sessionTag = (v >>> 56) == SESSION_TAG;
    if (sessionTag && !openSessions.contains(v) && !closedSessions.contains(v)) {
      return v | UNREACHED_GENERATION;
    }
    return v;
  }

  static String describe(Object[] args) {
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < args.length; i++) {
      Object a = args[i];
      if (i > 0) {
        sb.append(", ");
      }
      if (a != null && a.getClass().isArray()) {
        int n = Array.getLength(a);
        sb.append(a.getClass().getComponentType()).append('[').append(n).append("] ");
        StringBuilder items = new StringBuilder();
        for (int j = 0; j < Math.min(n, 16); j++) {
          items.append(j == 0 ? "" : ",").append(Array.get(a, j));
        }
        sb.append('{').append(items).append(n > 16 ? ",...}" : "}");
      } else if (a instanceof Long) {
        sb.append(String.format("%#x", a));
      } else {
        sb.append(a);
      }
    }
    return sb.append(')').toString();
  }
}
