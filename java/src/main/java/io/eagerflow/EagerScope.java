package io.eagerflow;

import io.eagerflow.internal.FreeCall;
import io.eagerflow.internal.NativeCall;
import io.eagerflow.internal.NativeSession;
import io.eagerflow.internal.Wire;
import java.util.Arrays;
import java.util.Objects;

/**
 * A block whose tensors are freed deterministically when it closes, with no garbage collection at
 * all: the scope is to an {@link EagerSession} what a confined {@code java.lang.foreign.Arena} is
 * to memory segments. Open it with {@link EagerSession#newScope()} in try-with-resources:
 *
 * <pre>{@code
 * Operand<TFloat32> w = ...;
 * for (int step = 0; step < steps; step++) {
 *   try (EagerScope scope = session.newScope()) {
 *     Operand<TFloat32> grad = ...;                  // any number of ops
 *     w = scope.keep(tf.math.sub(w, grad));          // survives the scope
 *   }                                                // every other tensor is freed here
 * }
 * }</pre>
 *
 * <p><b>What belongs to a scope.</b> Every tensor that the thread which opened the scope creates on
 * that session while the scope is the thread's innermost open scope on it: op outputs and
 * constants, everything the session would otherwise track or hold until it closes. Tensors that
 * other threads create on the session at the same time do not: they see no scope of this thread.
 * Standalone tensors ({@code TFloat32.scalarOf} and the like) never belong to a scope. While the
 * scope is open its tensors are not tracked by the session's cleanup strategy at all: no phantom
 * reference is registered for them, and the {@code IN_BACKGROUND} thread and safe points never free
 * them, even when unreachable.
 *
 * <p><b>Closing.</b> {@link #close()} frees the scope's tensors that were neither {@link #keep
 * kept} nor already {@link EagerSession#release released}, at once and in one native call, under
 * every cleanup strategy; they count in {@link SessionStats#freedByScope()}. Any later use of an
 * operand it freed ({@code shape()}, an op input, {@code asTensor()}, reads through a tensor {@code
 * asTensor()} returned) throws {@link IllegalStateException} naming the operand, as after {@code
 * release}. Releasing an operand while its scope is open frees it at once; the scope's close then
 * skips it (nothing is counted twice). Closing twice does nothing.
 *
 * <p><b>Nesting and confinement.</b> Scopes nest per thread and session: a scope opened while
 * another scope of the same session is open on the same thread is inside it, and tensors go to the
 * innermost. Only the opening thread may use a scope. Closing a scope from another thread, or while
 * a scope opened inside it is still open, throws {@link IllegalStateException} and changes nothing:
 * both scopes stay open, new tensors still go to the innermost one, and closing them in order
 * afterwards works. Scopes of different sessions are independent. A scope that is never closed
 * keeps its tensors until its session closes (and the thread's list of open scopes keeps a
 * reference to it until the thread ends): use try-with-resources.
 *
 * <p><b>Keeping.</b> {@link #keep} moves an operand's tensor to the enclosing scope (the next outer
 * scope of the same session on this thread), or, when there is none, to the session: from then on
 * the session's strategy applies, as for a tensor created outside any scope ({@code IN_BACKGROUND}
 * and {@code ON_SAFE_POINTS} free it once it is unreachable, {@code ON_SESSION_CLOSE} at close).
 * Ownership is per output: keeping one output of an op with several ({@code split}, {@code
 * unstack}) moves that output only; its siblings are freed with the scope unless kept as well.
 *
 * <p><b>The session closing first.</b> Closing the session frees everything it holds, the tensors
 * of open scopes included (counted in {@link SessionStats#freedAtClose()}). Closing a scope
 * afterwards, on its thread and in any order, is harmless: it does nothing and throws nothing. (A
 * confined {@code Arena} throws when closed a second time; here, as for {@link
 * EagerSession#close()}, close is idempotent, so try-with-resources blocks may end in any order
 * around the session's.) {@link #keep} on a closed session throws {@code
 * IllegalStateException("Eager session has been closed")}.
 */
public final class EagerScope implements AutoCloseable {
  private static final Output<?>[] NONE = new Output<?>[0];

  final EagerSession session;
  final ScopeStack stack;
  final Thread owner;

  /** The owner thread's open scopes, of which this is one; see {@link ScopeStack}. */
  final ScopeStack.Chain chain;

  /** The next scope down the owner thread's chain (any session). Owner thread only. */
  EagerScope below;

  /** The enclosing scope of the same session on the owner thread, or null. */
  private final EagerScope parent;

  // Owner thread only. An output stays listed after keep moved it on (its scope field then names
  // another owner); close() frees only the outputs this scope still owns.
  private Output<?>[] owned = NONE;
  private int count;
  private volatile boolean closed;

  EagerScope(EagerSession session, ScopeStack stack, ScopeStack.Chain chain, EagerScope parent) {
    this.session = session;
    this.stack = stack;
    this.owner = Thread.currentThread();
    this.chain = chain;
    this.parent = parent;
  }

  /** Takes ownership of new outputs of an op that this scope's thread just ran. */
  void adopt(Output<?>[] outputs) {
    for (Output<?> o : outputs) {
      add(o);
    }
  }

  private void add(Output<?> o) {
    if (count == owned.length) {
      owned = Arrays.copyOf(owned, Math.max(8, count * 2));
    }
    owned[count++] = o;
    o.scope = this;
  }

  /**
   * Moves {@code operand}'s tensor out of this scope, to the enclosing scope or, when there is
   * none, to the session and its cleanup strategy, and returns {@code operand}. Does nothing to an
   * operand this scope does not own (created outside it, or already kept), which is returned as it
   * is.
   *
   * @throws IllegalStateException if this scope is closed, if called from a thread other than the
   *     one that opened it, or if the operand was released or freed (the message names it) or its
   *     session is closed
   * @throws IllegalArgumentException if the operand belongs to another session
   */
  public <T extends Operand<?>> T keep(T operand) {
    Objects.requireNonNull(operand, "operand");
    checkThread("keep");
    if (closed) {
      throw new IllegalStateException(
          "EagerScope has been closed: keep() must come before close()");
    }
    Output<?> o = operand.asOutput();
    if (o.session() != session) {
      throw new IllegalArgumentException(o + " belongs to another session");
    }
    o.checkUsable();
    if (o.scope != this) {
      return operand;
    }
    if (parent != null) {
      parent.add(o);
      return operand;
    }
    Keep keep = new Keep(o);
    session.core().call(keep);
    return operand;
  }

  /**
   * Frees every tensor of this scope that was not kept or released, in one native call, counted in
   * {@link SessionStats#freedByScope()}. Does nothing if the scope is closed already or its session
   * was closed (which freed everything).
   *
   * @throws IllegalStateException if called from a thread other than the one that opened the scope,
   *     or while a scope opened inside it (on the same session) is still open; nothing changes then
   */
  @Override
  public void close() {
    checkThread("close");
    if (closed) {
      return;
    }
    NativeSession core = session.core();
    if (!core.isClosed() && !stack.isInnermost(this)) {
      throw new IllegalStateException(
          "EagerScope closed out of order: a scope opened inside it on thread '"
              + owner.getName()
              + "' is still open; close that one first");
    }
    closed = true;
    stack.pop(this);
    Output<?>[] list = owned;
    int n = count;
    owned = NONE;
    count = 0;
    if (n == 0) {
      return;
    }
    try {
      FreeOwned free = new FreeOwned(this, list, n);
      core.call(free);
    } catch (IllegalStateException e) {
      if (!core.isClosed()) {
        throw e;
      }
      // The session's close freed them all.
    }
  }

  /** Moves a kept output of the outermost scope to the session's tracking. */
  private static final class Keep extends NativeCall.OnOperand<Void> {
    private final Output<?> output;

    Keep(Output<?> output) {
      super(output);
      this.output = output;
    }

    @Override
    protected long invoke(long sessionId) {
      return 0;
    }

    @Override
    protected Void result(long handle) {
      output.scope = null;
      output.operation().trackKept(output);
      return null;
    }
  }

  /** Frees, in one native call, the outputs a closing scope still owns. */
  private static final class FreeOwned extends FreeCall {
    private final EagerScope scope;
    private final Output<?>[] owned;
    private final int count;

    FreeOwned(EagerScope scope, Output<?>[] owned, int count) {
      super(false, Wire.FREED_BY_SCOPE);
      this.scope = scope;
      this.owned = owned;
      this.count = count;
    }

    @Override
    protected void select() {
      for (int i = 0; i < count; i++) {
        Output<?> o = owned[i];
        if (o.scope == scope && o.markFreedByScope()) {
          free(o.handle);
        }
      }
    }
  }

  private void checkThread(String what) {
    Thread t = Thread.currentThread();
    if (t != owner) {
      throw new IllegalStateException(
          "EagerScope is confined to thread '"
              + owner.getName()
              + "', which opened it; "
              + what
              + "() was called from thread '"
              + t.getName()
              + "'");
    }
  }

  @Override
  public String toString() {
    return "<EagerScope of thread '" + owner.getName() + "'" + (closed ? " closed" : "") + ">";
  }
}
