package io.eagerflow.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the code run while an audit is open leaves behind: sessions and standalone tensors it
 * created and did not close, and (for sessions that track leaks) op outputs freed by a cleanup
 * strategy or at close rather than by {@code release} or a scope. For test frameworks: the {@code
 * io.eagerflow.junit} module opens one per test.
 *
 * <p>Audits nest (a test's inside its class's); what is created while several are open belongs to
 * the innermost, which hears how it ends even after it closed (then it ignores it). While an audit
 * is open every session and standalone tensor records its creation site, a stack capture each.
 * Audits are process-wide: code that other tests run at the same time would be counted too.
 */
public final class LeakAudit implements AutoCloseable {
  /** What a finding is about. */
  public enum Kind {
    SESSION,
    STANDALONE_TENSOR,
    OUTPUT
  }

  /**
   * Something left behind.
   *
   * @param kind what it is
   * @param how what happened to it: not closed yet, or how the library freed it instead
   * @param site where it was created (a throwable whose stack is the creation stack)
   */
  public record Leak(Kind kind, String how, LeakSites.Site site) {
    /** The first frames outside the library that created it. */
    public String where() {
      return site.where();
    }

    @Override
    public String toString() {
      String what =
          switch (kind) {
            case SESSION -> "EagerSession";
            case STANDALONE_TENSOR -> "standalone tensor";
            case OUTPUT -> "op output";
          };
      return what + " created at " + where() + ": " + how;
    }
  }

  private static final List<LeakAudit> OPEN = new ArrayList<>(); // guarded by itself
  private static volatile LeakAudit innermost;

  private final Map<LeakSites.Site, Boolean> live = new IdentityHashMap<>(); // guarded by this
  private final List<Leak> freed = new ArrayList<>(); // guarded by this
  private boolean closed; // guarded by this

  private LeakAudit() {}

  /** Opens an audit, innermost from now until it or an audit opened later closes. */
  public static LeakAudit open() {
    LeakAudit audit = new LeakAudit();
    synchronized (OPEN) {
      OPEN.add(audit);
      innermost = audit;
    }
    return audit;
  }

  static LeakAudit innermost() {
    return innermost;
  }

  /**
   * What is left behind now: every session and standalone tensor created under this audit and not
   * closed (still open, or freed by the library instead), and every op output freed by a cleanup
   * strategy or at close, in the order they happened.
   */
  public synchronized List<Leak> leaks() {
    List<Leak> all = new ArrayList<>(freed);
    for (LeakSites.Site site : live.keySet()) {
      all.add(
          new Leak(
              site.kind,
              site.kind == Kind.SESSION ? "never closed" : "still open, never closed",
              site));
    }
    return Collections.unmodifiableList(all);
  }

  /** Stops recording: what happens later to what it saw is ignored. Idempotent. */
  @Override
  public void close() {
    synchronized (this) {
      closed = true;
    }
    synchronized (OPEN) {
      OPEN.remove(this);
      innermost = OPEN.isEmpty() ? null : OPEN.get(OPEN.size() - 1);
    }
  }

  synchronized void created(LeakSites.Site site) {
    if (!closed && site.kind != Kind.OUTPUT) {
      live.put(site, Boolean.TRUE);
    }
  }

  synchronized void closed(LeakSites.Site site) {
    live.remove(site);
  }

  synchronized void leaked(LeakSites.Site site, String how) {
    if (!closed) {
      live.remove(site);
      freed.add(new Leak(site.kind, how, site));
    }
  }
}
