package io.eagerflow;

import io.eagerflow.internal.OpCall;
import io.eagerflow.internal.OpInfo;

/**
 * The op facade's call of an op without attributes on one input or two, or on one input and a
 * scalar made natively. Each thread reuses one, so the facade's ops allocate no call object: in
 * sessions that track references every byte allocated per op costs in collections. A call made
 * while this thread's is running (from a logger the cleanup calls, say) gets a fresh one.
 */
final class FacadeCall extends OpCall<EagerOperation> {
  private static final ThreadLocal<FacadeCall> CACHED = ThreadLocal.withInitial(FacadeCall::new);

  private EagerSession session;

  /** The dtype of the only output when known before the call (an op with a scalar input). */
  private DataType outputType;

  private boolean busy;

  private FacadeCall() {
    super(null, null);
  }

  /** This thread's call for {@code op} on {@code x} and {@code y} (which may be null). */
  static FacadeCall acquire(EagerSession session, OpInfo op, Output<?> x, Output<?> y) {
    FacadeCall c = CACHED.get();
    if (c.busy) {
      c = new FacadeCall();
    }
    c.busy = true;
    c.session = session;
    c.reset(session.core(), op);
    c.addInput(x, x.handle, x.core());
    if (y != null) {
      c.addInput(y, y.handle, y.core());
    }
    return c;
  }

  /**
   * Adds, as the last input, a scalar of {@code type} holding {@code value}, made natively and
   * never stored or counted ({@code zeros} and {@code ones} as {@code Fill}); the only output has
   * dtype {@code type}.
   */
  FacadeCall withScalar(DataType type, double value) {
    scalarInput(type.code(), value);
    outputType = type;
    return this;
  }

  /** Forgets the call's operands and session, and lets this thread use it again. */
  void release() {
    reset(null, null);
    session = null;
    outputType = null;
    busy = false;
  }

  @Override
  protected RuntimeException foreignInputClosed(int index, IllegalStateException e) {
    // Only a scalar run takes an input of another session here.
    EagerOperationBuilder.checkForeign(op.type(), (Output<?>) inputOwner(index), "input");
    return e;
  }

  @Override
  protected EagerOperation outputs(long first, long[] all) {
    return all == null
        ? new EagerOperation(session, op.type(), null, first, outputType, null)
        : new EagerOperation(session, op.type(), null, all, inputLists());
  }
}
