package io.eagerflow.op;

import io.eagerflow.Operand;
import io.eagerflow.types.TBool;
import io.eagerflow.types.TInt64;
import io.eagerflow.types.TNumber;
import io.eagerflow.types.TType;
import java.util.Objects;

/**
 * Math ops, reached as {@code tf.math}: element-wise arithmetic and functions, comparisons, logic,
 * {@code mean}, {@code argMax}/{@code argMin}, {@code cumsum} and {@code addN}. Binary ops
 * broadcast with NumPy's rules and need operands of one dtype; the errors are those listed on
 * {@link Ops}. Immutable and thread-safe.
 */
public final class MathOps extends MathOpsSpecial {
  private static final OpType ADD = new OpType("AddV2");
  private static final OpType SUB = new OpType("Sub");
  private static final OpType MUL = new OpType("Mul");
  private static final OpType REAL_DIV = new OpType("RealDiv");
  private static final OpType FLOOR_DIV = new OpType("FloorDiv");
  private static final OpType FLOOR_MOD = new OpType("FloorMod");
  private static final OpType POW = new OpType("Pow");
  private static final OpType MAXIMUM = new OpType("Maximum");
  private static final OpType MINIMUM = new OpType("Minimum");
  private static final OpType SQUARED_DIFFERENCE = new OpType("SquaredDifference");
  private static final OpType DIV_NO_NAN = new OpType("DivNoNan");
  private static final OpType EXP = new OpType("Exp");
  private static final OpType NEG = new OpType("Neg");
  private static final OpType ABS = new OpType("Abs");
  private static final OpType SIGN = new OpType("Sign");
  private static final OpType LOG = new OpType("Log");
  private static final OpType LOG1P = new OpType("Log1p");
  private static final OpType EXPM1 = new OpType("Expm1");
  private static final OpType SQRT = new OpType("Sqrt");
  private static final OpType RSQRT = new OpType("Rsqrt");
  private static final OpType SQUARE = new OpType("Square");
  private static final OpType RECIPROCAL = new OpType("Reciprocal");
  private static final OpType SIN = new OpType("Sin");
  private static final OpType COS = new OpType("Cos");
  private static final OpType TAN = new OpType("Tan");
  private static final OpType TANH = new OpType("Tanh");
  private static final OpType SOFTPLUS = new OpType("Softplus");
  private static final OpType SIGMOID = new OpType("Sigmoid");
  private static final OpType FLOOR = new OpType("Floor");
  private static final OpType CEIL = new OpType("Ceil");
  private static final OpType ROUND = new OpType("Round");
  private static final OpType GREATER = new OpType("Greater");
  private static final OpType GREATER_EQUAL = new OpType("GreaterEqual");
  private static final OpType LESS = new OpType("Less");
  private static final OpType LESS_EQUAL = new OpType("LessEqual");
  private static final OpType EQUAL = new OpType("Equal");
  private static final OpType NOT_EQUAL = new OpType("NotEqual");
  private static final OpType LOGICAL_AND = new OpType("LogicalAnd");
  private static final OpType LOGICAL_OR = new OpType("LogicalOr");
  private static final OpType LOGICAL_NOT = new OpType("LogicalNot");
  private static final OpType MEAN = new OpType("Mean");
  private static final OpType ARG_MAX = new OpType("ArgMax");
  private static final OpType ARG_MIN = new OpType("ArgMin");
  private static final OpType CUMSUM = new OpType("Cumsum");
  private static final OpType ADD_N = new OpType("AddN");

  private final Runner runner;

  MathOps(Runner runner) {
    super(runner);
    this.runner = runner;
  }

  private <T extends TType> Operand<T> binary(OpType op, Operand<?> x, Operand<?> y) {
    Objects.requireNonNull(x, "x");
    Objects.requireNonNull(y, "y");
    return runner.run(op, x, y);
  }

  /**
   * Element-wise {@code x + y} [{@code AddV2}]; {@code x} and {@code y} have the same dtype and
   * broadcast.
   *
   * @param x the left operand
   * @param y the right operand
   * @return the result, of the broadcast shape
   */
  public <T extends TType> Operand<T> add(Operand<T> x, Operand<T> y) {
    return binary(ADD, x, y);
  }

  /**
   * Element-wise {@code x - y} [{@code Sub}]; {@code x} and {@code y} have the same dtype and
   * broadcast.
   *
   * @param x the left operand
   * @param y the right operand
   * @return the result, of the broadcast shape
   */
  public <T extends TType> Operand<T> sub(Operand<T> x, Operand<T> y) {
    return binary(SUB, x, y);
  }

  /**
   * Element-wise {@code x * y} [{@code Mul}]; {@code x} and {@code y} have the same dtype and
   * broadcast.
   *
   * @param x the left operand
   * @param y the right operand
   * @return the result, of the broadcast shape
   */
  public <T extends TType> Operand<T> mul(Operand<T> x, Operand<T> y) {
    return binary(MUL, x, y);
  }

  /**
   * Element-wise {@code x / y} [{@code RealDiv}]; {@code x} and {@code y} have the same dtype and
   * broadcast. Integers divide truncating toward zero ({@code -7 / 2} is {@code -3}), as
   * TensorFlow's {@code Div} does.
   *
   * @param x the left operand
   * @param y the right operand
   * @return the result, of the broadcast shape
   * @throws IllegalArgumentException for an integer division by zero
   */
  public <T extends TType> Operand<T> div(Operand<T> x, Operand<T> y) {
    return binary(REAL_DIV, x, y);
  }

  /**
   * Element-wise {@code x / y}, as {@link #div} [{@code RealDiv}]; {@code x} and {@code y} have the
   * same dtype and broadcast.
   *
   * @param x the left operand
   * @param y the right operand
   * @return the result, of the broadcast shape
   */
  public <T extends TType> Operand<T> realDiv(Operand<T> x, Operand<T> y) {
    return binary(REAL_DIV, x, y);
  }

  /**
   * Element-wise {@code floor(x / y)}, rounding toward negative infinity [{@code FloorDiv}]; {@code
   * x} and {@code y} have the same dtype and broadcast.
   *
   * @param x the left operand
   * @param y the right operand
   * @return the result, of the broadcast shape
   */
  public <T extends TType> Operand<T> floorDiv(Operand<T> x, Operand<T> y) {
    return binary(FLOOR_DIV, x, y);
  }

  /**
   * Element-wise the remainder of {@link #floorDiv}, with the sign of {@code y} [{@code FloorMod}];
   * {@code x} and {@code y} have the same dtype and broadcast.
   *
   * @param x the left operand
   * @param y the right operand
   * @return the result, of the broadcast shape
   */
  public <T extends TType> Operand<T> floorMod(Operand<T> x, Operand<T> y) {
    return binary(FLOOR_MOD, x, y);
  }

  /**
   * Element-wise {@code x} raised to the power {@code y} [{@code Pow}]; {@code x} and {@code y}
   * have the same dtype and broadcast.
   *
   * @param x the left operand
   * @param y the right operand
   * @return the result, of the broadcast shape
   */
  public <T extends TType> Operand<T> pow(Operand<T> x, Operand<T> y) {
    return binary(POW, x, y);
  }

  /**
   * Element-wise the larger of {@code x} and {@code y} [{@code Maximum}]; {@code x} and {@code y}
   * have the same dtype and broadcast.
   *
   * @param x the left operand
   * @param y the right operand
   * @return the result, of the broadcast shape
   */
  public <T extends TType> Operand<T> maximum(Operand<T> x, Operand<T> y) {
    return binary(MAXIMUM, x, y);
  }

  /**
   * Element-wise the smaller of {@code x} and {@code y} [{@code Minimum}]; {@code x} and {@code y}
   * have the same dtype and broadcast.
   *
   * @param x the left operand
   * @param y the right operand
   * @return the result, of the broadcast shape
   */
  public <T extends TType> Operand<T> minimum(Operand<T> x, Operand<T> y) {
    return binary(MINIMUM, x, y);
  }

  /**
   * Element-wise {@code (x - y) * (x - y)} [{@code SquaredDifference}]; {@code x} and {@code y}
   * have the same dtype and broadcast.
   *
   * @param x the left operand
   * @param y the right operand
   * @return the result, of the broadcast shape
   */
  public <T extends TType> Operand<T> squaredDifference(Operand<T> x, Operand<T> y) {
    return binary(SQUARED_DIFFERENCE, x, y);
  }

  /**
   * Element-wise {@code x / y}, or 0 where {@code y} is 0 [{@code DivNoNan}]; {@code x} and {@code
   * y} have the same dtype and broadcast.
   *
   * @param x the left operand
   * @param y the right operand
   * @return the result, of the broadcast shape
   */
  public <T extends TType> Operand<T> divNoNan(Operand<T> x, Operand<T> y) {
    return binary(DIV_NO_NAN, x, y);
  }

  /**
   * Element-wise {@code e^x} [{@code Exp}].
   *
   * @param x the values
   * @return the result, of {@code x}'s shape and dtype
   */
  public <T extends TType> Operand<T> exp(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(EXP, x);
  }

  /**
   * Element-wise {@code -x} [{@code Neg}].
   *
   * @param x the values
   * @return the result, of {@code x}'s shape and dtype
   */
  public <T extends TType> Operand<T> neg(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(NEG, x);
  }

  /**
   * Element-wise {@code |x|} [{@code Abs}].
   *
   * @param x the values
   * @return the result, of {@code x}'s shape and dtype
   */
  public <T extends TType> Operand<T> abs(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(ABS, x);
  }

  /**
   * Element-wise -1, 0 or 1 by the sign of {@code x} [{@code Sign}].
   *
   * @param x the values
   * @return the result, of {@code x}'s shape and dtype
   */
  public <T extends TType> Operand<T> sign(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(SIGN, x);
  }

  /**
   * Element-wise the natural logarithm of {@code x} [{@code Log}].
   *
   * @param x the values
   * @return the result, of {@code x}'s shape and dtype
   */
  public <T extends TType> Operand<T> log(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(LOG, x);
  }

  /**
   * Element-wise {@code log(1 + x)}, accurate for small {@code x} [{@code Log1p}].
   *
   * @param x the values
   * @return the result, of {@code x}'s shape and dtype
   */
  public <T extends TType> Operand<T> log1p(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(LOG1P, x);
  }

  /**
   * Element-wise {@code e^x - 1}, accurate for small {@code x} [{@code Expm1}].
   *
   * @param x the values
   * @return the result, of {@code x}'s shape and dtype
   */
  public <T extends TType> Operand<T> expm1(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(EXPM1, x);
  }

  /**
   * Element-wise the square root of {@code x} [{@code Sqrt}].
   *
   * @param x the values
   * @return the result, of {@code x}'s shape and dtype
   */
  public <T extends TType> Operand<T> sqrt(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(SQRT, x);
  }

  /**
   * Element-wise {@code 1 / sqrt(x)} [{@code Rsqrt}].
   *
   * @param x the values
   * @return the result, of {@code x}'s shape and dtype
   */
  public <T extends TType> Operand<T> rsqrt(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(RSQRT, x);
  }

  /**
   * Element-wise {@code x * x} [{@code Square}].
   *
   * @param x the values
   * @return the result, of {@code x}'s shape and dtype
   */
  public <T extends TType> Operand<T> square(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(SQUARE, x);
  }

  /**
   * Element-wise {@code 1 / x} [{@code Reciprocal}].
   *
   * @param x the values
   * @return the result, of {@code x}'s shape and dtype
   */
  public <T extends TType> Operand<T> reciprocal(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(RECIPROCAL, x);
  }

  /**
   * Element-wise the sine of {@code x} (radians) [{@code Sin}].
   *
   * @param x the values
   * @return the result, of {@code x}'s shape and dtype
   */
  public <T extends TType> Operand<T> sin(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(SIN, x);
  }

  /**
   * Element-wise the cosine of {@code x} (radians) [{@code Cos}].
   *
   * @param x the values
   * @return the result, of {@code x}'s shape and dtype
   */
  public <T extends TType> Operand<T> cos(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(COS, x);
  }

  /**
   * Element-wise the tangent of {@code x} (radians) [{@code Tan}].
   *
   * @param x the values
   * @return the result, of {@code x}'s shape and dtype
   */
  public <T extends TType> Operand<T> tan(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(TAN, x);
  }

  /**
   * Element-wise the hyperbolic tangent of {@code x} [{@code Tanh}].
   *
   * @param x the values
   * @return the result, of {@code x}'s shape and dtype
   */
  public <T extends TType> Operand<T> tanh(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(TANH, x);
  }

  /**
   * Element-wise {@code 1 / (1 + e^-x)} [{@code Sigmoid}].
   *
   * @param x the values
   * @return the result, of {@code x}'s shape and dtype
   */
  public <T extends TType> Operand<T> sigmoid(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(SIGMOID, x);
  }

  /**
   * Element-wise the largest integer not above {@code x} [{@code Floor}].
   *
   * @param x the values
   * @return the result, of {@code x}'s shape and dtype
   */
  public <T extends TType> Operand<T> floor(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(FLOOR, x);
  }

  /**
   * Element-wise the smallest integer not below {@code x} [{@code Ceil}].
   *
   * @param x the values
   * @return the result, of {@code x}'s shape and dtype
   */
  public <T extends TType> Operand<T> ceil(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(CEIL, x);
  }

  /**
   * Element-wise {@code x} rounded to the nearest integer, halves to even [{@code Round}].
   *
   * @param x the values
   * @return the result, of {@code x}'s shape and dtype
   */
  public <T extends TType> Operand<T> round(Operand<T> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(ROUND, x);
  }

  /**
   * Element-wise {@code x > y} [{@code Greater}]; {@code x} and {@code y} have the same dtype and
   * broadcast.
   *
   * @param x the left operand
   * @param y the right operand
   * @return booleans, of the broadcast shape
   */
  public <T extends TType> Operand<TBool> greater(Operand<T> x, Operand<T> y) {
    return binary(GREATER, x, y);
  }

  /**
   * Element-wise {@code x >= y} [{@code GreaterEqual}]; {@code x} and {@code y} have the same dtype
   * and broadcast.
   *
   * @param x the left operand
   * @param y the right operand
   * @return booleans, of the broadcast shape
   */
  public <T extends TType> Operand<TBool> greaterEqual(Operand<T> x, Operand<T> y) {
    return binary(GREATER_EQUAL, x, y);
  }

  /**
   * Element-wise {@code x < y} [{@code Less}]; {@code x} and {@code y} have the same dtype and
   * broadcast.
   *
   * @param x the left operand
   * @param y the right operand
   * @return booleans, of the broadcast shape
   */
  public <T extends TType> Operand<TBool> less(Operand<T> x, Operand<T> y) {
    return binary(LESS, x, y);
  }

  /**
   * Element-wise {@code x <= y} [{@code LessEqual}]; {@code x} and {@code y} have the same dtype
   * and broadcast.
   *
   * @param x the left operand
   * @param y the right operand
   * @return booleans, of the broadcast shape
   */
  public <T extends TType> Operand<TBool> lessEqual(Operand<T> x, Operand<T> y) {
    return binary(LESS_EQUAL, x, y);
  }

  /**
   * Element-wise {@code x == y} [{@code Equal}]; {@code x} and {@code y} have the same dtype and
   * broadcast.
   *
   * @param x the left operand
   * @param y the right operand
   * @return booleans, of the broadcast shape
   */
  public <T extends TType> Operand<TBool> equal(Operand<T> x, Operand<T> y) {
    return binary(EQUAL, x, y);
  }

  /**
   * Element-wise {@code x != y} [{@code NotEqual}]; {@code x} and {@code y} have the same dtype and
   * broadcast.
   *
   * @param x the left operand
   * @param y the right operand
   * @return booleans, of the broadcast shape
   */
  public <T extends TType> Operand<TBool> notEqual(Operand<T> x, Operand<T> y) {
    return binary(NOT_EQUAL, x, y);
  }

  /**
   * Element-wise {@code x && y} [{@code LogicalAnd}]; the operands broadcast.
   *
   * @param x booleans
   * @param y booleans
   * @return booleans, of the broadcast shape
   */
  public Operand<TBool> logicalAnd(Operand<TBool> x, Operand<TBool> y) {
    return binary(LOGICAL_AND, x, y);
  }

  /**
   * Element-wise {@code x || y} [{@code LogicalOr}]; the operands broadcast.
   *
   * @param x booleans
   * @param y booleans
   * @return booleans, of the broadcast shape
   */
  public Operand<TBool> logicalOr(Operand<TBool> x, Operand<TBool> y) {
    return binary(LOGICAL_OR, x, y);
  }

  /**
   * Element-wise {@code !x} [{@code LogicalNot}].
   *
   * @param x booleans
   * @return booleans, of {@code x}'s shape
   */
  public Operand<TBool> logicalNot(Operand<TBool> x) {
    Objects.requireNonNull(x, "x");
    return runner.run(LOGICAL_NOT, x);
  }

  /**
   * The mean of {@code input}'s elements along the dimensions in {@code axis} [{@code Mean}]; for
   * integers the quotient is truncated.
   *
   * @param input the values
   * @param axis a scalar or vector of dimensions to reduce
   * @param options {@link Mean#keepDims} (default: reduced dimensions are removed)
   * @return the means
   * @throws IllegalArgumentException if an axis is out of range
   */
  public <T extends TType> Operand<T> mean(
      Operand<T> input, Operand<? extends TNumber> axis, Mean.Options... options) {
    return runner.reduce(MEAN, input, axis, options);
  }

  /**
   * The index of the largest element along dimension {@code axis}, as {@link TInt64} [{@code
   * ArgMax}]; ties give the first index.
   *
   * @param input the values
   * @param axis a scalar, the dimension to search
   * @return the indices; {@code input}'s shape without dimension {@code axis}
   */
  public Operand<TInt64> argMax(Operand<? extends TType> input, Operand<? extends TNumber> axis) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(axis, "axis");
    return runner.run(ARG_MAX, input, axis);
  }

  /**
   * The index of the largest element along dimension {@code axis}, as {@code outputType} [{@code
   * ArgMax}, attribute {@code output_type}].
   *
   * @param input the values
   * @param axis a scalar, the dimension to search
   * @param outputType {@code TInt32.class} or {@code TInt64.class}
   * @return the indices; {@code input}'s shape without dimension {@code axis}
   */
  public <V extends TNumber> Operand<V> argMax(
      Operand<? extends TType> input, Operand<? extends TNumber> axis, Class<V> outputType) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(axis, "axis");
    Objects.requireNonNull(outputType, "outputType");
    return runner.runTyped(ARG_MAX, "output_type", outputType, OpOption.NONE, input, axis);
  }

  /**
   * The index of the smallest element along dimension {@code axis}, as {@link TInt64} [{@code
   * ArgMin}]; ties give the first index.
   *
   * @param input the values
   * @param axis a scalar, the dimension to search
   * @return the indices; {@code input}'s shape without dimension {@code axis}
   */
  public Operand<TInt64> argMin(Operand<? extends TType> input, Operand<? extends TNumber> axis) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(axis, "axis");
    return runner.run(ARG_MIN, input, axis);
  }

  /**
   * The index of the smallest element along dimension {@code axis}, as {@code outputType} [{@code
   * ArgMin}, attribute {@code output_type}].
   *
   * @param input the values
   * @param axis a scalar, the dimension to search
   * @param outputType {@code TInt32.class} or {@code TInt64.class}
   * @return the indices; {@code input}'s shape without dimension {@code axis}
   */
  public <V extends TNumber> Operand<V> argMin(
      Operand<? extends TType> input, Operand<? extends TNumber> axis, Class<V> outputType) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(axis, "axis");
    Objects.requireNonNull(outputType, "outputType");
    return runner.runTyped(ARG_MIN, "output_type", outputType, OpOption.NONE, input, axis);
  }

  /**
   * The running sum of {@code x} along dimension {@code axis} [{@code Cumsum}]: {@code [a, b, c]}
   * gives {@code [a, a + b, a + b + c]}.
   *
   * @param x the values
   * @param axis a scalar, the dimension to sum along
   * @param options {@link Cumsum#exclusive}, {@link Cumsum#reverse}
   * @return the sums, of {@code x}'s shape
   */
  public <T extends TType> Operand<T> cumsum(
      Operand<T> x, Operand<? extends TNumber> axis, Cumsum.Options... options) {
    Objects.requireNonNull(x, "x");
    Objects.requireNonNull(axis, "axis");
    return runner.run(CUMSUM, options, x, axis);
  }

  /**
   * The element-wise sum of {@code inputs}, which have the same shape and dtype [{@code AddN}].
   *
   * @param inputs one or more tensors
   * @return the sum
   * @throws NullPointerException if {@code inputs} or one of its elements is null
   */
  public <T extends TType> Operand<T> addN(Iterable<Operand<T>> inputs) {
    return runner.runList(ADD_N, inputs, "inputs");
  }

  /**
   * {@code log(1 + exp(x))} element-wise, without overflow for large {@code x} [{@code Softplus}].
   *
   * @param features FLOAT or DOUBLE values
   * @return the activations, of {@code features}' shape
   */
  public <T extends TNumber> Operand<T> softplus(Operand<T> features) {
    Objects.requireNonNull(features, "features");
    return runner.run(SOFTPLUS, features);
  }
}
