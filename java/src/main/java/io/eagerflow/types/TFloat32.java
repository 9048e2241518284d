package io.eagerflow.types;

import io.eagerflow.DataType;
import io.eagerflow.Shape;
import io.eagerflow.internal.Native;
import io.eagerflow.internal.NativeTensor;
import java.util.Objects;
import java.util.function.Consumer;

/** A tensor of 32-bit floats ({@link DataType#FLOAT}). */
public final class TFloat32 extends TensorBase implements TNumber {
  TFloat32(NativeTensor tensor) {
    super(tensor);
  }

  /** A standalone scalar. */
  public static TFloat32 scalarOf(float value) {
    return tensorOf(Shape.scalar(), new float[] {value});
  }

  /** A standalone vector of {@code values}. */
  public static TFloat32 vectorOf(float... values) {
    Objects.requireNonNull(values, "values");
    return tensorOf(Shape.of(values.length), values);
  }

  /** A standalone tensor of {@code shape}, filled with zeros. */
  public static TFloat32 tensorOf(Shape shape) {
    return new TFloat32(allocate(shape, DataType.FLOAT));
  }

  /**
   * A standalone tensor of {@code shape} holding a copy of {@code data} in row-major order.
   *
   * @throws IllegalArgumentException if {@code data} does not have {@code shape.size()} elements
   */
  public static TFloat32 tensorOf(Shape shape, float[] data) {
    Objects.requireNonNull(data, "data");
    long handle = Native.fromFloats(0, dims(shape, data.length), data);
    return new TFloat32(NativeTensor.standalone(handle, shape, DataType.FLOAT));
  }

  /**
   * A standalone tensor of {@code shape}, filled with zeros and then passed to {@code init}
   * (TensorFlow's initializer style). If {@code init} throws, the tensor is closed.
   */
  public static TFloat32 tensorOf(Shape shape, Consumer<TFloat32> init) {
    Objects.requireNonNull(init, "init");
    TFloat32 t = tensorOf(shape);
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
  public float getFloat(long... coordinates) {
    long i = index(coordinates);
    long ptr = tensor.enter();
    try {
      return Native.getFloat(ptr, tensor.handle(), i);
    } finally {
      tensor.exit();
    }
  }

  /**
   * Sets the element at {@code coordinates} (standalone tensors only).
   *
   * @throws UnsupportedOperationException on the read-only tensor of an op output
   */
  public void setFloat(float value, long... coordinates) {
    tensor.checkWritable();
    long i = index(coordinates);
    long ptr = tensor.enter();
    try {
      Native.writeFloats(ptr, tensor.handle(), i, new float[] {value});
    } finally {
      tensor.exit();
    }
  }

  /** A row-major copy of every element, in one native call. */
  public float[] toArray() {
    float[] out = new float[arrayLength()];
    copyTo(out);
    return out;
  }

  /**
   * Copies every element, row-major, into {@code dst}, in one native call.
   *
   * @throws IllegalArgumentException if {@code dst} has the wrong length
   */
  public void copyTo(float[] dst) {
    Objects.requireNonNull(dst, "dst");
    checkLength(dst.length);
    long ptr = tensor.enter();
    try {
      Native.readFloats(ptr, tensor.handle(), 0, dst);
    } finally {
      tensor.exit();
    }
  }

  /**
   * Overwrites every element, row-major, from {@code src} (standalone tensors only).
   *
   * @throws UnsupportedOperationException on the read-only tensor of an op output
   */
  public void copyFrom(float[] src) {
    Objects.requireNonNull(src, "src");
    tensor.checkWritable();
    checkLength(src.length);
    long ptr = tensor.enter();
    try {
      Native.writeFloats(ptr, tensor.handle(), 0, src);
    } finally {
      tensor.exit();
    }
  }
}
