package io.eagerflow.exceptions;

import org.jspecify.annotations.Nullable;

/**
 * An op was given an invalid argument: shapes or dtypes that do not fit, an unknown op, attribute
 * or argument name, or a bad attribute value (TensorFlow's {@code INVALID_ARGUMENT}).
 *
 * <p>TensorFlow Java's name for this error; it extends {@code IllegalArgumentException}, which
 * eagerflow threw for it before, so catch blocks written for either keep working.
 */
public final class TFInvalidArgumentException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** An exception with {@code message}. */
  public TFInvalidArgumentException(@Nullable String message) {
    super(message);
  }

  /** An exception with {@code message} and {@code cause}. */
  public TFInvalidArgumentException(@Nullable String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
