package io.eagerflow.op;

import java.util.Objects;

/**
 * Optional attributes of {@link StringsOps#join}, TensorFlow's {@code StringJoin} op, in TensorFlow
 * Java's style: each static method makes one option, passed as a trailing argument.
 */
public final class StringJoin {
  private StringJoin() {}

  /**
   * Sets attribute {@code separator}: the text put between joined strings (default empty).
   *
   * @param separator the value
   * @return the option, to pass to {@link StringsOps#join}
   */
  public static Options separator(String separator) {
    return new Options(Objects.requireNonNull(separator, "separator"));
  }

  /** One optional attribute of this op, made by the static methods of {@link StringJoin}. */
  public static final class Options extends OpOption {
    private Options(String value) {
      super("separator", value);
    }
  }
}
