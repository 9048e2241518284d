/**
 * The {@link io.eagerflow.op.Ops} facade and its groups, as TensorFlow Java has them.
 *
 * <p>{@link org.jspecify.annotations.NullMarked}: no method here accepts or returns null; a null
 * argument is a {@link NullPointerException} naming it.
 */
@NullMarked
package io.eagerflow.op;

import org.jspecify.annotations.NullMarked;
