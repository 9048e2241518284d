package io.eagerflow.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.eagerflow.NativeMemoryExhaustedException;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NativeLibraryTest {
  @Test
  void loadsAndReportsTheCrateVersion() {
    NativeLibrary.load();
    NativeLibrary.load();
    assertEquals("0.1.0", Native.version());
  }

  @Test
  void extractedCopyIsPrivateToItsOwner() throws Exception {
    // This JVM loads the test build of the library through the property; a child JVM extracts
    // the jar's copy.
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
    List<String> lines = runProbe(jarAndProbeClassPath(), List.of(), "file");
    assertEquals(3, lines.size(), String.valueOf(lines));
    assertEquals(List.of("LOADED 0.1.0", "LOADED 0.1.0"), lines.subList(0, 2));
    assertTrue(lines.get(2).matches("FILE eagerflow-\\S+ rw-------"), lines.get(2));
  }

  @Test
  void panicBecomesRuntimeExceptionAndTheJvmCarriesOn() {
    RuntimeException e = assertThrows(RuntimeException.class, () -> TestHooks.panicForTest("boom"));
    assertEquals(RuntimeException.class, e.getClass(), String.valueOf(e));
    assertTrue(e.getMessage().contains("boom"), e.getMessage());
    assertEquals("0.1.0", Native.version());
    assertThrows(RuntimeException.class, () -> TestHooks.panicForTest("boom again"));
    assertEquals("0.1.0", Native.version());
  }

  @ParameterizedTest
  @CsvSource({
    "0, io.eagerflow.exceptions.TFInvalidArgumentException, java.lang.IllegalArgumentException",
    "1, io.eagerflow.exceptions.TFFailedPreconditionException, java.lang.IllegalStateException",
    "2, io.eagerflow.exceptions.TFOutOfRangeException, java.lang.IndexOutOfBoundsException",
    "3, java.lang.UnsupportedOperationException, java.lang.UnsupportedOperationException",
    "4, io.eagerflow.exceptions.TFResourceExhaustedException,"
        + " io.eagerflow.NativeMemoryExhaustedException",
  })
  void eachErrorKindArrivesAsItsException(
      int kind, Class<? extends RuntimeException> expected, Class<?> catchable) {
    RuntimeException e = assertThrows(RuntimeException.class, () -> TestHooks.failForTest(kind));
    assertEquals(expected, e.getClass(), String.valueOf(e));
    // Catch blocks written for the exception thrown before the TensorFlow names still work.
    assertTrue(catchable.isInstance(e), String.valueOf(e));
    assertTrue(e.getMessage() != null && !e.getMessage().isEmpty());
  }

  @Test
  void memoryExhaustedCarriesTheRustMessage() {
    NativeMemoryExhaustedException e =
        assertThrows(NativeMemoryExhaustedException.class, () -> TestHooks.failForTest(4));
    assertTrue(e.getMessage().contains("native memory exhausted"), e.getMessage());
  }

  @Test
  void loadsInAFreshJvmFromTheJarAloneWithoutTestHooks() throws Exception {
    List<String> lines = runProbe(jarAndProbeClassPath(), List.of(), "hooks");
    assertEquals(List.of("LOADED 0.1.0", "LOADED 0.1.0", "HOOKS absent"), lines);
  }

  @Test
  void missingOverrideFileIsReportedWithPathAndPropertyOnEveryCall() throws Exception {
    List<String> lines =
        runProbe(
            System.getProperty("java.class.path"),
            List.of("-D" + NativeLibrary.PATH_PROPERTY + "=/nonexistent"));
    assertLoadFailedTwiceAlike(lines);
    assertTrue(lines.get(0).contains("/nonexistent"), lines.get(0));
    assertTrue(lines.get(0).contains(NativeLibrary.PATH_PROPERTY), lines.get(0));
  }

  @Test
  void unsupportedPlatformIsReportedWithPlatformPathAndProperty() throws Exception {
    List<String> lines =
        runProbe(
            System.getProperty("java.class.path"), List.of("-Dos.name=Plan 9", "-Dos.arch=mips64"));
    assertLoadFailedTwiceAlike(lines);
    assertTrue(lines.get(0).contains("platform plan9-mips64"), lines.get(0));
    assertTrue(lines.get(0).contains("/io/eagerflow/native/plan9-mips64/"), lines.get(0));
    assertTrue(lines.get(0).contains(NativeLibrary.PATH_PROPERTY), lines.get(0));
    // The jar's own platform is among those it names.
    assertTrue(
        lines.get(0).contains("this eagerflow jar has libraries for ")
            && lines.get(0).contains(NativeLibrary.platform()),
        lines.get(0));
  }

  @Test
  void theJarListsTheLibrariesItHolds() {
    List<String> packed = NativeLibrary.packedPlatforms();
    assertTrue(packed.contains(NativeLibrary.platform()), String.valueOf(packed));
    for (String platform : packed) {
      String resource =
          "/io/eagerflow/native/" + platform + "/" + NativeLibrary.libraryFile(platform);
      assertTrue(NativeLibrary.class.getResource(resource) != null, resource);
    }
  }

  @Test
  void eachOperatingSystemHasItsLibraryFileName() {
    assertEquals("libeagerflow.so", NativeLibrary.libraryFile("linux-aarch64"));
    assertEquals("eagerflow.dll", NativeLibrary.libraryFile("windows-x86_64"));
    assertEquals("libeagerflow.dylib", NativeLibrary.libraryFile("macos-aarch64"));
  }

  @Test
  void copiesOfExitedProcessesAreDeletedAndOthersKept(@TempDir Path dir) throws Exception {
    Process exited =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version")
            .redirectErrorStream(true)
            .start();
    exited.getInputStream().readAllBytes();
    assertTrue(exited.waitFor(60, TimeUnit.SECONDS), "java -version did not exit");
    long self = ProcessHandle.current().pid();
    Path stale = Files.createFile(dir.resolve("eagerflow-" + exited.pid() + "-42-eagerflow.dll"));
    Path own = Files.createFile(dir.resolve("eagerflow-" + self + "-43-libeagerflow.so"));
    Path other = Files.createFile(dir.resolve("eagerflow-test-44.jfr"));
    assertEquals(1, ExtractedCopies.deleteStale(dir, self));
    assertFalse(Files.exists(stale));
    assertTrue(Files.exists(own));
    assertTrue(Files.exists(other));
  }

  private static void assertLoadFailedTwiceAlike(List<String> lines) {
    assertEquals(2, lines.size(), String.valueOf(lines));
    assertTrue(lines.get(0).startsWith("FAILED java.lang.UnsatisfiedLinkError: "), lines.get(0));
    assertEquals(lines.get(0), lines.get(1));
  }

  /**
   * The eagerflow jar this JVM runs against, with the test classes that hold {@link LoadProbeMain}
   * and {@link TestHooks}: the class path of a user's JVM, without the property.
   */
  private static String jarAndProbeClassPath() throws Exception {
    String jar =
        Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(p -> Path.of(p).getFileName().toString().matches("eagerflow[^/]*\\.jar"))
            .findFirst()
            .orElse(null);
    assumeTrue(jar != null, "the tests do not run against the eagerflow jar");
    String probe =
        Path.of(LoadProbeMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .toString();
    return jar + File.pathSeparator + probe;
  }

  /**
   * Runs {@link LoadProbeMain} with the {@code reports} it should add in a child JVM of the same
   * Java; returns its output lines.
   */
  private static List<String> runProbe(String classPath, List<String> jvmArgs, String... reports)
      throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx64m");
    // On the class path the manifest's Enable-Native-Access does not apply (JDK 22+ would warn).
    command.add("--enable-native-access=ALL-UNNAMED");
    command.addAll(jvmArgs);
    command.add("-cp");
    command.add(classPath);
    command.add(LoadProbeMain.class.getName());
    command.addAll(List.of(reports));
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    child.getOutputStream().close();
    byte[] out = child.getInputStream().readAllBytes();
    assertTrue(child.waitFor(60, TimeUnit.SECONDS), "child JVM did not exit");
    String output = new String(out, StandardCharsets.UTF_8);
    assertEquals(0, child.exitValue(), output);
    return output.lines().collect(Collectors.toList());
  }
}
