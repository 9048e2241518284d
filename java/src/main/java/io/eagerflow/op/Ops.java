package io.eagerflow.op;

import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.OperationBuilder;
import io.eagerflow.Output;
import io.eagerflow.internal.Wire;
import io.eagerflow.types.TBool;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TInt64;
import io.eagerflow.types.TNumber;
import io.eagerflow.types.TType;
import java.util.List;
import java.util.Objects;

/**
 * The entry point to ops, in TensorFlow Java's style: {@code Ops tf = Ops.create(session)}, then
 * {@code tf.constant(..)}, {@code tf.reshape(..)}, {@code tf.math.add(..)}, {@code
 * tf.linalg.matMul(..)} and so on. Every op runs at once, in this object's {@link EagerSession},
 * and returns its output, whose value {@link Operand#asTensor()} reads.
 *
 * <pre>{@code
 * try (EagerSession session = EagerSession.create()) {
 *   Ops tf = Ops.create(session);
 *   Operand<TFloat32> x = tf.constant(new float[][] {{1, 2}, {3, 4}});
 *   Operand<TFloat32> y = tf.linalg.matMul(x, x, MatMul.transposeB(true));
 *   float v = y.asTensor().getFloat(0, 1); // 11
 * }
 * }</pre>
 *
 * <p>Op methods take the names, argument order and optional attributes of TensorFlow Java and run
 * the TensorFlow op type named in each method's description; optional attributes are passed as
 * trailing {@code Options} arguments made by classes such as {@link MatMul} or {@link ReduceSum}.
 * Shapes and dtypes follow TensorFlow: binary element-wise ops broadcast with NumPy's rules,
 * negative axes count from the end, and integer operands such as {@code axis} or {@code shape} may
 * be {@link TInt32} or {@link TInt64}.
 *
 * <p>Errors, for every op method here and in the groups:
 *
 * <ul>
 *   <li>{@link NullPointerException} naming the parameter, if an argument is null, before anything
 *       runs;
 *   <li>{@link IllegalArgumentException} for shapes, dtypes, axes or attributes the op does not
 *       accept; the message names the op, the operand and the shapes or dtypes involved;
 *   <li>{@link IllegalStateException} if the session is closed, an operand was released, or an
 *       operand's (other) session is closed;
 *   <li>{@link io.eagerflow.NativeMemoryExhaustedException} if the session's memory limit would be
 *       exceeded.
 * </ul>
 *
 * <p>Errors the native core finds are thrown as TensorFlow Java's subclasses of these, from {@link
 * io.eagerflow.exceptions}: {@code TFInvalidArgumentException}, {@code
 * TFFailedPreconditionException}, {@code TFOutOfRangeException} and {@code
 * TFResourceExhaustedException}.
 *
 * <p>Operands may come from another open session, as in TensorFlow Java: the op's output belongs to
 * this object's session, the input stays owned by its own.
 *
 * <p>Immutable and thread-safe: one {@code Ops} may be shared by any number of threads. Op names
 * are generated lazily, only when {@link io.eagerflow.Operation#name()} is asked.
 */
public final class Ops extends OpsArray {
  private static final OpType RESHAPE = new OpType("Reshape");
  private static final OpType CONCAT = new OpType("ConcatV2");
  private static final OpType SUM = new OpType("Sum");
  private static final OpType MAX = new OpType("Max");
  private static final OpType MIN = new OpType("Min");
  private static final OpType PROD = new OpType("Prod");
  private static final OpType ALL = new OpType("All");
  private static final OpType ANY = new OpType("Any");
  private static final OpType PACK = new OpType("Pack");
  private static final OpType UNPACK = new OpType("Unpack");
  private static final OpType SQUEEZE = new OpType("Squeeze");
  private static final OpType EXPAND_DIMS = new OpType("ExpandDims");
  private static final OpType SLICE = new OpType("Slice");
  private static final OpType STRIDED_SLICE = new OpType("StridedSlice");
  private static final OpType GATHER = new OpType("GatherV2");
  private static final OpType TILE = new OpType("Tile");
  private static final OpType ZEROS_LIKE = new OpType("ZerosLike");
  private static final OpType ONES_LIKE = new OpType("OnesLike");
  private static final OpType RANGE = new OpType("Range");
  private static final OpType IDENTITY = new OpType("Identity");
  private static final OpType SHAPE = new OpType("Shape");
  private static final OpType SIZE = new OpType("Size");
  private static final OpType RANK = new OpType("Rank");
  private static final OpType SELECT = new OpType("SelectV2");
  private static final OpType ONE_HOT = new OpType("OneHot");
  private static final OpType SPLIT = new OpType("Split");
  private static final OpType CLIP_BY_VALUE = new OpType("ClipByValue");
  private static final OpType STOP_GRADIENT = new OpType("StopGradient");
  private static final OpType BROADCAST_TO = new OpType("BroadcastTo");

  /** Math ops: arithmetic, comparisons, logic, mean, argMax, cumsum, addN. */
  public final MathOps math;

  /** Linear algebra: matMul, batchMatMul, transpose. */
  public final LinalgOps linalg;

  /** Neural-network ops: activations, softmax, biasAdd, losses, convolutions, pooling, topK. */
  public final NnOps nn;

  /** Image ops: resizing. */
  public final ImageOps image;

  /** Type conversion: cast. */
  public final DtypesOps dtypes;

  /** Random tensors: uniform, normal, truncated normal. */
  public final RandomOps random;

  /** String ops: join, substr, length. */
  public final StringsOps strings;

  private Ops(EagerSession session, Naming naming) {
    super(new Runner(session, naming));
    this.math = new MathOps(runner);
    this.linalg = new LinalgOps(runner);
    this.nn = new NnOps(runner);
    this.image = new ImageOps(runner);
    this.dtypes = new DtypesOps(runner);
    this.random = new RandomOps(runner);
    this.strings = new StringsOps(runner);
  }

  /**
   * Ops that run in {@code session}.
   *
   * @param session an open session
   * @return the ops
   * @throws NullPointerException if {@code session} is null
   * @throws IllegalStateException if {@code session} is closed
   */
  public static Ops create(EagerSession session) {
    if (Objects.requireNonNull(session, "session").isClosed()) {
      throw new IllegalStateException(Wire.CLOSED_MESSAGE);
    }
    return new Ops(session, Naming.root());
  }

  /**
   * Ops that run in the default session ({@link EagerSession#getDefault()}), which is created on
   * first use and never closed.
   *
   * @return the ops
   */
  public static Ops create() {
    return new Ops(EagerSession.getDefault(), Naming.root());
  }

  /**
   * The session these ops run in.
   *
   * @return the session
   */
  public EagerSession session() {
    return runner.session;
  }

  /**
   * Ops whose next op is named {@code opName}, as TensorFlow Java's {@code Ops.withName}: {@code
   * tf.withName("logits").linalg.matMul(x, w).op().name()} is {@code "logits"} (inside a {@link
   * #withSubScope sub-scope}, {@code "scope/logits"}); each further op made through the returned
   * object is named {@code opName} too, made unique as {@code opName_1}, {@code opName_2}, ....
   *
   * <p>There is no graph in eagerflow: a name is only the label {@link
   * io.eagerflow.Operation#name()} returns; nothing looks ops up by name. Ops made through a
   * renamed {@code Ops} do not take the native fast path, which costs about a builder's overhead
   * per op.
   *
   * @param opName a name of letters, digits, {@code '.'}, {@code '_'} and {@code '-'}, not starting
   *     with {@code '_'} or {@code '-'}
   * @return ops in the same session and scope that name their ops {@code opName}
   * @throws IllegalArgumentException if {@code opName} is null or not a valid name
   * @throws IllegalStateException if the session is closed
   */
  public Ops withName(String opName) {
    checkOpen();
    return new Ops(runner.session, runner.naming.withName(opName));
  }

  /**
   * Ops whose op names are prefixed with {@code childScopeName/}, as TensorFlow Java's {@code
   * Ops.withSubScope}: {@code tf.withSubScope("layer1").math.add(x, y).op().name()} is {@code
   * "layer1/AddV2"}. Sub-scopes nest ({@code "layer1/dense/MatMul"}); a scope name used twice under
   * one parent becomes {@code layer1_1}, and names are unique within each scope. With a name set by
   * {@link #withName}, that name is the scope's.
   *
   * <p>Names only: there is no graph and no scope of anything but names; tensors' lifetimes follow
   * the session, {@link io.eagerflow.EagerScope} and {@link EagerSession#release}.
   *
   * @param childScopeName the sub-scope's name, valid as for {@link #withName}
   * @return ops in the same session whose op names are prefixed by the sub-scope
   * @throws IllegalArgumentException if the name is null or not a valid name
   * @throws IllegalStateException if the session is closed
   */
  public Ops withSubScope(String childScopeName) {
    checkOpen();
    return new Ops(runner.session, runner.naming.withSubScope(childScopeName));
  }

  /**
   * These ops, accepted for source compatibility with TensorFlow Java's {@code Ops.withDevice}:
   * <b>it has no effect</b>. eagerflow runs every op on the CPU of the calling process, whatever
   * the spec names (a GPU too); the returned {@code Ops} is this one.
   *
   * @param deviceSpec where TensorFlow would place the ops; ignored
   * @return this
   * @throws NullPointerException if {@code deviceSpec} is null
   * @throws IllegalStateException if the session is closed
   */
  public Ops withDevice(io.eagerflow.DeviceSpec deviceSpec) {
    java.util.Objects.requireNonNull(deviceSpec, "deviceSpec");
    checkOpen();
    return this;
  }

  private void checkOpen() {
    if (runner.session.isClosed()) {
      throw new IllegalStateException(Wire.CLOSED_MESSAGE);
    }
  }

  // ---- Shapes and layout ----------------------------------------------------------------------

  /**
   * {@code tensor} with its elements, in row-major order, arranged in {@code shape} [{@code
   * Reshape}]. One dimension of {@code shape} may be -1, meaning whatever makes the element counts
   * agree. Shares the buffer; copies nothing.
   *
   * @param tensor the values
   * @param shape a vector of the new dimensions
   * @return the reshaped tensor
   * @throws IllegalArgumentException if the element counts differ
   */
  public <T extends TType> Operand<T> reshape(Operand<T> tensor, Operand<? extends TNumber> shape) {
    Objects.requireNonNull(tensor, "tensor");
    Objects.requireNonNull(shape, "shape");
    return runner.run(RESHAPE, tensor, shape);
  }

  /**
   * The {@code values} joined along dimension {@code axis} [{@code ConcatV2}]. They must have the
   * same dtype, rank, and sizes in every other dimension.
   *
   * @param values one or more tensors
   * @param axis a scalar, in {@code [-rank, rank)}
   * @return the concatenation
   * @throws NullPointerException if an argument or an element of {@code values} is null
   */
  public <T extends TType> Operand<T> concat(
      Iterable<Operand<T>> values, Operand<? extends TNumber> axis) {
    Objects.requireNonNull(values, "values");
    Objects.requireNonNull(axis, "axis");
    Output<?>[] list = Runner.outputs(values, "values");
    return runner.builder(CONCAT).addInputList(list).addInput(axis.asOutput()).build().output(0);
  }

  /**
   * The inputs, which must have the same shape and dtype, stacked along a new dimension [{@code
   * Pack}]: {@code N} tensors of shape {@code [A, B]} give {@code [N, A, B]} (axis 0), {@code [A,
   * N, B]} (axis 1) or {@code [A, B, N]} (axis 2 or -1).
   *
   * @param values one or more tensors
   * @param options {@link Stack#axis} (default 0)
   * @return the stacked tensor
   * @throws NullPointerException if an argument or an element of {@code values} is null
   */
  public <T extends TType> Operand<T> stack(Iterable<Operand<T>> values, Stack.Options... options) {
    return runner.runList(PACK, values, "values", options);
  }

  /**
   * {@code value} split along a dimension into {@code num} tensors with that dimension removed
   * [{@code Unpack}]: the inverse of {@link #stack}.
   *
   * @param value the tensor to split
   * @param num the size of the dimension along which to unstack
   * @param options {@link Unstack#axis} (default 0)
   * @return {@code num} tensors, in order, in an unmodifiable list
   * @throws IllegalArgumentException if the dimension's size is not {@code num}
   */
  public <T extends TType> List<Operand<T>> unstack(
      Operand<T> value, long num, Unstack.Options... options) {
    Objects.requireNonNull(value, "value");
    OpOption.checkAll(options);
    OperationBuilder b = runner.builder(UNPACK, value).setAttr("num", num);
    OpOption.applyAll(b, options);
    return Runner.outputs(b.build());
  }

  /**
   * {@code value} split along dimension {@code axis} into {@code numSplit} equal parts [{@code
   * Split}].
   *
   * @param axis a scalar, the dimension to split
   * @param value the tensor to split
   * @param numSplit the number of parts, which must divide the dimension's size
   * @return {@code numSplit} tensors, in order, in an unmodifiable list
   * @throws IllegalArgumentException if {@code numSplit} does not divide the dimension
   */
  public <T extends TType> List<Operand<T>> split(
      Operand<TInt32> axis, Operand<T> value, long numSplit) {
    Objects.requireNonNull(axis, "axis");
    Objects.requireNonNull(value, "value");
    return Runner.outputs(
        runner.builder(SPLIT, axis, value).setAttr("num_split", numSplit).build());
  }

  /**
   * {@code input} without dimensions of size 1 [{@code Squeeze}]: all of them, or those named by
   * {@link Squeeze#axis}. Shares the buffer.
   *
   * @param input the tensor
   * @param options {@link Squeeze#axis}
   * @return the squeezed tensor
   * @throws IllegalArgumentException if a named dimension does not have size 1
   */
  public <T extends TType> Operand<T> squeeze(Operand<T> input, Squeeze.Options... options) {
    Objects.requireNonNull(input, "input");
    return runner.run(SQUEEZE, options, input);
  }

  /**
   * {@code input} with a dimension of size 1 inserted at {@code axis} [{@code ExpandDims}]; shares
   * the buffer.
   *
   * @param input the tensor
   * @param axis a scalar in {@code [-rank - 1, rank]}
   * @return the expanded tensor
   */
  public <T extends TType> Operand<T> expandDims(
      Operand<T> input, Operand<? extends TNumber> axis) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(axis, "axis");
    return runner.run(EXPAND_DIMS, input, axis);
  }

  /**
   * The block of {@code input} starting at {@code begin} with {@code size} elements per dimension
   * [{@code Slice}]; a size of -1 takes the rest of that dimension.
   *
   * @param input the tensor
   * @param begin a vector with one start per dimension
   * @param size a vector with one size per dimension
   * @return the slice
   * @throws IllegalArgumentException if the block does not fit in {@code input}
   */
  public <T extends TType, U extends TNumber> Operand<T> slice(
      Operand<T> input, Operand<U> begin, Operand<U> size) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(begin, "begin");
    Objects.requireNonNull(size, "size");
    return runner.run(SLICE, input, begin, size);
  }

  /**
   * Python-style slicing {@code input[begin:end:strides]}, one entry per dimension [{@code
   * StridedSlice}], with the masks of {@link StridedSlice} for omitted bounds, ellipses, new axes
   * and single indices.
   *
   * @param input the tensor
   * @param begin a vector of starts
   * @param end a vector of (exclusive) ends
   * @param strides a vector of non-zero steps
   * @param options masks from {@link StridedSlice}
   * @return the slice
   */
  public <T extends TType, U extends TNumber> Operand<T> stridedSlice(
      Operand<T> input,
      Operand<U> begin,
      Operand<U> end,
      Operand<U> strides,
      StridedSlice.Options... options) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(begin, "begin");
    Objects.requireNonNull(end, "end");
    Objects.requireNonNull(strides, "strides");
    return runner.run(STRIDED_SLICE, options, input, begin, end, strides);
  }

  /**
   * The slices of {@code params} along {@code axis} picked by {@code indices} [{@code GatherV2}]:
   * the result's shape is {@code params.shape[:axis] + indices.shape + params.shape[axis + 1:]}.
   *
   * @param params the tensor to gather from
   * @param indices integer indices into dimension {@code axis}
   * @param axis a scalar
   * @param options {@link Gather#batchDims}
   * @return the gathered tensor
   * @throws IllegalArgumentException if an index is out of range
   */
  public <T extends TType> Operand<T> gather(
      Operand<T> params,
      Operand<? extends TNumber> indices,
      Operand<? extends TNumber> axis,
      Gather.Options... options) {
    Objects.requireNonNull(params, "params");
    Objects.requireNonNull(indices, "indices");
    Objects.requireNonNull(axis, "axis");
    return runner.run(GATHER, options, params, indices, axis);
  }

  /**
   * {@code input} repeated {@code multiples[i]} times along each dimension {@code i} [{@code
   * Tile}].
   *
   * @param input the tensor
   * @param multiples a vector with one count per dimension
   * @return the tiled tensor
   */
  public <T extends TType> Operand<T> tile(Operand<T> input, Operand<? extends TNumber> multiples) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(multiples, "multiples");
    return runner.run(TILE, input, multiples);
  }

  /**
   * Zeros of {@code x}'s shape and dtype [{@code ZerosLike}].
   *
   * @param x the model tensor
   * @return the zeros
   */
  public <T extends TType> Operand<T> zerosLike(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(ZEROS_LIKE, x);
  }

  /**
   * Ones of {@code x}'s shape and dtype [{@code OnesLike}].
   *
   * @param x the model tensor
   * @return the ones
   */
  public <T extends TType> Operand<T> onesLike(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(ONES_LIKE, x);
  }

  /**
   * The vector {@code start, start + delta, ...} up to but excluding {@code limit} [{@code Range}].
   *
   * @param start a scalar
   * @param limit a scalar
   * @param delta a non-zero scalar
   * @return the sequence
   * @throws IllegalArgumentException if {@code delta} is 0 or points away from {@code limit}
   */
  public <T extends TNumber> Operand<T> range(
      Operand<T> start, Operand<T> limit, Operand<T> delta) {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(limit, "limit");
    Objects.requireNonNull(delta, "delta");
    return runner.run(RANGE, start, limit, delta);
  }

  /**
   * {@code input} itself, as a new output sharing its buffer [{@code Identity}].
   *
   * @param input the tensor
   * @return the same values
   */
  public <T extends TType> Operand<T> identity(Operand<T> input) {
    Objects.requireNonNull(input, "input");
    return runner.run(IDENTITY, input);
  }

  /**
   * {@code input} itself [{@code StopGradient}]. This library computes no gradients, so it is
   * {@link #identity}; it exists so that TensorFlow Java code ports unchanged.
   *
   * @param input the tensor
   * @return the same values
   */
  public <T extends TType> Operand<T> stopGradient(Operand<T> input) {
    Objects.requireNonNull(input, "input");
    return runner.run(STOP_GRADIENT, input);
  }

  /**
   * {@code input} broadcast to {@code shape} with NumPy's rules [{@code BroadcastTo}].
   *
   * @param input the tensor
   * @param shape a vector of the target dimensions
   * @return the broadcast tensor
   * @throws IllegalArgumentException if {@code input} does not broadcast to {@code shape}
   */
  public <T extends TType> Operand<T> broadcastTo(
      Operand<T> input, Operand<? extends TNumber> shape) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(shape, "shape");
    return runner.run(BROADCAST_TO, input, shape);
  }

  /**
   * The dimensions of {@code input} as an {@link TInt32} vector [{@code Shape}].
   *
   * @param input the tensor
   * @return a vector of length {@code rank(input)}
   */
  public Operand<TInt32> shape(Operand<? extends TType> input) {
    Objects.requireNonNull(input, "input");
    return runner.run(SHAPE, input);
  }

  /**
   * The dimensions of {@code input} as a vector of {@code outType} [{@code Shape}, attribute {@code
   * out_type}].
   *
   * @param input the tensor
   * @param outType {@code TInt32.class} or {@code TInt64.class}
   * @return a vector of length {@code rank(input)}
   */
  public <U extends TNumber> Operand<U> shape(Operand<? extends TType> input, Class<U> outType) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(outType, "outType");
    return runner.runTyped(SHAPE, "out_type", outType, OpOption.NONE, input);
  }

  /**
   * The number of elements of {@code input} as an {@link TInt32} scalar [{@code Size}].
   *
   * @param input the tensor
   * @return a scalar
   */
  public Operand<TInt32> size(Operand<? extends TType> input) {
    Objects.requireNonNull(input, "input");
    return runner.run(SIZE, input);
  }

  /**
   * The number of elements of {@code input} as a scalar of {@code outType} [{@code Size}, attribute
   * {@code out_type}].
   *
   * @param input the tensor
   * @param outType {@code TInt32.class} or {@code TInt64.class}
   * @return a scalar
   */
  public <U extends TNumber> Operand<U> size(Operand<? extends TType> input, Class<U> outType) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(outType, "outType");
    return runner.runTyped(SIZE, "out_type", outType, OpOption.NONE, input);
  }

  /**
   * The number of dimensions of {@code input} as an {@link TInt32} scalar [{@code Rank}].
   *
   * @param input the tensor
   * @return a scalar
   */
  public Operand<TInt32> rank(Operand<? extends TType> input) {
    Objects.requireNonNull(input, "input");
    return runner.run(RANK, input);
  }

  /**
   * Elements of {@code t} where {@code condition} is true and of {@code e} elsewhere [{@code
   * SelectV2}]; the three broadcast together.
   *
   * @param condition booleans
   * @param t values where true
   * @param e values where false, of {@code t}'s dtype
   * @return the selection
   */
  public <T extends TType> Operand<T> select(Operand<TBool> condition, Operand<T> t, Operand<T> e) {
    Objects.requireNonNull(condition, "condition");
    Objects.requireNonNull(t, "t");
    Objects.requireNonNull(e, "e");
    return runner.run(SELECT, condition, t, e);
  }

  /**
   * One-hot encoding [{@code OneHot}]: a new dimension of size {@code depth} (last by default)
   * holding {@code onValue} at each index and {@code offValue} elsewhere; indices outside {@code
   * [0, depth)} give a row of {@code offValue}.
   *
   * @param indices integer indices
   * @param depth a scalar, the size of the new dimension
   * @param onValue a scalar
   * @param offValue a scalar of {@code onValue}'s dtype
   * @param options {@link OneHot#axis} (default -1)
   * @return the encoding, of {@code onValue}'s dtype
   */
  public <U extends TType> Operand<U> oneHot(
      Operand<? extends TNumber> indices,
      Operand<TInt32> depth,
      Operand<U> onValue,
      Operand<U> offValue,
      OneHot.Options... options) {
    Objects.requireNonNull(indices, "indices");
    Objects.requireNonNull(depth, "depth");
    Objects.requireNonNull(onValue, "onValue");
    Objects.requireNonNull(offValue, "offValue");
    return runner.run(ONE_HOT, options, indices, depth, onValue, offValue);
  }

  /**
   * {@code t} with every element clamped to {@code [clipValueMin, clipValueMax]} [{@code
   * ClipByValue}]; the bounds broadcast against {@code t}.
   *
   * @param t the values
   * @param clipValueMin the lower bound
   * @param clipValueMax the upper bound
   * @return the clipped values
   */
  public <T extends TType> Operand<T> clipByValue(
      Operand<T> t, Operand<T> clipValueMin, Operand<T> clipValueMax) {
    Objects.requireNonNull(t, "t");
    Objects.requireNonNull(clipValueMin, "clipValueMin");
    Objects.requireNonNull(clipValueMax, "clipValueMax");
    return runner.run(CLIP_BY_VALUE, t, clipValueMin, clipValueMax);
  }

  // ---- Reductions -----------------------------------------------------------------------------

  /**
   * The sum of {@code input}'s elements along the dimensions in {@code axis} [{@code Sum}].
   *
   * @param input the values
   * @param axis a scalar or vector of dimensions to reduce; an empty vector reduces nothing
   * @param options {@link ReduceSum#keepDims} (default: reduced dimensions are removed)
   * @return the sums
   * @throws IllegalArgumentException if an axis is out of range
   */
  public <T extends TType> Operand<T> reduceSum(
      Operand<T> input, Operand<? extends TNumber> axis, ReduceSum.Options... options) {
    return runner.reduce(SUM, input, axis, options);
  }

  /**
   * The maximum of {@code input}'s elements along the dimensions in {@code axis} [{@code Max}].
   *
   * @param input the values
   * @param axis a scalar or vector of dimensions to reduce
   * @param options {@link ReduceMax#keepDims}
   * @return the maxima
   */
  public <T extends TType> Operand<T> reduceMax(
      Operand<T> input, Operand<? extends TNumber> axis, ReduceMax.Options... options) {
    return runner.reduce(MAX, input, axis, options);
  }

  /**
   * The minimum of {@code input}'s elements along the dimensions in {@code axis} [{@code Min}].
   *
   * @param input the values
   * @param axis a scalar or vector of dimensions to reduce
   * @param options {@link ReduceMin#keepDims}
   * @return the minima
   */
  public <T extends TType> Operand<T> reduceMin(
      Operand<T> input, Operand<? extends TNumber> axis, ReduceMin.Options... options) {
    return runner.reduce(MIN, input, axis, options);
  }

  /**
   * The product of {@code input}'s elements along the dimensions in {@code axis} [{@code Prod}].
   *
   * @param input the values
   * @param axis a scalar or vector of dimensions to reduce
   * @param options {@link ReduceProd#keepDims}
   * @return the products
   */
  public <T extends TType> Operand<T> reduceProd(
      Operand<T> input, Operand<? extends TNumber> axis, ReduceProd.Options... options) {
    return runner.reduce(PROD, input, axis, options);
  }

  /**
   * Logical and of {@code input}'s elements along the dimensions in {@code axis} [{@code All}].
   *
   * @param input booleans
   * @param axis a scalar or vector of dimensions to reduce
   * @param options {@link ReduceAll#keepDims}
   * @return whether all are true
   */
  public Operand<TBool> reduceAll(
      Operand<TBool> input, Operand<? extends TNumber> axis, ReduceAll.Options... options) {
    return runner.reduce(ALL, input, axis, options);
  }

  /**
   * Logical or of {@code input}'s elements along the dimensions in {@code axis} [{@code Any}].
   *
   * @param input booleans
   * @param axis a scalar or vector of dimensions to reduce
   * @param options {@link ReduceAny#keepDims}
   * @return whether any is true
   */
  public Operand<TBool> reduceAny(
      Operand<TBool> input, Operand<? extends TNumber> axis, ReduceAny.Options... options) {
    return runner.reduce(ANY, input, axis, options);
  }

  /**
   * TensorFlow Java's alias of {@link #reduceSum}.
   *
   * @param input the values
   * @param axis a scalar or vector of dimensions to reduce
   * @param options {@link ReduceSum#keepDims}
   * @return the sums
   */
  public <T extends TType> Operand<T> sum(
      Operand<T> input, Operand<? extends TNumber> axis, ReduceSum.Options... options) {
    return reduceSum(input, axis, options);
  }

  /**
   * TensorFlow Java's alias of {@link #reduceMax}.
   *
   * @param input the values
   * @param axis a scalar or vector of dimensions to reduce
   * @param options {@link ReduceMax#keepDims}
   * @return the maxima
   */
  public <T extends TType> Operand<T> max(
      Operand<T> input, Operand<? extends TNumber> axis, ReduceMax.Options... options) {
    return reduceMax(input, axis, options);
  }

  /**
   * TensorFlow Java's alias of {@link #reduceMin}.
   *
   * @param input the values
   * @param axis a scalar or vector of dimensions to reduce
   * @param options {@link ReduceMin#keepDims}
   * @return the minima
   */
  public <T extends TType> Operand<T> min(
      Operand<T> input, Operand<? extends TNumber> axis, ReduceMin.Options... options) {
    return reduceMin(input, axis, options);
  }

  /**
   * TensorFlow Java's alias of {@link #reduceProd}.
   *
   * @param input the values
   * @param axis a scalar or vector of dimensions to reduce
   * @param options {@link ReduceProd#keepDims}
   * @return the products
   */
  public <T extends TType> Operand<T> prod(
      Operand<T> input, Operand<? extends TNumber> axis, ReduceProd.Options... options) {
    return reduceProd(input, axis, options);
  }

  /**
   * TensorFlow Java's alias of {@link #reduceAll}.
   *
   * @param input booleans
   * @param axis a scalar or vector of dimensions to reduce
   * @param options {@link ReduceAll#keepDims}
   * @return whether all are true
   */
  public Operand<TBool> all(
      Operand<TBool> input, Operand<? extends TNumber> axis, ReduceAll.Options... options) {
    return reduceAll(input, axis, options);
  }

  /**
   * TensorFlow Java's alias of {@link #reduceAny}.
   *
   * @param input booleans
   * @param axis a scalar or vector of dimensions to reduce
   * @param options {@link ReduceAny#keepDims}
   * @return whether any is true
   */
  public Operand<TBool> any(
      Operand<TBool> input, Operand<? extends TNumber> axis, ReduceAny.Options... options) {
    return reduceAny(input, axis, options);
  }
}
