package io.eagerflow.junit;

import io.eagerflow.internal.LeakAudit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.opentest4j.AssertionFailedError;

/** The failure of a test that left sessions or tensors behind. */
final class LeakReport {
  /** Groups shown one per line; the rest are counted. */
  private static final int SHOWN = 20;

  private LeakReport() {}

  /**
   * One line per creation site and outcome ("op output created at A.b(A.java:12): freed when its
   * session closed (x3)"), with each site's creation stack attached as a suppressed throwable.
   */
  static AssertionFailedError failure(String test, List<LeakAudit.Leak> leaks, boolean strict) {
    Map<String, Group> groups = new LinkedHashMap<>();
    for (LeakAudit.Leak leak : leaks) {
      groups.computeIfAbsent(leak.toString(), k -> new Group(leak)).count++;
    }
    StringBuilder message =
        new StringBuilder(test)
            .append(" left ")
            .append(leaks.size())
            .append(leaks.size() == 1 ? " thing" : " things")
            .append(" behind:");
    int shown = 0;
    for (Map.Entry<String, Group> e : groups.entrySet()) {
      if (shown++ == SHOWN) {
        message.append("\n  ... and ").append(groups.size() - SHOWN).append(" more sites");
        break;
      }
      message.append("\n  ").append(e.getKey());
      if (e.getValue().count > 1) {
        message.append(" (x").append(e.getValue().count).append(')');
      }
    }
    message.append("\nClose sessions and standalone tensors (try-with-resources)");
    if (strict) {
      message.append("; release op outputs (EagerSession.release) or make them in an EagerScope");
    }
    message.append('.');
    AssertionFailedError failure = new AssertionFailedError(message.toString());
    groups.values().stream().limit(SHOWN).forEach(g -> failure.addSuppressed(g.first.site()));
    return failure;
  }

  private static final class Group {
    final LeakAudit.Leak first;
    int count;

    Group(LeakAudit.Leak first) {
      this.first = first;
    }
  }
}
