package io.eagerflow.internal;

/**
 * Test-only natives. They are exported only by the library built with the cargo feature {@code
 * testing} ({@code src/jni/testing.rs}), which {@code gradle test} builds into {@code
 * build/cargo-testing} and loads through the system property {@value NativeLibrary#PATH_PROPERTY}.
 * The library in the jar has none of them: against it, each method here throws {@link
 * UnsatisfiedLinkError}.
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

  /**
   * Arms a fault for the next run of op {@code opType} (its canonical type name, such as {@code
   * AddV2}) on the calling thread: kind 0 makes the allocator refuse the op's first output buffer
   * (after its bytes were reserved), kind 1 makes its kernel panic. Replaces a fault armed before;
   * other threads never meet it.
   */
  public static native void armFaultForTest(String opType, int kind);

  /** Disarms the calling thread's fault; returns whether it was still armed (its op never ran). */
  public static native boolean disarmFaultForTest();
}
