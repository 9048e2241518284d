package io.eagerflow.op;

import io.eagerflow.Operand;
import io.eagerflow.internal.TensorTypes;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TInt64;
import io.eagerflow.types.TNumber;
import io.eagerflow.types.TType;
import java.util.Objects;

/**
 * The array ops of {@link Ops} that TensorFlow Java puts at its top level beside {@code reshape}
 * and {@code gather}: padding, reversal, rolling, {@code where} and indexing by coordinates ({@code
 * gatherNd} and the scatters). Kept apart from {@code Ops} so that neither file passes 800 lines;
 * public methods of this package-private class are public methods of {@code Ops}, with the errors
 * listed there.
 */
abstract class OpsArray extends OpsTypedConstants {
  private static final OpType PAD_V2 = new OpType("PadV2");
  private static final OpType MIRROR_PAD = new OpType("MirrorPad");
  private static final OpType REVERSE = new OpType("ReverseV2");
  private static final OpType ROLL = new OpType("Roll");
  private static final OpType WHERE = new OpType("Where");
  private static final OpType GATHER_ND = new OpType("GatherNd");
  private static final OpType SCATTER_ND = new OpType("ScatterNd");
  private static final OpType TENSOR_SCATTER_UPDATE = new OpType("TensorScatterUpdate");
  private static final OpType TENSOR_SCATTER_ADD = new OpType("TensorScatterAdd");
  private static final OpType UNIQUE_V2 = new OpType("UniqueV2");
  private static final OpType LIN_SPACE = new OpType("LinSpace");

  OpsArray(Runner runner) {
    super(runner);
  }

  /**
   * {@code input} with {@code constantValues} added before and after each dimension [{@code
   * PadV2}]: row {@code d} of {@code paddings} holds how many to add before and after dimension
   * {@code d}. A {@code [2, 2]} input padded by {@code [[1, 1], [2, 2]]} becomes {@code [4, 6]}.
   *
   * @param input the tensor
   * @param paddings an integer matrix {@code [rank, 2]} of non-negative counts
   * @param constantValues a scalar of {@code input}'s dtype, the fill value
   * @return the padded tensor
   * @throws IllegalArgumentException if {@code paddings} is not {@code [rank, 2]} or holds a
   *     negative count
   */
  public <T extends TType> Operand<T> pad(
      Operand<T> input, Operand<? extends TNumber> paddings, Operand<T> constantValues) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(paddings, "paddings");
    Objects.requireNonNull(constantValues, "constantValues");
    return runner.run(PAD_V2, input, paddings, constantValues);
  }

  /**
   * {@code input} padded with mirror images of itself [{@code MirrorPad}]: {@code "REFLECT"} leaves
   * the edge out of the mirror ({@code [1, 2, 3]} padded by {@code [2, 2]} is {@code [3, 2, 1, 2,
   * 3, 2, 1]}), {@code "SYMMETRIC"} repeats it ({@code [2, 1, 1, 2, 3, 3, 2]}).
   *
   * @param input the tensor
   * @param paddings an integer matrix {@code [rank, 2]}; each count at most the dimension's size
   *     (less one for {@code REFLECT})
   * @param mode {@code "REFLECT"} or {@code "SYMMETRIC"}
   * @return the padded tensor
   * @throws IllegalArgumentException if a count is too large or negative, or {@code mode} unknown
   */
  public <T extends TType> Operand<T> mirrorPad(
      Operand<T> input, Operand<? extends TNumber> paddings, String mode) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(paddings, "paddings");
    Objects.requireNonNull(mode, "mode");
    return runner.builder(MIRROR_PAD, input, paddings).setAttr("mode", mode).build().output(0);
  }

  /**
   * {@code tensor} with the order of its elements reversed along each dimension in {@code axis}
   * [{@code ReverseV2}].
   *
   * @param tensor the tensor
   * @param axis an integer vector of distinct dimensions, each in {@code [-rank, rank)}
   * @return the reversed tensor, of {@code tensor}'s shape
   * @throws IllegalArgumentException if a dimension is out of range or given twice
   */
  public <T extends TType> Operand<T> reverse(Operand<T> tensor, Operand<? extends TNumber> axis) {
    Objects.requireNonNull(tensor, "tensor");
    Objects.requireNonNull(axis, "axis");
    return runner.run(REVERSE, tensor, axis);
  }

  /**
   * {@code input} with its elements moved {@code shift} places along each dimension of {@code
   * axis}, those pushed off one end coming back at the other [{@code Roll}]: {@code [0, 1, 2, 3,
   * 4]} rolled by 2 is {@code [3, 4, 0, 1, 2]}. Shifts of one dimension add up; negative ones move
   * towards the start.
   *
   * @param input a tensor of rank 1 or more
   * @param shift an integer scalar or vector
   * @param axis an integer scalar or vector of {@code shift}'s size, each in {@code [-rank, rank)}
   * @return the rolled tensor, of {@code input}'s shape
   */
  public <T extends TType> Operand<T> roll(
      Operand<T> input, Operand<? extends TNumber> shift, Operand<? extends TNumber> axis) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(shift, "shift");
    Objects.requireNonNull(axis, "axis");
    return runner.run(ROLL, input, shift, axis);
  }

  /**
   * The coordinates of the true (non-zero) elements of {@code condition}, in row-major order
   * [{@code Where}]: a {@code [count, rank]} matrix. NaN counts as non-zero, {@code -0.0} does not.
   *
   * @param condition a boolean or numeric tensor
   * @return the coordinates
   */
  public Operand<TInt64> where(Operand<? extends TType> condition) {
    Objects.requireNonNull(condition, "condition");
    return runner.run(WHERE, condition);
  }

  /**
   * The slices of {@code params} at the coordinates in the innermost dimension of {@code indices}
   * [{@code GatherNd}]: with {@code k} coordinates per row, the output's shape is {@code
   * indices.shape[:-1] + params.shape[k:]}.
   *
   * @param params the tensor to read
   * @param indices an integer tensor of rank 1 or more, innermost dimension at most {@code params}'
   *     rank
   * @return the gathered slices
   * @throws IllegalArgumentException if a coordinate is outside {@code params}
   */
  public <T extends TType> Operand<T> gatherNd(
      Operand<T> params, Operand<? extends TNumber> indices) {
    Objects.requireNonNull(params, "params");
    Objects.requireNonNull(indices, "indices");
    return runner.run(GATHER_ND, params, indices);
  }

  /**
   * Zeros of {@code shape} with the slices of {@code updates} added at the coordinates of {@code
   * indices} [{@code ScatterNd}]; updates at the same coordinates add up. {@code updates} has shape
   * {@code indices.shape[:-1] + shape[k:]} for {@code k} coordinates per row.
   *
   * @param indices an integer tensor of rank 1 or more
   * @param updates the numeric values to add
   * @param shape an integer vector of {@code indices}' dtype, the output's shape
   * @return the scattered tensor
   * @throws IllegalArgumentException if a coordinate is outside {@code shape} or the shapes
   *     disagree
   */
  public <U extends TType, T extends TNumber> Operand<U> scatterNd(
      Operand<T> indices, Operand<U> updates, Operand<T> shape) {
    Objects.requireNonNull(indices, "indices");
    Objects.requireNonNull(updates, "updates");
    Objects.requireNonNull(shape, "shape");
    return runner.run(SCATTER_ND, indices, updates, shape);
  }

  /**
   * A copy of {@code tensor} with the slices of {@code updates} written at the coordinates of
   * {@code indices} [{@code TensorScatterUpdate}]; of updates at the same coordinates, the last
   * wins.
   *
   * @param tensor the values to start from
   * @param indices an integer tensor of rank 1 or more
   * @param updates values of {@code tensor}'s dtype, of shape {@code indices.shape[:-1] +
   *     tensor.shape[k:]}
   * @return the updated copy
   * @throws IllegalArgumentException if a coordinate is outside {@code tensor} or the shapes
   *     disagree
   */
  public <T extends TType> Operand<T> tensorScatterNdUpdate(
      Operand<T> tensor, Operand<? extends TNumber> indices, Operand<T> updates) {
    return tensorScatter(TENSOR_SCATTER_UPDATE, tensor, indices, updates);
  }

  /**
   * A copy of {@code tensor} with the slices of {@code updates} added at the coordinates of {@code
   * indices} [{@code TensorScatterAdd}]; updates at the same coordinates add up.
   *
   * @param tensor the numeric values to start from
   * @param indices an integer tensor of rank 1 or more
   * @param updates values of {@code tensor}'s dtype, of shape {@code indices.shape[:-1] +
   *     tensor.shape[k:]}
   * @return the sum
   * @throws IllegalArgumentException if a coordinate is outside {@code tensor} or the shapes
   *     disagree
   */
  public <T extends TType> Operand<T> tensorScatterNdAdd(
      Operand<T> tensor, Operand<? extends TNumber> indices, Operand<T> updates) {
    return tensorScatter(TENSOR_SCATTER_ADD, tensor, indices, updates);
  }

  private <T extends TType> Operand<T> tensorScatter(
      OpType op, Operand<T> tensor, Operand<?> indices, Operand<T> updates) {
    Objects.requireNonNull(tensor, "tensor");
    Objects.requireNonNull(indices, "indices");
    Objects.requireNonNull(updates, "updates");
    return runner.run(op, tensor, indices, updates);
  }

  /**
   * The distinct elements of {@code x} in order of first appearance, or with {@code axis} holding
   * one dimension the distinct slices along it, and for each the index of its value [{@code
   * UniqueV2}, indices {@code TInt32}]. {@code 0.0} and {@code -0.0} are one value; every NaN is
   * its own.
   *
   * @param x the values; a vector when {@code axis} is empty
   * @param axis an integer vector of zero or one dimension
   * @return the distinct values ({@code y()}) and the index of each element's ({@code idx()})
   */
  public <T extends TType> Unique<T, TInt32> unique(Operand<T> x, Operand<? extends TNumber> axis) {
    return unique(x, axis, TInt32.class);
  }

  /**
   * {@link #unique(Operand, Operand)} with indices of type {@code outIdx} [{@code UniqueV2},
   * attribute {@code out_idx}].
   *
   * @param x the values; a vector when {@code axis} is empty
   * @param axis an integer vector of zero or one dimension
   * @param outIdx {@code TInt32.class} or {@code TInt64.class}
   * @return the distinct values ({@code y()}) and the index of each element's ({@code idx()})
   */
  public <T extends TType, V extends TNumber> Unique<T, V> unique(
      Operand<T> x, Operand<? extends TNumber> axis, Class<V> outIdx) {
    Objects.requireNonNull(x, "x");
    Objects.requireNonNull(axis, "axis");
    Objects.requireNonNull(outIdx, "outIdx");
    return new Unique<>(
        runner
            .builder(UNIQUE_V2, x, axis)
            .setAttr("out_idx", TensorTypes.dataTypeOf(outIdx))
            .build());
  }

  /**
   * {@code num} evenly spaced values from {@code start} to {@code stop}, both included [{@code
   * LinSpace}]: {@code linSpace(10, 12, 3)} is {@code [10, 11, 12]}.
   *
   * @param start a float or double scalar, the first value
   * @param stop a scalar of {@code start}'s dtype, the last value
   * @param num a positive integer scalar, the number of values
   * @return the vector of {@code num} values
   * @throws IllegalArgumentException if {@code num} is not positive
   */
  public <T extends TNumber> Operand<T> linSpace(
      Operand<T> start, Operand<T> stop, Operand<? extends TNumber> num) {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(stop, "stop");
    Objects.requireNonNull(num, "num");
    return runner.run(LIN_SPACE, start, stop, num);
  }
}
