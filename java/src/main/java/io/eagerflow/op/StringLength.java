package io.eagerflow.op;

import java.util.Objects;

/**
 * Optional attributes of {@link StringsOps#length}, TensorFlow's {@code StringLength} op, in
 * TensorFlow Java's style: each static method makes one option, passed as a trailing argument.
 */
public final class StringLength {
  private StringLength() {}

  /**
   * Sets attribute {@code unit}: what is counted: {@code "BYTE"} (default) or {@code "UTF8_CHAR"}.
   *
   * @param unit the value
   * @return the option, to pass to {@link StringsOps#length}
   */
  public static Options unit(String unit) {
    return new Options(Objects.requireNonNull(unit, "unit"));
  }

  /** One optional attribute of this op, made by the static methods of {@link StringLength}. */
  public static final class Options extends OpOption {
    private Options(String value) {
      super("unit", value);
    }
  }
}
