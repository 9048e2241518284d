package io.eagerflow.op;

import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Op names for {@link Ops#withName} and {@link Ops#withSubScope}, as TensorFlow Java's name scopes
 * make them ({@code "layer/MatMul"}, {@code "layer/MatMul_1"}). Eager ops have no graph, so a name
 * is only a label that {@link io.eagerflow.Operation#name()} returns. Thread-safe: the counters
 * behind unique names are shared by every {@code Ops} of one scope.
 */
final class Naming {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9.][A-Za-z0-9_.\\-]*");

  /** The root scope's naming of an {@code Ops} made by {@code Ops.create}. */
  static Naming root() {
    return new Naming(null, null, new ConcurrentHashMap<>());
  }

  /** The scope's path such as {@code "a/b"}, null at the root. */
  private final String prefix;

  /** The name that {@link Ops#withName} asked for, or null. */
  private final String opName;

  /** Per name in this scope, how many times it was used. */
  private final ConcurrentHashMap<String, Integer> ids;

  private Naming(String prefix, String opName, ConcurrentHashMap<String, Integer> ids) {
    this.prefix = prefix;
    this.opName = opName;
    this.ids = ids;
  }

  /** Whether ops get the session's generated names ({@code AddV2_12}): nothing was asked. */
  boolean isDefault() {
    return prefix == null && opName == null;
  }

  Naming withName(String name) {
    check(name);
    return new Naming(prefix, name, ids);
  }

  Naming withSubScope(String name) {
    check(name);
    return new Naming(
        qualify(unique(opName != null ? opName : name)), null, new ConcurrentHashMap<>());
  }

  /** The next op's name, {@code type} unless a name was asked for, unique in this scope. */
  String next(String type) {
    return qualify(unique(opName != null ? opName : type));
  }

  private String unique(String name) {
    int used = ids.merge(name, 1, Integer::sum) - 1;
    return used == 0 ? name : name + "_" + used;
  }

  private String qualify(String name) {
    return prefix == null ? name : prefix + "/" + name;
  }

  private static void check(String name) {
    if (name == null) {
      throw new IllegalArgumentException("Names cannot be null");
    }
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "invalid name '"
              + name
              + "': a name starts with a letter, digit or '.', followed by letters, digits, '_',"
              + " '.' or '-'");
    }
  }
}
