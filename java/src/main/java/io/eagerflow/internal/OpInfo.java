package io.eagerflow.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An op type resolved to its index in the native registry, once per type name, with what the
 * registry says of it: whether it always yields exactly one output (then attribute-free calls take
 * the fast native path), and which attribute names it accepts (an attribute crosses as its position
 * in that list, so no name is ever kept for a caller).
 */
public final class OpInfo {
  private static final ConcurrentHashMap<String, OpInfo> BY_TYPE = new ConcurrentHashMap<>();

  private final String type;
  private final int index;
  private final boolean singleOutput;
  private volatile Attrs attrs;
  private volatile Args args;

  /** The op's input and output argument names; a list's end in "[]". */
  private static final class Args {
    final String[] inputs;
    final String[] outputs;

    Args(String[] inputs, String[] outputs) {
      this.inputs = inputs;
      this.outputs = outputs;
    }
  }

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
    return new io.eagerflow.exceptions.TFInvalidArgumentException(
        type
            + ": unknown attribute '"
            + name
            + "' (known: "
            + (own.isEmpty() ? "none" : own.replace(",", ", "))
            + ")");
  }

  /**
   * The position of input (or output) argument {@code name} among the op's input (or output)
   * arguments.
   *
   * @throws io.eagerflow.exceptions.TFInvalidArgumentException if the op has no such argument
   */
  public int argIndex(String name, boolean input) {
    java.util.Objects.requireNonNull(name, "name");
    String[] names = input ? args().inputs : args().outputs;
    for (int i = 0; i < names.length; i++) {
      String n = names[i];
      if (n.equals(name) || n.equals(name + "[]")) {
        return i;
      }
    }
    StringBuilder known = new StringBuilder();
    for (String n : names) {
      known.append(known.length() == 0 ? "" : ", ").append(n.replace("[]", ""));
    }
    throw new io.eagerflow.exceptions.TFInvalidArgumentException(
        type
            + ": no "
            + (input ? "input" : "output")
            + " argument named '"
            + name
            + "' (known: "
            + (known.length() == 0 ? "none" : known)
            + ")");
  }

  /** Whether output argument {@code arg} (see {@link #argIndex}) is a list. */
  public boolean isListOutput(int arg) {
    return args().outputs[arg].endsWith("[]");
  }

  /** How many output arguments the op has (a list counts once). */
  public int numOutputArgs() {
    return args().outputs.length;
  }

  private Args args() {
    Args a = args;
    if (a == null) {
      // Races are benign: every thread computes the same names.
      String names = Native.opArgNames(index);
      int semi = names.indexOf(';');
      a = new Args(split(names.substring(0, semi)), split(names.substring(semi + 1)));
      args = a;
    }
    return a;
  }

  private static String[] split(String list) {
    return list.isEmpty() ? new String[0] : list.split(",");
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
