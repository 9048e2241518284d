package io.eagerflow;

/**
 * Element types of tensors, with TensorFlow's numeric codes (FLOAT 1, DOUBLE 2, INT32 3, UINT8 4,
 * STRING 7, INT64 9, BOOL 10, BFLOAT16 14, UINT16 17, HALF 19), which the native core shares.
 */
public enum DataType {
  /** 32-bit IEEE float. */
  FLOAT(1, 4),
  /** 64-bit IEEE float. */
  DOUBLE(2, 8),
  /** 32-bit signed integer. */
  INT32(3, 4),
  /** 8-bit unsigned integer, read and written in Java as {@code byte}. */
  UINT8(4, 1),
  /** 64-bit signed integer. */
  INT64(9, 8),
  /** Boolean. */
  BOOL(10, 1),
  /**
   * Byte strings of any length ({@link io.eagerflow.types.TString}); {@link #byteSize()} is -1, as
   * in TensorFlow Java, since elements have no fixed size.
   */
  STRING(7, -1),
  /**
   * 16-bit IEEE half-precision float ({@link io.eagerflow.types.TFloat16}), read and written in
   * Java as {@code float}: a written value is rounded to the nearest half, ties to even.
   */
  HALF(19, 2),
  /**
   * 16-bit brain float: FLOAT's 8-bit exponent and 7 bits of mantissa ({@link
   * io.eagerflow.types.TBfloat16}), read and written in Java as {@code float}: as in TensorFlow
   * Java, a written value keeps its 16 high bits (truncation); ops round to nearest even.
   */
  BFLOAT16(14, 2),
  /**
   * 16-bit unsigned integer ({@link io.eagerflow.types.TUint16}), read and written in Java as
   * {@code short}: {@code (short) -1} is 65535.
   */
  UINT16(17, 2);

  /** TensorFlow Java's name ({@code org.tensorflow.proto.DataType}) for {@link #FLOAT}. */
  public static final DataType DT_FLOAT = FLOAT;

  /** TensorFlow Java's name for {@link #DOUBLE}. */
  public static final DataType DT_DOUBLE = DOUBLE;

  /** TensorFlow Java's name for {@link #INT32}. */
  public static final DataType DT_INT32 = INT32;

  /** TensorFlow Java's name for {@link #UINT8}. */
  public static final DataType DT_UINT8 = UINT8;

  /** TensorFlow Java's name for {@link #INT64}. */
  public static final DataType DT_INT64 = INT64;

  /** TensorFlow Java's name for {@link #BOOL}. */
  public static final DataType DT_BOOL = BOOL;

  /** TensorFlow Java's name for {@link #STRING}. */
  public static final DataType DT_STRING = STRING;

  /** TensorFlow Java's name for {@link #HALF}. */
  public static final DataType DT_HALF = HALF;

  /** TensorFlow Java's name for {@link #BFLOAT16}. */
  public static final DataType DT_BFLOAT16 = BFLOAT16;

  /** TensorFlow Java's name for {@link #UINT16}. */
  public static final DataType DT_UINT16 = UINT16;

  private final int code;
  private final int byteSize;

  DataType(int code, int byteSize) {
    this.code = code;
    this.byteSize = byteSize;
  }

  /** TensorFlow's numeric code of this type. */
  public int code() {
    return code;
  }

  /** Bytes per element, or -1 for {@link #STRING}, whose elements have no fixed size. */
  public int byteSize() {
    return byteSize;
  }

  /** The type with TensorFlow code {@code code}. @throws IllegalArgumentException if unknown */
  public static DataType fromCode(int code) {
    for (DataType d : values()) {
      if (d.code == code) {
        return d;
      }
    }
    throw new IllegalArgumentException("DataType " + code + " is not recognized");
  }

  @Override
  public String toString() {
    return name() + " (" + code + ")";
  }
}
