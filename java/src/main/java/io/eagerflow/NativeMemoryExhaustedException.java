package io.eagerflow;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a native allocation would exceed a session's hard limit ({@code
 * EagerSession.Options.maxNativeBytes}) or the allocator refuses it. The session stays usable:
 * nothing is left half-allocated, and freeing tensors makes room again.
 *
 * <p>The library throws its subclass {@link io.eagerflow.exceptions.TFResourceExhaustedException},
 * TensorFlow Java's name for it.
 */
public class NativeMemoryExhaustedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public NativeMemoryExhaustedException(@Nullable String message) {
    super(message);
  }

  /** An exception with {@code message} and {@code cause}. */
  public NativeMemoryExhaustedException(@Nullable String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
