/**
 * The typed tensors ({@code TFloat32}, {@code TInt32}, ...): NdArrays over native memory.
 *
 * <p>{@link org.jspecify.annotations.NullMarked}: no method declared here accepts or returns null.
 * Methods inherited from the {@code org.tensorflow.ndarray} interfaces carry no nullness
 * annotations of their own, so Kotlin still sees those as platform types.
 */
@NullMarked
package io.eagerflow.types;

import org.jspecify.annotations.NullMarked;
