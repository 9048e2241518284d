package io.eagerflow.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tensorflow.ndarray.Shape;

/**
 * Bulk copies between Java arrays and tensors, of every primitive type, at sizes on both sides of
 * the point where the library copies through the array's elements directly instead of region by
 * region (4,096 elements), and past one part of such a copy (262,144 elements): every element
 * arrives, in order, in both directions.
 */
class LargeCopyTest {
  private static final Random RANDOM = new Random(42);

  @ParameterizedTest
  @ValueSource(ints = {1, 4095, 4096, 100_003, 262_144, 262_145, 600_001})
  void floatsRoundTrip(int n) {
    float[] src = new float[n];
    for (int i = 0; i < n; i++) {
      src[i] = RANDOM.nextFloat() - 0.5f;
    }
    try (TFloat32 t = TFloat32.tensorOf(Shape.of(n), src)) {
      assertArrayEquals(src, t.toArray());
      float[] back = new float[n];
      t.copyTo(back);
      assertArrayEquals(src, back);
      float[] other = new float[n];
      for (int i = 0; i < n; i++) {
        other[i] = i;
      }
      t.copyFrom(other);
      assertArrayEquals(other, t.toArray());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {4096, 262_145})
  void doublesRoundTrip(int n) {
    double[] src = RANDOM.doubles(n).toArray();
    try (TFloat64 t = TFloat64.tensorOf(Shape.of(n), src)) {
      assertArrayEquals(src, t.toArray());
      double[] other = RANDOM.doubles(n).toArray();
      t.copyFrom(other);
      assertArrayEquals(other, t.toArray());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {4096, 262_145})
  void intsRoundTrip(int n) {
    int[] src = RANDOM.ints(n).toArray();
    try (TInt32 t = TInt32.tensorOf(Shape.of(n), src)) {
      assertArrayEquals(src, t.toArray());
      int[] other = RANDOM.ints(n).toArray();
      t.copyFrom(other);
      assertArrayEquals(other, t.toArray());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {4096, 262_145})
  void longsRoundTrip(int n) {
    long[] src = RANDOM.longs(n).toArray();
    try (TInt64 t = TInt64.tensorOf(Shape.of(n), src)) {
      assertArrayEquals(src, t.toArray());
      long[] other = RANDOM.longs(n).toArray();
      t.copyFrom(other);
      assertArrayEquals(other, t.toArray());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {4096, 262_145})
  void bytesRoundTrip(int n) {
    byte[] src = new byte[n];
    RANDOM.nextBytes(src);
    try (TUint8 t = TUint8.tensorOf(Shape.of(n), src)) {
      assertArrayEquals(src, t.toArray());
      byte[] other = new byte[n];
      RANDOM.nextBytes(other);
      t.copyFrom(other);
      assertArrayEquals(other, t.toArray());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {4096, 262_145})
  void booleansRoundTrip(int n) {
    boolean[] src = new boolean[n];
    for (int i = 0; i < n; i++) {
      src[i] = RANDOM.nextBoolean();
    }
    try (TBool t = TBool.tensorOf(Shape.of(n), src)) {
      assertArrayEquals(src, t.toArray());
      boolean[] other = new boolean[n];
      for (int i = 0; i < n; i++) {
        other[i] = !src[i];
      }
      t.copyFrom(other);
      assertArrayEquals(other, t.toArray());
    }
  }
}
