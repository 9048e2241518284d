package io.eagerflow.types;

import io.eagerflow.DataType;
import io.eagerflow.Shape;
import io.eagerflow.internal.Native;
import io.eagerflow.internal.NativeTensor;
import java.util.Objects;
import java.util.function.Consumer;

/** A tensor of 32-bit integers ({@link DataType#INT32}). */
public final class TInt32 extends TensorBase implements TNumber {
  TInt32(NativeTensor tensor) {
    super(tensor);
  }

  /** A standalone scalar. */
  public static TInt32 scalarOf(int value) {
    return tensorOf(Shape.scalar(), new int[] {value});
  }

  /** A standalone vector of {@code values}. */
  public static TInt32 vectorOf(int... values) {
    Objects.requireNonNull(values, "values");
    return tensorOf(Shape.of(values.length), values);
  }

  /** A standalone tensor of {@code shape}, filled with zeros. */
  public static TInt32 tensorOf(Shape shape) {
    return new TInt32(allocate(shape, DataType.INT32));
  }

  /**
   * A standalone tensor of {@code shape} holding a copy of {@code data} in row-major order.
   *
   * @throws IllegalArgumentException if {@code data} does not have {@code shape.size()} elements
   */
  public static TInt32 tensorOf(Shape shape, int[] data) {
    Objects.requireNonNull(data, "data");
    long handle = Native.fromInts(0, dims(shape, data.length), data);
    return new TInt32(NativeTensor.standalone(handle, shape, DataType.INT32));
  }

  /**
   * A standalone tensor of {@code shape}, filled with zeros and then passed to {@code init}
   * (TensorFlow's initializer style). If {@code init} throws, the tensor is closed.
   */
  public static TInt32 tensorOf(Shape shape, Consumer<TInt32> init) {
    Objects.requireNonNull(init, "init");
    TInt32 t = tensorOf(shape);
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
  public int getInt(long... coordinates) {
    long i = index(coordinates);
    long ptr = tensor.enter();
    try {
      return Native.getInt(ptr, tensor.handle(), i);
    } finally {
      tensor.exit();
    }
  }

  /**
   * Sets the element at {@code coordinates} (standalone tensors only).
   *
   * @throws UnsupportedOperationException on the read-only tensor of an op output
   */
  public void setInt(int value, long... coordinates) {
    tensor.checkWritable();
    long i = index(coordinates);
    long ptr = tensor.enter();
    try {
      Native.writeInts(ptr, tensor.handle(), i, new int[] {value});
    } finally {
      tensor.exit();
    }
  }

  /** A row-major copy of every element, in one native call. */
  public int[] toArray() {
    int[] out = new int[arrayLength()];
    copyTo(out);
    return out;
  }

  /**
   * Copies every element, row-major, into {@code dst}, in one native call.
   *
   * @throws IllegalArgumentException if {@code dst} has the wrong length
   */
  public void copyTo(int[] dst) {
    Objects.requireNonNull(dst, "dst");
    checkLength(dst.length);
    long ptr = tensor.enter();
    try {
      Native.readInts(ptr, tensor.handle(), 0, dst);
    } finally {
      tensor.exit();
    }
  }

  /**
   * Overwrites every element, row-major, from {@code src} (standalone tensors only).
   *
   * @throws UnsupportedOperationException on the read-only tensor of an op output
   */
  public void copyFrom(int[] src) {
    Objects.requireNonNull(src, "src");
    tensor.checkWritable();
    checkLength(src.length);
    long ptr = tensor.enter();
    try {
      Native.writeInts(ptr, tensor.handle(), 0, src);
    } finally {
      tensor.exit();
    }
  }
}
