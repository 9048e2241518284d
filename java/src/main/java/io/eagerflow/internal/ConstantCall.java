package io.eagerflow.internal;

import io.eagerflow.DataType;
import org.tensorflow.ndarray.Shape;

/**
 * A call that makes a tensor in a table: from a primitive array ({@code float[]}, {@code double[]},
 * {@code int[]}, {@code long[]}, {@code byte[]} for UINT8, {@code boolean[]}, or {@link
 * EncodedStrings} for STRING) holding {@code shape.size()} elements, or as a copy of another
 * tensor.
 */
public abstract class ConstantCall<R> extends NativeCall<R> {
  protected final DataType dataType;
  protected final Shape shape;
  private final long[] dims;
  private final Object data;
  private final NativeTensor source;
  private long sourceSessionId;

  /** A tensor holding a copy of {@code data}. */
  protected ConstantCall(DataType dataType, Shape shape, Object data) {
    this.dataType = dataType;
    this.shape = shape;
    this.dims = shape.asArray();
    this.data = data;
    this.source = null;
  }

  /** A tensor holding a snapshot of {@code source}'s values. */
  protected ConstantCall(NativeTensor source) {
    this.dataType = source.dataType();
    this.shape = source.shape();
    this.dims = null;
    this.data = null;
    this.source = source;
  }

  @Override
  protected void prepare(long sessionId) {
    if (source != null) {
      sourceSessionId = enterOther(source.session());
      source.checkUsable();
    }
  }

  @Override
  protected final long invoke(long sessionId) {
    if (source != null) {
      return Native.copyTensor(sessionId, sourceSessionId, source.handle());
    }
    return switch (dataType) {
      case FLOAT -> Native.fromFloats(sessionId, dims, (float[]) data);
      case DOUBLE -> Native.fromDoubles(sessionId, dims, (double[]) data);
      case INT32 -> Native.fromInts(sessionId, dims, (int[]) data);
      case INT64 -> Native.fromLongs(sessionId, dims, (long[]) data);
      case UINT8 -> Native.fromBytes(sessionId, dims, (byte[]) data);
      case BOOL -> Native.fromBooleans(sessionId, dims, (boolean[]) data);
      // Raw tensor bytes (Tensor.of with a ByteDataBuffer) come as the 16-bit patterns.
      case HALF, BFLOAT16 ->
          data instanceof short[] bits
              ? Native.fromBits16(sessionId, dataType.code(), dims, bits)
              : dataType == DataType.HALF
                  ? Native.fromHalfFloats(sessionId, dims, (float[]) data)
                  : Native.fromBfloat16s(sessionId, dims, (float[]) data);
      case UINT16 -> Native.fromShorts(sessionId, dims, (short[]) data);
      case STRING -> {
        EncodedStrings s = (EncodedStrings) data;
        yield Native.fromStrings(sessionId, dims, s.bytes(), s.lengths());
      }
    };
  }
}
