package io.eagerflow.exceptions;

import org.jspecify.annotations.Nullable;

/**
 * A native allocation would exceed the session's hard limit, or the allocator refused it
 * (TensorFlow's {@code RESOURCE_EXHAUSTED}); see {@link
 * io.eagerflow.NativeMemoryExhaustedException}.
 *
 * <p>TensorFlow Java's name for this error; it extends {@code
 * io.eagerflow.NativeMemoryExhaustedException}, which eagerflow threw for it before, so catch
 * blocks written for either keep working.
 */
public final class TFResourceExhaustedException
    extends io.eagerflow.NativeMemoryExhaustedException {
  private static final long serialVersionUID = 1L;

  /** An exception with {@code message}. */
  public TFResourceExhaustedException(@Nullable String message) {
    super(message);
  }

  /** An exception with {@code message} and {@code cause}. */
  public TFResourceExhaustedException(@Nullable String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
