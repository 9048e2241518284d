package io.eagerflow;

import io.eagerflow.internal.Native;
import io.eagerflow.internal.NativeScope;
import io.eagerflow.internal.NativeTensor;
import io.eagerflow.internal.OpInfo;
import io.eagerflow.internal.SessionCore;
import io.eagerflow.internal.TensorTypes;
import io.eagerflow.types.TType;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.tensorflow.ndarray.Shape;

/**
 * Collects an op's inputs and attributes, then runs it in one native call. Attributes travel as
 * records {@code [name id, kind, count, payload...]}, a name as its position in the op's list of
 * attribute names, a string value as its UTF-8 bytes (see the Rust side's {@code Attrs::decode}):
 * nothing a caller names is kept after the call. Not thread-safe, like TensorFlow Java's builders.
 */
final class EagerOperationBuilder implements OperationBuilder {
  // Attribute kinds, shared with src/ops/attrs.rs.
  private static final int INT = 0;
  private static final int INTS = 1;
  private static final int FLOAT = 2;
  private static final int FLOATS = 3;
  private static final int BOOL = 4;
  private static final int BOOLS = 5;
  private static final int TYPE = 6;
  private static final int SHAPE = 7;
  private static final int STRING = 8;
  private static final int TENSOR = 9;
  private static final int FOREIGN_TENSOR = 10;

  private final EagerSession session;
  private final OpInfo op;
  private final String name;
  private final List<Output<?>> inputs = new ArrayList<>(4);
  private int[] listLens;
  private int args;
  private long[] attrs;
  private int attrLength;
  private List<TType> tensorAttrs;
  /** Tensor attributes of other sessions: each one's scope, and where its session id goes. */
  private List<NativeScope> foreignAttrScopes;
  private int[] foreignAttrSlots;
  /** Whether an input comes from another session (then build() takes the mixed path). */
  private boolean foreign;
  /** The first attribute name the op does not have; build() throws for it. */
  private String unknownAttr;
  private boolean built;

  EagerOperationBuilder(EagerSession session, OpInfo op, String name) {
    this.session = session;
    this.op = op;
    this.name = name;
  }

  /** Called first by every public method. */
  private void checkNotBuilt() {
    if (session.core().isClosed()) {
      throw new IllegalStateException(SessionCore.CLOSED_MESSAGE);
    }
    if (built) {
      throw new IllegalStateException("Operation has already been built");
    }
  }

  private void checkInput(Output<?> input, String what) {
    Objects.requireNonNull(input, what);
    if (input.session() != session) {
      checkForeign(op.type(), input, what);
      foreign = true;
    }
    input.checkUsable();
  }

  /**
   * Checks an input made by another session: it may be read while that session is open.
   *
   * @throws IllegalStateException naming the op and the input if the other session is closed
   */
  static void checkForeign(String opType, Output<?> input, String what) {
    if (input.core().isClosed()) {
      throw new IllegalStateException(
          opType
              + ": "
              + what
              + " "
              + input
              + " is from another session: "
              + SessionCore.CLOSED_MESSAGE);
    }
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

  @Override
  public OperationBuilder addInput(Output<?> input) {
    checkNotBuilt();
    checkInput(input, "input");
    inputs.add(input);
    addArg(-1);
    return this;
  }

  @Override
  public OperationBuilder addInputList(Output<?>[] list) {
    checkNotBuilt();
    Objects.requireNonNull(list, "inputs");
    for (Output<?> o : list) {
      checkInput(o, "input list element");
    }
    inputs.addAll(Arrays.asList(list));
    addArg(list.length);
    return this;
  }

  private void record(String name, int kind, int count) {
    Objects.requireNonNull(name, "name");
    int id = op.attrId(name);
    if (id < 0 && unknownAttr == null) {
      unknownAttr = name;
    }
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

  @Override
  public OperationBuilder setAttr(String name, long value) {
    checkNotBuilt();
    record(name, INT, 1);
    attrs[attrLength++] = value;
    return this;
  }

  @Override
  public OperationBuilder setAttr(String name, long[] value) {
    checkNotBuilt();
    Objects.requireNonNull(value, "value");
    record(name, INTS, value.length);
    System.arraycopy(value, 0, attrs, attrLength, value.length);
    attrLength += value.length;
    return this;
  }

  @Override
  public OperationBuilder setAttr(String name, float value) {
    checkNotBuilt();
    record(name, FLOAT, 1);
    attrs[attrLength++] = Float.floatToRawIntBits(value) & 0xffffffffL;
    return this;
  }

  @Override
  public OperationBuilder setAttr(String name, float[] value) {
    checkNotBuilt();
    Objects.requireNonNull(value, "value");
    record(name, FLOATS, value.length);
    for (float v : value) {
      attrs[attrLength++] = Float.floatToRawIntBits(v) & 0xffffffffL;
    }
    return this;
  }

  @Override
  public OperationBuilder setAttr(String name, boolean value) {
    checkNotBuilt();
    record(name, BOOL, 1);
    attrs[attrLength++] = value ? 1 : 0;
    return this;
  }

  @Override
  public OperationBuilder setAttr(String name, boolean[] value) {
    checkNotBuilt();
    Objects.requireNonNull(value, "value");
    record(name, BOOLS, value.length);
    for (boolean v : value) {
      attrs[attrLength++] = v ? 1 : 0;
    }
    return this;
  }

  @Override
  public OperationBuilder setAttr(String name, DataType value) {
    checkNotBuilt();
    Objects.requireNonNull(value, "value");
    record(name, TYPE, 1);
    attrs[attrLength++] = value.code();
    return this;
  }

  @Override
  public OperationBuilder setAttr(String name, Shape value) {
    checkNotBuilt();
    Objects.requireNonNull(value, "value");
    long[] dims = value.asArray();
    if (dims == null) {
      throw new IllegalArgumentException(
          "attribute '"
              + name
              + "' of "
              + this.name
              + ": a shape of unknown rank is not supported");
    }
    record(name, SHAPE, dims.length);
    System.arraycopy(dims, 0, attrs, attrLength, dims.length);
    attrLength += dims.length;
    return this;
  }

  @Override
  public OperationBuilder setAttr(String name, String value) {
    checkNotBuilt();
    Objects.requireNonNull(value, "value");
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    int words = (bytes.length + 7) / 8;
    record(name, STRING, 1 + words);
    attrs[attrLength++] = bytes.length;
    for (int w = 0; w < words; w++) {
      long packed = 0;
      for (int b = Math.min(8, bytes.length - w * 8) - 1; b >= 0; b--) {
        packed = packed << 8 | (bytes[w * 8 + b] & 0xffL);
      }
      attrs[attrLength++] = packed;
    }
    return this;
  }

  @Override
  public OperationBuilder setAttr(String name, TType value) {
    checkNotBuilt();
    Objects.requireNonNull(value, "value");
    NativeTensor tensor = TensorTypes.unwrap(value);
    NativeScope scope = tensor.scope();
    boolean standalone = scope == NativeScope.STANDALONE;
    boolean own = scope == session.core();
    if (!standalone && !own) {
      checkForeignAttr(name, scope);
    }
    tensor.shape(); // throws if closed or released
    record(name, standalone || own ? TENSOR : FOREIGN_TENSOR, 2);
    if (!standalone && !own) {
      // The other session's id is known once build() has entered it.
      if (foreignAttrScopes == null) {
        foreignAttrScopes = new ArrayList<>(1);
        foreignAttrSlots = new int[1];
      } else if (foreignAttrSlots.length == foreignAttrScopes.size()) {
        foreignAttrSlots = Arrays.copyOf(foreignAttrSlots, foreignAttrSlots.length * 2);
      }
      foreignAttrSlots[foreignAttrScopes.size()] = attrLength;
      foreignAttrScopes.add(scope);
    }
    attrs[attrLength++] = standalone ? 0 : 1;
    attrs[attrLength++] = tensor.handle();
    if (tensorAttrs == null) {
      tensorAttrs = new ArrayList<>(1);
    }
    tensorAttrs.add(value);
    return this;
  }

  /**
   * Checks a tensor attribute of another session: it may be read while that session is open.
   *
   * @throws IllegalStateException naming the op and the attribute if the other session is closed
   */
  private void checkForeignAttr(String name, NativeScope scope) {
    if (scope instanceof SessionCore other && other.isClosed()) {
      throw new IllegalStateException(
          op.type()
              + ": tensor attribute '"
              + name
              + "' is from another session: "
              + SessionCore.CLOSED_MESSAGE);
    }
  }

  /**
   * Enters the session of each tensor attribute of another session, so that it cannot close
   * during the call, and writes its id into the attribute; returns how many it entered.
   */
  private int enterAttrOwners() {
    int n = foreignAttrScopes.size();
    int i = 0;
    try {
      for (; i < n; i++) {
        NativeScope scope = foreignAttrScopes.get(i);
        try {
          attrs[foreignAttrSlots[i]] = scope.enter();
        } catch (IllegalStateException e) {
          throw new IllegalStateException(
              op.type()
                  + ": a tensor attribute is from another session: "
                  + SessionCore.CLOSED_MESSAGE,
              e);
        }
      }
      return n;
    } catch (RuntimeException e) {
      exitAttrOwners(i);
      throw e;
    }
  }

  private void exitAttrOwners(int entered) {
    for (int i = 0; i < entered; i++) {
      foreignAttrScopes.get(i).exit();
    }
  }

  @Override
  public EagerOperation build() {
    checkNotBuilt();
    built = true;
    SessionCore core = session.core();
    long ptr = core.enter();
    long[] owners = null;
    int attrOwners = 0;
    try {
      core.safePoint(ptr);
      if (foreignAttrScopes != null) {
        attrOwners = enterAttrOwners();
      }
      if (foreign) {
        // Entered until the call returns, so another session cannot close under it.
        owners = enterOwners(ptr);
      }
      for (Output<?> in : inputs) {
        in.checkUsable();
      }
      long[] handles;
      long[] sessions = owners;
      try {
        handles = run(ptr, sessions);
      } catch (NativeMemoryExhaustedException e) {
        handles = core.retryAfterExhausted(ptr, e, () -> run(ptr, sessions));
      }
      if (handles.length > 0) {
        handles[0] = core.handle(ptr, handles[0]);
      }
      int[] lists = listLens == null ? null : Arrays.copyOf(listLens, args);
      return new EagerOperation(session, op.type(), name, handles, lists).track();
    } finally {
      if (owners != null) {
        exitOwners(ptr, owners);
      }
      if (attrOwners > 0) {
        exitAttrOwners(attrOwners);
      }
      core.exit();
      // Inputs and tensor attributes must stay reachable until the native call returned, or
      // the cleanup strategy could free them during it.
      Reference.reachabilityFence(inputs);
      Reference.reachabilityFence(tensorAttrs);
    }
  }

  /**
   * The fast native path: an attribute-free op with one or two single inputs ({@code y} may be
   * null) that always yields one output ({@link OpInfo#singleOutput}). Returns the raw handle
   * (see {@code SessionCore.handle}).
   */
  static long executeSingle(long ptr, OpInfo op, Output<?> x, Output<?> y) {
    return y == null
        ? Native.execute1(ptr, op.index(), x.handle)
        : Native.execute2(ptr, op.index(), x.handle, y.handle);
  }

  /**
   * Enters the session of each input ({@code ptr} for this session's own) and returns their ids
   * in input order; on failure exits those it entered.
   */
  private long[] enterOwners(long ptr) {
    long[] owners = new long[inputs.size()];
    int i = 0;
    try {
      for (; i < owners.length; i++) {
        Output<?> in = inputs.get(i);
        if (in.session() == session) {
          owners[i] = ptr;
        } else {
          checkForeign(op.type(), in, "input");
          try {
            owners[i] = in.core().enter();
          } catch (IllegalStateException e) {
            checkForeign(op.type(), in, "input"); // closed meanwhile: say so
            throw e;
          }
        }
      }
      return owners;
    } catch (RuntimeException e) {
      exitOwners(ptr, Arrays.copyOf(owners, i));
      throw e;
    }
  }

  private void exitOwners(long ptr, long[] owners) {
    for (int i = 0; i < owners.length; i++) {
      if (owners[i] != ptr) {
        inputs.get(i).core().exit();
      }
    }
  }

  private long[] run(long ptr, long[] owners) {
    if (unknownAttr != null) {
      throw op.unknownAttr(unknownAttr);
    }
    int n = inputs.size();
    boolean plain = listLens == null && attrs == null;
    if (owners != null) {
      long[] in = new long[n];
      for (int i = 0; i < n; i++) {
        in[i] = inputs.get(i).handle;
      }
      return Native.executeMixed(
          ptr,
          op.index(),
          in,
          owners,
          listLens == null ? null : Arrays.copyOf(listLens, args),
          attrs == null ? null : Arrays.copyOf(attrs, attrLength),
          -1,
          0);
    }
    if (plain && op.singleOutput() && (n == 1 || n == 2)) {
      return new long[] {executeSingle(ptr, op, inputs.get(0), n == 2 ? inputs.get(1) : null)};
    }
    long[] in = new long[n];
    for (int i = 0; i < n; i++) {
      in[i] = inputs.get(i).handle;
    }
    if (tensorAttrs != null) {
      for (TType t : tensorAttrs) {
        t.shape(); // throws if closed or released since it was set
      }
    }
    return Native.execute(
        ptr,
        op.index(),
        in,
        listLens == null ? null : Arrays.copyOf(listLens, args),
        attrs == null ? null : Arrays.copyOf(attrs, attrLength));
  }
}
