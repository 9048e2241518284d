package io.eagerflow.internal;

import java.util.concurrent.ConcurrentHashMap;

/**
 * An op type resolved to its index in the native registry, once per type name. Also remembers
 * whether the op, run without attributes, yields exactly one output, which lets later calls take
 * the fast native path.
 */
public final class OpInfo {
  private static final ConcurrentHashMap<String, OpInfo> BY_TYPE = new ConcurrentHashMap<>();

  private final String type;
  private final int index;
  private volatile boolean singleOutput;

  private OpInfo(String type, int index) {
    this.type = type;
    this.index = index;
  }

  /**
   * The op named {@code type} (TensorFlow's op type names and aliases).
   *
   * @throws IllegalArgumentException if no such op exists
   */
  public static OpInfo of(String type) {
    OpInfo info = BY_TYPE.get(type);
    if (info == null) {
      info = BY_TYPE.computeIfAbsent(type, t -> new OpInfo(t, Native.opIndex(t)));
    }
    return info;
  }

  private static final ConcurrentHashMap<String, Integer> STRING_IDS = new ConcurrentHashMap<>();

  /** The native id of an attribute name or string value, asked for once per string. */
  public static int stringId(String s) {
    Integer id = STRING_IDS.get(s);
    if (id == null) {
      id = STRING_IDS.computeIfAbsent(s, Native::internString);
    }
    return id;
  }

  public String type() {
    return type;
  }

  public int index() {
    return index;
  }

  /** Whether an attribute-free run is known to yield exactly one output. */
  public boolean singleOutput() {
    return singleOutput;
  }

  /** Records what an attribute-free run yielded. */
  public void observedOutputs(int count) {
    if (count == 1) {
      singleOutput = true;
    }
  }
}
