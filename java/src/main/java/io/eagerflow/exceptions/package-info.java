/**
 * Exceptions with TensorFlow Java's names ({@code org.tensorflow.exceptions}), so ported catch
 * blocks compile. Each extends the JDK (or eagerflow) exception the library threw for the same case
 * before, and the library throws them for errors the native core reports.
 */
package io.eagerflow.exceptions;
