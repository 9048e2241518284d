package io.eagerflow;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import java.util.List;
import org.tensorflow.ndarray.Shape;

/**
 * The choices of one input of the public-API fuzz targets, read from Jazzer's {@link
 * FuzzedDataProvider}: sizes and values range over small numbers and the extremes of their type,
 * and whatever the fuzzer makes of the rest. An exhausted input answers the lowest choice, so every
 * input runs to its end.
 */
final class FuzzInput {
  static final long[] EDGE_LONGS = {
    0,
    1,
    -1,
    2,
    3,
    7,
    64,
    1L << 20,
    Integer.MAX_VALUE,
    Integer.MAX_VALUE + 1L,
    Integer.MIN_VALUE,
    1L << 31,
    1L << 40,
    3037000500L,
    1L << 62,
    Long.MAX_VALUE,
    Long.MIN_VALUE,
    -(1L << 40)
  };

  static final double[] EDGE_DOUBLES = {
    0,
    -0.0,
    1,
    -1,
    0.5,
    Math.nextDown(1.0),
    Math.nextUp(0.0),
    Double.MIN_VALUE,
    Double.MAX_VALUE,
    Double.NaN,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    1e300,
    (double) Long.MAX_VALUE
  };

  private final FuzzedDataProvider in;

  FuzzInput(FuzzedDataProvider in) {
    this.in = in;
  }

  boolean hasMore() {
    return in.remainingBytes() > 0;
  }

  int between(int lo, int hi) {
    return in.consumeInt(lo, hi);
  }

  long between(long lo, long hi) {
    return in.consumeLong(lo, hi);
  }

  boolean bool() {
    return in.consumeBoolean();
  }

  /** One of {@code values}. */
  @SafeVarargs
  final <T> T of(T... values) {
    return values[between(0, values.length - 1)];
  }

  <T> T of(List<T> values) {
    return values.get(between(0, values.size() - 1));
  }

  /** An edge value, a small one, or any long. */
  long anyLong() {
    return switch (between(0, 2)) {
      case 0 -> EDGE_LONGS[between(0, EDGE_LONGS.length - 1)];
      case 1 -> between(-4L, 64L);
      default -> in.consumeLong();
    };
  }

  int anyInt() {
    return switch (between(0, 2)) {
      case 0 -> (int) EDGE_LONGS[between(0, EDGE_LONGS.length - 1)];
      case 1 -> between(-4, 64);
      default -> in.consumeInt();
    };
  }

  double anyDouble() {
    return bool() ? EDGE_DOUBLES[between(0, EDGE_DOUBLES.length - 1)] : in.consumeDouble();
  }

  float anyFloat() {
    return bool() ? (float) anyDouble() : in.consumeFloat();
  }

  /** A string of up to {@code max} chars, or (one in 16) null. */
  String stringOrNull(int max) {
    return between(0, 15) == 0 ? null : in.consumeString(max);
  }

  /**
   * A hostile shape: rank 0 to 8, each dimension small, zero, unknown (-1), negative or huge, or
   * any long at all.
   */
  long[] dims() {
    long[] dims = new long[between(0, 8)];
    for (int i = 0; i < dims.length; i++) {
      dims[i] = between(0, 3) > 0 ? between(0L, 5L) : anyLong();
    }
    return dims;
  }

  /** Dims of a real tensor: rank 0 to 6, at most {@code maxElements} elements. */
  long[] smallDims(int maxElements) {
    long[] dims = new long[between(0, 6)];
    long size = 1;
    for (int i = 0; i < dims.length; i++) {
      long d = between(0L, Math.max(0L, maxElements / Math.max(size, 1)));
      dims[i] = between(0, 3) > 0 ? Math.min(d, 4) : d;
      size *= Math.max(dims[i], 1);
    }
    return dims;
  }

  /** ndarray's Shape refuses some dimensions itself; those shapes become unknown instead. */
  static Shape shapeOf(long[] dims) {
    try {
      return Shape.of(dims);
    } catch (IllegalArgumentException e) {
      return Shape.unknown();
    }
  }

  /**
   * Whether a shape describes a tensor that fits in a Java array but is larger than {@code
   * elements}: a real allocation of that size, which a test on a shared machine does not make (the
   * factories accept it: the caller asked for it). Shapes beyond Java's array limit, negative or
   * overflowing ones are refused by the library, and do get tested.
   */
  static boolean largeButPossible(Shape shape, long elements) {
    if (shape.isUnknown()) {
      return false;
    }
    long n = 1;
    for (int i = 0; i < shape.numDimensions(); i++) {
      long d = shape.size(i);
      if (d < 0) {
        return false;
      }
      if (d != 0 && n > Long.MAX_VALUE / d) {
        return false; // overflows: refused
      }
      n *= d;
    }
    return n > elements && n <= Integer.MAX_VALUE;
  }

  /**
   * Fails unless {@code e} is an exception the public API documents for a caller's mistake, with a
   * message: {@link IllegalArgumentException}, {@link IllegalStateException}, {@link
   * IndexOutOfBoundsException}, {@link NullPointerException}, {@link
   * NativeMemoryExhaustedException} or {@link UnsupportedOperationException} (their subclasses
   * included).
   */
  static void requireDocumented(RuntimeException e, String what) {
    if (e instanceof java.nio.ReadOnlyBufferException) {
      return; // a write to an op output's tensor, as documented; java.nio's has no message
    }
    HostileInputTest.requireDocumented(e, what);
  }

  /**
   * {@link #requireDocumented}, except that an {@link IndexOutOfBoundsException} thrown by the
   * ndarray library's own coordinate check (wrong number of coordinates, or one out of range, on a
   * tensor's {@code NdArray} view) is accepted without a message: the tensor types inherit those
   * accessors from ndarray, which throws it bare, as under TensorFlow Java.
   */
  static void requireDocumentedOrNdArrayIndex(RuntimeException e, String what) {
    StackTraceElement[] at = e.getStackTrace();
    if (e instanceof IndexOutOfBoundsException
        && e.getMessage() == null
        && at.length > 0
        && at[0].getClassName().startsWith("org.tensorflow.ndarray.")) {
      return;
    }
    requireDocumented(e, what);
  }
}
