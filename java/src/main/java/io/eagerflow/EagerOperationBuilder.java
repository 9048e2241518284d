package io.eagerflow;

import io.eagerflow.internal.NativeSession;
import io.eagerflow.internal.NativeTensor;
import io.eagerflow.internal.OpCall;
import io.eagerflow.internal.OpInfo;
import io.eagerflow.internal.TensorTypes;
import io.eagerflow.internal.Wire;
import io.eagerflow.types.TType;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.tensorflow.ndarray.Shape;

/**
 * Collects an op's inputs and attributes, then runs it in one native call through the session's
 * door. Checks what TensorFlow Java's builders check and names the op in every message. Not
 * thread-safe, like TensorFlow Java's builders.
 */
final class EagerOperationBuilder extends OpCall<EagerOperation> implements OperationBuilder {
  private final EagerSession session;
  private final @Nullable String name;

  /** The first attribute name the op does not have; build() throws for it. */
  private String unknownAttr;

  private boolean built;

  EagerOperationBuilder(EagerSession session, OpInfo op, @Nullable String name) {
    super(session.core(), op);
    this.session = session;
    this.name = name;
  }

  /** Called first by every public method. */
  private void checkNotBuilt() {
    session.core().checkOpen();
    if (built) {
      throw new IllegalStateException("Operation has already been built");
    }
  }

  private NativeSession checkInput(Output<?> input, String what) {
    Objects.requireNonNull(input, what);
    if (input.session() != session) {
      checkForeign(op.type(), input, what);
    }
    input.checkUsable();
    return input.core();
  }

  /**
   * Checks an input made by another session: it may be read while that session is open.
   *
   * @throws IllegalStateException naming the op and the input if the other session is closed
   */
  static void checkForeign(String opType, Output<?> input, String what) {
    if (input.core().isClosed()) {
      throw new IllegalStateException(
          opType + ": " + what + " " + input + " is from another session: " + Wire.CLOSED_MESSAGE);
    }
  }

  @Override
  public OperationBuilder addInput(Output<?> input) {
    checkNotBuilt();
    NativeSession from = checkInput(input, "input"); // before input.handle: a null is named
    addInput(input, input.handle, from);
    return this;
  }

  @Override
  public OperationBuilder addInputList(Output<?>[] list) {
    checkNotBuilt();
    Objects.requireNonNull(list, "inputs");
    int n = list.length;
    NativeSession[] from = new NativeSession[n];
    long[] handles = new long[n];
    for (int i = 0; i < n; i++) {
      from[i] = checkInput(list[i], "input list element");
      handles[i] = list[i].handle;
    }
    addInputList(list, handles, from);
    return this;
  }

  @Override
  protected RuntimeException foreignInputClosed(int index, IllegalStateException e) {
    checkForeign(op.type(), (Output<?>) inputOwner(index), "input"); // closed meanwhile: say so
    return e;
  }

  @Override
  protected RuntimeException foreignAttrClosed(IllegalStateException e) {
    return new IllegalStateException(
        op.type() + ": a tensor attribute is from another session: " + Wire.CLOSED_MESSAGE, e);
  }

  /** The attribute's id for the op, remembering the first unknown name for build(). */
  private int attrId(String name) {
    Objects.requireNonNull(name, "name");
    int id = op.attrId(name);
    if (id < 0 && unknownAttr == null) {
      unknownAttr = name;
    }
    return id;
  }

  @Override
  public OperationBuilder setAttr(String name, long value) {
    checkNotBuilt();
    attrInt(attrId(name), value);
    return this;
  }

  @Override
  public OperationBuilder setAttr(String name, long[] value) {
    checkNotBuilt();
    Objects.requireNonNull(value, "value");
    attrInts(attrId(name), value);
    return this;
  }

  @Override
  public OperationBuilder setAttr(String name, float value) {
    checkNotBuilt();
    attrFloat(attrId(name), value);
    return this;
  }

  @Override
  public OperationBuilder setAttr(String name, float[] value) {
    checkNotBuilt();
    Objects.requireNonNull(value, "value");
    attrFloats(attrId(name), value);
    return this;
  }

  @Override
  public OperationBuilder setAttr(String name, boolean value) {
    checkNotBuilt();
    attrBool(attrId(name), value);
    return this;
  }

  @Override
  public OperationBuilder setAttr(String name, boolean[] value) {
    checkNotBuilt();
    Objects.requireNonNull(value, "value");
    attrBools(attrId(name), value);
    return this;
  }

  @Override
  public OperationBuilder setAttr(String name, DataType value) {
    checkNotBuilt();
    Objects.requireNonNull(value, "value");
    attrType(attrId(name), value.code());
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
    attrShape(attrId(name), dims);
    return this;
  }

  @Override
  public OperationBuilder setAttr(String name, String value) {
    checkNotBuilt();
    Objects.requireNonNull(value, "value");
    attrString(attrId(name), value);
    return this;
  }

  @Override
  public OperationBuilder setAttr(String name, TType value) {
    checkNotBuilt();
    Objects.requireNonNull(value, "value");
    NativeTensor tensor = TensorTypes.unwrap(value);
    NativeSession from = tensor.session();
    if (from != NativeSession.STANDALONE && from != session.core() && from.isClosed()) {
      throw new IllegalStateException(
          op.type()
              + ": tensor attribute '"
              + name
              + "' is from another session: "
              + Wire.CLOSED_MESSAGE);
    }
    tensor.shape(); // throws if closed or released
    attrTensor(attrId(name), tensor);
    return this;
  }

  @Override
  protected void check() {
    if (unknownAttr != null) {
      throw op.unknownAttr(unknownAttr);
    }
  }

  @Override
  public EagerOperation build() {
    checkNotBuilt();
    built = true;
    return session.core().call(this);
  }

  @Override
  protected EagerOperation outputs(long first, long[] all) {
    return all == null
        ? new EagerOperation(session, op.type(), name, first, null, null)
        : new EagerOperation(session, op.type(), name, all, inputLists());
  }
}
