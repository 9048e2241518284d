package io.eagerflow.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.junit.EagerSessionExtension;
import io.eagerflow.types.TBool;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TFloat64;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TInt64;
import io.eagerflow.types.TUint8;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.tensorflow.ndarray.Shape;

/**
 * A fresh session and {@code Ops} per test (from eagerflow-junit, which also fails a test that
 * leaves a standalone tensor or a session open), and readers that turn outputs into Java arrays.
 */
@ExtendWith(EagerSessionExtension.class)
abstract class OpsTestBase {
  static final float EPS = 1e-5f;

  EagerSession session;
  Ops tf;

  @BeforeEach
  void useSession(EagerSession session, Ops tf) {
    this.session = session;
    this.tf = tf;
  }

  static float[] floats(Operand<TFloat32> o) {
    return o.asTensor().toArray();
  }

  static double[] doubles(Operand<TFloat64> o) {
    return o.asTensor().toArray();
  }

  static int[] ints(Operand<TInt32> o) {
    return o.asTensor().toArray();
  }

  static long[] longs(Operand<TInt64> o) {
    return o.asTensor().toArray();
  }

  static boolean[] bools(Operand<TBool> o) {
    return o.asTensor().toArray();
  }

  static byte[] bytes(Operand<TUint8> o) {
    return o.asTensor().toArray();
  }

  /** Checks shape and values, with a small tolerance for rounding. */
  static void assertFloats(Operand<TFloat32> o, long[] shape, float... expected) {
    assertEquals(Shape.of(shape), o.shape(), "shape");
    assertArrayEquals(expected, floats(o), EPS);
  }

  static void assertInts(Operand<TInt32> o, long[] shape, int... expected) {
    assertEquals(Shape.of(shape), o.shape(), "shape");
    assertArrayEquals(expected, ints(o));
  }

  static void assertLongs(Operand<TInt64> o, long[] shape, long... expected) {
    assertEquals(Shape.of(shape), o.shape(), "shape");
    assertArrayEquals(expected, longs(o));
  }

  static void assertBools(Operand<TBool> o, long[] shape, boolean... expected) {
    assertEquals(Shape.of(shape), o.shape(), "shape");
    assertArrayEquals(expected, bools(o));
  }

  /** Shorthand for shapes in assertions. */
  static long[] dims(long... dims) {
    return dims;
  }
}
