package io.eagerflow.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The temporary copies of the jar's native library, one per JVM, named {@code
 * eagerflow-<pid>-<random>-<library file>}.
 *
 * <p>Each copy is deleted when its JVM exits where the operating system allows it. Windows does
 * not: a loaded DLL cannot be deleted, and a JVM never unloads it, so {@code deleteOnExit} fails
 * there; a JVM killed without running its shutdown hooks leaves its copy on every system. The pid
 * in the name lets the next JVM that extracts one delete the copies of processes that are gone.
 */
final class ExtractedCopies {
  private static final String PREFIX = "eagerflow-";
  private static final Pattern NAME = Pattern.compile("eagerflow-(\\d+)-\\d+-.+");

  private ExtractedCopies() {}

  /** Copies {@code in} to a new temporary file named after {@code libraryFile}; returns it. */
  static Path extract(InputStream in, String libraryFile) throws IOException {
    long pid = ProcessHandle.current().pid();
    // On POSIX file systems createTempFile makes the file readable and writable by its owner
    // only; writing into it (not Files.copy, which replaces it) keeps it that way.
    Path file = Files.createTempFile(PREFIX + pid + "-", "-" + libraryFile);
    file.toFile().deleteOnExit();
    try (OutputStream out = Files.newOutputStream(file)) {
      in.transferTo(out);
    }
    deleteStale(file.getParent(), pid);
    return file;
  }

  /**
   * Deletes, in {@code dir}, the copies of every process other than {@code self} that has exited. A
   * copy that cannot be deleted (its process's pid reused by another process, a DLL still loaded, a
   * file of another user) is left for a later start.
   */
  static int deleteStale(Path dir, long self) {
    int deleted = 0;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, PREFIX + "*")) {
      for (Path file : files) {
        Matcher m = NAME.matcher(file.getFileName().toString());
        if (!m.matches()) {
          continue;
        }
        long pid;
        try {
          pid = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
          continue;
        }
        if (pid == self || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
          continue;
        }
        try {
          if (Files.deleteIfExists(file)) {
            deleted++;
          }
        } catch (IOException | SecurityException e) {
          // Left for a later start.
        }
      }
    } catch (IOException | SecurityException e) {
      // A temporary directory that cannot be listed only means nothing is cleaned up.
    }
    return deleted;
  }
}
