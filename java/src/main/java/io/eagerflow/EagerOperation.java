package io.eagerflow;

import io.eagerflow.internal.SessionCore;
import io.eagerflow.types.TType;
import org.tensorflow.ndarray.Shape;

/** An op that has run: its type, name and outputs. Thread-safe and immutable. */
final class EagerOperation implements Operation {
  private final EagerSession session;
  private final String type;
  private final String name;
  private final long number;
  private final Output<?>[] outputs;
  private volatile Object tracking;
  /** Per-output tracking of outputs kept out of a scope, for ops with several outputs. */
  private volatile Object[] keptTracking;

  EagerOperation(EagerSession session, String type, String name, long[] handles) {
    this.session = session;
    this.type = type;
    this.name = name;
    this.number = name == null ? session.core().nextOpNumber() : -1;
    this.outputs = new Output<?>[handles.length];
    for (int i = 0; i < handles.length; i++) {
      outputs[i] = new Output<>(this, i, handles[i], null, null);
    }
  }

  /** A one-output op whose type and shape are known (constants). */
  EagerOperation(EagerSession session, String type, long handle, DataType dataType, Shape shape) {
    this.session = session;
    this.type = type;
    this.name = null;
    this.number = session.core().nextOpNumber();
    this.outputs = new Output<?>[] {new Output<>(this, 0, handle, dataType, shape)};
  }

  /**
   * Registers the outputs with the calling thread's innermost scope on the session, if one is
   * open, else with the cleanup strategy. Call while the session is entered.
   */
  EagerOperation track() {
    EagerScope scope = session.scopes.current();
    if (scope != null) {
      scope.adopt(outputs);
      return this;
    }
    SessionCore core = session.core();
    if (outputs.length == 1) {
      tracking = core.track(this, outputs[0].handle, null);
    } else if (outputs.length > 1) {
      long[] handles = new long[outputs.length];
      for (int i = 0; i < handles.length; i++) {
        handles[i] = outputs[i].handle;
      }
      tracking = core.track(this, 0, handles);
    }
    return this;
  }

  /**
   * Hands output {@code o}, kept out of the last scope that owned it, to the cleanup strategy.
   * Call while the session is entered.
   */
  void trackKept(Output<?> o) {
    Object token = session.core().track(this, o.handle, null);
    if (token == null) {
      return;
    }
    if (outputs.length == 1) {
      tracking = token;
      return;
    }
    synchronized (this) {
      Object[] kept = keptTracking;
      if (kept == null) {
        kept = new Object[outputs.length];
      }
      kept[o.index()] = token;
      keptTracking = kept;
    }
  }

  private synchronized void untrackReleasedKept() {
    Object[] kept = keptTracking;
    for (int i = 0; i < kept.length; i++) {
      if (kept[i] != null && outputs[i].isReleased()) {
        session.core().untrack(kept[i]);
        kept[i] = null;
      }
    }
  }

  /** Once every output was released, the phantom reference has nothing left to free. */
  void outputReleased() {
    if (keptTracking != null) {
      untrackReleasedKept();
    }
    for (Output<?> o : outputs) {
      if (!o.isReleased()) {
        return;
      }
    }
    Object t = tracking;
    if (t != null) {
      tracking = null;
      session.core().untrack(t);
    }
  }

  EagerSession session() {
    return session;
  }

  SessionCore core() {
    return session.core();
  }

  @Override
  public String type() {
    return type;
  }

  @Override
  public String name() {
    return name != null ? name : number == 0 ? type : type + "_" + number;
  }

  @Override
  public int numOutputs() {
    return outputs.length;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T extends TType> Output<T> output(int index) {
    if (session.core().isClosed()) {
      throw new IllegalStateException(SessionCore.CLOSED_MESSAGE);
    }
    if (index < 0 || index >= outputs.length) {
      throw new IndexOutOfBoundsException(
          "output " + index + " of op '" + name() + "', which has " + outputs.length);
    }
    return (Output<T>) outputs[index];
  }

  @Override
  public String toString() {
    return "<" + type + " '" + name() + "'>";
  }
}
