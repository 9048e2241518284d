package io.eagerflow.op;

/**
 * Optional attributes of {@link RandomOps#truncatedNormal}, TensorFlow's {@code TruncatedNormal}
 * op, in TensorFlow Java's style: each static method makes one option, passed as a trailing
 * argument.
 *
 * <p>With both seeds 0 (the default) every call draws fresh values. With either seed set, the op
 * draws the same values on every call, in every session and every run (TensorFlow's kernel cache
 * instead continues one sequence from call to call within a session).
 *
 * <pre>{@code
 * tf.random.truncatedNormal(
 *     tf.constant(new int[] {2, 3}), TFloat32.class, TruncatedNormal.seed(42))
 * }</pre>
 */
public final class TruncatedNormal {
  private TruncatedNormal() {}

  /**
   * The seed (default 0).
   *
   * @param seed the value of attribute {@code seed}
   * @return the option, to pass to the op's method
   */
  public static Options seed(long seed) {
    return new Options("seed", seed);
  }

  /**
   * A second seed, mixed with {@code seed} (default 0).
   *
   * @param seed2 the value of attribute {@code seed2}
   * @return the option, to pass to the op's method
   */
  public static Options seed2(long seed2) {
    return new Options("seed2", seed2);
  }

  /** One optional attribute of this op, made by the static methods of {@link TruncatedNormal}. */
  public static final class Options extends OpOption {
    private Options(String attr, long value) {
      super(attr, value);
    }
  }
}
