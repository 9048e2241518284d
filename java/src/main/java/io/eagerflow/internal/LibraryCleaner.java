package io.eagerflow.internal;

import java.lang.ref.Cleaner;

/**
 * The library's one {@link Cleaner} (thread {@code eagerflow-cleaner}): the safety net for
 * standalone tensors and sessions that become unreachable without being closed. Actions must
 * capture only what they free, never the watched object.
 */
public final class LibraryCleaner {
  private static final Cleaner CLEANER =
      Cleaner.create(
          r -> {
            Thread t = new Thread(r, "eagerflow-cleaner");
            t.setDaemon(true);
            return t;
          });

  private LibraryCleaner() {}

  public static Cleaner.Cleanable register(Object watched, Runnable action) {
    return CLEANER.register(watched, action);
  }
}
