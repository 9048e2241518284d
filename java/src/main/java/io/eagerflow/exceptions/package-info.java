/**
 * Exceptions with TensorFlow Java's names ({@code org.tensorflow.exceptions}), so ported catch
 * blocks compile. Each extends the JDK (or eagerflow) exception the library threw for the same case
 * before, and the library throws them for errors the native core reports.
 *
 * <p>{@link org.jspecify.annotations.NullMarked}; messages and causes may be null, as in the JDK.
 */
@NullMarked
package io.eagerflow.exceptions;

import org.jspecify.annotations.NullMarked;
