package io.eagerflow;

import java.util.Arrays;

/** The dimensions of a tensor. Immutable. A scalar has no dimensions. */
public final class Shape {
  private static final Shape SCALAR = new Shape(new long[0]);

  private final long[] dims;

  private Shape(long[] dims) {
    this.dims = dims;
  }

  /**
   * A shape with the given dimensions; no arguments (or {@code null}) give a scalar.
   *
   * @throws IllegalArgumentException if a dimension is negative
   */
  public static Shape of(long... dims) {
    if (dims == null || dims.length == 0) {
      return SCALAR;
    }
    for (int i = 0; i < dims.length; i++) {
      if (dims[i] < 0) {
        throw new IllegalArgumentException(
            "dimension " + i + " of " + Arrays.toString(dims) + " is negative");
      }
    }
    return new Shape(dims.clone());
  }

  /** The shape of a scalar. */
  public static Shape scalar() {
    return SCALAR;
  }

  /** The number of dimensions (0 for a scalar). */
  public int numDimensions() {
    return dims.length;
  }

  /**
   * The size of dimension {@code i}; negative {@code i} counts from the end.
   *
   * @throws IndexOutOfBoundsException if there is no such dimension
   */
  public long size(int i) {
    int k = i < 0 ? i + dims.length : i;
    if (k < 0 || k >= dims.length) {
      throw new IndexOutOfBoundsException(
          "dimension " + i + " of a shape of rank " + dims.length);
    }
    return dims[k];
  }

  /** The total number of elements (1 for a scalar). */
  public long size() {
    long n = 1;
    for (long d : dims) {
      n = Math.multiplyExact(n, d);
    }
    return n;
  }

  /** Whether this is the shape of a scalar. */
  public boolean isScalar() {
    return dims.length == 0;
  }

  /** A copy of the dimensions. */
  public long[] asArray() {
    return dims.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Shape && Arrays.equals(dims, ((Shape) o).dims);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(dims);
  }

  @Override
  public String toString() {
    return Arrays.toString(dims);
  }
}
