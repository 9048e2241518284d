package io.eagerflow;

import io.eagerflow.internal.NativeLibrary;

/**
 * Static information about the library, as TensorFlow Java's {@code org.tensorflow.TensorFlow}
 * gives about TensorFlow.
 */
public final class TensorFlow {
  private TensorFlow() {}

  /**
   * The version of eagerflow's native library, such as {@code "0.1.0"}: eagerflow's own version,
   * not a TensorFlow version. TensorFlow Java returns the version of the TensorFlow runtime it
   * loaded ({@code "2.18.0"} for TensorFlow Java 1.1); code that logs the runtime it runs on reads
   * the runtime that actually computes here, and code that compares the string with TensorFlow
   * versions to pick features must not treat eagerflow as TensorFlow {@code 0.x}: eagerflow's
   * feature set is the one its documentation lists. Loads the native library if it is not loaded.
   *
   * @return the version, in semantic versioning's form
   * @throws UnsatisfiedLinkError if the native library cannot be loaded
   */
  public static String version() {
    return NativeLibrary.version();
  }
}
