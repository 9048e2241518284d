package io.eagerflow.internal;

/**
 * Run in a child JVM by {@link NativeLibraryTest}: loads the library twice and prints one line per
 * attempt, {@code LOADED <version>} or {@code FAILED <class>: <message>}.
 */
public final class LoadProbeMain {
  private LoadProbeMain() {}

  public static void main(String[] args) {
    System.out.println(attempt());
    System.out.println(attempt());
  }

  private static String attempt() {
    try {
      NativeLibrary.load();
      return "LOADED " + Native.version();
    } catch (Throwable t) {
      return "FAILED " + t.getClass().getName() + ": " + String.valueOf(t.getMessage()).replace('\n', ' ');
    }
  }
}
