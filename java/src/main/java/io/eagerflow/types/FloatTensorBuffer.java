package io.eagerflow.types;

import java.nio.FloatBuffer;
import java.util.Objects;
import org.tensorflow.ndarray.buffer.DataBuffer;
import org.tensorflow.ndarray.buffer.DataStorageVisitor;
import org.tensorflow.ndarray.buffer.FloatDataBuffer;

/**
 * The data buffer behind a {@link TFloat32} and every view or slice of it: a window on the
 * tensor's heap mirror that checks on every access that the tensor is still usable (see {@link
 * TensorBase}).
 */
final class FloatTensorBuffer extends TensorWindow implements FloatDataBuffer {
  FloatTensorBuffer(TensorBase base, int offset, int size) {
    super(base, offset, size);
  }

  private float[] array() {
    return (float[]) base.mirror();
  }

  private float[] writableArray() {
    return (float[]) base.writableMirror();
  }

  @Override
  public float getFloat(long index) {
    return array()[position(index)];
  }

  @Override
  public FloatDataBuffer setFloat(float value, long index) {
    writableArray()[position(index)] = value;
    return this;
  }

  @Override
  public FloatDataBuffer read(float[] dst, int dstOffset, int length) {
    checkRead(dstOffset, length, dst.length);
    if (offset == 0 && dstOffset == 0 && length == dst.length && length == base.arrayLength()) {
      base.read(dst); // the whole tensor: straight from native memory while there is no mirror
    } else {
      System.arraycopy(array(), offset, dst, dstOffset, length);
    }
    return this;
  }

  @Override
  public FloatDataBuffer write(float[] src, int srcOffset, int length) {
    checkWrite(srcOffset, length, src.length);
    System.arraycopy(src, srcOffset, writableArray(), offset, length);
    return this;
  }

  @Override
  public FloatDataBuffer read(Float[] dst, int dstOffset, int length) {
    checkRead(dstOffset, length, dst.length);
    float[] a = array();
    for (int i = 0; i < length; i++) {
      dst[dstOffset + i] = a[offset + i];
    }
    return this;
  }

  @Override
  public FloatDataBuffer write(Float[] src, int srcOffset, int length) {
    checkWrite(srcOffset, length, src.length);
    for (int i = 0; i < length; i++) {
      Objects.requireNonNull(src[srcOffset + i], "src[" + (srcOffset + i) + "]");
    }
    float[] a = writableArray();
    for (int i = 0; i < length; i++) {
      a[offset + i] = src[srcOffset + i];
    }
    return this;
  }

  @Override
  public FloatDataBuffer copyTo(DataBuffer<Float> dst, long length) {
    checkCopy(dst, length);
    if (dst instanceof FloatDataBuffer f) {
      float[] whole = offset == 0 && length == base.bufferSize() ? arrayOf(f, (int) length) : null;
      if (whole != null) {
        base.read(whole); // the whole tensor: straight from native memory while there is no mirror
      } else {
        f.write(array(), offset, (int) length);
      }
    } else {
      float[] a = array();
      for (int i = 0; i < length; i++) {
        dst.setObject(a[offset + i], i);
      }
    }
    return this;
  }

  @Override
  public FloatDataBuffer slice(long index, long length) {
    checkSlice(index, length);
    return new FloatTensorBuffer(base, offset + (int) index, (int) length);
  }

  @Override
  public <R> R accept(DataStorageVisitor<R> visitor) {
    if (offset != 0) {
      return visitor.fallback(); // ndarray's raw buffers would ignore a slice's array offset
    }
    if (isReadOnly()) {
      return visitor.visit(FloatBuffer.wrap(array(), 0, size).slice().asReadOnlyBuffer());
    }
    return visitor.visit(FloatBuffer.wrap(writableArray(), 0, size).slice());
  }

  /** The Java array behind all of {@code dst} if it has exactly {@code length} writable values. */
  private static float[] arrayOf(FloatDataBuffer dst, int length) {
    if (dst.isReadOnly() || dst.size() != length) {
      return null;
    }
    return dst.accept(
        new DataStorageVisitor<float[]>() {
          @Override
          public float[] visit(FloatBuffer b) {
            boolean whole =
                b.hasArray()
                    && !b.isReadOnly()
                    && b.arrayOffset() == 0
                    && b.position() == 0
                    && b.array().length == length;
            return whole ? b.array() : null;
          }

          @Override
          public float[] fallback() {
            return null;
          }
        });
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof FloatDataBuffer other) || other.size() != size) {
      return false;
    }
    float[] a = array();
    for (int i = 0; i < size; i++) {
      if (Float.floatToIntBits(a[offset + i]) != Float.floatToIntBits(other.getFloat(i))) {
        return false;
      }
    }
    return true;
  }

  /** The hash ndarray's own buffers compute, so equal buffers hash alike. */
  @Override
  public int hashCode() {
    float[] a = array();
    int h = 1;
    for (int i = 0; i < size; i++) {
      h = 31 * h + Float.hashCode(a[offset + i]);
    }
    return h;
  }
}
