package io.eagerflow.op;

import io.eagerflow.internal.OpInfo;

/**
 * An op type name whose registry index is resolved on first use and then kept. Resolving lazily
 * rather than in a static initializer means an op the native library lacks fails only the calls
 * that use it, with the registry's "unknown op type" message, instead of failing the whole group
 * class's initialization.
 */
final class OpType {
  private final String name;
  private volatile OpInfo info;

  OpType(String name) {
    this.name = name;
  }

  OpInfo info() {
    OpInfo i = info;
    if (i == null) {
      i = OpInfo.of(name); // races are benign: OpInfo.of returns one instance per name
      info = i;
    }
    return i;
  }
}
