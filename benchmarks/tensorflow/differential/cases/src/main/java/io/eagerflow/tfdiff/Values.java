package io.eagerflow.tfdiff;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;

/**
 * A tensor as both systems exchange it in files: TensorFlow's dtype code, the shape and the
 * elements' bytes in little-endian order (one byte per BOOL or UINT8, two per HALF, BFLOAT16 and
 * UINT16). Written as {@code code/d0xd1x.../hex}, a scalar's shape as {@code s}.
 */
public record Values(int dtype, long[] shape, byte[] bytes) {
  public static final int FLOAT = 1, DOUBLE = 2, INT32 = 3, UINT8 = 4, INT64 = 9, BOOL = 10,
      BFLOAT16 = 14, UINT16 = 17, HALF = 19;

  public static final int[] ALL = {FLOAT, DOUBLE, INT32, INT64, UINT8, BOOL, HALF, BFLOAT16, UINT16};

  public static int size(int dtype) {
    return switch (dtype) {
      case DOUBLE, INT64 -> 8;
      case FLOAT, INT32 -> 4;
      case HALF, BFLOAT16, UINT16 -> 2;
      default -> 1;
    };
  }

  public static String name(int dtype) {
    return switch (dtype) {
      case FLOAT -> "FLOAT";
      case DOUBLE -> "DOUBLE";
      case INT32 -> "INT32";
      case UINT8 -> "UINT8";
      case INT64 -> "INT64";
      case BOOL -> "BOOL";
      case BFLOAT16 -> "BFLOAT16";
      case UINT16 -> "UINT16";
      case HALF -> "HALF";
      default -> "dtype" + dtype;
    };
  }

  public static boolean isFloat(int dtype) {
    return dtype == FLOAT || dtype == DOUBLE || dtype == HALF || dtype == BFLOAT16;
  }

  public long count() {
    long n = 1;
    for (long d : shape) {
      n *= d;
    }
    return n;
  }

  public ByteBuffer buffer() {
    return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** Element {@code i} as a double (exact for every type here but INT64 past 2^53). */
  public double element(int i) {
    ByteBuffer b = buffer();
    return switch (dtype) {
      case FLOAT -> b.getFloat(4 * i);
      case DOUBLE -> b.getDouble(8 * i);
      case INT32 -> b.getInt(4 * i);
      case INT64 -> b.getLong(8 * i);
      case UINT8 -> b.get(i) & 0xff;
      case BOOL -> b.get(i);
      case UINT16 -> b.getShort(2 * i) & 0xffff;
      case HALF -> Halves.halfToFloat(b.getShort(2 * i));
      case BFLOAT16 -> Float.intBitsToFloat((b.getShort(2 * i) & 0xffff) << 16);
      default -> throw new IllegalArgumentException("dtype " + dtype);
    };
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder().append(dtype).append('/');
    if (shape.length == 0) {
      s.append('s');
    }
    for (int i = 0; i < shape.length; i++) {
      s.append(i == 0 ? "" : "x").append(shape[i]);
    }
    return s.append('/').append(HexFormat.of().formatHex(bytes)).toString();
  }

  public static Values parse(String text) {
    String[] p = text.split("/", -1);
    long[] shape;
    if (p[1].equals("s")) {
      shape = new long[0];
    } else {
      String[] d = p[1].split("x");
      shape = new long[d.length];
      for (int i = 0; i < d.length; i++) {
        shape[i] = Long.parseLong(d[i]);
      }
    }
    return new Values(Integer.parseInt(p[0]), shape, HexFormat.of().parseHex(p[2]));
  }

  /** Values of {@code dtype} and {@code shape} from doubles (rounded to nearest even). */
  public static Values of(int dtype, long[] shape, double... v) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
    for (double x : v) {
      b.clear();
      switch (dtype) {
        case FLOAT -> b.putFloat((float) x);
        case DOUBLE -> b.putDouble(x);
        case INT32 -> b.putInt((int) (long) x);
        case INT64 -> b.putLong((long) x);
        case UINT8, BOOL -> b.put((byte) (long) x);
        case UINT16 -> b.putShort((short) (long) x);
        case HALF -> b.putShort(Halves.floatToHalf((float) x));
        case BFLOAT16 -> b.putShort(Halves.floatToBfloat16((float) x));
        default -> throw new IllegalArgumentException("dtype " + dtype);
      }
      out.write(b.array(), 0, b.position());
    }
    return new Values(dtype, shape, out.toByteArray());
  }

  /** The bits of a HALF value held as a float (exact for every HALF value). */
  public static short halfBits(float v) {
    return Halves.floatToHalf(v);
  }

  /** The bits of a BFLOAT16 value held as a float (exact). */
  public static short bfloat16Bits(float v) {
    return (short) (Float.floatToRawIntBits(v) >>> 16);
  }

  /** The first four elements, as a vector. */
  public Values slice4() {
    byte[] b = java.util.Arrays.copyOf(bytes, 4 * size(dtype));
    return new Values(dtype, new long[] {4}, b);
  }

  /** INT64 values exactly (doubles cannot hold the extremes). */
  public static Values ofLongs(long[] shape, long... v) {
    ByteBuffer b = ByteBuffer.allocate(8 * v.length).order(ByteOrder.LITTLE_ENDIAN);
    for (long x : v) {
      b.putLong(x);
    }
    return new Values(INT64, shape, b.array());
  }
}
