package io.eagerflow;

import io.eagerflow.internal.NativeTensor;
import io.eagerflow.internal.Shapes;
import io.eagerflow.internal.TensorTypes;
import io.eagerflow.types.TType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.function.Consumer;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.Shaped;
import org.tensorflow.ndarray.buffer.ByteDataBuffer;

/**
 * A tensor: a shape, an element type and data. Every tensor is a typed {@link TType} ({@code
 * TFloat32}, {@code TInt32}, ...); the factories here make one from its class, as TensorFlow Java's
 * {@code Tensor.of} does.
 */
public interface Tensor extends Shaped, AutoCloseable {
  /**
   * A standalone tensor of {@code type} and {@code shape}, filled with zeros.
   *
   * @throws IllegalArgumentException if {@code type} is not a tensor class or a dimension of {@code
   *     shape} is unknown or negative
   */
  static <T extends TType> T of(Class<T> type, Shape shape) {
    return of(type, shape, -1);
  }

  /**
   * A standalone tensor of {@code type} and {@code shape}, filled with zeros; {@code size} is the
   * number of bytes to allocate, or -1 for what the shape needs.
   *
   * @throws IllegalArgumentException if {@code size} is too small for {@code shape}
   */
  static <T extends TType> T of(Class<T> type, Shape shape, long size) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(shape, "shape");
    DataType dataType = TensorTypes.dataTypeOf(type);
    if (size >= 0 && shape.size() >= 0 && size < shape.size() * dataType.byteSize()) {
      throw new IllegalArgumentException(
          "Tensor size is not large enough to contain all scalar values: "
              + size
              + " bytes for shape "
              + shape
              + " of "
              + dataType.name());
    }
    return TensorTypes.wrap(NativeTensor.allocate(shape, dataType));
  }

  /**
   * A standalone tensor of {@code type} and {@code shape}, filled with zeros and then passed to
   * {@code dataInitializer}. If it throws, the tensor is closed.
   */
  static <T extends TType> T of(Class<T> type, Shape shape, Consumer<T> dataInitializer) {
    return of(type, shape, -1, dataInitializer);
  }

  /**
   * As {@link #of(Class, Shape, Consumer)}, with the size in bytes of {@link #of(Class, Shape,
   * long)}.
   */
  static <T extends TType> T of(
      Class<T> type, Shape shape, long size, Consumer<T> dataInitializer) {
    Objects.requireNonNull(dataInitializer, "dataInitializer");
    T tensor = of(type, shape, size);
    try {
      dataInitializer.accept(tensor);
      return tensor;
    } catch (RuntimeException | Error e) {
      tensor.close();
      throw e;
    }
  }

  /**
   * A standalone tensor of {@code type} and {@code shape} holding {@code rawData}: the values'
   * bytes in the platform's byte order (one byte per {@code TBool} or {@code TUint8} value), as
   * TensorFlow Java lays tensors out.
   *
   * @throws IllegalArgumentException if {@code rawData} has fewer bytes than {@code shape} needs
   */
  static <T extends TType> T of(Class<T> type, Shape shape, ByteDataBuffer rawData) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(rawData, "rawData");
    DataType dataType = TensorTypes.dataTypeOf(type);
    if (dataType == DataType.STRING) {
      throw new IllegalArgumentException(
          "a TString is not made of raw tensor bytes: use TString.tensorOf or tensorOfBytes");
    }
    long count = Shapes.size(shape, "shape");
    // Compared before multiplying: count * byteSize may overflow a long.
    if (count > (Integer.MAX_VALUE - 8) / dataType.byteSize()) {
      throw new IllegalArgumentException("shape " + shape + " is too large for a Java array");
    }
    long bytes = count * dataType.byteSize();
    if (rawData.size() < bytes) {
      throw new IllegalArgumentException(
          "Tensor size is not large enough to contain all scalar values: "
              + rawData.size()
              + " bytes for shape "
              + shape
              + " of "
              + dataType.name());
    }
    byte[] raw = new byte[(int) bytes];
    rawData.read(raw);
    ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.nativeOrder());
    int n = (int) count;
    Object data =
        switch (dataType) {
          case FLOAT -> {
            float[] a = new float[n];
            b.asFloatBuffer().get(a);
            yield a;
          }
          case DOUBLE -> {
            double[] a = new double[n];
            b.asDoubleBuffer().get(a);
            yield a;
          }
          case INT32 -> {
            int[] a = new int[n];
            b.asIntBuffer().get(a);
            yield a;
          }
          case INT64 -> {
            long[] a = new long[n];
            b.asLongBuffer().get(a);
            yield a;
          }
          case UINT8 -> raw;
          case BOOL -> {
            boolean[] a = new boolean[n];
            for (int i = 0; i < n; i++) {
              a[i] = raw[i] != 0;
            }
            yield a;
          }
          case HALF, BFLOAT16, UINT16 -> {
            short[] a = new short[n]; // the 16-bit patterns, NaN payloads and all
            b.asShortBuffer().get(a);
            yield a;
          }
          case STRING -> throw new IllegalStateException("refused above");
        };
    return TensorTypes.wrap(NativeTensor.fromArray(shape, dataType, data));
  }

  /** The element type. @throws IllegalStateException if closed or released */
  DataType dataType();

  /**
   * Bytes of data ({@code shape().size() * dataType().byteSize()}; for a {@code TString}, the bytes
   * of its strings).
   */
  long numBytes();

  /** The dimensions. @throws IllegalStateException if closed or released */
  @Override
  Shape shape();

  /** Frees a standalone tensor now; harmless on views and when repeated. */
  @Override
  void close();
}
