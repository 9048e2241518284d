package io.eagerflow.types;

import java.nio.BufferOverflowException;
import java.nio.BufferUnderflowException;
import java.util.Objects;
import org.tensorflow.ndarray.buffer.DataBuffer;

/**
 * What the typed tensor buffers ({@code FloatTensorBuffer} and its siblings) share: a window of
 * {@code size} values at {@code offset} in the heap mirror of {@code base}, and the checks every
 * access makes. The element accessors stay in the subclasses, one per primitive type.
 */
abstract class TensorWindow {
  final TensorBase base;
  final int offset;
  final int size;

  TensorWindow(TensorBase base, int offset, int size) {
    this.base = base;
    this.offset = offset;
    this.size = size;
  }

  /** The mirror index of value {@code index} of this window. */
  final int position(long index) {
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException("index " + index + " of a buffer of size " + size);
    }
    return offset + (int) index;
  }

  public final long size() {
    return size;
  }

  public final boolean isReadOnly() {
    return base.isReadOnly();
  }

  /** Checks a read of {@code length} values into {@code [from, from + length)} of an array. */
  final void checkRead(int from, int length, int arrayLength) {
    Objects.checkFromIndexSize(from, length, arrayLength);
    if (length > size) {
      throw new BufferUnderflowException();
    }
  }

  /** Checks a write of {@code length} values from {@code [from, from + length)} of an array. */
  final void checkWrite(int from, int length, int arrayLength) {
    Objects.checkFromIndexSize(from, length, arrayLength);
    if (length > size) {
      throw new BufferOverflowException();
    }
  }

  /** Checks a copy of {@code length} values to {@code dst}. */
  final void checkCopy(DataBuffer<?> dst, long length) {
    Objects.requireNonNull(dst, "dst");
    if (length < 0 || length > size || length > dst.size()) {
      throw new IllegalArgumentException(
          "cannot copy "
              + length
              + " values from a buffer of "
              + size
              + " to one of "
              + dst.size());
    }
  }

  /** Checks a slice of {@code length} values at {@code index}, and that the tensor is usable. */
  final void checkSlice(long index, long length) {
    Objects.checkFromIndexSize(index, length, size);
    base.check();
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "(size=" + size + ", " + base + ")";
  }
}
