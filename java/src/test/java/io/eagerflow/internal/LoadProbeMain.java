package io.eagerflow.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Run in a child JVM by {@link NativeLibraryTest}: loads the library twice and prints one line per
 * attempt, {@code LOADED <version>} or {@code FAILED <class>: <message>}. Then, for each argument:
 * {@code file} prints {@code FILE <file name> <permissions>} of the loaded library, and {@code
 * hooks} prints {@code HOOKS linked} or {@code HOOKS absent}, whether the {@link TestHooks} natives
 * are in it.
 */
public final class LoadProbeMain {
  private LoadProbeMain() {}

  public static void main(String[] args) {
    System.out.println(attempt());
    System.out.println(attempt());
    for (String arg : args) {
      System.out.println(report(arg));
    }
  }

  private static String attempt() {
    try {
      NativeLibrary.load();
      return "LOADED " + Native.version();
    } catch (Throwable t) {
      return failed(t);
    }
  }

  private static String report(String what) {
    try {
      switch (what) {
        case "file":
          Path file = NativeLibrary.loadedFrom();
          return "FILE "
              + file.getFileName()
              + " "
              + PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
        case "hooks":
          try {
            TestHooks.failForTest(0);
            return "HOOKS linked, but failForTest did not throw";
          } catch (IllegalArgumentException e) {
            return "HOOKS linked";
          } catch (UnsatisfiedLinkError e) {
            return "HOOKS absent";
          }
        default:
          return "UNKNOWN " + what;
      }
    } catch (Throwable t) {
      return failed(t);
    }
  }

  private static String failed(Throwable t) {
    String message = String.valueOf(t.getMessage()).replace('\n', ' ');
    return "FAILED " + t.getClass().getName() + ": " + message;
  }
}
