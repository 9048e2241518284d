/**
 * The eager API: sessions, operands, operations, scopes and the counters of native memory.
 *
 * <p>Every type in this package is {@link org.jspecify.annotations.NullMarked}: parameters and
 * results are non-null unless marked {@link org.jspecify.annotations.Nullable}; a null where none
 * is allowed is a {@link NullPointerException} naming the argument.
 */
@NullMarked
package io.eagerflow;

import org.jspecify.annotations.NullMarked;
