package io.eagerflow.types;

import io.eagerflow.DataType;
import io.eagerflow.internal.NativeTensor;
import java.util.Objects;
import java.util.function.Consumer;
import org.tensorflow.ndarray.ByteNdArray;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.ndarray.buffer.ByteDataBuffer;
import org.tensorflow.ndarray.impl.dense.ByteDenseNdArray;
import org.tensorflow.ndarray.impl.dimension.DimensionalSpace;

/**
 * A tensor of unsigned bytes, read and written as Java {@code byte} ({@link DataType#UINT8}), and a {@link ByteNdArray} of its values.
 *
 * <p>The tensor of an op output is read-only: writes throw {@link
 * java.nio.ReadOnlyBufferException}. Every read or write, through this tensor or any view, slice or
 * element of it, throws {@link IllegalStateException} once the tensor is closed or its operand
 * released or its session closed.
 */
public final class TUint8 extends ByteDenseNdArray implements TNumber {
  final TensorBase base;

  TUint8(NativeTensor tensor) {
    this(new TensorBase(tensor));
  }

  private TUint8(TensorBase base) {
    super(new ByteTensorBuffer(base, 0, base.bufferSize()), base.shape);
    this.base = base;
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
    return new TUint8(TensorBase.allocate(shape, DataType.UINT8));
  }

  /**
   * A standalone tensor of {@code shape} holding a copy of {@code data} in row-major order.
   *
   * @throws IllegalArgumentException if {@code data} does not have {@code shape.size()} elements
   */
  public static TUint8 tensorOf(Shape shape, byte[] data) {
    Objects.requireNonNull(data, "data");
    return new TUint8(TensorBase.standalone(shape, DataType.UINT8, data));
  }

  /**
   * A standalone tensor of {@code shape} holding a copy of the first {@code shape.size()} values
   * of {@code data}.
   */
  public static TUint8 tensorOf(Shape shape, ByteDataBuffer data) {
    Objects.requireNonNull(data, "data");
    return tensorOf(shape, t -> t.copyFrom(data));
  }

  /** A standalone tensor holding a copy of {@code src}, of its shape. */
  public static TUint8 tensorOf(NdArray<Byte> src) {
    Objects.requireNonNull(src, "src");
    byte[] data = new byte[TensorBase.checkedLength(src.shape())];
    src.copyTo(DataBuffers.of(data, false, false));
    return tensorOf(src.shape(), data);
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

  /** A row-major copy of every element. */
  public byte[] toArray() {
    byte[] out = new byte[base.arrayLength()];
    base.read(out);
    return out;
  }

  /**
   * Copies every element, row-major, into {@code dst}.
   *
   * @throws IllegalArgumentException if {@code dst} has the wrong length
   */
  public void copyTo(byte[] dst) {
    Objects.requireNonNull(dst, "dst");
    base.checkLength(dst.length);
    base.read(dst);
  }

  /**
   * Overwrites every element, row-major, from {@code src} (standalone tensors only).
   *
   * @throws UnsupportedOperationException on the read-only tensor of an op output
   */
  public void copyFrom(byte[] src) {
    Objects.requireNonNull(src, "src");
    base.write(src);
  }

  /** The dimensions. @throws IllegalStateException if closed or released */
  @Override
  public Shape shape() {
    return base.shape();
  }

  /** The dimensions, as ndarray sees them. @throws IllegalStateException if closed or released */
  @Override
  public DimensionalSpace dimensions() {
    base.check();
    return super.dimensions();
  }

  /**
   * The values as a data buffer: every access checks that the tensor is still usable, and writes
   * throw {@link java.nio.ReadOnlyBufferException} on the tensor of an op output.
   *
   * @throws IllegalStateException if closed or released
   */
  @Override
  public ByteDataBuffer buffer() {
    base.check();
    return super.buffer();
  }

  @Override
  public DataType dataType() {
    return base.dataType();
  }

  @Override
  public Class<TUint8> type() {
    return TUint8.class;
  }

  @Override
  public long numBytes() {
    return base.numBytes();
  }

  @Override
  public void close() {
    base.close();
  }

  @Override
  public String toString() {
    return "TUint8 " + base;
  }
}
