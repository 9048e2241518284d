package io.eagerflow.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The temporary copies of the jar's native library, one per JVM, named {@code
 * eagerflow-<pid>-<n>-<library file>}.
 *
 * <p>Each copy is deleted when its JVM exits where the operating system allows it. Windows does
 * not: a loaded DLL cannot be deleted, and a JVM never unloads it, so {@code deleteOnExit} fails
 * there; a JVM killed without running its shutdown hooks leaves its copy on every system. The pid
 * in the name lets the next JVM that extracts one delete the copies of processes that are gone.
 */
final class ExtractedCopies {
  private static final String PREFIX = "eagerflow-";
  private static final Pattern NAME = Pattern.compile("eagerflow-(\\d+)-\\d+-.+");
  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rw-------");

  private ExtractedCopies() {}

  /** Copies {@code in} to a new temporary file named after {@code libraryFile}; returns it. */
  static Path extract(InputStream in, String libraryFile) throws IOException {
    long pid = ProcessHandle.current().pid();
    Path file = createNew(Path.of(System.getProperty("java.io.tmpdir")), pid, libraryFile);
    file.toFile().deleteOnExit();
    try (OutputStream out = Files.newOutputStream(file)) {
      in.transferTo(out);
    }
    deleteStale(file.getParent(), pid);
    return file;
  }

  /**
   * Creates an empty file {@code eagerflow-<pid>-<n>-<libraryFile>} in {@code dir}, readable and
   * writable by its owner only on POSIX file systems (writing into it, not {@code Files.copy},
   * which replaces it, keeps it that way). Not {@code Files.createTempFile}: its name comes from
   * {@code SecureRandom}, whose first use gathers system entropy, network adapters among it, which
   * is slow on some machines and aborts the JVM under wine. The file is created exclusively, so a
   * name another process took, or a link planted under it, is skipped, never followed.
   */
  private static Path createNew(Path dir, long pid, String libraryFile) throws IOException {
    boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
    long start = System.nanoTime() & Long.MAX_VALUE;
    for (int attempt = 0; ; attempt++) {
      Path file = dir.resolve(PREFIX + pid + "-" + (start + attempt) + "-" + libraryFile);
      try {
        return posix
            ? Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY))
            : Files.createFile(file);
      } catch (FileAlreadyExistsException e) {
        if (attempt == 99) {
          throw e;
        }
      }
    }
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
