package io.eagerflow.internal;

/**
 * Test-only natives. They are exported only by the library built with the cargo feature {@code
 * testing} ({@code src/jni/testing.rs}), which {@code gradle test} builds into {@code
 * build/cargo-testing} and loads through the system property {@value
 * NativeLibrary#PATH_PROPERTY}. The library in the jar has none of them: against it, each method
 * here throws {@link UnsatisfiedLinkError}.
 *
 * <p>This class lives in the test sources, so the shipped {@link Native} does not declare them
 * either. New test hooks (fault injection and the like) go here and in {@code testing.rs}.
 */
public final class TestHooks {
  static {
    NativeLibrary.load();
  }

  private TestHooks() {}

  /** Panics in Rust with {@code message}. */
  public static native void panicForTest(String message);

  /** Returns each Rust error kind (0 to 4) as its Java exception. */
  public static native void failForTest(int kind);
}
