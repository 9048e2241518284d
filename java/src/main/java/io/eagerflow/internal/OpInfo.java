package io.eagerflow.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An op type resolved to its index in the native registry, once per type name, with what the
 * registry says of it: whether it always yields exactly one output (then attribute-free calls
 * take the fast native path), and which attribute names it accepts (an attribute crosses as its
 * position in that list, so no name is ever kept for a caller).
 */
public final class OpInfo {
  private static final ConcurrentHashMap<String, OpInfo> BY_TYPE = new ConcurrentHashMap<>();

  private final String type;
  private final int index;
  private final boolean singleOutput;
  private volatile Attrs attrs;

  /** The op's attribute names by id, and the ones it documents (the rest are inferred). */
  private static final class Attrs {
    final Map<String, Integer> ids;
    final String own;

    Attrs(Map<String, Integer> ids, String own) {
      this.ids = ids;
      this.own = own;
    }
  }

  private OpInfo(String type, int index) {
    this.type = type;
    this.index = index;
    this.singleOutput = Native.opSingleOutput(index);
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

  public String type() {
    return type;
  }

  public int index() {
    return index;
  }

  /** Whether the op always yields exactly one output. */
  public boolean singleOutput() {
    return singleOutput;
  }

  /** The id of attribute {@code name} of this op, or -1 if the op has no such attribute. */
  public int attrId(String name) {
    Integer id = attrs().ids.get(name);
    return id == null ? -1 : id;
  }

  /** The error for setting attribute {@code name}, which this op does not have. */
  public IllegalArgumentException unknownAttr(String name) {
    String own = attrs().own;
    return new IllegalArgumentException(
        type
            + ": unknown attribute '"
            + name
            + "' (known: "
            + (own.isEmpty() ? "none" : own.replace(",", ", "))
            + ")");
  }

  private Attrs attrs() {
    Attrs a = attrs;
    if (a == null) {
      // "own,...;inferred,...": ids count through both lists. Races are benign.
      String names = Native.opAttrNames(index);
      String own = names.substring(0, names.indexOf(';'));
      Map<String, Integer> ids = new HashMap<>();
      int id = 0;
      for (String n : names.split("[,;]")) {
        if (!n.isEmpty()) {
          ids.putIfAbsent(n, id++);
        }
      }
      a = new Attrs(Map.copyOf(ids), own);
      attrs = a;
    }
    return a;
  }
}
