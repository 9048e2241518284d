package io.eagerflow.op;

import io.eagerflow.Operand;
import io.eagerflow.types.TBool;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TNumber;
import io.eagerflow.types.TType;
import java.util.Objects;

/**
 * The math ops of {@link MathOps} ({@code tf.math}) kept apart so that neither file passes 800
 * lines: the float predicates, special functions, {@code atan2}, truncating division, {@code
 * cumprod}, segment reductions and {@code bincount}. Public methods of this package-private class
 * are public methods of {@code MathOps}, with the errors listed on {@link Ops}.
 */
abstract class MathOpsSpecial {
  private static final OpType IS_NAN = new OpType("IsNan");
  private static final OpType IS_INF = new OpType("IsInf");
  private static final OpType IS_FINITE = new OpType("IsFinite");
  private static final OpType ERF = new OpType("Erf");
  private static final OpType ERFC = new OpType("Erfc");
  private static final OpType LGAMMA = new OpType("Lgamma");
  private static final OpType ATAN2 = new OpType("Atan2");
  private static final OpType TRUNCATE_DIV = new OpType("TruncateDiv");
  private static final OpType TRUNCATE_MOD = new OpType("TruncateMod");
  private static final OpType CUMPROD = new OpType("Cumprod");
  private static final OpType SEGMENT_SUM = new OpType("SegmentSum");
  private static final OpType SEGMENT_MEAN = new OpType("SegmentMean");
  private static final OpType SEGMENT_MAX = new OpType("SegmentMax");
  private static final OpType SEGMENT_MIN = new OpType("SegmentMin");
  private static final OpType UNSORTED_SEGMENT_SUM = new OpType("UnsortedSegmentSum");
  private static final OpType UNSORTED_SEGMENT_MAX = new OpType("UnsortedSegmentMax");
  private static final OpType BINCOUNT = new OpType("Bincount");

  private final Runner runner;

  MathOpsSpecial(Runner runner) {
    this.runner = runner;
  }

  private <T extends TType> Operand<T> unary(OpType op, Operand<?> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(op, x);
  }

  private <T extends TType> Operand<T> binary(
      OpType op, Operand<?> x, Operand<?> y, String xName, String yName) {
    Objects.requireNonNull(x, xName);
    Objects.requireNonNull(y, yName);
    return runner.run(op, x, y);
  }

  /**
   * Whether each element of {@code x} is NaN [{@code IsNan}].
   *
   * @param x a float or double tensor
   * @return booleans of {@code x}'s shape
   */
  public Operand<TBool> isNan(Operand<? extends TNumber> x) {
    return unary(IS_NAN, x);
  }

  /**
   * Whether each element of {@code x} is positive or negative infinity [{@code IsInf}].
   *
   * @param x a float or double tensor
   * @return booleans of {@code x}'s shape
   */
  public Operand<TBool> isInf(Operand<? extends TNumber> x) {
    return unary(IS_INF, x);
  }

  /**
   * Whether each element of {@code x} is neither infinite nor NaN [{@code IsFinite}].
   *
   * @param x a float or double tensor
   * @return booleans of {@code x}'s shape
   */
  public Operand<TBool> isFinite(Operand<? extends TNumber> x) {
    return unary(IS_FINITE, x);
  }

  /**
   * The error function of each element [{@code Erf}].
   *
   * @param x a float or double tensor
   * @return the values, of {@code x}'s shape
   */
  public <T extends TNumber> Operand<T> erf(Operand<T> x) {
    return unary(ERF, x);
  }

  /**
   * The complementary error function, {@code 1 - erf(x)} without its cancellation [{@code Erfc}].
   *
   * @param x a float or double tensor
   * @return the values, of {@code x}'s shape
   */
  public <T extends TNumber> Operand<T> erfc(Operand<T> x) {
    return unary(ERFC, x);
  }

  /**
   * The natural logarithm of the absolute value of the gamma function [{@code Lgamma}]; {@code
   * +inf} at the poles (0 and the negative integers).
   *
   * @param x a float or double tensor
   * @return the values, of {@code x}'s shape
   */
  public <T extends TNumber> Operand<T> lgamma(Operand<T> x) {
    return unary(LGAMMA, x);
  }

  /**
   * The angle of the point {@code (x, y)}, element-wise, in {@code [-pi, pi]} [{@code Atan2}];
   * {@code y} and {@code x} broadcast.
   *
   * @param y the ordinates, float or double
   * @param x the abscissas, of {@code y}'s dtype
   * @return the angles, of the broadcast shape
   */
  public <T extends TNumber> Operand<T> atan2(Operand<T> y, Operand<T> x) {
    return binary(ATAN2, y, x, "y", "x");
  }

  /**
   * Integer {@code x / y} rounded toward zero [{@code TruncateDiv}]; the operands broadcast.
   *
   * @param x the dividends, {@code TUint8}, {@code TInt32} or {@code TInt64}
   * @param y the divisors, of {@code x}'s dtype
   * @return the quotients, of the broadcast shape
   * @throws IllegalArgumentException if a divisor used is 0
   */
  public <T extends TType> Operand<T> truncateDiv(Operand<T> x, Operand<T> y) {
    return binary(TRUNCATE_DIV, x, y, "x", "y");
  }

  /**
   * The remainder of {@code x / y} rounded toward zero, with the sign of {@code x} [{@code
   * TruncateMod}]: C's {@code %} for integers, {@code fmod} for floats; the operands broadcast.
   *
   * @param x the dividends, {@code TInt32}, {@code TInt64}, {@code TFloat32} or {@code TFloat64}
   * @param y the divisors, of {@code x}'s dtype
   * @return the remainders, of the broadcast shape
   * @throws IllegalArgumentException if an integer divisor used is 0
   */
  public <T extends TNumber> Operand<T> truncateMod(Operand<T> x, Operand<T> y) {
    return binary(TRUNCATE_MOD, x, y, "x", "y");
  }

  /**
   * The running product of {@code x} along dimension {@code axis} [{@code Cumprod}]: {@code [a, b,
   * c]} gives {@code [a, a * b, a * b * c]}.
   *
   * @param x the values
   * @param axis a scalar, the dimension to multiply along
   * @param options {@link Cumprod#exclusive}, {@link Cumprod#reverse}
   * @return the products, of {@code x}'s shape
   */
  public <T extends TType> Operand<T> cumprod(
      Operand<T> x, Operand<? extends TNumber> axis, Cumprod.Options... options) {
    Objects.requireNonNull(x, "x");
    Objects.requireNonNull(axis, "axis");
    return runner.run(CUMPROD, options, x, axis);
  }

  private <T extends TType> Operand<T> segments(OpType op, Operand<T> data, Operand<?> segmentIds) {
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(segmentIds, "segmentIds");
    return runner.run(op, data, segmentIds);
  }

  /**
   * The sums of the rows of {@code data} with each id [{@code SegmentSum}]: row {@code i} of the
   * output sums the rows {@code j} with {@code segmentIds[j] == i}, and is 0 if there are none.
   *
   * @param data a numeric tensor of rank 1 or more
   * @param segmentIds a sorted integer vector of non-negative ids, one per row of {@code data}
   * @return {@code segmentIds}' last id plus one rows
   * @throws IllegalArgumentException if the ids are not sorted, negative, or not one per row
   */
  public <T extends TType> Operand<T> segmentSum(
      Operand<T> data, Operand<? extends TNumber> segmentIds) {
    return segments(SEGMENT_SUM, data, segmentIds);
  }

  /**
   * The means of the rows of {@code data} with each id [{@code SegmentMean}], as {@link
   * #segmentSum}; integer means truncate.
   *
   * @param data a numeric tensor of rank 1 or more
   * @param segmentIds a sorted integer vector of non-negative ids, one per row of {@code data}
   * @return {@code segmentIds}' last id plus one rows
   */
  public <T extends TType> Operand<T> segmentMean(
      Operand<T> data, Operand<? extends TNumber> segmentIds) {
    return segments(SEGMENT_MEAN, data, segmentIds);
  }

  /**
   * The element-wise maximum of the rows of {@code data} with each id [{@code SegmentMax}], as
   * {@link #segmentSum}; NaN propagates.
   *
   * @param data a numeric tensor of rank 1 or more
   * @param segmentIds a sorted integer vector of non-negative ids, one per row of {@code data}
   * @return {@code segmentIds}' last id plus one rows
   */
  public <T extends TNumber> Operand<T> segmentMax(
      Operand<T> data, Operand<? extends TNumber> segmentIds) {
    return segments(SEGMENT_MAX, data, segmentIds);
  }

  /**
   * The element-wise minimum of the rows of {@code data} with each id [{@code SegmentMin}], as
   * {@link #segmentSum}; NaN propagates.
   *
   * @param data a numeric tensor of rank 1 or more
   * @param segmentIds a sorted integer vector of non-negative ids, one per row of {@code data}
   * @return {@code segmentIds}' last id plus one rows
   */
  public <T extends TNumber> Operand<T> segmentMin(
      Operand<T> data, Operand<? extends TNumber> segmentIds) {
    return segments(SEGMENT_MIN, data, segmentIds);
  }

  private <T extends TType> Operand<T> unsorted(
      OpType op, Operand<T> data, Operand<?> segmentIds, Operand<?> numSegments) {
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(segmentIds, "segmentIds");
    Objects.requireNonNull(numSegments, "numSegments");
    return runner.run(op, data, segmentIds, numSegments);
  }

  /**
   * The sums of the slices of {@code data} with each id, ids in any order [{@code
   * UnsortedSegmentSum}]: {@code segmentIds}' shape is a prefix of {@code data}'s, and the output
   * is {@code [numSegments] + data.shape[segmentIds.rank:]}. Negative ids are dropped; a segment
   * without slices is 0.
   *
   * @param data a numeric tensor
   * @param segmentIds integer ids, each less than {@code numSegments}
   * @param numSegments an integer scalar
   * @return the sums
   * @throws IllegalArgumentException if an id is {@code numSegments} or more, or the shapes
   *     disagree
   */
  public <T extends TType> Operand<T> unsortedSegmentSum(
      Operand<T> data,
      Operand<? extends TNumber> segmentIds,
      Operand<? extends TNumber> numSegments) {
    return unsorted(UNSORTED_SEGMENT_SUM, data, segmentIds, numSegments);
  }

  /**
   * The element-wise maxima of the slices of {@code data} with each id, as {@link
   * #unsortedSegmentSum} [{@code UnsortedSegmentMax}]; a segment without slices holds the dtype's
   * lowest value ({@code -inf} for floats).
   *
   * @param data a numeric tensor
   * @param segmentIds integer ids, each less than {@code numSegments}
   * @param numSegments an integer scalar
   * @return the maxima
   */
  public <T extends TNumber> Operand<T> unsortedSegmentMax(
      Operand<T> data,
      Operand<? extends TNumber> segmentIds,
      Operand<? extends TNumber> numSegments) {
    return unsorted(UNSORTED_SEGMENT_MAX, data, segmentIds, numSegments);
  }

  /**
   * How often each value in {@code [0, size)} occurs in {@code arr}, or the sum of the {@code
   * weights} at its occurrences [{@code Bincount}]; larger values are not counted.
   *
   * @param arr non-negative integers
   * @param size a scalar, the number of bins
   * @param weights {@code arr}'s shape, or empty to count; {@code TInt32}, {@code TInt64}, {@code
   *     TFloat32} or {@code TFloat64}, the output's dtype
   * @return the {@code size} bins
   * @throws IllegalArgumentException if {@code arr} holds a negative value or {@code size} is
   *     negative
   */
  public <T extends TNumber> Operand<T> bincount(
      Operand<TInt32> arr, Operand<TInt32> size, Operand<T> weights) {
    Objects.requireNonNull(arr, "arr");
    Objects.requireNonNull(size, "size");
    Objects.requireNonNull(weights, "weights");
    return runner.run(BINCOUNT, arr, size, weights);
  }
}
