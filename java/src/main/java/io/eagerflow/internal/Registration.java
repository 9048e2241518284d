package io.eagerflow.internal;

/**
 * How the library's global registries ({@link SessionAccess}, {@link TensorTypes}) stay its own:
 * each accepts one registration, made by a static initializer of the public package that owns the
 * registered code, and every registration call first runs that initializer. So the library always
 * registers first, and any later call, from the library or from a caller on the class path (where
 * this package is open), throws {@link IllegalStateException}.
 *
 * <p>The initializers only register: they never wait for another class's initialization, so two
 * threads making their first calls at once cannot deadlock in class initialization.
 */
final class Registration {
  private Registration() {}

  /**
   * Runs the static initializer of {@code className} if it has not run. Returns at once when the
   * calling thread is running it (the registration call from inside it).
   */
  static void initialize(String className) {
    try {
      Class.forName(className, true, Registration.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("eagerflow is incomplete: " + className + " is missing", e);
    }
  }
}
