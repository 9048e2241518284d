package io.eagerflow.types;

import java.nio.ByteBuffer;
import java.util.Objects;
import org.tensorflow.ndarray.buffer.DataBuffer;
import org.tensorflow.ndarray.buffer.DataStorageVisitor;
import org.tensorflow.ndarray.buffer.DoubleDataBuffer;
import org.tensorflow.ndarray.buffer.FloatDataBuffer;
import org.tensorflow.ndarray.buffer.IntDataBuffer;
import org.tensorflow.ndarray.buffer.LongDataBuffer;
import org.tensorflow.ndarray.buffer.ShortDataBuffer;
import org.tensorflow.ndarray.buffer.BooleanDataBuffer;
import org.tensorflow.ndarray.buffer.ByteDataBuffer;

/**
 * The data buffer behind a {@link TUint8} and every view or slice of it: a window on the
 * tensor's heap mirror that checks on every access that the tensor is still usable (see {@link
 * TensorBase}).
 */
final class ByteTensorBuffer extends TensorWindow implements ByteDataBuffer {
  ByteTensorBuffer(TensorBase base, int offset, int size) {
    super(base, offset, size);
  }

  private byte[] array() {
    return (byte[]) base.mirror();
  }

  private byte[] writableArray() {
    return (byte[]) base.writableMirror();
  }

  @Override
  public byte getByte(long index) {
    return array()[position(index)];
  }

  @Override
  public ByteDataBuffer setByte(byte value, long index) {
    writableArray()[position(index)] = value;
    return this;
  }

  @Override
  public ByteDataBuffer read(byte[] dst, int dstOffset, int length) {
    checkRead(dstOffset, length, dst.length);
    if (offset == 0 && dstOffset == 0 && length == dst.length && length == base.arrayLength()) {
      base.read(dst); // the whole tensor: straight from native memory while there is no mirror
    } else {
      System.arraycopy(array(), offset, dst, dstOffset, length);
    }
    return this;
  }

  @Override
  public ByteDataBuffer write(byte[] src, int srcOffset, int length) {
    checkWrite(srcOffset, length, src.length);
    System.arraycopy(src, srcOffset, writableArray(), offset, length);
    return this;
  }

  @Override
  public ByteDataBuffer read(Byte[] dst, int dstOffset, int length) {
    checkRead(dstOffset, length, dst.length);
    byte[] a = array();
    for (int i = 0; i < length; i++) {
      dst[dstOffset + i] = a[offset + i];
    }
    return this;
  }

  @Override
  public ByteDataBuffer write(Byte[] src, int srcOffset, int length) {
    checkWrite(srcOffset, length, src.length);
    for (int i = 0; i < length; i++) {
      Objects.requireNonNull(src[srcOffset + i], "src[" + (srcOffset + i) + "]");
    }
    byte[] a = writableArray();
    for (int i = 0; i < length; i++) {
      a[offset + i] = src[srcOffset + i];
    }
    return this;
  }

  @Override
  public ByteDataBuffer copyTo(DataBuffer<Byte> dst, long length) {
    checkCopy(dst, length);
    if (dst instanceof ByteDataBuffer f) {
      byte[] whole = offset == 0 && length == base.bufferSize() ? arrayOf(f, (int) length) : null;
      if (whole != null) {
        base.read(whole); // the whole tensor: straight from native memory while there is no mirror
      } else {
        f.write(array(), offset, (int) length);
      }
    } else {
      byte[] a = array();
      for (int i = 0; i < length; i++) {
        dst.setObject(a[offset + i], i);
      }
    }
    return this;
  }

  @Override
  public ByteDataBuffer slice(long index, long length) {
    checkSlice(index, length);
    return new ByteTensorBuffer(base, offset + (int) index, (int) length);
  }

  /** Not supported on tensor buffers: copy the bytes into {@code DataBuffers.of(byte[])} first. */
  @Override
  public IntDataBuffer asInts() {
    throw reinterpret("asInts");
  }

  /** Not supported on tensor buffers: copy the bytes into {@code DataBuffers.of(byte[])} first. */
  @Override
  public ShortDataBuffer asShorts() {
    throw reinterpret("asShorts");
  }

  /** Not supported on tensor buffers: copy the bytes into {@code DataBuffers.of(byte[])} first. */
  @Override
  public LongDataBuffer asLongs() {
    throw reinterpret("asLongs");
  }

  /** Not supported on tensor buffers: copy the bytes into {@code DataBuffers.of(byte[])} first. */
  @Override
  public FloatDataBuffer asFloats() {
    throw reinterpret("asFloats");
  }

  /** Not supported on tensor buffers: copy the bytes into {@code DataBuffers.of(byte[])} first. */
  @Override
  public DoubleDataBuffer asDoubles() {
    throw reinterpret("asDoubles");
  }

  /** Not supported on tensor buffers: copy the bytes into {@code DataBuffers.of(byte[])} first. */
  @Override
  public BooleanDataBuffer asBooleans() {
    throw reinterpret("asBooleans");
  }

  private static UnsupportedOperationException reinterpret(String method) {
    return new UnsupportedOperationException(
        method + "() is not supported on the buffer of a TUint8 tensor; copy its bytes first");
  }

  @Override
  public <R> R accept(DataStorageVisitor<R> visitor) {
    if (offset != 0) {
      return visitor.fallback(); // ndarray's raw buffers would ignore a slice's array offset
    }
    if (isReadOnly()) {
      return visitor.visit(ByteBuffer.wrap(array(), 0, size).slice().asReadOnlyBuffer());
    }
    return visitor.visit(ByteBuffer.wrap(writableArray(), 0, size).slice());
  }

  /** The Java array behind all of {@code dst} if it has exactly {@code length} writable values. */
  private static byte[] arrayOf(ByteDataBuffer dst, int length) {
    if (dst.isReadOnly() || dst.size() != length) {
      return null;
    }
    return dst.accept(
        new DataStorageVisitor<byte[]>() {
          @Override
          public byte[] visit(ByteBuffer b) {
            boolean whole =
                b.hasArray()
                    && !b.isReadOnly()
                    && b.arrayOffset() == 0
                    && b.position() == 0
                    && b.array().length == length;
            return whole ? b.array() : null;
          }

          @Override
          public byte[] fallback() {
            return null;
          }
        });
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof ByteDataBuffer other) || other.size() != size) {
      return false;
    }
    byte[] a = array();
    for (int i = 0; i < size; i++) {
      if ((a[offset + i]) != (other.getByte(i))) {
        return false;
      }
    }
    return true;
  }

  /** The hash ndarray's own buffers compute, so equal buffers hash alike. */
  @Override
  public int hashCode() {
    byte[] a = array();
    int h = 1;
    for (int i = 0; i < size; i++) {
      h = 31 * h + Byte.hashCode(a[offset + i]);
    }
    return h;
  }
}
