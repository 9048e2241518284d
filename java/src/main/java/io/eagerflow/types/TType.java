package io.eagerflow.types;

import io.eagerflow.DataType;
import io.eagerflow.Shape;

/**
 * A tensor: a shape, an element type and native data. Standalone tensors ({@code
 * TFloat32.scalarOf}, {@code tensorOf}, ...) own their memory and free it on {@link #close()};
 * tensors returned by {@code Operand.asTensor()} are read-only views that their session frees.
 */
public interface TType extends AutoCloseable {
  /** The dimensions. @throws IllegalStateException if closed or released */
  Shape shape();

  /** The element type. @throws IllegalStateException if closed or released */
  DataType dataType();

  /** Bytes of data ({@code shape().size() * dataType().byteSize()}). */
  long numBytes();

  /** Frees a standalone tensor now; harmless on views and when repeated. */
  @Override
  void close();
}
