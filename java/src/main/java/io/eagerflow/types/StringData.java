package io.eagerflow.types;

import io.eagerflow.internal.NativeTensor;
import java.nio.charset.Charset;
import java.util.Arrays;
import org.tensorflow.ndarray.Shape;

/**
 * What a {@link TString} and its {@code using(Charset)} and {@code asBytes()} views share: the
 * native tensor and a heap mirror of its bytes. As for the other tensor types, reads never touch
 * native memory a session may free meanwhile: the first one copies every element in one native call
 * (one {@code byte[]} and one {@code int[]} of lengths), and every read checks first that the
 * tensor is still usable. String tensors never change, so the mirror stays exact.
 */
final class StringData {
  final NativeTensor tensor;
  final Shape shape;
  private final int length;
  private volatile Mirror mirror;

  /** Every element's bytes back to back, and where element {@code i} starts ({@code n + 1}). */
  private record Mirror(byte[] bytes, int[] starts) {}

  StringData(NativeTensor tensor) {
    this.tensor = tensor;
    this.shape = tensor.shape();
    long n = shape.size();
    this.length = n > Integer.MAX_VALUE - 8 ? -1 : (int) n;
  }

  /** The element count as a buffer size (0 when too large for Java arrays). */
  int bufferSize() {
    return Math.max(length, 0);
  }

  /** Throws {@link IllegalStateException} unless the tensor may still be used. */
  void check() {
    tensor.checkUsable();
  }

  private Mirror mirror() {
    tensor.checkUsable();
    Mirror m = mirror;
    return m != null ? m : load();
  }

  private synchronized Mirror load() {
    Mirror m = mirror;
    if (m != null) {
      return m;
    }
    if (length < 0) {
      throw new IllegalStateException(
          "a string tensor of shape " + shape + " does not fit in Java arrays");
    }
    int[] lengths = new int[length];
    byte[] bytes = tensor.readStrings(lengths);
    int[] starts = new int[length + 1];
    for (int i = 0; i < length; i++) {
      starts[i + 1] = starts[i] + lengths[i];
    }
    m = new Mirror(bytes, starts);
    mirror = m;
    return m;
  }

  /** Element {@code i} decoded with {@code charset}. */
  String string(int i, Charset charset) {
    Mirror m = mirror();
    return new String(m.bytes, m.starts[i], m.starts[i + 1] - m.starts[i], charset);
  }

  /** A copy of element {@code i}'s bytes. */
  byte[] bytes(int i) {
    Mirror m = mirror();
    return Arrays.copyOfRange(m.bytes, m.starts[i], m.starts[i + 1]);
  }

  /** The bytes of every element together. */
  long numBytes() {
    return mirror().bytes.length;
  }

  void close() {
    tensor.close();
  }
}
