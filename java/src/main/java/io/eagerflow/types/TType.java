package io.eagerflow.types;

import io.eagerflow.Tensor;

/**
 * A typed tensor: a {@link Tensor} that is also an {@code NdArray} of its values ({@link TFloat32}
 * is a {@code FloatNdArray}, and so on). Standalone tensors ({@code TFloat32.scalarOf}, {@code
 * tensorOf}, ...) own their memory and free it on {@link #close()}; tensors returned by {@code
 * Operand.asTensor()} are read-only views that their session frees.
 */
public interface TType extends Tensor {
  /** The tensor class, such as {@code TFloat32.class}. */
  Class<? extends TType> type();
}
