package io.eagerflow;

import io.eagerflow.internal.NativeTensor;
import io.eagerflow.internal.TensorTypes;
import io.eagerflow.types.TType;
import java.util.Objects;
import java.util.function.Consumer;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.Shaped;

/**
 * A tensor: a shape, an element type and data. Every tensor is a typed {@link TType} ({@code
 * TFloat32}, {@code TInt32}, ...); the factories here make one from its class, as TensorFlow
 * Java's {@code Tensor.of} does.
 */
public interface Tensor extends Shaped, AutoCloseable {
  /**
   * A standalone tensor of {@code type} and {@code shape}, filled with zeros.
   *
   * @throws IllegalArgumentException if {@code type} is not a tensor class or a dimension of
   *     {@code shape} is unknown or negative
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

  /** The element type. @throws IllegalStateException if closed or released */
  DataType dataType();

  /** Bytes of data ({@code shape().size() * dataType().byteSize()}). */
  long numBytes();

  /** The dimensions. @throws IllegalStateException if closed or released */
  @Override
  Shape shape();

  /** Frees a standalone tensor now; harmless on views and when repeated. */
  @Override
  void close();
}
