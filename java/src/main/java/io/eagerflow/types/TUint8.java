package io.eagerflow.types;

import io.eagerflow.DataType;
import io.eagerflow.Shape;
import io.eagerflow.internal.Native;
import io.eagerflow.internal.NativeTensor;
import java.util.Objects;
import java.util.function.Consumer;

/** A tensor of unsigned bytes, read and written as Java {@code byte} ({@link DataType#UINT8}). */
public final class TUint8 extends TensorBase implements TNumber {
  TUint8(NativeTensor tensor) {
    super(tensor);
  }

  /** A standalone scalar. */
  public static TUint8 scalarOf(byte value) {
    return tensorOf(Shape.scalar(), new byte[] {value});
  }

  /** A standalone vector of {@code values}. */
  public static TUint8 vectorOf(byte... values) {
    Objects.requireNonNull(values, "values");
    return tensorOf(Shape.of(values.length), values);
  }

  /** A standalone tensor of {@code shape}, filled with zeros. */
  public static TUint8 tensorOf(Shape shape) {
    return new TUint8(allocate(shape, DataType.UINT8));
  }

  /**
   * A standalone tensor of {@code shape} holding a copy of {@code data} in row-major order.
   *
   * @throws IllegalArgumentException if {@code data} does not have {@code shape.size()} elements
   */
  public static TUint8 tensorOf(Shape shape, byte[] data) {
    Objects.requireNonNull(data, "data");
    long handle = Native.fromBytes(0, dims(shape, data.length), data);
    return new TUint8(NativeTensor.standalone(handle, shape, DataType.UINT8));
  }

  /**
   * A standalone tensor of {@code shape}, filled with zeros and then passed to {@code init}
   * (TensorFlow's initializer style). If {@code init} throws, the tensor is closed.
   */
  public static TUint8 tensorOf(Shape shape, Consumer<TUint8> init) {
    Objects.requireNonNull(init, "init");
    TUint8 t = tensorOf(shape);
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
  public byte getByte(long... coordinates) {
    long i = index(coordinates);
    long ptr = tensor.enter();
    try {
      return Native.getByte(ptr, tensor.handle(), i);
    } finally {
      tensor.exit();
    }
  }

  /**
   * Sets the element at {@code coordinates} (standalone tensors only).
   *
   * @throws UnsupportedOperationException on the read-only tensor of an op output
   */
  public void setByte(byte value, long... coordinates) {
    tensor.checkWritable();
    long i = index(coordinates);
    long ptr = tensor.enter();
    try {
      Native.writeBytes(ptr, tensor.handle(), i, new byte[] {value});
    } finally {
      tensor.exit();
    }
  }

  /** A row-major copy of every element, in one native call. */
  public byte[] toArray() {
    byte[] out = new byte[arrayLength()];
    copyTo(out);
    return out;
  }

  /**
   * Copies every element, row-major, into {@code dst}, in one native call.
   *
   * @throws IllegalArgumentException if {@code dst} has the wrong length
   */
  public void copyTo(byte[] dst) {
    Objects.requireNonNull(dst, "dst");
    checkLength(dst.length);
    long ptr = tensor.enter();
    try {
      Native.readBytes(ptr, tensor.handle(), 0, dst);
    } finally {
      tensor.exit();
    }
  }

  /**
   * Overwrites every element, row-major, from {@code src} (standalone tensors only).
   *
   * @throws UnsupportedOperationException on the read-only tensor of an op output
   */
  public void copyFrom(byte[] src) {
    Objects.requireNonNull(src, "src");
    tensor.checkWritable();
    checkLength(src.length);
    long ptr = tensor.enter();
    try {
      Native.writeBytes(ptr, tensor.handle(), 0, src);
    } finally {
      tensor.exit();
    }
  }
}
