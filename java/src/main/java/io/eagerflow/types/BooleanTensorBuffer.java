package io.eagerflow.types;

import java.util.Objects;
import org.tensorflow.ndarray.buffer.DataBuffer;
import org.tensorflow.ndarray.buffer.DataStorageVisitor;
import org.tensorflow.ndarray.buffer.BooleanDataBuffer;

/**
 * The data buffer behind a {@link TBool} and every view or slice of it: a window on the
 * tensor's heap mirror that checks on every access that the tensor is still usable (see {@link
 * TensorBase}).
 */
final class BooleanTensorBuffer extends TensorWindow implements BooleanDataBuffer {
  BooleanTensorBuffer(TensorBase base, int offset, int size) {
    super(base, offset, size);
  }

  private boolean[] array() {
    return (boolean[]) base.mirror();
  }

  private boolean[] writableArray() {
    return (boolean[]) base.writableMirror();
  }

  @Override
  public boolean getBoolean(long index) {
    return array()[position(index)];
  }

  @Override
  public BooleanDataBuffer setBoolean(boolean value, long index) {
    writableArray()[position(index)] = value;
    return this;
  }

  @Override
  public BooleanDataBuffer read(boolean[] dst, int dstOffset, int length) {
    checkRead(dstOffset, length, dst.length);
    if (offset == 0 && dstOffset == 0 && length == dst.length && length == base.arrayLength()) {
      base.read(dst); // the whole tensor: straight from native memory while there is no mirror
    } else {
      System.arraycopy(array(), offset, dst, dstOffset, length);
    }
    return this;
  }

  @Override
  public BooleanDataBuffer write(boolean[] src, int srcOffset, int length) {
    checkWrite(srcOffset, length, src.length);
    System.arraycopy(src, srcOffset, writableArray(), offset, length);
    return this;
  }

  @Override
  public BooleanDataBuffer read(Boolean[] dst, int dstOffset, int length) {
    checkRead(dstOffset, length, dst.length);
    boolean[] a = array();
    for (int i = 0; i < length; i++) {
      dst[dstOffset + i] = a[offset + i];
    }
    return this;
  }

  @Override
  public BooleanDataBuffer write(Boolean[] src, int srcOffset, int length) {
    checkWrite(srcOffset, length, src.length);
    for (int i = 0; i < length; i++) {
      Objects.requireNonNull(src[srcOffset + i], "src[" + (srcOffset + i) + "]");
    }
    boolean[] a = writableArray();
    for (int i = 0; i < length; i++) {
      a[offset + i] = src[srcOffset + i];
    }
    return this;
  }

  @Override
  public BooleanDataBuffer copyTo(DataBuffer<Boolean> dst, long length) {
    checkCopy(dst, length);
    if (dst instanceof BooleanDataBuffer f) {
      boolean[] whole = offset == 0 && length == base.bufferSize() ? arrayOf(f, (int) length) : null;
      if (whole != null) {
        base.read(whole); // the whole tensor: straight from native memory while there is no mirror
      } else {
        f.write(array(), offset, (int) length);
      }
    } else {
      boolean[] a = array();
      for (int i = 0; i < length; i++) {
        dst.setObject(a[offset + i], i);
      }
    }
    return this;
  }

  @Override
  public BooleanDataBuffer slice(long index, long length) {
    checkSlice(index, length);
    return new BooleanTensorBuffer(base, offset + (int) index, (int) length);
  }

  @Override
  public <R> R accept(DataStorageVisitor<R> visitor) {
    if (isReadOnly() || offset != 0) {
      return visitor.fallback(); // a boolean[] cannot be handed out read-only
    }
    return visitor.visit(writableArray(), 0, size);
  }

  /** The Java array behind all of {@code dst} if it has exactly {@code length} writable values. */
  private static boolean[] arrayOf(BooleanDataBuffer dst, int length) {
    if (dst.isReadOnly() || dst.size() != length) {
      return null;
    }
    return dst.accept(
        new DataStorageVisitor<boolean[]>() {
          @Override
          public boolean[] visit(boolean[] array, int arrayOffset, int arrayLength) {
            return arrayOffset == 0 && arrayLength == length && array.length == length ? array : null;
          }

          @Override
          public boolean[] fallback() {
            return null;
          }
        });
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof BooleanDataBuffer other) || other.size() != size) {
      return false;
    }
    boolean[] a = array();
    for (int i = 0; i < size; i++) {
      if ((a[offset + i]) != (other.getBoolean(i))) {
        return false;
      }
    }
    return true;
  }

  /** The hash ndarray's own buffers compute, so equal buffers hash alike. */
  @Override
  public int hashCode() {
    boolean[] a = array();
    int h = 1;
    for (int i = 0; i < size; i++) {
      h = 31 * h + Boolean.hashCode(a[offset + i]);
    }
    return h;
  }
}
