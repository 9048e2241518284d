package io.eagerflow.internal;

import java.util.Objects;
import org.tensorflow.ndarray.Shape;

/**
 * Checks on the ndarray {@link Shape}s users pass in. Unlike a tensor's shape, an ndarray shape may
 * be unknown or have unknown (-1) dimensions, and its {@code size()} does not detect overflow; a
 * tensor needs every dimension known and a count that fits in a {@code long}.
 */
public final class Shapes {
  private Shapes() {}

  /**
   * The dimensions of {@code shape}, all known and non-negative.
   *
   * @throws IllegalArgumentException naming {@code what} if a dimension is unknown or negative, or
   *     the element count overflows a {@code long}
   */
  public static long[] dims(Shape shape, String what) {
    Objects.requireNonNull(shape, what);
    long[] dims = shape.asArray();
    if (dims == null) {
      throw new IllegalArgumentException(
          what + " has an unknown rank; a tensor needs a known shape");
    }
    long n = 1;
    for (int i = 0; i < dims.length; i++) {
      if (dims[i] < 0) {
        throw new IllegalArgumentException(
            what + " " + shape + ": dimension " + i + " is unknown or negative");
      }
      n = multiply(n, dims[i], shape, what);
    }
    return dims;
  }

  /** The element count of {@code shape}, checked as {@link #dims} does. */
  public static long size(Shape shape, String what) {
    long n = 1;
    for (long d : dims(shape, what)) {
      n = multiply(n, d, shape, what);
    }
    return n;
  }

  private static long multiply(long n, long d, Shape shape, String what) {
    try {
      return Math.multiplyExact(n, d);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          what + " " + shape + " has more than " + Long.MAX_VALUE + " elements", e);
    }
  }
}
