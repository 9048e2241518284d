package io.eagerflow.internal;

import java.security.CodeSource;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Creation sites of tensors, recorded when leak tracking is on, and the warning logged once per
 * site when such a tensor is freed by a cleanup strategy or at close instead of explicitly.
 */
public final class LeakSites {
  private static final System.Logger LOG = System.getLogger("io.eagerflow");
  private static final Set<String> REPORTED = ConcurrentHashMap.newKeySet();
  private static final CodeSource LIBRARY = LeakSites.class.getProtectionDomain().getCodeSource();
  private static volatile boolean standalone = Boolean.getBoolean("eagerflow.trackLeaks");

  private LeakSites() {}

  /** Where something was created; the stack is captured by the constructor. */
  public static final class Site extends Throwable {
    private static final long serialVersionUID = 1L;

    final transient LeakAudit.Kind kind;
    // The innermost audit open when it was created, or null; it hears how this ends.
    final transient LeakAudit audit;

    private Site(String what, LeakAudit.Kind kind) {
      super(what + " created here");
      this.kind = kind;
      this.audit = LeakAudit.innermost();
    }

    /** The first frames outside the library: where the user's code made it. */
    public String where() {
      return callerFrames(this);
    }
  }

  private static Site site(String what, LeakAudit.Kind kind) {
    Site site = new Site(what, kind);
    if (site.audit != null) {
      site.audit.created(site);
    }
    return site;
  }

  /** Turns on tracking of standalone tensors (a session with {@code trackLeaks(true)} does). */
  public static void trackStandalone() {
    standalone = true;
  }

  /** A site for a standalone tensor if tracking is on or a {@link LeakAudit} is open, else null. */
  public static Site standaloneSite() {
    return standalone || LeakAudit.innermost() != null
        ? site("standalone tensor", LeakAudit.Kind.STANDALONE_TENSOR)
        : null;
  }

  /** A site for a session if {@code trackLeaks} or a {@link LeakAudit} is open, else null. */
  public static Site sessionSite(boolean trackLeaks) {
    return trackLeaks || LeakAudit.innermost() != null
        ? site("EagerSession", LeakAudit.Kind.SESSION)
        : null;
  }

  /** The site of an op output, for a session that tracks leaks. */
  public static Site capture(String what) {
    return site(what, LeakAudit.Kind.OUTPUT);
  }

  /** What {@code site} marks was closed or released as it should be (a null site is ignored). */
  public static void closed(Site site) {
    if (site != null && site.audit != null) {
      site.audit.closed(site);
    }
  }

  /** Logs {@code site} at WARNING, once per distinct creation frame. */
  public static void report(Site site, String how) {
    if (site == null) {
      return;
    }
    if (site.audit != null) {
      site.audit.leaked(site, how);
    }
    String where = callerFrames(site);
    if (REPORTED.add(site.getMessage() + "@" + where)) {
      Flight.log(
          LOG,
          System.Logger.Level.WARNING,
          Flight.Kind.LEAK,
          "eagerflow leak: "
              + site.getMessage().replace(" created here", "")
              + " created at "
              + where
              + " was never released; "
              + how,
          site);
    }
  }

  /**
   * The {@code limit} user-code frames that created the most of {@code sites}, with their counts,
   * as "Frame (n), Frame (m)"; empty if there are none.
   */
  static String topSites(Iterable<Site> sites, int limit) {
    java.util.Map<String, Integer> counts = new java.util.HashMap<>();
    for (Site site : sites) {
      counts.merge(firstUserFrame(site), 1, Integer::sum);
    }
    return counts.entrySet().stream()
        .sorted(java.util.Map.Entry.<String, Integer>comparingByValue().reversed())
        .limit(limit)
        .map(e -> e.getKey() + " (" + e.getValue() + ")")
        .collect(java.util.stream.Collectors.joining(", "));
  }

  private static String firstUserFrame(Site site) {
    for (StackTraceElement e : site.getStackTrace()) {
      if (!isLibrary(e.getClassName())) {
        return e.toString();
      }
    }
    return "an unknown place";
  }

  /** The first frames outside the library: where the user's code made the tensor. */
  static String callerFrames(Site site) {
    StringBuilder sb = new StringBuilder();
    int shown = 0;
    for (StackTraceElement e : site.getStackTrace()) {
      if (shown == 3) {
        break;
      }
      if (shown > 0 || !isLibrary(e.getClassName())) {
        sb.append(shown == 0 ? "" : " <- ").append(e);
        shown++;
      }
    }
    return shown == 0 ? "an unknown place" : sb.toString();
  }

  private static boolean isLibrary(String className) {
    if (!className.startsWith("io.eagerflow.")) {
      return false;
    }
    try {
      Class<?> c = Class.forName(className, false, LeakSites.class.getClassLoader());
      CodeSource cs = c.getProtectionDomain().getCodeSource();
      return LIBRARY == null || cs == null || LIBRARY.getLocation().equals(cs.getLocation());
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
