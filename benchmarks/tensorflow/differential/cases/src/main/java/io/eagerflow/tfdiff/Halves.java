package io.eagerflow.tfdiff;

/** 16-bit float conversions for the generator and the comparator (round to nearest even). */
final class Halves {
  private Halves() {}

  static short floatToHalf(float f) {
    int bits = Float.floatToRawIntBits(f);
    int sign = (bits >>> 16) & 0x8000;
    int abs = bits & 0x7fffffff;
    if (abs > 0x7f800000) {
      return (short) (sign | 0x7e00);
    }
    if (abs >= 0x477ff000) {
      return (short) (sign | 0x7c00);
    }
    if (abs < 0x38800000) {
      return (short) (sign | (int) Math.rint(Float.intBitsToFloat(abs) * 0x1p24));
    }
    int rebased = abs - ((127 - 15) << 23);
    return (short) (sign | ((rebased + 0xfff + ((rebased >>> 13) & 1)) >>> 13));
  }

  static float halfToFloat(short half) {
    int h = half & 0xffff;
    int sign = (h & 0x8000) << 16;
    int e = (h >>> 10) & 0x1f;
    int m = h & 0x3ff;
    if (e == 0) {
      float v = m * 0x1p-24f;
      return sign != 0 ? -v : v;
    }
    if (e == 0x1f) {
      return Float.intBitsToFloat(sign | 0x7f800000 | (m << 13));
    }
    return Float.intBitsToFloat(sign | ((e + 112) << 23) | (m << 13));
  }

  static short floatToBfloat16(float f) {
    int bits = Float.floatToRawIntBits(f);
    if (Float.isNaN(f)) {
      return (short) (((bits >>> 16) & 0x8000) | 0x7fc0);
    }
    return (short) ((bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16);
  }
}
