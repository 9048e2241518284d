package example;

import io.eagerflow.internal.Native;

/**
 * Prints the version of the eagerflow native library that the jar carries.
 *
 * <p>There is no public session API yet, so this calls the internal {@code Native} class; it will
 * switch to {@code EagerSession} and {@code Ops} once they exist.
 */
public final class PrintVersion {
  private PrintVersion() {}

  public static void main(String[] args) {
    System.out.println("eagerflow native library " + Native.version());
  }
}
