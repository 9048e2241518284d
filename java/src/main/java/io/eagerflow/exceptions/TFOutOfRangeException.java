package io.eagerflow.exceptions;

import org.jspecify.annotations.Nullable;

/**
 * An index or coordinate outside what a tensor or op has (TensorFlow's {@code OUT_OF_RANGE}).
 *
 * <p>TensorFlow Java's name for this error; it extends {@code IndexOutOfBoundsException}, which
 * eagerflow threw for it before, so catch blocks written for either keep working.
 */
public final class TFOutOfRangeException extends IndexOutOfBoundsException {
  private static final long serialVersionUID = 1L;

  /** An exception with {@code message}. */
  public TFOutOfRangeException(@Nullable String message) {
    super(message);
  }

  /** An exception with {@code message} and {@code cause}. */
  public TFOutOfRangeException(@Nullable String message, @Nullable Throwable cause) {
    super(message);
    initCause(cause);
  }
}
