package io.eagerflow.types;

import io.eagerflow.DataType;

/**
 * The Java {@code float} a {@link TFloat16} or {@link TBfloat16} element holds after a write, so
 * that a tensor's heap mirror reads back what its native memory holds, as TensorFlow Java's layouts
 * (which store the 16 bits at once) do: HALF rounds to the nearest half, ties to even (overflow to
 * infinity, underflow through the subnormals); BFLOAT16 keeps the float's 16 high bits, as
 * TensorFlow Java's {@code Bfloat16Layout} does (ops that make BFLOAT16 values round to nearest
 * even instead). Every NaN becomes the canonical one, as {@code Float.floatToIntBits} makes it.
 */
final class HalfFloats {
  private static final float CANONICAL_NAN = Float.intBitsToFloat(0x7fc00000);

  private HalfFloats() {}

  /** Whether elements of {@code type} are rounded on the way in. */
  static boolean rounds(DataType type) {
    return type == DataType.HALF || type == DataType.BFLOAT16;
  }

  /** {@code v} as an element of {@code type} ({@link DataType#HALF} or BFLOAT16) reads back. */
  static float round(DataType type, float v) {
    if (v != v) {
      return CANONICAL_NAN;
    }
    if (type == DataType.HALF) {
      return toFloat(toHalf(v));
    }
    return Float.intBitsToFloat(Float.floatToRawIntBits(v) & 0xffff0000);
  }

  /** Rounds {@code a[from, to)} in place. */
  static void round(DataType type, float[] a, int from, int to) {
    for (int i = from; i < to; i++) {
      a[i] = round(type, a[i]);
    }
  }

  /** The half nearest {@code f} (ties to even), as its 16 bits; NaN is {@code 0x7e00}. */
  static short toHalf(float f) {
    int bits = Float.floatToRawIntBits(f);
    int sign = (bits >>> 16) & 0x8000;
    int abs = bits & 0x7fffffff;
    if (abs > 0x7f800000) {
      return (short) 0x7e00;
    }
    if (abs >= 0x477ff000) { // 65520 and up: past the largest half (65504) by half a step or more
      return (short) (sign | 0x7c00);
    }
    if (abs < 0x38800000) { // below 2^-14, the smallest normal half: multiples of 2^-24
      return (short) (sign | (int) Math.rint(Float.intBitsToFloat(abs) * 0x1p24));
    }
    int rebased = abs - ((127 - 15) << 23);
    int odd = (rebased >>> 13) & 1;
    return (short) (sign | ((rebased + 0xfff + odd) >>> 13));
  }

  /** The float a half's 16 bits stand for (exact). */
  static float toFloat(short half) {
    int h = half & 0xffff;
    int sign = (h & 0x8000) << 16;
    int exponent = (h >>> 10) & 0x1f;
    int mantissa = h & 0x3ff;
    if (exponent == 0) {
      float v = mantissa * 0x1p-24f;
      return sign != 0 ? -v : v;
    }
    if (exponent == 0x1f) {
      return Float.intBitsToFloat(sign | 0x7f800000 | (mantissa << 13));
    }
    return Float.intBitsToFloat(sign | ((exponent + 127 - 15) << 23) | (mantissa << 13));
  }
}
