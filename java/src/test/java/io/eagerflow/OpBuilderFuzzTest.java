package io.eagerflow;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.Shape;

/**
 * Jazzer fuzz target: ops built by name through {@link EagerSession#opBuilder} with whatever the
 * input says: the op type (one of the registry's names and aliases, or any string), a name, 0 to 8
 * inputs of any dtype and shape with values from the input (some released, of a closed session, of
 * another open session, or null), passed one by one or as lists, and 0 to 5 attributes through
 * every {@code setAttr} overload with any name and value (hostile shapes, null arrays, tensors), on
 * sessions of every cleanup strategy, synchronous and asynchronous, each limited to {@link #CAP}.
 * The op's outputs are read. Each input must end in a result or a documented exception ({@link
 * FuzzInput#requireDocumented}) and leave no tensor or byte behind.
 *
 * <p>{@code gradle fuzz -Pfuzz.target=io.eagerflow.OpBuilderFuzzTest#opsByName}; {@code gradle
 * test} replays {@code OpBuilderFuzzTestInputs/opsByName}.
 */
class OpBuilderFuzzTest {
  /** Each session's limit: whatever shape an op asks for, it never allocates more. */
  static final long CAP = 16L << 20;

  private static final Map<String, EagerSession> SESSIONS = new HashMap<>();

  @FuzzTest(maxDuration = "10m")
  void opsByName(FuzzedDataProvider data) {
    FuzzInput in = new FuzzInput(data);
    ResourceCleanupStrategy strategy = in.of(ResourceCleanupStrategy.values());
    boolean async = in.bool();
    EagerSession s = session(strategy, async);
    long tensors = s.stats().liveTensors();
    long bytes = NativeMemory.liveBytes();
    List<Operand<?>> track = new ArrayList<>();
    List<TType> standalone = new ArrayList<>();
    String what = "?";
    try {
      Ops tf = Ops.create(s);
      List<Output<?>> inputs = new ArrayList<>();
      for (int n = in.between(0, 8); n > 0; n--) {
        inputs.add(input(in, s, tf, track));
      }
      String type = in.between(0, 7) > 0 ? in.of(HostileValues.KNOWN_OPS) : in.stringOrNull(16);
      String name = in.bool() ? null : in.stringOrNull(12);
      what = type + " named " + name + " on " + inputs.size() + " inputs";
      OperationBuilder b = s.opBuilder(type, name);
      int listed = 0;
      for (int adds = 0; listed < inputs.size() && adds < 16; adds++) {
        if (in.bool()) {
          b.addInput(inputs.get(listed++));
        } else {
          int n = in.between(0, inputs.size() - listed);
          b.addInputList(inputs.subList(listed, listed + n).toArray(new Output<?>[0]));
          listed += n;
        }
      }
      if (in.between(0, 15) == 0) {
        b.addInputList(null);
      }
      for (int n = in.between(0, 5); n > 0; n--) {
        setAttr(in, b, standalone);
      }
      Operation op = b.build();
      for (int i = 0; i < op.numOutputs(); i++) {
        Output<?> out = op.output(i);
        track.add(out);
        out.shape();
        out.dataType();
        TType t = out.asTensor();
        t.numBytes();
        if (t instanceof NdArray<?> a && t.shape().size() > 0 && in.bool()) {
          a.getObject(new long[t.shape().numDimensions()]);
        }
      }
      if (async && in.bool()) {
        s.sync();
      }
    } catch (RuntimeException e) {
      FuzzInput.requireDocumented(e, what);
    } finally {
      for (Operand<?> o : track) {
        o.asOutput().session().release(o);
      }
      for (TType t : standalone) {
        t.close();
      }
    }
    if (async) {
      try {
        s.sync(); // an earlier op's failure is reported once; the session goes on
      } catch (RuntimeException e) {
        FuzzInput.requireDocumented(e, "sync after " + what);
      }
    }
    if (s.stats().liveTensors() != tensors || NativeMemory.liveBytes() > bytes) {
      throw new AssertionError(
          "leaked by "
              + what
              + ": "
              + tensors
              + " tensors before, "
              + s.stats()
              + " after; process bytes "
              + bytes
              + " -> "
              + NativeMemory.liveBytes());
    }
  }

  private static Output<?> input(FuzzInput in, EagerSession s, Ops tf, List<Operand<?>> track) {
    switch (in.between(0, 15)) {
      case 0:
        return null;
      case 1:
        {
          EagerSession closed =
              EagerSession.options()
                  .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
                  .build();
          Output<?> o = Ops.create(closed).constant(1f).asOutput();
          closed.close();
          return o;
        }
      case 2:
        {
          // An operand of another open session: the builder refuses it or copies it in.
          EagerSession other = session(ResourceCleanupStrategy.ON_SESSION_CLOSE, false);
          if (other == s) {
            other = session(ResourceCleanupStrategy.ON_SAFE_POINTS, false);
          }
          Operand<?> o = constant(in, Ops.create(other));
          track.add(o);
          return o.asOutput();
        }
      default:
        break;
    }
    Operand<?> x = constant(in, tf);
    if (in.between(0, 15) == 0) {
      s.release(x);
    } else {
      track.add(x);
    }
    return x.asOutput();
  }

  /** A constant of any dtype, a small shape, and values from the edges or from the input. */
  private static Operand<?> constant(FuzzInput in, Ops tf) {
    DataType dtype = in.of(DataType.values());
    Shape shape = Shape.of(in.smallDims(256));
    int n = (int) shape.size();
    Object values = HostileInputTest.valuesArray(dtype, n, in.between(0, 63));
    for (int i = 0; i < Math.min(n, 8); i++) {
      if (in.bool()) {
        switch (dtype) {
          case FLOAT, HALF, BFLOAT16 -> ((float[]) values)[i] = in.anyFloat();
          case UINT16 -> ((short[]) values)[i] = (short) in.anyInt();
          case DOUBLE -> ((double[]) values)[i] = in.anyDouble();
          case INT32 -> ((int[]) values)[i] = in.anyInt();
          case INT64 -> ((long[]) values)[i] = in.anyLong();
          case UINT8 -> ((byte[]) values)[i] = (byte) in.anyInt();
          case BOOL -> ((boolean[]) values)[i] = in.bool();
          case STRING -> ((String[]) values)[i] = in.stringOrNull(20);
        }
      }
    }
    return HostileInputTest.flatConstant(tf, dtype, shape, values);
  }

  private static void setAttr(FuzzInput in, OperationBuilder b, List<TType> standalone) {
    String n = in.between(0, 3) > 0 ? in.of(HostileValues.KNOWN_ATTRS) : in.stringOrNull(12);
    boolean nullValue = in.between(0, 15) == 0;
    switch (in.between(0, 9)) {
      case 0 -> b.setAttr(n, in.anyLong());
      case 1 -> b.setAttr(n, nullValue ? null : longs(in));
      case 2 -> b.setAttr(n, in.anyFloat());
      case 3 -> {
        long[] l = longs(in);
        float[] f = new float[l.length];
        for (int i = 0; i < f.length; i++) {
          f[i] = in.anyFloat();
        }
        b.setAttr(n, nullValue ? null : f);
      }
      case 4 -> b.setAttr(n, in.bool());
      case 5 -> {
        boolean[] v = new boolean[in.between(0, 8)];
        for (int i = 0; i < v.length; i++) {
          v[i] = in.bool();
        }
        b.setAttr(n, nullValue ? null : v);
      }
      case 6 -> b.setAttr(n, nullValue ? null : in.of(DataType.values()));
      case 7 -> b.setAttr(n, nullValue ? null : FuzzInput.shapeOf(in.dims()));
      case 8 -> b.setAttr(n, nullValue ? (String) null : in.bool() ? "NHWC" : in.stringOrNull(12));
      default -> {
        if (nullValue) {
          b.setAttr(n, (TType) null);
        } else {
          DataType dt = in.of(DataType.values());
          Shape shape = Shape.of(in.smallDims(64));
          TType t =
              HostileInputTest.factory(
                  dt,
                  shape,
                  HostileInputTest.valuesArray(dt, (int) shape.size(), in.between(0, 63)));
          standalone.add(t);
          if (in.between(0, 15) == 0) {
            t.close();
          }
          b.setAttr(n, t);
        }
      }
    }
  }

  private static long[] longs(FuzzInput in) {
    long[] v = new long[in.between(0, 8)];
    for (int i = 0; i < v.length; i++) {
      v[i] = in.anyLong();
    }
    return v;
  }

  static synchronized EagerSession session(ResourceCleanupStrategy strategy, boolean async) {
    return SESSIONS.computeIfAbsent(
        strategy + "/" + async,
        k ->
            EagerSession.options()
                .resourceCleanupStrategy(strategy)
                .async(async)
                .maxNativeBytes(CAP)
                .build());
  }

  @AfterAll
  static synchronized void closeSessions() {
    StringBuilder leaks = new StringBuilder();
    for (Map.Entry<String, EagerSession> e : SESSIONS.entrySet()) {
      if (e.getValue().stats().liveTensors() != 0) {
        leaks.append(e.getKey()).append(' ').append(e.getValue().stats()).append('\n');
      }
      e.getValue().close();
    }
    SESSIONS.clear();
    if (leaks.length() > 0) {
      throw new AssertionError("shared sessions hold tensors at the end:\n" + leaks);
    }
  }
}
