package io.eagerflow.types;

import io.eagerflow.DataType;
import io.eagerflow.Shape;
import io.eagerflow.internal.Native;
import io.eagerflow.internal.NativeTensor;
import java.util.Objects;
import java.util.function.Consumer;

/** A tensor of booleans ({@link DataType#BOOL}). */
public final class TBool extends TensorBase implements TType {
  TBool(NativeTensor tensor) {
    super(tensor);
  }

  /** A standalone scalar. */
  public static TBool scalarOf(boolean value) {
    return tensorOf(Shape.scalar(), new boolean[] {value});
  }

  /** A standalone vector of {@code values}. */
  public static TBool vectorOf(boolean... values) {
    Objects.requireNonNull(values, "values");
    return tensorOf(Shape.of(values.length), values);
  }

  /** A standalone tensor of {@code shape}, filled with {@code false}. */
  public static TBool tensorOf(Shape shape) {
    return new TBool(allocate(shape, DataType.BOOL));
  }

  /**
   * A standalone tensor of {@code shape} holding a copy of {@code data} in row-major order.
   *
   * @throws IllegalArgumentException if {@code data} does not have {@code shape.size()} elements
   */
  public static TBool tensorOf(Shape shape, boolean[] data) {
    Objects.requireNonNull(data, "data");
    long handle = Native.fromBooleans(0, dims(shape, data.length), data);
    return new TBool(NativeTensor.standalone(handle, shape, DataType.BOOL));
  }

  /**
   * A standalone tensor of {@code shape}, filled with {@code false} and then passed to {@code init}
   * (TensorFlow's initializer style). If {@code init} throws, the tensor is closed.
   */
  public static TBool tensorOf(Shape shape, Consumer<TBool> init) {
    Objects.requireNonNull(init, "init");
    TBool t = tensorOf(shape);
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
  public boolean getBoolean(long... coordinates) {
    long i = index(coordinates);
    long ptr = tensor.enter();
    try {
      return Native.getBoolean(ptr, tensor.handle(), i);
    } finally {
      tensor.exit();
    }
  }

  /**
   * Sets the element at {@code coordinates} (standalone tensors only).
   *
   * @throws UnsupportedOperationException on the read-only tensor of an op output
   */
  public void setBoolean(boolean value, long... coordinates) {
    tensor.checkWritable();
    long i = index(coordinates);
    long ptr = tensor.enter();
    try {
      Native.writeBooleans(ptr, tensor.handle(), i, new boolean[] {value});
    } finally {
      tensor.exit();
    }
  }

  /** A row-major copy of every element, in one native call. */
  public boolean[] toArray() {
    boolean[] out = new boolean[arrayLength()];
    copyTo(out);
    return out;
  }

  /**
   * Copies every element, row-major, into {@code dst}, in one native call.
   *
   * @throws IllegalArgumentException if {@code dst} has the wrong length
   */
  public void copyTo(boolean[] dst) {
    Objects.requireNonNull(dst, "dst");
    checkLength(dst.length);
    long ptr = tensor.enter();
    try {
      Native.readBooleans(ptr, tensor.handle(), 0, dst);
    } finally {
      tensor.exit();
    }
  }

  /**
   * Overwrites every element, row-major, from {@code src} (standalone tensors only).
   *
   * @throws UnsupportedOperationException on the read-only tensor of an op output
   */
  public void copyFrom(boolean[] src) {
    Objects.requireNonNull(src, "src");
    tensor.checkWritable();
    checkLength(src.length);
    long ptr = tensor.enter();
    try {
      Native.writeBooleans(ptr, tensor.handle(), 0, src);
    } finally {
      tensor.exit();
    }
  }
}
