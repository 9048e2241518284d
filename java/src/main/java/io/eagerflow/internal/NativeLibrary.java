package io.eagerflow.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Loads the eagerflow native library, once per class loader.
 *
 * <p>If the system property {@value #PATH_PROPERTY} is set, the file it names is loaded and nothing
 * else is tried. Otherwise the jar's copy, the class path resource {@code
 * /io/eagerflow/native/<os>-<arch>/<file>} (for example {@code linux-x86_64/libeagerflow.so} or
 * {@code windows-x86_64/eagerflow.dll}), is extracted to a private temporary file and loaded from
 * there; {@link ExtractedCopies} says when the file is deleted. The resource {@code
 * /io/eagerflow/native/platforms} lists the libraries the jar holds, one {@code <platform>/<file>}
 * a line, for the error on a platform it has none for.
 *
 * <p>A failed load is remembered: every later call of {@link #load()} throws a new {@link
 * UnsatisfiedLinkError} with the same message, caused by the first failure. Code that wants that
 * report rather than a {@link NoClassDefFoundError} for {@link Native} calls {@link #load()} before
 * it first touches {@link Native}.
 */
public final class NativeLibrary {
  /** The system property that names a library file to load instead of the jar's copy. */
  public static final String PATH_PROPERTY = "eagerflow.library.path";

  private static final String RESOURCE_DIR = "/io/eagerflow/native/";
  private static final String PLATFORMS_RESOURCE = RESOURCE_DIR + "platforms";
  private static final Logger LOG = System.getLogger(NativeLibrary.class.getName());

  private static volatile Path loadedFrom;

  /** The first failure, rethrown (wrapped) by every later call; guarded by the class lock. */
  private static UnsatisfiedLinkError failure;

  private NativeLibrary() {}

  /**
   * Loads the library unless it is loaded already. Safe to call from any thread, any number of
   * times; only the first call does work.
   *
   * @throws UnsatisfiedLinkError if the library cannot be loaded. The message names the platform or
   *     the file, every path tried, and the system property {@value #PATH_PROPERTY}.
   */
  public static void load() {
    if (loadedFrom != null) {
      return;
    }
    synchronized (NativeLibrary.class) {
      if (loadedFrom != null) {
        return;
      }
      if (failure == null) {
        try {
          loadedFrom = loadOnce();
          return;
        } catch (UnsatisfiedLinkError e) {
          failure = e;
        }
      }
      throw error(failure.getMessage(), failure);
    }
  }

  /**
   * The native library's version (its crate's, {@code 0.1.0} for this release); loads it first.
   *
   * @throws UnsatisfiedLinkError as {@link #load()} does
   */
  public static String version() {
    load();
    return Native.version();
  }

  /**
   * The file the library was loaded from: the path named by {@value #PATH_PROPERTY} or the
   * extracted temporary file.
   *
   * @throws UnsatisfiedLinkError as {@link #load()} does
   */
  public static Path loadedFrom() {
    load();
    return loadedFrom;
  }

  /**
   * The name of this platform's directory in the jar, {@code <os>-<arch>}, from the system
   * properties {@code os.name} and {@code os.arch} ({@code amd64} is called {@code x86_64}).
   *
   * @return for example {@code linux-x86_64} or {@code macos-aarch64}
   */
  public static String platform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    if (os.startsWith("linux")) {
      os = "linux";
    } else if (os.startsWith("mac") || os.startsWith("darwin")) {
      os = "macos";
    } else if (os.startsWith("windows")) {
      os = "windows";
    }
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    switch (arch) {
      case "amd64":
      case "x86-64":
        arch = "x86_64";
        break;
      case "arm64":
        arch = "aarch64";
        break;
      default:
        break;
    }
    return clean(os) + "-" + clean(arch);
  }

  private static String clean(String name) {
    return name.replaceAll("[^a-z0-9_]", "");
  }

  /**
   * The library's file name in a platform's directory: what {@link System#mapLibraryName} gives on
   * that operating system, from the platform's name rather than this JVM's so that a platform named
   * by the system properties alone is looked up as it would be there.
   */
  static String libraryFile(String platform) {
    if (platform.startsWith("windows-")) {
      return "eagerflow.dll";
    }
    if (platform.startsWith("macos-")) {
      return "libeagerflow.dylib";
    }
    return "libeagerflow.so";
  }

  /** The platforms the jar (or class path) has a library for, from its index; empty if none. */
  static List<String> packedPlatforms() {
    List<String> platforms = new ArrayList<>();
    try (InputStream in = NativeLibrary.class.getResourceAsStream(PLATFORMS_RESOURCE)) {
      if (in == null) {
        return platforms;
      }
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        int slash = line.indexOf('/');
        if (slash > 0) {
          platforms.add(line.substring(0, slash).trim());
        }
      }
    } catch (IOException e) {
      // Only the error message loses the list.
    }
    return platforms;
  }

  private static Path loadOnce() {
    String override = System.getProperty(PATH_PROPERTY, "").trim();
    return override.isEmpty() ? loadFromClassPath() : loadOverride(override);
  }

  private static Path loadOverride(String value) {
    String source = "named by the system property " + PATH_PROPERTY;
    Path file;
    try {
      file = Path.of(value).toAbsolutePath();
    } catch (InvalidPathException e) {
      throw error("Invalid eagerflow native library path \"" + value + "\" " + source, e);
    }
    if (!Files.isRegularFile(file)) {
      throw error(
          "No eagerflow native library at "
              + file
              + " ("
              + source
              + "; leave it unset to use the library inside the eagerflow jar)",
          null);
    }
    systemLoad(file, source, "");
    return file;
  }

  private static Path loadFromClassPath() {
    String platform = platform();
    String libraryFile = libraryFile(platform);
    String resource = RESOURCE_DIR + platform + "/" + libraryFile;
    String hint =
        " Set the system property "
            + PATH_PROPERTY
            + " to the path of a "
            + libraryFile
            + " built for this platform.";
    URL url = NativeLibrary.class.getResource(resource);
    if (url == null) {
      List<String> packed = packedPlatforms();
      throw error(
          "No eagerflow native library for platform "
              + platform
              + " (os.name="
              + System.getProperty("os.name")
              + ", os.arch="
              + System.getProperty("os.arch")
              + "); tried class path resource "
              + resource
              + "; this eagerflow jar has libraries for "
              + (packed.isEmpty() ? "no platform" : String.join(", ", packed))
              + "."
              + hint
              + " The README says how to build one from source.",
          null);
    }
    Path file;
    try {
      file = extract(url, libraryFile);
    } catch (IOException e) {
      throw error(
          "Could not extract the eagerflow native library for platform "
              + platform
              + " from class path resource "
              + resource
              + " to a temporary file: "
              + e
              + "."
              + hint,
          e);
    }
    systemLoad(file, "extracted from class path resource " + resource, hint);
    return file;
  }

  private static Path extract(URL url, String libraryFile) throws IOException {
    Path file;
    try (InputStream in = url.openStream()) {
      file = ExtractedCopies.extract(in, libraryFile);
    }
    LOG.log(Level.DEBUG, () -> "Extracted " + url + " to " + file);
    return file;
  }

  private static void systemLoad(Path file, String source, String hint) {
    try {
      System.load(file.toString());
    } catch (UnsatisfiedLinkError e) {
      throw error(
          "Could not load the eagerflow native library "
              + file
              + " ("
              + source
              + "): "
              + e.getMessage()
              + "."
              + hint,
          e);
    }
    LOG.log(Level.DEBUG, () -> "Loaded the eagerflow native library from " + file);
  }

  private static UnsatisfiedLinkError error(String message, Throwable cause) {
    UnsatisfiedLinkError e = new UnsatisfiedLinkError(message);
    if (cause != null) {
      e.initCause(cause);
    }
    return e;
  }
}
