package io.eagerflow.op;

import io.eagerflow.DataType;
import io.eagerflow.Operand;
import io.eagerflow.Output;
import io.eagerflow.internal.EncodedStrings;
import io.eagerflow.internal.Shapes;
import io.eagerflow.internal.TensorTypes;
import io.eagerflow.types.TBool;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TInt64;
import io.eagerflow.types.TNumber;
import io.eagerflow.types.TString;
import io.eagerflow.types.TType;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffer;

/**
 * The constant methods of {@link Ops} written by hand (strings, shapes, snapshots of tensors,
 * numbers of a class) and the tensors of one value ({@code fill}, {@code zeros}, {@code ones}); and
 * the checks the generated per-type overloads ({@code OpsTypedConstants}) share. Public methods of
 * this package-private class are public methods of {@code Ops}.
 */
abstract class OpsConstants {
  private static final OpType FILL = new OpType("Fill");

  final Runner runner;

  OpsConstants(Runner runner) {
    this.runner = runner;
  }

  /**
   * A scalar {@link TString} constant holding {@code data} encoded as UTF-8.
   *
   * @param data the string
   * @return the constant, of shape {@code []}
   * @throws NullPointerException if {@code data} is null
   */
  public Operand<TString> constant(String data) {
    return constant(StandardCharsets.UTF_8, data);
  }

  /**
   * A scalar {@link TString} constant holding {@code data} encoded with {@code charset}.
   *
   * @param charset how to encode the string
   * @param data the string
   * @return the constant, of shape {@code []}
   * @throws NullPointerException if an argument is null
   */
  public Operand<TString> constant(Charset charset, String data) {
    Objects.requireNonNull(data, "data");
    return strings(charset, Shape.scalar(), new String[] {data});
  }

  /**
   * A vector {@link TString} constant holding {@code data} encoded as UTF-8.
   *
   * @param data the strings
   * @return the constant, of shape {@code [data.length]}
   * @throws NullPointerException if {@code data} or an element is null
   */
  public Operand<TString> constant(String[] data) {
    return constant(StandardCharsets.UTF_8, data);
  }

  /**
   * A vector {@link TString} constant holding {@code data} encoded with {@code charset}.
   *
   * @param charset how to encode the strings
   * @param data the strings
   * @return the constant, of shape {@code [data.length]}
   * @throws NullPointerException if an argument or an element is null
   */
  public Operand<TString> constant(Charset charset, String[] data) {
    Objects.requireNonNull(data, "data");
    return strings(charset, Shape.of(data.length), data.clone());
  }

  /**
   * A rank-2 {@link TString} constant holding {@code data} encoded as UTF-8, in row-major order.
   *
   * @param data the strings, rows of one length
   * @return the constant, of shape {@code [data.length, data[0].length]}
   * @throws IllegalArgumentException if the rows have different lengths
   */
  public Operand<TString> constant(String[][] data) {
    return constant(StandardCharsets.UTF_8, data);
  }

  /**
   * A rank-2 {@link TString} constant holding {@code data} encoded with {@code charset}.
   *
   * @param charset how to encode the strings
   * @param data the strings, rows of one length
   * @return the constant, of shape {@code [data.length, data[0].length]}
   * @throws IllegalArgumentException if the rows have different lengths
   */
  public Operand<TString> constant(Charset charset, String[][] data) {
    Objects.requireNonNull(data, "data");
    long[] dims = Flattener.dims(data, 2);
    String[] flat = (String[]) Flattener.flatten(data, dims, DataType.STRING);
    return strings(charset, Shape.of(dims), flat);
  }

  /**
   * A {@link TString} constant of {@code data}'s shape holding its strings encoded as UTF-8.
   *
   * @param data the strings
   * @return the constant
   * @throws NullPointerException if {@code data} or an element is null
   */
  public Operand<TString> constant(NdArray<String> data) {
    return constant(StandardCharsets.UTF_8, data);
  }

  /**
   * A {@link TString} constant of {@code data}'s shape holding its strings encoded with {@code
   * charset}.
   *
   * @param charset how to encode the strings
   * @param data the strings
   * @return the constant
   * @throws NullPointerException if an argument or an element is null
   */
  public Operand<TString> constant(Charset charset, NdArray<String> data) {
    return runner.constant(DataType.STRING, data.shape(), EncodedStrings.of(charset, data));
  }

  /**
   * A {@link TString} constant of {@code shape} holding the first {@code shape.size()} strings of
   * {@code data}, encoded as UTF-8.
   *
   * @param shape the shape
   * @param data the strings
   * @return the constant
   * @throws IllegalArgumentException if {@code data} has fewer strings than {@code shape} needs
   */
  public Operand<TString> constant(Shape shape, DataBuffer<String> data) {
    return constant(StandardCharsets.UTF_8, shape, data);
  }

  /**
   * As {@link #constant(Shape, DataBuffer)}, encoding with {@code charset}.
   *
   * @param charset how to encode the strings
   * @param shape the shape
   * @param data the strings
   * @return the constant
   * @throws IllegalArgumentException if {@code data} has fewer strings than {@code shape} needs
   */
  public Operand<TString> constant(Charset charset, Shape shape, DataBuffer<String> data) {
    Objects.requireNonNull(data, "data");
    String[] values = new String[length(shape)];
    checkBuffer(shape, data.size(), values.length);
    data.read(values);
    return strings(charset, shape, values);
  }

  private Operand<TString> strings(Charset charset, Shape shape, String[] values) {
    return runner.constant(DataType.STRING, shape, EncodedStrings.of(charset, shape, values));
  }

  /**
   * A vector {@link TInt64} constant holding the dimensions of {@code shape}.
   *
   * @throws IllegalArgumentException if {@code shape} is unknown
   */
  public Operand<TInt64> constant(Shape shape) {
    Objects.requireNonNull(shape, "shape");
    long[] dims = shape.asArray();
    if (dims == null) {
      throw new IllegalArgumentException("constant(Shape): the shape has an unknown rank");
    }
    return runner.constant(DataType.INT64, Shape.of(dims.length), dims);
  }

  /** The element count of {@code shape} as a Java array length. */
  static int length(Shape shape) {
    long n = Shapes.size(shape, "shape");
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("shape " + shape + " is too large for a constant");
    }
    return (int) n;
  }

  static void checkBuffer(Shape shape, long available, int needed) {
    if (available < needed) {
      throw new IllegalArgumentException(
          "shape " + shape + " needs " + needed + " values but the buffer has " + available);
    }
  }

  /**
   * A constant holding a snapshot of {@code tensor}'s values: later changes to a standalone tensor
   * do not show in the constant.
   *
   * @param tensor a standalone tensor, or the tensor of an output of this or another open session
   * @return the constant, of the tensor's shape and type
   * @throws NullPointerException if {@code tensor} is null
   * @throws IllegalStateException if the tensor was closed or released, or its session closed
   * @throws IllegalStateException if the tensor was closed or released
   */
  public <T extends TType> Operand<T> constantOf(T tensor) {
    return runner.constantOf(Objects.requireNonNull(tensor, "tensor"));
  }

  /**
   * A scalar constant of tensor class {@code type} holding {@code number} converted to it, as
   * Java's primitive conversions do ({@code 2.7} becomes {@code 2} for {@link TInt32}).
   *
   * @param type a numeric tensor class, such as {@code TFloat32.class}
   * @param number the value
   * @return the constant, of shape {@code []}
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if {@code type} is {@link TBool} or not a tensor class
   */
  public <T extends TNumber> Operand<T> constant(Class<T> type, Number number) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(number, "number");
    DataType d = TensorTypes.dataTypeOf(type);
    if (d == DataType.BOOL) {
      throw new IllegalArgumentException("TBool is not a numeric type");
    }
    return scalar(d, number);
  }

  /** A scalar of {@code type} holding {@code number}; booleans are {@code number != 0}. */
  private <T extends TType> Output<T> scalar(DataType type, Number number) {
    Object data =
        switch (type) {
          case FLOAT, HALF, BFLOAT16 -> new float[] {number.floatValue()};
          case UINT16 -> new short[] {number.shortValue()};
          case DOUBLE -> new double[] {number.doubleValue()};
          case INT32 -> new int[] {number.intValue()};
          case INT64 -> new long[] {number.longValue()};
          case UINT8 -> new byte[] {number.byteValue()};
          case BOOL -> new boolean[] {number.doubleValue() != 0};
          case STRING -> throw new IllegalArgumentException("a STRING tensor cannot hold a number");
        };
    return runner.constant(type, Shape.scalar(), data);
  }

  /** A constant of {@code value}, a rectangular array of {@code rank} dimensions. */
  <T extends TType> Operand<T> rectangular(DataType type, Object[] value, int rank) {
    long[] dims = Flattener.dims(value, rank);
    Object flat = Flattener.flatten(value, dims, type);
    return runner.constant(type, Shape.of(dims), flat);
  }

  /** {@code shape}, checked to hold {@code length} elements. */
  static Shape checkSize(Shape shape, int length) {
    long size = Shapes.size(shape, "shape");
    if (size != length) {
      throw new IllegalArgumentException(
          "shape " + shape + " needs " + size + " elements but data has " + length);
    }
    return shape;
  }

  // ---- Tensors of one value --------------------------------------------------------------------

  /**
   * A tensor of shape {@code dims} with every element {@code value} [{@code Fill}].
   *
   * @param dims a vector of dimensions
   * @param value a scalar
   * @return the filled tensor, of {@code value}'s dtype
   */
  public <U extends TType> Operand<U> fill(Operand<? extends TNumber> dims, Operand<U> value) {
    Objects.requireNonNull(dims, "dims");
    Objects.requireNonNull(value, "value");
    return runner.run(FILL, dims, value);
  }

  /**
   * A tensor of shape {@code dims} filled with zeros ({@code false} for {@link TBool}) [{@code
   * Fill}; the fill value is no constant of its own, so only the result is counted in {@link
   * io.eagerflow.SessionStats}].
   *
   * @param dims a vector of dimensions
   * @param type the tensor class of the result, such as {@code TFloat32.class}
   * @return the zeros
   * @throws IllegalArgumentException if {@code type} is not a concrete tensor class
   */
  public <T extends TType> Operand<T> zeros(Operand<? extends TNumber> dims, Class<T> type) {
    return filled(dims, type, 0);
  }

  /**
   * A tensor of shape {@code dims} filled with ones ({@code true} for {@link TBool}) [{@code Fill};
   * the fill value is no constant of its own, so only the result is counted in {@link
   * io.eagerflow.SessionStats}].
   *
   * @param dims a vector of dimensions
   * @param type the tensor class of the result, such as {@code TFloat32.class}
   * @return the ones
   * @throws IllegalArgumentException if {@code type} is not a concrete tensor class
   */
  public <T extends TType> Operand<T> ones(Operand<? extends TNumber> dims, Class<T> type) {
    return filled(dims, type, 1);
  }

  private <T extends TType> Operand<T> filled(
      Operand<? extends TNumber> dims, Class<T> type, int value) {
    Objects.requireNonNull(dims, "dims");
    Objects.requireNonNull(type, "type");
    // The fill value crosses with the call: no constant is made, so only the output is counted.
    return runner.runWithScalar(FILL, dims, TensorTypes.dataTypeOf(type), value);
  }
}
