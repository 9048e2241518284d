package io.eagerflow.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A call that runs a registry op: its inputs (single ones and lists, possibly of other sessions),
 * its attributes, and an optional scalar made natively as the last input. Attributes travel as
 * records {@code [name id, kind, count, payload...]}, a name as its position in the op's list of
 * attribute names, a string as its UTF-8 bytes (see the Rust side's {@code Attrs::decode}): nothing
 * a caller names is kept after the call. Picks the cheapest native entry point for what it holds.
 */
public abstract class OpCall<R> extends NativeCall<R> {
  protected OpInfo op;
  private NativeSession session;
  // One or two single inputs of this session, the op facade's calls, fit in these fields, so that
  // such a call can be reused (see reset) rather than be per-op garbage: in sessions that track
  // references, every byte allocated per op costs in collections.
  private Usable owner0;
  private Usable owner1;
  private long handle0;
  private long handle1;
  private int inputCount;
  private boolean hasScalar;
  private int scalarDtype;
  private double scalarValue;
  private long[] outputs;

  /** Everything else (more inputs, lists, other sessions, attributes), made on first use. */
  private Extras more;

  private static final class Extras {
    /** Inputs from the third on. */
    Usable[] owners = new Usable[4];

    long[] handles = new long[4];

    /** Per input, its session when another one's, else null; null while there is none. */
    NativeSession[] inputSessions;

    /** Per argument, a list's length or -1 for a single input; null while there is no list. */
    int[] listLens;

    int args;
    long[] attrs;
    int attrLength;
    NativeTensor[] tensorAttrs;
    int tensorAttrCount;

    /** Tensor attributes of other sessions: each one's session, and where its id goes. */
    NativeSession[] attrSessions;

    int[] attrSessionSlots;
    int attrSessionCount;
  }

  protected OpCall(NativeSession session, OpInfo op) {
    this.session = session;
    this.op = op;
  }

  /**
   * Makes this call new for {@code op} in {@code session}: no inputs, no attributes, and nothing of
   * a previous call held (operands included).
   */
  protected final void reset(NativeSession session, OpInfo op) {
    this.session = session;
    this.op = op;
    owner0 = null;
    owner1 = null;
    handle0 = 0;
    handle1 = 0;
    inputCount = 0;
    hasScalar = false;
    outputs = null;
    more = null;
  }

  private Extras more() {
    Extras m = more;
    if (m == null) {
      m = new Extras();
      more = m;
    }
    return m;
  }

  /** Adds a single input: {@code owner} checks it is usable; {@code from} is its session. */
  protected final void addInput(Usable owner, long handle, NativeSession from) {
    add(owner, handle, from);
    if (more != null && more.listLens != null) {
      addArg(more, -1);
    }
  }

  /** Adds an input list; every element's session is in {@code from}. */
  protected final void addInputList(Usable[] owners, long[] listHandles, NativeSession[] from) {
    Extras m = more();
    if (m.listLens == null) {
      // Every argument so far was a single input.
      m.args = inputCount;
      m.listLens = new int[Math.max(4, inputCount + 1)];
      Arrays.fill(m.listLens, 0, inputCount, -1);
    }
    for (int i = 0; i < owners.length; i++) {
      add(owners[i], listHandles[i], from[i]);
    }
    addArg(m, owners.length);
  }

  private static void addArg(Extras m, int len) {
    if (m.args == m.listLens.length) {
      m.listLens = Arrays.copyOf(m.listLens, m.args * 2);
    }
    m.listLens[m.args++] = len;
  }

  private void add(Usable owner, long handle, NativeSession from) {
    int i = inputCount++;
    if (from != session) {
      Extras m = more();
      if (m.inputSessions == null) {
        m.inputSessions = new NativeSession[Math.max(4, inputCount)];
      } else if (i >= m.inputSessions.length) {
        m.inputSessions = Arrays.copyOf(m.inputSessions, Math.max(i + 1, i * 2));
      }
      m.inputSessions[i] = from;
    }
    if (i == 0) {
      owner0 = owner;
      handle0 = handle;
    } else if (i == 1) {
      owner1 = owner;
      handle1 = handle;
    } else {
      Extras m = more();
      if (i - 2 == m.owners.length) {
        m.owners = Arrays.copyOf(m.owners, m.owners.length * 2);
        m.handles = Arrays.copyOf(m.handles, m.handles.length * 2);
      }
      m.owners[i - 2] = owner;
      m.handles[i - 2] = handle;
    }
  }

  /** What checks input {@code index}: the owner given to {@link #addInput}. */
  protected final Usable inputOwner(int index) {
    return index == 0 ? owner0 : index == 1 ? owner1 : more.owners[index - 2];
  }

  private NativeSession inputSession(int index) {
    return more == null || more.inputSessions == null || index >= more.inputSessions.length
        ? null
        : more.inputSessions[index];
  }

  private long[] handles() {
    long[] all = new long[inputCount];
    for (int i = 0; i < inputCount; i++) {
      all[i] = i == 0 ? handle0 : i == 1 ? handle1 : more.handles[i - 2];
    }
    return all;
  }

  /** A scalar of dtype code {@code dtype} holding {@code value}, as the last input. */
  protected final void scalarInput(int dtype, double value) {
    this.hasScalar = true;
    this.scalarDtype = dtype;
    this.scalarValue = value;
  }

  private long[] record(int id, int kind, int count) {
    Extras m = more();
    int n = 3 + Math.max(count, 0);
    if (m.attrs == null) {
      m.attrs = new long[Math.max(16, n)];
    } else if (m.attrLength + n > m.attrs.length) {
      m.attrs = Arrays.copyOf(m.attrs, Math.max(m.attrs.length * 2, m.attrLength + n));
    }
    long[] a = m.attrs;
    a[m.attrLength++] = id;
    a[m.attrLength++] = kind;
    a[m.attrLength++] = count;
    return a;
  }

  protected final void attrInt(int id, long value) {
    long[] a = record(id, Wire.ATTR_INT, 1);
    a[more.attrLength++] = value;
  }

  protected final void attrInts(int id, long[] value) {
    long[] a = record(id, Wire.ATTR_INTS, value.length);
    System.arraycopy(value, 0, a, more.attrLength, value.length);
    more.attrLength += value.length;
  }

  protected final void attrFloat(int id, float value) {
    long[] a = record(id, Wire.ATTR_FLOAT, 1);
    a[more.attrLength++] = Float.floatToRawIntBits(value) & 0xffffffffL;
  }

  protected final void attrFloats(int id, float[] value) {
    long[] a = record(id, Wire.ATTR_FLOATS, value.length);
    for (float v : value) {
      a[more.attrLength++] = Float.floatToRawIntBits(v) & 0xffffffffL;
    }
  }

  protected final void attrBool(int id, boolean value) {
    long[] a = record(id, Wire.ATTR_BOOL, 1);
    a[more.attrLength++] = value ? 1 : 0;
  }

  protected final void attrBools(int id, boolean[] value) {
    long[] a = record(id, Wire.ATTR_BOOLS, value.length);
    for (boolean v : value) {
      a[more.attrLength++] = v ? 1 : 0;
    }
  }

  protected final void attrType(int id, int dtypeCode) {
    long[] a = record(id, Wire.ATTR_TYPE, 1);
    a[more.attrLength++] = dtypeCode;
  }

  protected final void attrShape(int id, long[] dims) {
    long[] a = record(id, Wire.ATTR_SHAPE, dims.length);
    System.arraycopy(dims, 0, a, more.attrLength, dims.length);
    more.attrLength += dims.length;
  }

  protected final void attrString(int id, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    int words = (bytes.length + 7) / 8;
    long[] a = record(id, Wire.ATTR_STRING, 1 + words);
    a[more.attrLength++] = bytes.length;
    for (int w = 0; w < words; w++) {
      long packed = 0;
      for (int b = Math.min(8, bytes.length - w * 8) - 1; b >= 0; b--) {
        packed = packed << 8 | (bytes[w * 8 + b] & 0xffL);
      }
      a[more.attrLength++] = packed;
    }
  }

  /**
   * A tensor-valued attribute: a standalone tensor, or one of this or another open session (that
   * one is entered during the call).
   */
  protected final void attrTensor(int id, NativeTensor tensor) {
    NativeSession from = tensor.session();
    boolean standalone = from == NativeSession.STANDALONE;
    boolean foreign = !standalone && from != session;
    long[] a = record(id, foreign ? Wire.ATTR_FOREIGN_TENSOR : Wire.ATTR_TENSOR, 2);
    Extras m = more;
    if (foreign) {
      // The other session's id is known once the call has entered it.
      if (m.attrSessions == null) {
        m.attrSessions = new NativeSession[1];
        m.attrSessionSlots = new int[1];
      } else if (m.attrSessionCount == m.attrSessions.length) {
        m.attrSessions = Arrays.copyOf(m.attrSessions, m.attrSessionCount * 2);
        m.attrSessionSlots = Arrays.copyOf(m.attrSessionSlots, m.attrSessionCount * 2);
      }
      m.attrSessions[m.attrSessionCount] = from;
      m.attrSessionSlots[m.attrSessionCount++] = m.attrLength;
    }
    a[m.attrLength++] = standalone ? 0 : 1;
    a[m.attrLength++] = tensor.handle();
    if (m.tensorAttrs == null) {
      m.tensorAttrs = new NativeTensor[1];
    } else if (m.tensorAttrCount == m.tensorAttrs.length) {
      m.tensorAttrs = Arrays.copyOf(m.tensorAttrs, m.tensorAttrCount * 2);
    }
    m.tensorAttrs[m.tensorAttrCount++] = tensor;
  }

  /** The exception for input {@code index}, whose session closed; {@code e} by default. */
  protected RuntimeException foreignInputClosed(int index, IllegalStateException e) {
    return e;
  }

  /** The exception for a tensor attribute whose session closed; {@code e} by default. */
  protected RuntimeException foreignAttrClosed(IllegalStateException e) {
    return e;
  }

  /** Checks made before anything is run (an unknown attribute, say). */
  protected void check() {}

  @Override
  protected final void prepare(long sessionId) {
    if (more != null) {
      enterOthers();
    }
    for (int i = 0; i < inputCount; i++) {
      inputOwner(i).checkUsable();
    }
    check();
  }

  /** Enters the sessions of operands from other sessions. */
  private void enterOthers() {
    Extras m = more;
    for (int i = 0; i < m.attrSessionCount; i++) {
      try {
        m.attrs[m.attrSessionSlots[i]] = enterOther(m.attrSessions[i]);
      } catch (IllegalStateException e) {
        throw foreignAttrClosed(e);
      }
    }
    for (int i = 0; m.inputSessions != null && i < m.inputSessions.length; i++) {
      NativeSession from = m.inputSessions[i];
      if (from != null) {
        try {
          enterOther(from);
        } catch (IllegalStateException e) {
          throw foreignInputClosed(i, e);
        }
      }
    }
  }

  @Override
  protected final long invoke(long sessionId) {
    if (more == null && !hasScalar && op.singleOutput() && (inputCount == 1 || inputCount == 2)) {
      outputs = null;
      return inputCount == 1
          ? Native.execute1(sessionId, op.index(), handle0)
          : Native.execute2(sessionId, op.index(), handle0, handle1);
    }
    return invokeGeneral(sessionId);
  }

  /** Every call but the single-output one of one or two plain inputs. */
  private long invokeGeneral(long sessionId) {
    int index = op.index();
    Extras m = more;
    boolean foreign = m != null && m.inputSessions != null;
    if (foreign || (hasScalar && inputCount != 1)) {
      outputs =
          Native.executeMixed(
              sessionId,
              index,
              handles(),
              sessionIds(sessionId),
              inputLists(),
              attrs(),
              hasScalar ? scalarDtype : -1,
              scalarValue);
      return outputs.length > 0 ? outputs[0] : 0;
    }
    if (hasScalar) {
      outputs = null;
      return Native.executeWithScalar(sessionId, index, handle0, scalarDtype, scalarValue);
    }
    for (int i = 0; m != null && i < m.tensorAttrCount; i++) {
      m.tensorAttrs[i].checkUsable(); // closed or released since it was set
    }
    outputs = Native.execute(sessionId, index, handles(), inputLists(), attrs());
    return outputs.length > 0 ? outputs[0] : 0;
  }

  private long[] sessionIds(long sessionId) {
    long[] ids = new long[inputCount];
    for (int i = 0; i < inputCount; i++) {
      NativeSession from = inputSession(i);
      ids[i] = from == null ? sessionId : from.id();
    }
    return ids;
  }

  /** The lengths of the input lists as built ({@code -1} for a single input), or null. */
  protected final int[] inputLists() {
    return more == null || more.listLens == null ? null : Arrays.copyOf(more.listLens, more.args);
  }

  private long[] attrs() {
    return more == null || more.attrs == null ? null : Arrays.copyOf(more.attrs, more.attrLength);
  }

  @Override
  protected final R result(long handle) {
    long[] all = outputs;
    if (all == null) {
      return outputs(handle, null);
    }
    if (all.length > 0) {
      all[0] = handle;
    }
    return outputs(all.length > 0 ? handle : 0, all);
  }

  /**
   * The Java owner of the outputs: {@code all} holds every output's handle, or is null when the
   * single-output path ran and {@code first} is the only one.
   */
  protected abstract R outputs(long first, long[] all);

  /** How many outputs the last {@link #invoke} made. */
  final int outputCount() {
    return outputs == null ? 1 : outputs.length;
  }

  /**
   * Appends each input's dtype and shape to {@code types} and {@code shapes}, for the {@code
   * OpExecution} event, after the op ran: {@code FLOAT, INT32} and {@code [2, 3], []}, a list's in
   * brackets. An asynchronous session's inputs may still be pending: they show as {@code ?} rather
   * than being waited for. Call entered.
   */
  final void describeInputs(long sessionId, StringBuilder types, StringBuilder shapes) {
    boolean pendingPossible = session.isAsync();
    int[] lists = inputLists();
    int args = lists == null ? inputCount : lists.length;
    int input = 0;
    for (int a = 0; a < args; a++) {
      int len = lists == null ? -1 : lists[a];
      separate(a, types, shapes);
      if (len >= 0) {
        types.append('[');
        shapes.append('[');
      }
      for (int k = 0; k < (len < 0 ? 1 : len); k++, input++) {
        separate(k, types, shapes);
        describeInput(input, sessionId, pendingPossible, types, shapes);
      }
      if (len >= 0) {
        types.append(']');
        shapes.append(']');
      }
    }
    if (hasScalar) {
      separate(args, types, shapes);
      types.append(io.eagerflow.DataType.fromCode(scalarDtype).name());
      shapes.append("[]");
    }
  }

  private static void separate(int index, StringBuilder types, StringBuilder shapes) {
    if (index > 0) {
      types.append(", ");
      shapes.append(", ");
    }
  }

  private void describeInput(
      int i, long sessionId, boolean pendingPossible, StringBuilder types, StringBuilder shapes) {
    long[] d = null;
    if (!pendingPossible) {
      NativeSession from = inputSession(i);
      long handle = i == 0 ? handle0 : i == 1 ? handle1 : more.handles[i - 2];
      try {
        // The op ran on it: ready, so this does not wait.
        d = Native.describe(from == null ? sessionId : from.id(), handle, false);
      } catch (RuntimeException e) {
        d = null; // freed meanwhile by another thread: unknown
      }
    }
    if (d == null) {
      types.append('?');
      shapes.append('?');
      return;
    }
    types.append(io.eagerflow.DataType.fromCode((int) d[0]).name());
    shapes.append('[');
    for (int k = 0; k < d[1]; k++) {
      if (k > 0) {
        shapes.append(", ");
      }
      shapes.append(d[2 + k]);
    }
    shapes.append(']');
  }
}
