package io.eagerflow;

import io.eagerflow.internal.DescribeCall;
import io.eagerflow.internal.NativeSession;
import io.eagerflow.internal.NativeTensor;
import io.eagerflow.internal.TensorTypes;
import io.eagerflow.internal.Usable;
import io.eagerflow.internal.Wire;
import io.eagerflow.types.TType;
import org.tensorflow.ndarray.Shape;

/**
 * One output of an executed op: a native tensor owned by the op's session. It stays allocated while
 * reachable, until {@link EagerSession#release} or until the session's cleanup strategy frees it
 * after it became unreachable; an output made inside an {@link EagerScope} is freed when that scope
 * closes, unless {@link EagerScope#keep kept}.
 *
 * @param <T> the tensor type of the value
 */
public final class Output<T extends TType> implements Operand<T>, Usable {
  private final EagerOperation op;
  private final int index;
  final long handle;
  private volatile boolean released;

  /** Set before {@code released} when the output's scope freed it, for the message. */
  private boolean freedByScope;

  /**
   * The scope this output was made in or kept into (it may have closed since); null outside scopes
   * and once kept out to the session. Used by that scope's thread only.
   */
  EagerScope scope;

  private volatile DataType dataType;
  private volatile Shape shape;
  private volatile T tensor;

  Output(EagerOperation op, int index, long handle, DataType dataType, Shape shape) {
    this.op = op;
    this.index = index;
    this.handle = handle;
    this.dataType = dataType;
    this.shape = shape;
  }

  /**
   * The operation that produced this output.
   *
   * @throws IllegalStateException if the session is closed
   */
  public Operation op() {
    checkSessionOpen();
    return op;
  }

  /** The operation, also after close. */
  EagerOperation operation() {
    return op;
  }

  /** This output's position among its operation's outputs. */
  public int index() {
    return index;
  }

  /**
   * This output.
   *
   * @throws IllegalStateException if the session is closed
   */
  @Override
  public Output<T> asOutput() {
    checkSessionOpen();
    return this;
  }

  EagerSession session() {
    return op.session();
  }

  NativeSession core() {
    return op.core();
  }

  /** Throws {@link IllegalStateException} if the session is closed or this output was released. */
  @Override
  public void checkUsable() {
    checkSessionOpen();
    if (released) {
      throw new IllegalStateException(
          "Operand '"
              + label()
              + "' has been released"
              + (freedByScope ? " (freed when its EagerScope closed)" : ""));
    }
  }

  private void checkSessionOpen() {
    if (op.core().isClosed()) {
      throw new IllegalStateException(Wire.CLOSED_MESSAGE);
    }
  }

  /** Marks this output released; returns false if it already was (exactly one caller wins). */
  synchronized boolean markReleased() {
    if (released) {
      return false;
    }
    released = true;
    return true;
  }

  /** As {@link #markReleased}, when the output's scope frees it. */
  synchronized boolean markFreedByScope() {
    if (released) {
      return false;
    }
    freedByScope = true;
    released = true;
    return true;
  }

  boolean isReleased() {
    return released;
  }

  private String label() {
    return op.name() + ":" + index;
  }

  /** Fetches dtype and shape; {@code await}: wait for a pending output even if both are known. */
  private void describe(long[] d) {
    long[] dims = new long[(int) d[1]];
    System.arraycopy(d, 2, dims, 0, dims.length);
    shape = Shape.of(dims);
    dataType = DataType.fromCode((int) d[0]);
  }

  private void ensureDescribed() {
    if (dataType == null || shape == null) {
      describe(op.core().call(new DescribeCall(this, handle, true, false, false)));
    }
  }

  @Override
  public Shape shape() {
    checkUsable();
    ensureDescribed();
    return shape;
  }

  @Override
  public DataType dataType() {
    checkUsable();
    ensureDescribed();
    return dataType;
  }

  @Override
  public Class<T> type() {
    return TensorTypes.classOf(dataType());
  }

  /**
   * The value as a read-only tensor sharing this output's buffer (no copy), computed once. It keeps
   * this output reachable while it is reachable itself.
   *
   * @throws IllegalStateException if this output was released or its session closed
   */
  @Override
  public T asTensor() {
    NativeSession core = op.core();
    T t = tensor;
    // A value of an asynchronous session waits for its op (and throws if it failed).
    boolean describe = t == null && (dataType == null || shape == null || core.isAsync());
    long[] d = core.call(new DescribeCall(this, handle, describe, true, true));
    if (t == null) {
      if (d != null) {
        describe(d);
      }
      t = TensorTypes.wrap(NativeTensor.view(core, handle, shape, dataType, this));
      tensor = t;
    }
    return t;
  }

  @Override
  public String toString() {
    String state;
    if (op.core().isClosed()) {
      state = "closed";
    } else if (released) {
      state = "released";
    } else {
      state = shape == null ? "" : "shape=" + shape + " dtype=" + dataType;
    }
    return "<" + op.type() + " '" + label() + "'" + (state.isEmpty() ? "" : " " + state) + ">";
  }
}
