package io.eagerflow.types;

import io.eagerflow.DataType;
import io.eagerflow.internal.NativeTensor;
import java.util.Objects;
import java.util.function.Consumer;
import org.tensorflow.ndarray.BooleanNdArray;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.ndarray.buffer.BooleanDataBuffer;
import org.tensorflow.ndarray.impl.dense.BooleanDenseNdArray;
import org.tensorflow.ndarray.impl.dimension.DimensionalSpace;

/**
 * A tensor of booleans ({@link DataType#BOOL}), and a {@link BooleanNdArray} of its values.
 *
 * <p>The tensor of an op output is read-only: writes throw {@link
 * java.nio.ReadOnlyBufferException}. Every read or write, through this tensor or any view, slice or
 * element of it, throws {@link IllegalStateException} once the tensor is closed or its operand
 * released or its session closed.
 */
public final class TBool extends BooleanDenseNdArray implements TType {
  final TensorBase base;

  TBool(NativeTensor tensor) {
    this(new TensorBase(tensor));
  }

  private TBool(TensorBase base) {
    super(new BooleanTensorBuffer(base, 0, base.bufferSize()), base.shape);
    this.base = base;
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
    return new TBool(TensorBase.allocate(shape, DataType.BOOL));
  }

  /**
   * A standalone tensor of {@code shape} holding a copy of {@code data} in row-major order.
   *
   * @throws IllegalArgumentException if {@code data} does not have {@code shape.size()} elements
   */
  public static TBool tensorOf(Shape shape, boolean[] data) {
    Objects.requireNonNull(data, "data");
    return new TBool(TensorBase.standalone(shape, DataType.BOOL, data));
  }

  /**
   * A standalone tensor of {@code shape} holding a copy of the first {@code shape.size()} values
   * of {@code data}.
   */
  public static TBool tensorOf(Shape shape, BooleanDataBuffer data) {
    Objects.requireNonNull(data, "data");
    return tensorOf(shape, t -> t.copyFrom(data));
  }

  /** A standalone tensor holding a copy of {@code src}, of its shape. */
  public static TBool tensorOf(NdArray<Boolean> src) {
    Objects.requireNonNull(src, "src");
    boolean[] data = new boolean[TensorBase.checkedLength(src.shape())];
    src.copyTo(DataBuffers.of(data, false, false));
    return tensorOf(src.shape(), data);
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

  /** A row-major copy of every element. */
  public boolean[] toArray() {
    boolean[] out = new boolean[base.arrayLength()];
    base.read(out);
    return out;
  }

  /**
   * Copies every element, row-major, into {@code dst}.
   *
   * @throws IllegalArgumentException if {@code dst} has the wrong length
   */
  public void copyTo(boolean[] dst) {
    Objects.requireNonNull(dst, "dst");
    base.checkLength(dst.length);
    base.read(dst);
  }

  /**
   * Overwrites every element, row-major, from {@code src} (standalone tensors only).
   *
   * @throws UnsupportedOperationException on the read-only tensor of an op output
   */
  public void copyFrom(boolean[] src) {
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
  public BooleanDataBuffer buffer() {
    base.check();
    return super.buffer();
  }

  @Override
  public DataType dataType() {
    return base.dataType();
  }

  @Override
  public Class<TBool> type() {
    return TBool.class;
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
    return "TBool " + base;
  }
}
