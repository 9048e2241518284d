package io.eagerflow.op;

import io.eagerflow.Operand;
import io.eagerflow.types.TNumber;
import java.util.Objects;

/**
 * Neural-network ops, reached as {@code tf.nn}: activations, softmax, bias addition and losses. The
 * errors are those listed on {@link Ops}. Immutable and thread-safe.
 */
public final class NnOps extends NnOpsBlocks {
  private static final OpType SOFTMAX = new OpType("Softmax");
  private static final OpType LOG_SOFTMAX = new OpType("LogSoftmax");
  private static final OpType RELU = new OpType("Relu");
  private static final OpType RELU6 = new OpType("Relu6");
  private static final OpType ELU = new OpType("Elu");
  private static final OpType SELU = new OpType("Selu");
  private static final OpType BIAS_ADD = new OpType("BiasAdd");
  private static final OpType L2_LOSS = new OpType("L2Loss");
  private static final OpType SOFTMAX_CE = new OpType("SoftmaxCrossEntropyWithLogits");
  private static final OpType SPARSE_SOFTMAX_CE = new OpType("SparseSoftmaxCrossEntropyWithLogits");

  private final Runner runner;

  NnOps(Runner runner) {
    super(runner);
    this.runner = runner;
  }

  private <T extends TNumber> Operand<T> unary(OpType op, Operand<T> x, String name) {
    Objects.requireNonNull(x, name);
    return runner.run(op, x);
  }

  /**
   * Softmax over the last dimension [{@code Softmax}]: {@code exp(x) / sum(exp(x))} per row,
   * computed stably.
   *
   * @param logits floating-point values of rank 1 or more
   * @return probabilities, of {@code logits}' shape
   */
  public <T extends TNumber> Operand<T> softmax(Operand<T> logits) {
    return unary(SOFTMAX, logits, "logits");
  }

  /**
   * Log-softmax over the last dimension [{@code LogSoftmax}]: {@code x - log(sum(exp(x)))} per row,
   * computed stably.
   *
   * @param logits floating-point values of rank 1 or more
   * @return log-probabilities, of {@code logits}' shape
   */
  public <T extends TNumber> Operand<T> logSoftmax(Operand<T> logits) {
    return unary(LOG_SOFTMAX, logits, "logits");
  }

  /**
   * {@code max(x, 0)} element-wise [{@code Relu}].
   *
   * @param features the values
   * @return the activations, of {@code features}' shape
   */
  public <T extends TNumber> Operand<T> relu(Operand<T> features) {
    return unary(RELU, features, "features");
  }

  /**
   * {@code min(max(x, 0), 6)} element-wise [{@code Relu6}].
   *
   * @param features the values
   * @return the activations, of {@code features}' shape
   */
  public <T extends TNumber> Operand<T> relu6(Operand<T> features) {
    return unary(RELU6, features, "features");
  }

  /**
   * The exponential linear unit element-wise [{@code Elu}]: {@code x} if {@code x > 0}, else {@code
   * exp(x) - 1}.
   *
   * @param features floating-point values
   * @return the activations, of {@code features}' shape
   */
  public <T extends TNumber> Operand<T> elu(Operand<T> features) {
    return unary(ELU, features, "features");
  }

  /**
   * The scaled exponential linear unit element-wise [{@code Selu}]: {@code scale * x} if {@code x >
   * 0}, else {@code scale * alpha * (exp(x) - 1)}, with {@code alpha = 1.6732632423543772} and
   * {@code scale = 1.0507009873554805}.
   *
   * @param features floating-point values
   * @return the activations, of {@code features}' shape
   */
  public <T extends TNumber> Operand<T> selu(Operand<T> features) {
    return unary(SELU, features, "features");
  }

  /**
   * {@code value + bias}, with {@code bias} added along the channel dimension [{@code BiasAdd}]:
   * the last one, or dimension 1 with {@link BiasAdd#dataFormat BiasAdd.dataFormat("NCHW")}.
   *
   * @param value a tensor of rank 2 or more
   * @param bias a vector as long as {@code value}'s channel dimension, of its dtype
   * @param options {@link BiasAdd#dataFormat}
   * @return the sum, of {@code value}'s shape
   * @throws IllegalArgumentException if {@code bias}'s length differs from the channel dimension
   */
  public <T extends TNumber> Operand<T> biasAdd(
      Operand<T> value, Operand<T> bias, BiasAdd.Options... options) {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(bias, "bias");
    return runner.run(BIAS_ADD, options, value, bias);
  }

  /**
   * Half the sum of squares of {@code t}, without a square root [{@code L2Loss}]: {@code sum(t^2) /
   * 2}.
   *
   * @param t floating-point values
   * @return a scalar of {@code t}'s dtype
   */
  public <T extends TNumber> Operand<T> l2Loss(Operand<T> t) {
    return unary(L2_LOSS, t, "t");
  }

  /**
   * Softmax cross-entropy per row and its gradient [{@code SoftmaxCrossEntropyWithLogits}]: for
   * rows of {@code features} (logits) and {@code labels} (probabilities), the loss {@code
   * -sum(labels * logSoftmax(features))} and the backpropagated gradient {@code softmax(features) -
   * labels}.
   *
   * @param features logits, {@code [batch, classes]}
   * @param labels probabilities of the same shape and dtype
   * @return the loss ({@code [batch]}) and the gradient ({@code [batch, classes]})
   * @throws IllegalArgumentException if the shapes differ or are not matrices
   */
  public <T extends TNumber> SoftmaxCrossEntropyWithLogits<T> softmaxCrossEntropyWithLogits(
      Operand<T> features, Operand<T> labels) {
    Objects.requireNonNull(features, "features");
    Objects.requireNonNull(labels, "labels");
    return new SoftmaxCrossEntropyWithLogits<>(
        runner.builder(SOFTMAX_CE, features, labels).build());
  }

  /**
   * Softmax cross-entropy per row with class indices for labels, and its gradient [{@code
   * SparseSoftmaxCrossEntropyWithLogits}]: the loss {@code -logSoftmax(features)[label]} and the
   * gradient {@code softmax(features) - oneHot(label)}.
   *
   * @param features logits, {@code [batch, classes]}
   * @param labels {@link io.eagerflow.types.TInt32} or {@link io.eagerflow.types.TInt64} class
   *     indices in {@code [0, classes)}, {@code [batch]}
   * @return the loss ({@code [batch]}) and the gradient ({@code [batch, classes]})
   * @throws IllegalArgumentException if the shapes do not fit or a label is out of range
   */
  public <T extends TNumber>
      SparseSoftmaxCrossEntropyWithLogits<T> sparseSoftmaxCrossEntropyWithLogits(
          Operand<T> features, Operand<? extends TNumber> labels) {
    Objects.requireNonNull(features, "features");
    Objects.requireNonNull(labels, "labels");
    return new SparseSoftmaxCrossEntropyWithLogits<>(
        runner.builder(SPARSE_SOFTMAX_CE, features, labels).build());
  }
}
