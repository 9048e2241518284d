package io.eagerflow.types;

import java.nio.ReadOnlyBufferException;
import java.nio.charset.Charset;
import java.util.Objects;
import org.tensorflow.ndarray.buffer.DataBuffer;
import org.tensorflow.ndarray.impl.buffer.AbstractDataBuffer;

/**
 * The data buffer behind a {@link TString} (elements as {@code String}s decoded with a charset) or
 * its {@code asBytes()} view (elements as copies of their bytes, {@code charset == null}): a window
 * of {@code size} elements at {@code offset}, read-only as TensorFlow Java's string buffers are,
 * checking on every access that the tensor is still usable.
 */
final class StringTensorBuffer<T> extends AbstractDataBuffer<T> {
  private final StringData data;
  private final Charset charset;
  private final int offset;
  private final int size;

  StringTensorBuffer(StringData data, Charset charset, int offset, int size) {
    this.data = data;
    this.charset = charset;
    this.offset = offset;
    this.size = size;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public boolean isReadOnly() {
    return true;
  }

  @Override
  @SuppressWarnings("unchecked")
  public T getObject(long index) {
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException("index " + index + " of a buffer of size " + size);
    }
    int i = offset + (int) index;
    return (T) (charset == null ? data.bytes(i) : data.string(i, charset));
  }

  @Override
  public DataBuffer<T> setObject(T value, long index) {
    throw new ReadOnlyBufferException();
  }

  @Override
  public DataBuffer<T> write(T[] src, int offset, int length) {
    throw new ReadOnlyBufferException();
  }

  @Override
  public DataBuffer<T> copyTo(DataBuffer<T> dst, long length) {
    Objects.requireNonNull(dst, "dst");
    data.check();
    return super.copyTo(dst, length);
  }

  @Override
  public DataBuffer<T> slice(long index, long size) {
    Objects.checkFromIndexSize(index, size, this.size);
    data.check();
    return new StringTensorBuffer<>(data, charset, offset + (int) index, (int) size);
  }

  @Override
  public String toString() {
    return "StringTensorBuffer(size=" + size + ", " + data.tensor + ")";
  }
}
