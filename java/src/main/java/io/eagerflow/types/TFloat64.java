package io.eagerflow.types;

import io.eagerflow.DataType;
import io.eagerflow.Shape;
import io.eagerflow.internal.Native;
import io.eagerflow.internal.NativeTensor;
import java.util.Objects;
import java.util.function.Consumer;

/** A tensor of 64-bit floats ({@link DataType#DOUBLE}). */
public final class TFloat64 extends TensorBase implements TNumber {
  TFloat64(NativeTensor tensor) {
    super(tensor);
  }

  /** A standalone scalar. */
  public static TFloat64 scalarOf(double value) {
    return tensorOf(Shape.scalar(), new double[] {value});
  }

  /** A standalone vector of {@code values}. */
  public static TFloat64 vectorOf(double... values) {
    Objects.requireNonNull(values, "values");
    return tensorOf(Shape.of(values.length), values);
  }

  /** A standalone tensor of {@code shape}, filled with zeros. */
  public static TFloat64 tensorOf(Shape shape) {
    return new TFloat64(allocate(shape, DataType.DOUBLE));
  }

  /**
   * A standalone tensor of {@code shape} holding a copy of {@code data} in row-major order.
   *
   * @throws IllegalArgumentException if {@code data} does not have {@code shape.size()} elements
   */
  public static TFloat64 tensorOf(Shape shape, double[] data) {
    Objects.requireNonNull(data, "data");
    long handle = Native.fromDoubles(0, dims(shape, data.length), data);
    return new TFloat64(NativeTensor.standalone(handle, shape, DataType.DOUBLE));
  }

  /**
   * A standalone tensor of {@code shape}, filled with zeros and then passed to {@code init}
   * (TensorFlow's initializer style). If {@code init} throws, the tensor is closed.
   */
  public static TFloat64 tensorOf(Shape shape, Consumer<TFloat64> init) {
    Objects.requireNonNull(init, "init");
    TFloat64 t = tensorOf(shape);
    try {
      init.accept(t);
    } catch (RuntimeException | Error e) {
      t.close();
      throw e;
    }
    return t;
  }

  /**
   * The element at {@code coordinates}; none for a single-element tensor.
   *
   * @throws IndexOutOfBoundsException if the coordinates are outside the shape
   * @throws IllegalStateException if the tensor was closed or released
   */
  public double getDouble(long... coordinates) {
    long i = index(coordinates);
    long ptr = tensor.enter();
    try {
      return Native.getDouble(ptr, tensor.handle(), i);
    } finally {
      tensor.exit();
    }
  }

  /**
   * Sets the element at {@code coordinates} (standalone tensors only).
   *
   * @throws UnsupportedOperationException on the read-only tensor of an op output
   */
  public void setDouble(double value, long... coordinates) {
    tensor.checkWritable();
    long i = index(coordinates);
    long ptr = tensor.enter();
    try {
      Native.writeDoubles(ptr, tensor.handle(), i, new double[] {value});
    } finally {
      tensor.exit();
    }
  }

  /** A row-major copy of every element, in one native call. */
  public double[] toArray() {
    double[] out = new double[arrayLength()];
    copyTo(out);
    return out;
  }

  /**
   * Copies every element, row-major, into {@code dst}, in one native call.
   *
   * @throws IllegalArgumentException if {@code dst} has the wrong length
   */
  public void copyTo(double[] dst) {
    Objects.requireNonNull(dst, "dst");
    checkLength(dst.length);
    long ptr = tensor.enter();
    try {
      Native.readDoubles(ptr, tensor.handle(), 0, dst);
    } finally {
      tensor.exit();
    }
  }

  /**
   * Overwrites every element, row-major, from {@code src} (standalone tensors only).
   *
   * @throws UnsupportedOperationException on the read-only tensor of an op output
   */
  public void copyFrom(double[] src) {
    Objects.requireNonNull(src, "src");
    tensor.checkWritable();
    checkLength(src.length);
    long ptr = tensor.enter();
    try {
      Native.writeDoubles(ptr, tensor.handle(), 0, src);
    } finally {
      tensor.exit();
    }
  }
}
