package io.eagerflow.op;

import io.eagerflow.OperationBuilder;
import java.util.Objects;

/**
 * One optional attribute of an op: what the {@code Options} classes of {@link MatMul}, {@link
 * ReduceSum} and the like carry. Immutable, so options may be shared between threads.
 */
abstract class OpOption {
  /** For ops whose options come only from typed arguments. */
  static final OpOption[] NONE = {};

  private final String attr;
  private final Object value; // Boolean, Long, Float, long[] or String

  OpOption(String attr, boolean value) {
    this.attr = attr;
    this.value = value;
  }

  OpOption(String attr, long value) {
    this.attr = attr;
    this.value = value;
  }

  OpOption(String attr, float value) {
    this.attr = attr;
    this.value = value;
  }

  OpOption(String attr, String value) {
    this.attr = attr;
    this.value = value;
  }

  OpOption(String attr, long[] value) {
    this.attr = attr;
    this.value = value.clone();
  }

  /**
   * Checks that neither {@code options} nor an element is null; call before anything else so that a
   * null fails before any native call.
   */
  static void checkAll(OpOption[] options) {
    Objects.requireNonNull(options, "options");
    for (OpOption o : options) {
      Objects.requireNonNull(o, "options");
    }
  }

  /** Sets every option, checked by {@link #checkAll}, on {@code b}; a later one wins. */
  static void applyAll(OperationBuilder b, OpOption[] options) {
    for (OpOption o : options) {
      o.applyTo(b);
    }
  }

  private void applyTo(OperationBuilder b) {
    if (value instanceof Boolean v) {
      b.setAttr(attr, v.booleanValue());
    } else if (value instanceof Long v) {
      b.setAttr(attr, v.longValue());
    } else if (value instanceof Float v) {
      b.setAttr(attr, v.floatValue());
    } else if (value instanceof String v) {
      b.setAttr(attr, v);
    } else {
      b.setAttr(attr, (long[]) value);
    }
  }

  @Override
  public String toString() {
    return attr + "=" + (value instanceof long[] a ? java.util.Arrays.toString(a) : value);
  }
}
