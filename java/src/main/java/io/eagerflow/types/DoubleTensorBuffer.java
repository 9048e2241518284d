package io.eagerflow.types;

import java.nio.DoubleBuffer;
import java.util.Objects;
import org.tensorflow.ndarray.buffer.DataBuffer;
import org.tensorflow.ndarray.buffer.DataStorageVisitor;
import org.tensorflow.ndarray.buffer.DoubleDataBuffer;

/**
 * The data buffer behind a {@link TFloat64} and every view or slice of it: a window on the
 * tensor's heap mirror that checks on every access that the tensor is still usable (see {@link
 * TensorBase}).
 */
final class DoubleTensorBuffer extends TensorWindow implements DoubleDataBuffer {
  DoubleTensorBuffer(TensorBase base, int offset, int size) {
    super(base, offset, size);
  }

  private double[] array() {
    return (double[]) base.mirror();
  }

  private double[] writableArray() {
    return (double[]) base.writableMirror();
  }

  @Override
  public double getDouble(long index) {
    return array()[position(index)];
  }

  @Override
  public DoubleDataBuffer setDouble(double value, long index) {
    writableArray()[position(index)] = value;
    return this;
  }

  @Override
  public DoubleDataBuffer read(double[] dst, int dstOffset, int length) {
    checkRead(dstOffset, length, dst.length);
    if (offset == 0 && dstOffset == 0 && length == dst.length && length == base.arrayLength()) {
      base.read(dst); // the whole tensor: straight from native memory while there is no mirror
    } else {
      System.arraycopy(array(), offset, dst, dstOffset, length);
    }
    return this;
  }

  @Override
  public DoubleDataBuffer write(double[] src, int srcOffset, int length) {
    checkWrite(srcOffset, length, src.length);
    System.arraycopy(src, srcOffset, writableArray(), offset, length);
    return this;
  }

  @Override
  public DoubleDataBuffer read(Double[] dst, int dstOffset, int length) {
    checkRead(dstOffset, length, dst.length);
    double[] a = array();
    for (int i = 0; i < length; i++) {
      dst[dstOffset + i] = a[offset + i];
    }
    return this;
  }

  @Override
  public DoubleDataBuffer write(Double[] src, int srcOffset, int length) {
    checkWrite(srcOffset, length, src.length);
    for (int i = 0; i < length; i++) {
      Objects.requireNonNull(src[srcOffset + i], "src[" + (srcOffset + i) + "]");
    }
    double[] a = writableArray();
    for (int i = 0; i < length; i++) {
      a[offset + i] = src[srcOffset + i];
    }
    return this;
  }

  @Override
  public DoubleDataBuffer copyTo(DataBuffer<Double> dst, long length) {
    checkCopy(dst, length);
    if (dst instanceof DoubleDataBuffer f) {
      double[] whole = offset == 0 && length == base.bufferSize() ? arrayOf(f, (int) length) : null;
      if (whole != null) {
        base.read(whole); // the whole tensor: straight from native memory while there is no mirror
      } else {
        f.write(array(), offset, (int) length);
      }
    } else {
      double[] a = array();
      for (int i = 0; i < length; i++) {
        dst.setObject(a[offset + i], i);
      }
    }
    return this;
  }

  @Override
  public DoubleDataBuffer slice(long index, long length) {
    checkSlice(index, length);
    return new DoubleTensorBuffer(base, offset + (int) index, (int) length);
  }

  @Override
  public <R> R accept(DataStorageVisitor<R> visitor) {
    if (offset != 0) {
      return visitor.fallback(); // ndarray's raw buffers would ignore a slice's array offset
    }
    if (isReadOnly()) {
      return visitor.visit(DoubleBuffer.wrap(array(), 0, size).slice().asReadOnlyBuffer());
    }
    return visitor.visit(DoubleBuffer.wrap(writableArray(), 0, size).slice());
  }

  /** The Java array behind all of {@code dst} if it has exactly {@code length} writable values. */
  private static double[] arrayOf(DoubleDataBuffer dst, int length) {
    if (dst.isReadOnly() || dst.size() != length) {
      return null;
    }
    return dst.accept(
        new DataStorageVisitor<double[]>() {
          @Override
          public double[] visit(DoubleBuffer b) {
            boolean whole =
                b.hasArray()
                    && !b.isReadOnly()
                    && b.arrayOffset() == 0
                    && b.position() == 0
                    && b.array().length == length;
            return whole ? b.array() : null;
          }

          @Override
          public double[] fallback() {
            return null;
          }
        });
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof DoubleDataBuffer other) || other.size() != size) {
      return false;
    }
    double[] a = array();
    for (int i = 0; i < size; i++) {
      if (Double.doubleToLongBits(a[offset + i]) != Double.doubleToLongBits(other.getDouble(i))) {
        return false;
      }
    }
    return true;
  }

  /** The hash ndarray's own buffers compute, so equal buffers hash alike. */
  @Override
  public int hashCode() {
    double[] a = array();
    int h = 1;
    for (int i = 0; i < size; i++) {
      h = 31 * h + Double.hashCode(a[offset + i]);
    }
    return h;
  }
}
