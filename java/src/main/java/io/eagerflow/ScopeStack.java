package io.eagerflow;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The {@link EagerScope}s open on one session, found per thread. Each thread links the scopes it
 * has open, over all sessions, innermost first ({@link EagerScope#below}); a session's innermost
 * scope on a thread is the first one of that session on the thread's chain.
 *
 * <p>The per-op question "which scope owns what this thread creates?" must cost nothing when no
 * scope is open, so {@link #current()} first reads a count of the scopes open on the session (on
 * any thread). When some are, {@link #last} usually answers it without a thread-local lookup: it is
 * a scope that some thread opened or returned to, and every change to a thread's scopes on this
 * session rewrites it with that thread's new innermost scope (or null). So if {@code last} belongs
 * to the calling thread, no change by this thread happened after it was written, and it is still
 * this thread's innermost scope. Otherwise the thread's own chain answers.
 */
final class ScopeStack {
  private static final AtomicIntegerFieldUpdater<ScopeStack> OPEN =
      AtomicIntegerFieldUpdater.newUpdater(ScopeStack.class, "open");

  /** Each thread's open scopes, over all sessions; touched only by that thread. */
  private static final ThreadLocal<Chain> THREAD = ThreadLocal.withInitial(Chain::new);

  /** A thread's open scopes, innermost first, linked by {@link EagerScope#below}. */
  static final class Chain {
    EagerScope top;
  }

  /** Scopes open on this session, on all threads. */
  private volatile int open;

  /** Some thread's innermost scope on this session, or null; see the class comment. */
  private volatile EagerScope last;

  /** The calling thread's innermost open scope on this session, or null. */
  EagerScope current() {
    if (open == 0) {
      return null;
    }
    EagerScope s = last;
    if (s != null && s.owner == Thread.currentThread()) {
      return s;
    }
    return find(THREAD.get().top);
  }

  /** The first scope of this session at or below {@code from} on a thread's chain. */
  private EagerScope find(EagerScope from) {
    for (EagerScope s = from; s != null; s = s.below) {
      if (s.stack == this) {
        return s;
      }
    }
    return null;
  }

  /** Opens a scope on the calling thread; it becomes the thread's innermost on this session. */
  EagerScope push(EagerSession session) {
    Chain chain = THREAD.get();
    EagerScope s = new EagerScope(session, this, chain, find(chain.top));
    s.below = chain.top;
    chain.top = s;
    OPEN.incrementAndGet(this);
    last = s;
    return s;
  }

  /** Whether {@code s} is its thread's innermost open scope on this session. Owner thread only. */
  boolean isInnermost(EagerScope s) {
    return find(s.chain.top) == s;
  }

  /** Unlinks {@code s} (normally the innermost) from its thread's chain. Owner thread only. */
  void pop(EagerScope s) {
    Chain chain = s.chain;
    if (chain.top == s) {
      chain.top = s.below;
    } else {
      for (EagerScope p = chain.top; p != null; p = p.below) {
        if (p.below == s) {
          p.below = s.below;
          break;
        }
      }
    }
    s.below = null;
    last = find(chain.top);
    OPEN.decrementAndGet(this);
  }
}
