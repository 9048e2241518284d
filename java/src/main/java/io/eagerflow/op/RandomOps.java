package io.eagerflow.op;

import io.eagerflow.Operand;
import io.eagerflow.types.TNumber;
import java.util.Objects;

/**
 * Random tensors, reached as {@code tf.random}. Give seeds (the {@code seed} and {@code seed2}
 * options) for values that repeat from run to run. The errors are those listed on {@link Ops}.
 * Immutable and thread-safe.
 */
public final class RandomOps {
  private static final OpType UNIFORM = new OpType("RandomUniform");
  private static final OpType STANDARD_NORMAL = new OpType("RandomStandardNormal");
  private static final OpType TRUNCATED_NORMAL = new OpType("TruncatedNormal");

  private final Runner runner;

  RandomOps(Runner runner) {
    this.runner = runner;
  }

  private <U extends TNumber> Operand<U> random(
      OpType op, Operand<? extends TNumber> shape, Class<U> dtype, OpOption[] options) {
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(dtype, "dtype");
    return runner.runTyped(op, "dtype", dtype, options, shape);
  }

  /**
   * Values drawn uniformly from {@code [0, 1)} [{@code RandomUniform}].
   *
   * @param shape a vector of dimensions
   * @param dtype a floating-point tensor class, such as {@code TFloat32.class}
   * @param options {@link RandomUniform#seed}, {@link RandomUniform#seed2}
   * @return the values
   */
  public <U extends TNumber> Operand<U> randomUniform(
      Operand<? extends TNumber> shape, Class<U> dtype, RandomUniform.Options... options) {
    return random(UNIFORM, shape, dtype, options);
  }

  /**
   * Values drawn from the normal distribution with mean 0 and standard deviation 1 [{@code
   * RandomStandardNormal}].
   *
   * @param shape a vector of dimensions
   * @param dtype a floating-point tensor class, such as {@code TFloat32.class}
   * @param options {@link RandomStandardNormal#seed}, {@link RandomStandardNormal#seed2}
   * @return the values
   */
  public <U extends TNumber> Operand<U> randomStandardNormal(
      Operand<? extends TNumber> shape, Class<U> dtype, RandomStandardNormal.Options... options) {
    return random(STANDARD_NORMAL, shape, dtype, options);
  }

  /**
   * Values drawn from the normal distribution with mean 0 and standard deviation 1, redrawn while
   * more than two standard deviations from the mean [{@code TruncatedNormal}].
   *
   * @param shape a vector of dimensions
   * @param dtype a floating-point tensor class, such as {@code TFloat32.class}
   * @param options {@link TruncatedNormal#seed}, {@link TruncatedNormal#seed2}
   * @return the values, all in {@code [-2, 2]}
   */
  public <U extends TNumber> Operand<U> truncatedNormal(
      Operand<? extends TNumber> shape, Class<U> dtype, TruncatedNormal.Options... options) {
    return random(TRUNCATED_NORMAL, shape, dtype, options);
  }
}
