package io.eagerflow.exceptions;

import org.jspecify.annotations.Nullable;

/**
 * The call needs a state the system is not in: a released operand, a freed tensor or a closed
 * session, as the native core found it (TensorFlow's {@code FAILED_PRECONDITION}).
 *
 * <p>TensorFlow Java's name for this error; it extends {@code IllegalStateException}, which
 * eagerflow threw for it before, so catch blocks written for either keep working.
 */
public final class TFFailedPreconditionException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /** An exception with {@code message}. */
  public TFFailedPreconditionException(@Nullable String message) {
    super(message);
  }

  /** An exception with {@code message} and {@code cause}. */
  public TFFailedPreconditionException(@Nullable String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
