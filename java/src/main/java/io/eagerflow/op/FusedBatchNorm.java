package io.eagerflow.op;

import io.eagerflow.Operation;
import io.eagerflow.Output;
import io.eagerflow.types.TNumber;
import java.util.Objects;

/**
 * The six outputs of TensorFlow's {@code FusedBatchNormV3} op, as {@link NnOps#fusedBatchNorm}
 * returns them, and the op's options. Only inference is implemented: pass {@link
 * #isTraining(Boolean) isTraining(false)}. Immutable.
 *
 * @param <T> the type of {@code x} and {@code y}
 * @param <U> the type of the per-channel vectors
 */
public final class FusedBatchNorm<T extends TNumber, U extends TNumber> implements Op {
  private final Operation op;

  FusedBatchNorm(Operation op) {
    this.op = op;
  }

  /**
   * Added to the variance before its square root (default 1e-4).
   *
   * @param epsilon the value of attribute {@code epsilon}
   * @return the option, to pass to {@link NnOps#fusedBatchNorm}
   */
  public static Options epsilon(Float epsilon) {
    return new Options("epsilon", Objects.requireNonNull(epsilon, "epsilon"));
  }

  /**
   * The weight of the batch statistics in running averages (training only; default 1).
   *
   * @param exponentialAvgFactor the value of attribute {@code exponential_avg_factor}
   * @return the option, to pass to {@link NnOps#fusedBatchNorm}
   */
  public static Options exponentialAvgFactor(Float exponentialAvgFactor) {
    return new Options(
        "exponential_avg_factor",
        Objects.requireNonNull(exponentialAvgFactor, "exponentialAvgFactor"));
  }

  /**
   * {@code "NHWC"} (the default) or {@code "NCHW"}.
   *
   * @param dataFormat the value of attribute {@code data_format}
   * @return the option, to pass to {@link NnOps#fusedBatchNorm}
   */
  public static Options dataFormat(String dataFormat) {
    return new Options("data_format", Objects.requireNonNull(dataFormat, "dataFormat"));
  }

  /**
   * Whether to normalize with the batch's own statistics (TensorFlow's default, true, is not
   * implemented here: it throws {@link UnsupportedOperationException}) or with the given mean and
   * variance (false).
   *
   * @param isTraining the value of attribute {@code is_training}
   * @return the option, to pass to {@link NnOps#fusedBatchNorm}
   */
  public static Options isTraining(Boolean isTraining) {
    return new Options("is_training", Objects.requireNonNull(isTraining, "isTraining"));
  }

  /**
   * The normalized {@code x}: {@code (x - mean) * scale / sqrt(variance + epsilon) + offset}.
   *
   * @return output 0
   */
  public Output<T> y() {
    return op.output(0);
  }

  /**
   * The mean used (in inference, the given one).
   *
   * @return output 1
   */
  public Output<U> batchMean() {
    return op.output(1);
  }

  /**
   * The variance used (in inference, the given one).
   *
   * @return output 2
   */
  public Output<U> batchVariance() {
    return op.output(2);
  }

  /**
   * For the gradient: the mean.
   *
   * @return output 3
   */
  public Output<U> reserveSpace1() {
    return op.output(3);
  }

  /**
   * For the gradient: the variance.
   *
   * @return output 4
   */
  public Output<U> reserveSpace2() {
    return op.output(4);
  }

  /**
   * For the gradient: a scalar 0 on the CPU.
   *
   * @return output 5
   */
  public Output<U> reserveSpace3() {
    return op.output(5);
  }

  /**
   * The operation that computed the outputs.
   *
   * @return the operation
   */
  @Override
  public Operation op() {
    return op;
  }

  /** One optional attribute of this op, made by the static methods of {@link FusedBatchNorm}. */
  public static final class Options extends OpOption {
    private Options(String attr, float value) {
      super(attr, value);
    }

    private Options(String attr, boolean value) {
      super(attr, value);
    }

    private Options(String attr, String value) {
      super(attr, value);
    }
  }
}
