package io.eagerflow.internal;

import java.util.Arrays;

/**
 * One call into a session's native table, as {@link NativeSession#call} runs it: the door enters
 * the session, runs the safe point, calls {@link #prepare}, then {@link #invoke} (once more after
 * the hard limit refused it and pressure was relieved), decodes the collection signal in the
 * returned handle, makes the {@link #result} and hands it to tracking if it owns new outputs, exits
 * every session it entered and keeps this object, and so every operand it holds, reachable until
 * the call has returned. Subclasses say what to call, never how.
 *
 * <p>Not thread-safe, and used for one call (a builder may be one).
 */
public abstract class NativeCall<R> {
  private NativeSession[] others;
  private int otherCount;

  /**
   * Whether the call is a safe point (API.md: ops, constants, {@code asTensor}, release); reads of
   * tensor values are not.
   */
  protected boolean isSafePoint() {
    return true;
  }

  /**
   * Runs entered, after the safe point and before {@link #invoke}: checks that operands are still
   * usable, and enters the sessions of operands from other sessions with {@link #enterOther}.
   */
  protected void prepare(long sessionId) {}

  /**
   * The native call. Returns the raw handle of its first output, negative when the session asks for
   * a collection ({@code ~handle}), or any non-negative value when it makes no output.
   */
  protected abstract long invoke(long sessionId);

  /** The call's result, from the first output's decoded handle; runs entered. */
  protected abstract R result(long handle);

  /**
   * Enters {@code other}, the session of an operand this call reads, until the call has ended, so
   * that it cannot close meanwhile; returns its id for the native call.
   *
   * @throws IllegalStateException if {@code other} is closed
   */
  protected final long enterOther(NativeSession other) {
    long id = other.enter();
    if (others == null) {
      others = new NativeSession[2];
    } else if (otherCount == others.length) {
      others = Arrays.copyOf(others, otherCount * 2);
    }
    others[otherCount++] = other;
    return id;
  }

  /**
   * A call on one operand that is not a safe point (reads, moves between owners): it first checks
   * that the operand is still usable, so a released or closed one is named in the exception.
   */
  public abstract static class OnOperand<R> extends NativeCall<R> {
    private final Usable operand;

    protected OnOperand(Usable operand) {
      this.operand = operand;
    }

    @Override
    protected boolean isSafePoint() {
      return false;
    }

    @Override
    protected void prepare(long sessionId) {
      operand.checkUsable();
    }
  }

  /** Exits what {@link #enterOther} entered; the door's last step. */
  final void exitOthers() {
    for (int i = otherCount - 1; i >= 0; i--) {
      others[i].exit();
      others[i] = null;
    }
    otherCount = 0;
  }
}
