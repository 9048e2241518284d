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
  protected final OpInfo op;
  private final NativeSession session;
  // The first two inputs in fields, the rest in arrays: the op facade's one- and two-input calls
  // allocate nothing for their inputs.
  private NativeTensor.Owner owner0;
  private NativeTensor.Owner owner1;
  private long handle0;
  private long handle1;
  private NativeTensor.Owner[] moreOwners;
  private long[] moreHandles;

  /** Per input, its session when another one's, else null; null while there is none. */
  private NativeSession[] inputSessions;

  private int inputCount;
  private int[] listLens;
  private int args;
  private long[] attrs;
  private int attrLength;
  private NativeTensor[] tensorAttrs;
  private int tensorAttrCount;

  /** Tensor attributes of other sessions: each one's session, and where its id goes. */
  private NativeSession[] attrSessions;

  private int[] attrSessionSlots;
  private int attrSessionCount;
  private int scalarDtype = -1;
  private double scalarValue;
  private long[] outputs;

  protected OpCall(NativeSession session, OpInfo op) {
    this.session = session;
    this.op = op;
  }

  /** Adds a single input: {@code owner} checks it is usable; {@code from} is its session. */
  protected final void addInput(NativeTensor.Owner owner, long handle, NativeSession from) {
    add(owner, handle, from);
    addArg(-1);
  }

  /** Adds an input list; every element's session is in {@code from}. */
  protected final void addInputList(
      NativeTensor.Owner[] owners, long[] listHandles, NativeSession[] from) {
    for (int i = 0; i < owners.length; i++) {
      add(owners[i], listHandles[i], from[i]);
    }
    addArg(owners.length);
  }

  private void add(NativeTensor.Owner owner, long handle, NativeSession from) {
    int i = inputCount++;
    if (from != session) {
      if (inputSessions == null) {
        inputSessions = new NativeSession[Math.max(4, inputCount)];
      } else if (i == inputSessions.length) {
        inputSessions = Arrays.copyOf(inputSessions, i * 2);
      }
      inputSessions[i] = from;
    }
    if (i == 0) {
      owner0 = owner;
      handle0 = handle;
    } else if (i == 1) {
      owner1 = owner;
      handle1 = handle;
    } else {
      if (moreOwners == null) {
        moreOwners = new NativeTensor.Owner[4];
        moreHandles = new long[4];
      } else if (i - 2 == moreOwners.length) {
        moreOwners = Arrays.copyOf(moreOwners, moreOwners.length * 2);
        moreHandles = Arrays.copyOf(moreHandles, moreHandles.length * 2);
      }
      moreOwners[i - 2] = owner;
      moreHandles[i - 2] = handle;
    }
  }

  /** What checks input {@code index}: the owner given to {@link #addInput}. */
  protected final NativeTensor.Owner inputOwner(int index) {
    return index == 0 ? owner0 : index == 1 ? owner1 : moreOwners[index - 2];
  }

  private long[] handles() {
    long[] all = new long[inputCount];
    for (int i = 0; i < inputCount; i++) {
      all[i] = i == 0 ? handle0 : i == 1 ? handle1 : moreHandles[i - 2];
    }
    return all;
  }

  private void addArg(int len) {
    if (listLens == null) {
      if (len < 0) {
        args++;
        return;
      }
      listLens = new int[Math.max(4, args + 1)];
      Arrays.fill(listLens, 0, args, -1);
    }
    if (args == listLens.length) {
      listLens = Arrays.copyOf(listLens, args * 2);
    }
    listLens[args++] = len;
  }

  /** A scalar of dtype code {@code dtype} holding {@code value}, as the last input. */
  protected final void scalarInput(int dtype, double value) {
    this.scalarDtype = dtype;
    this.scalarValue = value;
  }

  private void record(int id, int kind, int count) {
    reserve(3 + Math.max(count, 0));
    attrs[attrLength++] = id;
    attrs[attrLength++] = kind;
    attrs[attrLength++] = count;
  }

  private void reserve(int n) {
    if (attrs == null) {
      attrs = new long[Math.max(16, n)];
    } else if (attrLength + n > attrs.length) {
      attrs = Arrays.copyOf(attrs, Math.max(attrs.length * 2, attrLength + n));
    }
  }

  protected final void attrInt(int id, long value) {
    record(id, Wire.ATTR_INT, 1);
    attrs[attrLength++] = value;
  }

  protected final void attrInts(int id, long[] value) {
    record(id, Wire.ATTR_INTS, value.length);
    System.arraycopy(value, 0, attrs, attrLength, value.length);
    attrLength += value.length;
  }

  protected final void attrFloat(int id, float value) {
    record(id, Wire.ATTR_FLOAT, 1);
    attrs[attrLength++] = Float.floatToRawIntBits(value) & 0xffffffffL;
  }

  protected final void attrFloats(int id, float[] value) {
    record(id, Wire.ATTR_FLOATS, value.length);
    for (float v : value) {
      attrs[attrLength++] = Float.floatToRawIntBits(v) & 0xffffffffL;
    }
  }

  protected final void attrBool(int id, boolean value) {
    record(id, Wire.ATTR_BOOL, 1);
    attrs[attrLength++] = value ? 1 : 0;
  }

  protected final void attrBools(int id, boolean[] value) {
    record(id, Wire.ATTR_BOOLS, value.length);
    for (boolean v : value) {
      attrs[attrLength++] = v ? 1 : 0;
    }
  }

  protected final void attrType(int id, int dtypeCode) {
    record(id, Wire.ATTR_TYPE, 1);
    attrs[attrLength++] = dtypeCode;
  }

  protected final void attrShape(int id, long[] dims) {
    record(id, Wire.ATTR_SHAPE, dims.length);
    System.arraycopy(dims, 0, attrs, attrLength, dims.length);
    attrLength += dims.length;
  }

  protected final void attrString(int id, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    int words = (bytes.length + 7) / 8;
    record(id, Wire.ATTR_STRING, 1 + words);
    attrs[attrLength++] = bytes.length;
    for (int w = 0; w < words; w++) {
      long packed = 0;
      for (int b = Math.min(8, bytes.length - w * 8) - 1; b >= 0; b--) {
        packed = packed << 8 | (bytes[w * 8 + b] & 0xffL);
      }
      attrs[attrLength++] = packed;
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
    record(id, foreign ? Wire.ATTR_FOREIGN_TENSOR : Wire.ATTR_TENSOR, 2);
    if (foreign) {
      // The other session's id is known once the call has entered it.
      if (attrSessions == null) {
        attrSessions = new NativeSession[1];
        attrSessionSlots = new int[1];
      } else if (attrSessionCount == attrSessions.length) {
        attrSessions = Arrays.copyOf(attrSessions, attrSessionCount * 2);
        attrSessionSlots = Arrays.copyOf(attrSessionSlots, attrSessionCount * 2);
      }
      attrSessions[attrSessionCount] = from;
      attrSessionSlots[attrSessionCount++] = attrLength;
    }
    attrs[attrLength++] = standalone ? 0 : 1;
    attrs[attrLength++] = tensor.handle();
    if (tensorAttrs == null) {
      tensorAttrs = new NativeTensor[1];
    } else if (tensorAttrCount == tensorAttrs.length) {
      tensorAttrs = Arrays.copyOf(tensorAttrs, tensorAttrCount * 2);
    }
    tensorAttrs[tensorAttrCount++] = tensor;
  }

  /** The exception for input {@code index}, whose session closed; {@code e} by default. */
  protected RuntimeException foreignInputClosed(int index, IllegalStateException e) {
    return e;
  }

  /** The exception for a tensor attribute whose session closed; {@code e} by default. */
  protected RuntimeException foreignAttrClosed(IllegalStateException e) {
    return e;
  }

  /** Checks made before anything is entered or run (an unknown attribute, say). */
  protected void check() {}

  @Override
  protected final void prepare(long sessionId) {
    for (int i = 0; i < attrSessionCount; i++) {
      try {
        attrs[attrSessionSlots[i]] = enterOther(attrSessions[i]);
      } catch (IllegalStateException e) {
        throw foreignAttrClosed(e);
      }
    }
    if (inputSessions != null) {
      for (int i = 0; i < inputCount; i++) {
        NativeSession from = inputSessions[i];
        if (from != null) {
          try {
            enterOther(from);
          } catch (IllegalStateException e) {
            throw foreignInputClosed(i, e);
          }
        }
      }
    }
    for (int i = 0; i < inputCount; i++) {
      inputOwner(i).checkUsable();
    }
    check();
  }

  @Override
  protected final long invoke(long sessionId) {
    int index = op.index();
    if (inputSessions != null || (scalarDtype >= 0 && inputCount != 1)) {
      outputs =
          Native.executeMixed(
              sessionId,
              index,
              handles(),
              sessionIds(sessionId),
              lists(),
              attrs(),
              scalarDtype,
              scalarValue);
      return outputs.length > 0 ? outputs[0] : 0;
    }
    if (scalarDtype >= 0) {
      outputs = null;
      return Native.executeWithScalar(sessionId, index, handle0, scalarDtype, scalarValue);
    }
    if (listLens == null
        && attrs == null
        && op.singleOutput()
        && (inputCount == 1 || inputCount == 2)) {
      outputs = null;
      return inputCount == 1
          ? Native.execute1(sessionId, index, handle0)
          : Native.execute2(sessionId, index, handle0, handle1);
    }
    for (int i = 0; i < tensorAttrCount; i++) {
      tensorAttrs[i].checkUsable(); // closed or released since it was set
    }
    outputs = Native.execute(sessionId, index, handles(), lists(), attrs());
    return outputs.length > 0 ? outputs[0] : 0;
  }

  private long[] sessionIds(long sessionId) {
    long[] ids = new long[inputCount];
    for (int i = 0; i < inputCount; i++) {
      NativeSession from = inputSessions == null ? null : inputSessions[i];
      ids[i] = from == null ? sessionId : from.id();
    }
    return ids;
  }

  private int[] lists() {
    return listLens == null ? null : Arrays.copyOf(listLens, args);
  }

  private long[] attrs() {
    return attrs == null ? null : Arrays.copyOf(attrs, attrLength);
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

  /** The lengths of the input lists as built ({@code -1} for a single input), or null. */
  protected final int[] inputLists() {
    return lists();
  }
}
