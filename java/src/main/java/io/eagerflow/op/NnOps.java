package io.eagerflow.op;

import io.eagerflow.Operand;
import io.eagerflow.OperationBuilder;
import io.eagerflow.internal.TensorTypes;
import io.eagerflow.types.TBool;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TNumber;
import java.util.List;
import java.util.Objects;

/**
 * Neural-network ops, reached as {@code tf.nn}: activations, softmax, bias addition, losses,
 * convolutions, pooling, normalization and top-k. The errors are those listed on {@link Ops}.
 * Immutable and thread-safe.
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
  private static final OpType CONV2D = new OpType("Conv2D");
  private static final OpType MAX_POOL = new OpType("MaxPoolV2");
  private static final OpType AVG_POOL = new OpType("AvgPool");
  private static final OpType TOP_K = new OpType("TopKV2");
  private static final OpType IN_TOP_K = new OpType("InTopKV2");
  private static final OpType LEAKY_RELU = new OpType("LeakyRelu");
  private static final OpType SOFTSIGN = new OpType("Softsign");
  private static final OpType DEPTHWISE = new OpType("DepthwiseConv2dNative");
  private static final OpType FUSED_BATCH_NORM = new OpType("FusedBatchNormV3");
  private static final OpType LRN = new OpType("LRN");

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

  /**
   * A 2-D convolution (cross-correlation, as in neural networks) of a batch of images with a filter
   * [{@code Conv2D}]: {@code output[b, i, j, o] = sum over di, dj, q of input[b, strides[1] * i +
   * dilations[1] * di - padTop, strides[2] * j + dilations[2] * dj - padLeft, q] * filter[di, dj,
   * q, o]}, zero outside the input. An input depth that is a multiple of the filter's depth makes a
   * grouped convolution.
   *
   * @param input FLOAT or DOUBLE images, {@code [batch, rows, cols, depth]}
   * @param filter {@code [filterRows, filterCols, depth / groups, outDepth]}, of {@code input}'s
   *     dtype
   * @param strides the window's step per dimension (4 values; 1 for batch and depth)
   * @param padding {@code "VALID"} (windows inside the input), {@code "SAME"} (as many outputs as
   *     {@code ceil(size / stride)}, padded evenly with the odd element after) or {@code
   *     "EXPLICIT"} (with {@link Conv2d#explicitPaddings})
   * @param options {@link Conv2d#dilations}, {@link Conv2d#explicitPaddings}, {@link
   *     Conv2d#dataFormat}, {@link Conv2d#useCudnnOnGpu}
   * @return {@code [batch, outRows, outCols, outDepth]}
   * @throws IllegalArgumentException if the shapes, dtypes or attributes do not fit
   * @throws UnsupportedOperationException for {@code "NCHW"}, which TensorFlow's CPU kernel also
   *     refuses
   */
  public <T extends TNumber> Operand<T> conv2d(
      Operand<T> input,
      Operand<T> filter,
      List<Long> strides,
      String padding,
      Conv2d.Options... options) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(filter, "filter");
    long[] s = Conv2d.longs(strides, "strides");
    Objects.requireNonNull(padding, "padding");
    OpOption.checkAll(options);
    OperationBuilder b =
        runner.builder(CONV2D, input, filter).setAttr("strides", s).setAttr("padding", padding);
    OpOption.applyAll(b, options);
    return b.build().output(0);
  }

  /**
   * The maximum over sliding windows of rows and columns [{@code MaxPoolV2}]; positions in the
   * padding are left out.
   *
   * @param input images, {@code [batch, rows, cols, depth]}, of any numeric type
   * @param ksize the window's size per dimension (4 values; 1 for batch and depth)
   * @param strides the window's step per dimension (4 values; 1 for batch)
   * @param padding {@code "VALID"} or {@code "SAME"}
   * @param options {@link MaxPool#dataFormat}
   * @return {@code [batch, outRows, outCols, depth]}
   * @throws IllegalArgumentException if the shapes or attributes do not fit
   */
  public <T extends TNumber> Operand<T> maxPool(
      Operand<T> input,
      Operand<TInt32> ksize,
      Operand<TInt32> strides,
      String padding,
      MaxPool.Options... options) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(ksize, "ksize");
    Objects.requireNonNull(strides, "strides");
    Objects.requireNonNull(padding, "padding");
    OpOption.checkAll(options);
    OperationBuilder b =
        runner.builder(MAX_POOL, input, ksize, strides).setAttr("padding", padding);
    OpOption.applyAll(b, options);
    return b.build().output(0);
  }

  /**
   * The mean over sliding windows of rows and columns [{@code AvgPool}]; positions in the padding
   * are left out of both sum and count.
   *
   * @param value FLOAT or DOUBLE images, {@code [batch, rows, cols, depth]}
   * @param ksize the window's size per dimension (4 values; 1 for batch and depth)
   * @param strides the window's step per dimension (4 values; 1 for batch)
   * @param padding {@code "VALID"} or {@code "SAME"}
   * @param options {@link AvgPool#dataFormat}
   * @return {@code [batch, outRows, outCols, depth]}
   * @throws IllegalArgumentException if the shapes or attributes do not fit
   */
  public <T extends TNumber> Operand<T> avgPool(
      Operand<T> value,
      List<Long> ksize,
      List<Long> strides,
      String padding,
      AvgPool.Options... options) {
    Objects.requireNonNull(value, "value");
    long[] k = Conv2d.longs(ksize, "ksize");
    long[] s = Conv2d.longs(strides, "strides");
    Objects.requireNonNull(padding, "padding");
    OpOption.checkAll(options);
    OperationBuilder b =
        runner
            .builder(AVG_POOL, value)
            .setAttr("ksize", k)
            .setAttr("strides", s)
            .setAttr("padding", padding);
    OpOption.applyAll(b, options);
    return b.build().output(0);
  }

  /**
   * The {@code k} largest entries of each last-axis row and their {@link TInt32} indices [{@code
   * TopKV2}].
   *
   * @param input numbers of rank 1 or more
   * @param k a {@link TInt32} or {@link io.eagerflow.types.TInt64} scalar, at most the last
   *     dimension
   * @param options {@link TopK#sorted}
   * @return the values and indices
   * @throws IllegalArgumentException if {@code k} is negative, not a scalar, or too large
   */
  public <T extends TNumber> TopK<T, TInt32> topK(
      Operand<T> input, Operand<? extends TNumber> k, TopK.Options... options) {
    return topK(input, k, TInt32.class, options);
  }

  /**
   * {@link #topK(Operand, Operand, TopK.Options...)} with indices of {@code indexType}.
   *
   * @param input numbers of rank 1 or more
   * @param k a {@link TInt32} or {@link io.eagerflow.types.TInt64} scalar, at most the last
   *     dimension
   * @param indexType {@link TInt32} or {@link io.eagerflow.types.TInt64}
   * @param options {@link TopK#sorted}
   * @return the values and indices
   * @throws IllegalArgumentException if {@code k} is negative, not a scalar, or too large
   */
  public <T extends TNumber, V extends TNumber> TopK<T, V> topK(
      Operand<T> input, Operand<? extends TNumber> k, Class<V> indexType, TopK.Options... options) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(k, "k");
    Objects.requireNonNull(indexType, "indexType");
    OpOption.checkAll(options);
    OperationBuilder b =
        runner.builder(TOP_K, input, k).setAttr("index_type", TensorTypes.dataTypeOf(indexType));
    OpOption.applyAll(b, options);
    return new TopK<>(b.build());
  }

  /**
   * Whether each target class is among the {@code k} highest predictions of its row [{@code
   * InTopKV2}]: fewer than {@code k} predictions are strictly greater. A target out of range, or
   * whose prediction is not finite, is not.
   *
   * @param predictions {@code [batch, classes]}
   * @param targets class indices, {@code [batch]}, {@link TInt32} or {@link
   *     io.eagerflow.types.TInt64}
   * @param k a scalar of {@code targets}' type
   * @return {@code [batch]}
   * @throws IllegalArgumentException if the shapes or dtypes do not fit
   */
  public <T extends TNumber> Operand<TBool> inTopK(
      Operand<TFloat32> predictions, Operand<T> targets, Operand<T> k) {
    Objects.requireNonNull(predictions, "predictions");
    Objects.requireNonNull(targets, "targets");
    Objects.requireNonNull(k, "k");
    return runner.run(IN_TOP_K, predictions, targets, k);
  }

  /**
   * {@code x} where positive, else {@code alpha * x} [{@code LeakyRelu}].
   *
   * @param features FLOAT or DOUBLE values
   * @param options {@link LeakyRelu#alpha} (default 0.2)
   * @return the activations, of {@code features}' shape
   */
  public <T extends TNumber> Operand<T> leakyRelu(
      Operand<T> features, LeakyRelu.Options... options) {
    Objects.requireNonNull(features, "features");
    return runner.run(LEAKY_RELU, options, features);
  }

  /**
   * {@code x / (1 + |x|)} element-wise [{@code Softsign}].
   *
   * @param features FLOAT or DOUBLE values
   * @return the activations, of {@code features}' shape
   */
  public <T extends TNumber> Operand<T> softsign(Operand<T> features) {
    return unary(SOFTSIGN, features, "features");
  }

  /**
   * A depthwise 2-D convolution [{@code DepthwiseConv2dNative}]: each input channel {@code c}
   * convolved with its own {@code multiplier} filters into output channels {@code c * multiplier +
   * m}.
   *
   * @param input FLOAT or DOUBLE images, {@code [batch, rows, cols, depth]}
   * @param filter {@code [filterRows, filterCols, depth, multiplier]}, of {@code input}'s dtype
   * @param strides the window's step per dimension (4 values, rows and columns equal; 1 for batch
   *     and depth)
   * @param padding {@code "VALID"}, {@code "SAME"} or {@code "EXPLICIT"}
   * @param options {@link DepthwiseConv2dNative#explicitPaddings}, {@link
   *     DepthwiseConv2dNative#dataFormat}, {@link DepthwiseConv2dNative#dilations}
   * @return {@code [batch, outRows, outCols, depth * multiplier]}
   * @throws IllegalArgumentException if the shapes, dtypes or attributes do not fit
   * @throws UnsupportedOperationException for {@code "NCHW"} or dilations other than 1
   */
  public <T extends TNumber> Operand<T> depthwiseConv2dNative(
      Operand<T> input,
      Operand<T> filter,
      List<Long> strides,
      String padding,
      DepthwiseConv2dNative.Options... options) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(filter, "filter");
    long[] s = Conv2d.longs(strides, "strides");
    Objects.requireNonNull(padding, "padding");
    OpOption.checkAll(options);
    OperationBuilder b =
        runner.builder(DEPTHWISE, input, filter).setAttr("strides", s).setAttr("padding", padding);
    OpOption.applyAll(b, options);
    return b.build().output(0);
  }

  /**
   * Batch normalization with given statistics [{@code FusedBatchNormV3}]: {@code y = (x - mean) *
   * scale / sqrt(variance + epsilon) + offset} per channel. Only inference is implemented: pass
   * {@link FusedBatchNorm#isTraining FusedBatchNorm.isTraining(false)}.
   *
   * @param x FLOAT images, {@code [batch, rows, cols, channels]} (or NCHW)
   * @param scale FLOAT, {@code [channels]}
   * @param offset FLOAT, {@code [channels]}
   * @param mean FLOAT, {@code [channels]}
   * @param variance FLOAT, {@code [channels]}
   * @param options {@link FusedBatchNorm#isTraining}, {@link FusedBatchNorm#epsilon}, {@link
   *     FusedBatchNorm#dataFormat}, {@link FusedBatchNorm#exponentialAvgFactor}
   * @return the six outputs
   * @throws IllegalArgumentException if the shapes or dtypes do not fit
   * @throws UnsupportedOperationException in training mode
   */
  public <T extends TNumber, U extends TNumber> FusedBatchNorm<T, U> fusedBatchNorm(
      Operand<T> x,
      Operand<U> scale,
      Operand<U> offset,
      Operand<U> mean,
      Operand<U> variance,
      FusedBatchNorm.Options... options) {
    Objects.requireNonNull(x, "x");
    Objects.requireNonNull(scale, "scale");
    Objects.requireNonNull(offset, "offset");
    Objects.requireNonNull(mean, "mean");
    Objects.requireNonNull(variance, "variance");
    OpOption.checkAll(options);
    OperationBuilder b = runner.builder(FUSED_BATCH_NORM, x, scale, offset, mean, variance);
    OpOption.applyAll(b, options);
    return new FusedBatchNorm<>(b.build());
  }

  /**
   * Local response normalization across channels [{@code LRN}]: {@code x / (bias + alpha * sum of
   * x^2 over the channels within depthRadius)^beta}.
   *
   * @param input FLOAT images, {@code [batch, rows, cols, channels]}
   * @param options {@link LocalResponseNormalization#depthRadius}, {@link
   *     LocalResponseNormalization#bias}, {@link LocalResponseNormalization#alpha}, {@link
   *     LocalResponseNormalization#beta}
   * @return the normalized values, of {@code input}'s shape
   */
  public <T extends TNumber> Operand<T> localResponseNormalization(
      Operand<T> input, LocalResponseNormalization.Options... options) {
    Objects.requireNonNull(input, "input");
    return runner.run(LRN, options, input);
  }
}
