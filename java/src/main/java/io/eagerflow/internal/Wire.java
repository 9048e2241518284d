package io.eagerflow.internal;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The constants Java shares with the native library, read from it once ({@link Native#wire}) so
 * that each is defined in one place, {@code src/wire.rs}. A library that lacks one of them (a jar
 * and a library from different builds) fails this class's initialization with a message naming it.
 */
public final class Wire {
  /** Free reason for {@link Native#free} and {@link Native#freeMany}: released by the user. */
  public static final int FREED_EXPLICITLY;

  /** Free reason: the cleanup strategy found the owner unreachable. */
  public static final int FREED_BY_CLEANUP;

  /** Free reason: the {@code EagerScope} that owned the tensor closed. */
  public static final int FREED_BY_SCOPE;

  /** Position in the array {@link Native#stats} and {@link Native#closeSession} fill. */
  public static final int STATS_LIVE_TENSORS;

  public static final int STATS_LIVE_BYTES;
  public static final int STATS_PEAK_BYTES;
  public static final int STATS_CREATED_TENSORS;
  public static final int STATS_FREED_EXPLICITLY;
  public static final int STATS_FREED_BY_CLEANUP;
  public static final int STATS_FREED_AT_CLOSE;
  public static final int STATS_GC_REQUESTS;
  public static final int STATS_FREED_BY_SCOPE;

  /** The length of the array {@link Native#stats} fills. */
  public static final int STATS_LENGTH;

  /** Position in the array {@link Native#memoryStats} fills. */
  public static final int MEMORY_LIVE_BYTES;

  public static final int MEMORY_PEAK_BYTES;
  public static final int MEMORY_LIVE_TENSORS;
  public static final int MEMORY_POOLED_BYTES;
  public static final int MEMORY_OPEN_SESSIONS;
  public static final int MEMORY_CREATED_TENSORS;
  public static final int MEMORY_FREED_EXPLICITLY;
  public static final int MEMORY_FREED_BY_SCOPE;
  public static final int MEMORY_FREED_BY_CLEANUP;
  public static final int MEMORY_FREED_AT_CLOSE;
  public static final int MEMORY_GC_REQUESTS;
  public static final int MEMORY_LIMIT_EXHAUSTIONS;

  /** The length of the array {@link Native#memoryStats} fills. */
  public static final int MEMORY_LENGTH;

  /** Attribute kind in the encoding of {@link Native#execute}'s attributes. */
  public static final int ATTR_INT;

  public static final int ATTR_INTS;
  public static final int ATTR_FLOAT;
  public static final int ATTR_FLOATS;
  public static final int ATTR_BOOL;
  public static final int ATTR_BOOLS;
  public static final int ATTR_TYPE;
  public static final int ATTR_SHAPE;
  public static final int ATTR_STRING;
  public static final int ATTR_TENSOR;
  public static final int ATTR_FOREIGN_TENSOR;

  /** The message of the exception a call on a closed session throws. */
  public static final String CLOSED_MESSAGE;

  /** The smallest adaptive garbage-collection trigger of a session, in bytes. */
  public static final long MIN_GC_TRIGGER_BYTES;

  /** Pacing lets at most {@code cap / HEADROOM_DIVISOR} bytes of garbage build up. */
  public static final int HEADROOM_DIVISOR;

  private static final Set<String> READ;

  static {
    Lines lines = new Lines(Native.wire());
    FREED_EXPLICITLY = lines.intValue("FREED_EXPLICITLY");
    FREED_BY_CLEANUP = lines.intValue("FREED_BY_CLEANUP");
    FREED_BY_SCOPE = lines.intValue("FREED_BY_SCOPE");
    STATS_LIVE_TENSORS = lines.intValue("STATS_LIVE_TENSORS");
    STATS_LIVE_BYTES = lines.intValue("STATS_LIVE_BYTES");
    STATS_PEAK_BYTES = lines.intValue("STATS_PEAK_BYTES");
    STATS_CREATED_TENSORS = lines.intValue("STATS_CREATED_TENSORS");
    STATS_FREED_EXPLICITLY = lines.intValue("STATS_FREED_EXPLICITLY");
    STATS_FREED_BY_CLEANUP = lines.intValue("STATS_FREED_BY_CLEANUP");
    STATS_FREED_AT_CLOSE = lines.intValue("STATS_FREED_AT_CLOSE");
    STATS_GC_REQUESTS = lines.intValue("STATS_GC_REQUESTS");
    STATS_FREED_BY_SCOPE = lines.intValue("STATS_FREED_BY_SCOPE");
    STATS_LENGTH = lines.intValue("STATS_LENGTH");
    MEMORY_LIVE_BYTES = lines.intValue("MEMORY_LIVE_BYTES");
    MEMORY_PEAK_BYTES = lines.intValue("MEMORY_PEAK_BYTES");
    MEMORY_LIVE_TENSORS = lines.intValue("MEMORY_LIVE_TENSORS");
    MEMORY_POOLED_BYTES = lines.intValue("MEMORY_POOLED_BYTES");
    MEMORY_OPEN_SESSIONS = lines.intValue("MEMORY_OPEN_SESSIONS");
    MEMORY_CREATED_TENSORS = lines.intValue("MEMORY_CREATED_TENSORS");
    MEMORY_FREED_EXPLICITLY = lines.intValue("MEMORY_FREED_EXPLICITLY");
    MEMORY_FREED_BY_SCOPE = lines.intValue("MEMORY_FREED_BY_SCOPE");
    MEMORY_FREED_BY_CLEANUP = lines.intValue("MEMORY_FREED_BY_CLEANUP");
    MEMORY_FREED_AT_CLOSE = lines.intValue("MEMORY_FREED_AT_CLOSE");
    MEMORY_GC_REQUESTS = lines.intValue("MEMORY_GC_REQUESTS");
    MEMORY_LIMIT_EXHAUSTIONS = lines.intValue("MEMORY_LIMIT_EXHAUSTIONS");
    MEMORY_LENGTH = lines.intValue("MEMORY_LENGTH");
    ATTR_INT = lines.intValue("ATTR_INT");
    ATTR_INTS = lines.intValue("ATTR_INTS");
    ATTR_FLOAT = lines.intValue("ATTR_FLOAT");
    ATTR_FLOATS = lines.intValue("ATTR_FLOATS");
    ATTR_BOOL = lines.intValue("ATTR_BOOL");
    ATTR_BOOLS = lines.intValue("ATTR_BOOLS");
    ATTR_TYPE = lines.intValue("ATTR_TYPE");
    ATTR_SHAPE = lines.intValue("ATTR_SHAPE");
    ATTR_STRING = lines.intValue("ATTR_STRING");
    ATTR_TENSOR = lines.intValue("ATTR_TENSOR");
    ATTR_FOREIGN_TENSOR = lines.intValue("ATTR_FOREIGN_TENSOR");
    CLOSED_MESSAGE = lines.text("CLOSED_MESSAGE");
    MIN_GC_TRIGGER_BYTES = lines.longValue("MIN_GC_TRIGGER_BYTES");
    HEADROOM_DIVISOR = lines.intValue("HEADROOM_DIVISOR");
    READ = Collections.unmodifiableSet(lines.read);
  }

  private Wire() {}

  /** The names this class read, for the test that checks it reads every one the library sends. */
  static Set<String> namesRead() {
    return READ;
  }

  /** The library's {@code NAME=value} lines, by name. */
  private static final class Lines {
    private final Map<String, String> values = new HashMap<>();
    private final Set<String> read = new LinkedHashSet<>();

    Lines(String text) {
      for (String line : text.split("\n")) {
        if (line.isEmpty()) {
          continue;
        }
        int eq = line.indexOf('=');
        if (eq <= 0) {
          throw new IllegalStateException("eagerflow: malformed wire constant line '" + line + "'");
        }
        if (values.put(line.substring(0, eq), line.substring(eq + 1)) != null) {
          throw new IllegalStateException(
              "eagerflow: the native library sends wire constant "
                  + line.substring(0, eq)
                  + " twice");
        }
      }
    }

    String text(String name) {
      String value = values.get(name);
      if (value == null) {
        throw new IllegalStateException(
            "eagerflow: the native library does not define the wire constant "
                + name
                + "; the jar's classes and the loaded library come from different builds");
      }
      read.add(name);
      return value;
    }

    long longValue(String name) {
      String value = text(name);
      try {
        return Long.parseLong(value);
      } catch (NumberFormatException e) {
        throw new IllegalStateException(
            "eagerflow: wire constant " + name + " is '" + value + "', not a number", e);
      }
    }

    int intValue(String name) {
      long value = longValue(name);
      if (value != (int) value) {
        throw new IllegalStateException(
            "eagerflow: wire constant " + name + " is " + value + ", out of int range");
      }
      return (int) value;
    }
  }
}
