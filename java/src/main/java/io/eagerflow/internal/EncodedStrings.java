package io.eagerflow.internal;

import java.nio.charset.Charset;
import java.util.Objects;
import java.util.function.Function;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.Shape;

/**
 * The elements of a string tensor on their way to native memory: every element's bytes back to back
 * and each one's length, which cross JNI as one {@code byte[]} and one {@code int[]}.
 */
public final class EncodedStrings {
  private final Shape shape;
  private final byte[] bytes;
  private final int[] lengths;

  private EncodedStrings(Shape shape, byte[] bytes, int[] lengths) {
    this.shape = shape;
    this.bytes = bytes;
    this.lengths = lengths;
  }

  /** The strings of {@code src} encoded with {@code charset}, in row-major order. */
  public static EncodedStrings of(Charset charset, NdArray<String> src) {
    Objects.requireNonNull(charset, "charset");
    Objects.requireNonNull(src, "src");
    return encode(src, s -> s.getBytes(charset));
  }

  /** The byte sequences of {@code src}, in row-major order. */
  public static EncodedStrings ofBytes(NdArray<byte[]> src) {
    Objects.requireNonNull(src, "src");
    return encode(src, b -> b);
  }

  /** {@code values}, a row-major array of {@code shape.size()} strings, encoded. */
  public static EncodedStrings of(Charset charset, Shape shape, String[] values) {
    Objects.requireNonNull(charset, "charset");
    Objects.requireNonNull(values, "values");
    byte[][] parts = new byte[values.length][];
    for (int i = 0; i < values.length; i++) {
      parts[i] = Objects.requireNonNull(values[i], "string " + i).getBytes(charset);
    }
    return join(shape, parts);
  }

  private static <T> EncodedStrings encode(NdArray<T> src, Function<T, byte[]> toBytes) {
    Shape shape = src.shape();
    long n = Shapes.size(shape, "shape");
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("shape " + shape + " is too large for a string tensor");
    }
    byte[][] parts = new byte[(int) n][];
    int[] at = {0};
    src.scalars()
        .forEach(
            s -> {
              T v = s.getObject();
              parts[at[0]] = toBytes.apply(Objects.requireNonNull(v, "element " + at[0]));
              at[0]++;
            });
    return join(shape, parts);
  }

  private static EncodedStrings join(Shape shape, byte[][] parts) {
    long total = 0;
    int[] lengths = new int[parts.length];
    for (int i = 0; i < parts.length; i++) {
      lengths[i] = parts[i].length;
      total += parts[i].length;
    }
    if (total > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "strings of " + total + " bytes in all do not fit in one Java array");
    }
    byte[] bytes = new byte[(int) total];
    int pos = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, bytes, pos, p.length);
      pos += p.length;
    }
    return new EncodedStrings(shape, bytes, lengths);
  }

  /** {@code count} empty strings of {@code shape}. */
  static EncodedStrings empty(Shape shape, int count) {
    return new EncodedStrings(shape, new byte[0], new int[count]);
  }

  public Shape shape() {
    return shape;
  }

  /** Every element's bytes, back to back. */
  public byte[] bytes() {
    return bytes;
  }

  /** Each element's length in bytes. */
  public int[] lengths() {
    return lengths;
  }
}
