package io.eagerflow.types;

import io.eagerflow.DataType;
import io.eagerflow.Shape;
import io.eagerflow.internal.Native;
import io.eagerflow.internal.NativeTensor;
import io.eagerflow.internal.TensorTypes;
import java.util.Arrays;
import java.util.Objects;

/** What every tensor class shares: the native tensor, coordinates and lifetime. */
abstract class TensorBase implements TType {
  // Registers every tensor class without initializing any: each one's initializer waits for this
  // one (its superclass), so touching them here could deadlock against a thread that started
  // with, say, TFloat32.vectorOf. Lambdas and class literals load classes, never initialize them.
  static {
    TensorTypes.registerUnwrapper(t -> t instanceof TensorBase b ? b.tensor : null);
    TensorTypes.register(DataType.FLOAT, TFloat32.class, t -> new TFloat32(t));
    TensorTypes.register(DataType.DOUBLE, TFloat64.class, t -> new TFloat64(t));
    TensorTypes.register(DataType.INT32, TInt32.class, t -> new TInt32(t));
    TensorTypes.register(DataType.INT64, TInt64.class, t -> new TInt64(t));
    TensorTypes.register(DataType.UINT8, TUint8.class, t -> new TUint8(t));
    TensorTypes.register(DataType.BOOL, TBool.class, t -> new TBool(t));
  }

  final NativeTensor tensor;

  TensorBase(NativeTensor tensor) {
    this.tensor = tensor;
  }

  /** Allocates a standalone tensor of {@code shape} filled with zeros of the given type. */
  static NativeTensor allocate(Shape shape, DataType dataType) {
    Objects.requireNonNull(shape, "shape");
    long n = shape.size();
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "a " + dataType.name() + " tensor of shape " + shape + " is too large for a Java array");
    }
    int size = (int) n;
    long[] dims = shape.asArray();
    long handle;
    switch (dataType) {
      case FLOAT -> handle = Native.fromFloats(0, dims, new float[size]);
      case DOUBLE -> handle = Native.fromDoubles(0, dims, new double[size]);
      case INT32 -> handle = Native.fromInts(0, dims, new int[size]);
      case INT64 -> handle = Native.fromLongs(0, dims, new long[size]);
      case UINT8 -> handle = Native.fromBytes(0, dims, new byte[size]);
      case BOOL -> handle = Native.fromBooleans(0, dims, new boolean[size]);
      default -> throw new IllegalArgumentException("unsupported type " + dataType);
    }
    return NativeTensor.standalone(handle, shape, dataType);
  }

  /** Checks that {@code data} has exactly as many elements as {@code shape}. */
  static long[] dims(Shape shape, int length) {
    Objects.requireNonNull(shape, "shape");
    if (shape.size() != length) {
      throw new IllegalArgumentException(
          "shape " + shape + " needs " + shape.size() + " elements but the array has " + length);
    }
    return shape.asArray();
  }

  /** The row-major index of {@code coordinates}; none means a single-element tensor. */
  final long index(long... coordinates) {
    Shape shape = tensor.shape();
    if (coordinates == null || coordinates.length == 0) {
      if (shape.size() != 1) {
        throw new IllegalStateException(
            "tensor of shape " + shape + " is not a scalar; give coordinates");
      }
      return 0;
    }
    if (coordinates.length != shape.numDimensions()) {
      throw new IndexOutOfBoundsException(
          "coordinates "
              + Arrays.toString(coordinates)
              + " do not match a tensor of shape "
              + shape);
    }
    long index = 0;
    for (int i = 0; i < coordinates.length; i++) {
      long c = coordinates[i];
      long d = shape.size(i);
      if (c < 0 || c >= d) {
        throw new IndexOutOfBoundsException(
            "coordinates " + Arrays.toString(coordinates) + " are outside shape " + shape);
      }
      index = index * d + c;
    }
    return index;
  }

  /** The element count as a Java array length. */
  final int arrayLength() {
    long n = tensor.shape().size();
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(
          "a tensor of shape " + tensor.shape() + " does not fit in a Java array");
    }
    return (int) n;
  }

  final void checkLength(int length) {
    if (length != arrayLength()) {
      throw new IllegalArgumentException(
          "array of length "
              + length
              + " does not match a tensor of shape "
              + tensor.shape()
              + " ("
              + tensor.shape().size()
              + " elements)");
    }
  }

  @Override
  public Shape shape() {
    return tensor.shape();
  }

  @Override
  public DataType dataType() {
    return tensor.dataType();
  }

  @Override
  public long numBytes() {
    return tensor.shape().size() * tensor.dataType().byteSize();
  }

  @Override
  public void close() {
    tensor.close();
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + " " + tensor;
  }
}
