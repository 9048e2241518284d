package io.eagerflow.op;

import io.eagerflow.Operand;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TNumber;
import io.eagerflow.types.TString;
import java.util.Objects;

/**
 * String ops, reached as {@code tf.strings} as in TensorFlow Java: {@code join}, {@code substr},
 * {@code length}. Strings are bytes; the {@code UTF8_CHAR} unit counts UTF-8 characters. Equality
 * of strings is {@code tf.math.equal} and {@code tf.math.notEqual}. The errors are those listed on
 * {@link Ops}. Immutable and thread-safe.
 */
public final class StringsOps {
  private static final OpType STRING_JOIN = new OpType("StringJoin");
  private static final OpType SUBSTR = new OpType("Substr");
  private static final OpType STRING_LENGTH = new OpType("StringLength");

  private final Runner runner;

  StringsOps(Runner runner) {
    this.runner = runner;
  }

  /**
   * The inputs joined element by element [{@code StringJoin}], with {@link StringJoin#separator}
   * between them (default none).
   *
   * <pre>{@code tf.strings.join(List.of(a, b), StringJoin.separator(" "))}</pre>
   *
   * @param inputs one or more string tensors of one shape; scalars are used for every element
   * @param options {@link StringJoin#separator}
   * @return the joined strings, of the non-scalar inputs' shape
   * @throws IllegalArgumentException if {@code inputs} is empty, an input is not a string tensor,
   *     or two non-scalar inputs differ in shape
   */
  public Operand<TString> join(Iterable<Operand<TString>> inputs, StringJoin.Options... options) {
    return runner.runList(STRING_JOIN, inputs, "inputs", options);
  }

  /**
   * Substrings [{@code Substr}]: {@code len} units of each string from {@code pos}; a negative
   * {@code pos} counts from the end, and a substring stops at its string's end.
   *
   * <pre>{@code tf.strings.substr(s, tf.constant(0), tf.constant(3), Substr.unit("UTF8_CHAR"))}
   * </pre>
   *
   * @param input the strings
   * @param pos where each substring starts: a scalar, or one per string
   * @param len how many units each substring has: {@code pos}'s type and shape
   * @param options {@link Substr#unit} ({@code "BYTE"} by default, or {@code "UTF8_CHAR"})
   * @return the substrings, of {@code input}'s shape
   * @throws IllegalArgumentException if a {@code pos} is out of range for its string, or the shapes
   *     or types do not fit
   */
  public <T extends TNumber> Operand<TString> substr(
      Operand<TString> input, Operand<T> pos, Operand<T> len, Substr.Options... options) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(pos, "pos");
    Objects.requireNonNull(len, "len");
    return runner.run(SUBSTR, options, input, pos, len);
  }

  /**
   * The length of each string [{@code StringLength}], in bytes or, with {@code
   * StringLength.unit("UTF8_CHAR")}, in UTF-8 characters.
   *
   * @param input the strings
   * @param options {@link StringLength#unit}
   * @return the lengths, of {@code input}'s shape
   * @throws IllegalArgumentException if {@code input} is not a string tensor
   */
  public Operand<TInt32> length(Operand<TString> input, StringLength.Options... options) {
    Objects.requireNonNull(input, "input");
    return runner.run(STRING_LENGTH, options, input);
  }
}
