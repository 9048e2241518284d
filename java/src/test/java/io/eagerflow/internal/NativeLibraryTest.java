package io.eagerflow.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.eagerflow.NativeMemoryExhaustedException;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
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
  void extractedCopyIsPrivateToItsOwner() throws IOException {
    assumeTrue(System.getProperty(NativeLibrary.PATH_PROPERTY) == null, "loaded from the property");
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
    Path file = NativeLibrary.loadedFrom();
    assertTrue(file.getFileName().toString().startsWith("eagerflow-"), file.toString());
    assertEquals(
        EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
        Files.getPosixFilePermissions(file));
  }

  @Test
  void panicBecomesRuntimeExceptionAndTheJvmCarriesOn() {
    RuntimeException e = assertThrows(RuntimeException.class, () -> Native.panicForTest("boom"));
    assertEquals(RuntimeException.class, e.getClass(), String.valueOf(e));
    assertTrue(e.getMessage().contains("boom"), e.getMessage());
    assertEquals("0.1.0", Native.version());
    assertThrows(RuntimeException.class, () -> Native.panicForTest("boom again"));
    assertEquals("0.1.0", Native.version());
  }

  @ParameterizedTest
  @CsvSource({
    "0, java.lang.IllegalArgumentException",
    "1, java.lang.IllegalStateException",
    "2, java.lang.IndexOutOfBoundsException",
    "3, java.lang.UnsupportedOperationException",
    "4, io.eagerflow.NativeMemoryExhaustedException",
  })
  void eachErrorKindArrivesAsItsException(int kind, Class<? extends RuntimeException> expected) {
    RuntimeException e = assertThrows(RuntimeException.class, () -> Native.failForTest(kind));
    assertEquals(expected, e.getClass(), String.valueOf(e));
    assertTrue(e.getMessage() != null && !e.getMessage().isEmpty());
  }

  @Test
  void memoryExhaustedCarriesTheRustMessage() {
    NativeMemoryExhaustedException e =
        assertThrows(NativeMemoryExhaustedException.class, () -> Native.failForTest(4));
    assertTrue(e.getMessage().contains("native memory exhausted"), e.getMessage());
  }

  @Test
  void loadsInAFreshJvmFromTheJarAlone() throws Exception {
    String jar =
        Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(p -> p.matches(".*eagerflow[^" + File.separator + "]*\\.jar"))
            .findFirst()
            .orElse(null);
    assumeTrue(jar != null, "the tests do not run against the eagerflow jar");
    String probe =
        Path.of(LoadProbeMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .toString();
    List<String> lines = runProbe(jar + File.pathSeparator + probe);
    assertEquals(List.of("LOADED 0.1.0", "LOADED 0.1.0"), lines);
  }

  @Test
  void missingOverrideFileIsReportedWithPathAndPropertyOnEveryCall() throws Exception {
    List<String> lines =
        runProbe(
            System.getProperty("java.class.path"),
            "-D" + NativeLibrary.PATH_PROPERTY + "=/nonexistent");
    assertLoadFailedTwiceAlike(lines);
    assertTrue(lines.get(0).contains("/nonexistent"), lines.get(0));
    assertTrue(lines.get(0).contains(NativeLibrary.PATH_PROPERTY), lines.get(0));
  }

  @Test
  void unsupportedPlatformIsReportedWithPlatformPathAndProperty() throws Exception {
    List<String> lines =
        runProbe(System.getProperty("java.class.path"), "-Dos.name=Plan 9", "-Dos.arch=mips64");
    assertLoadFailedTwiceAlike(lines);
    assertTrue(lines.get(0).contains("platform plan9-mips64"), lines.get(0));
    assertTrue(lines.get(0).contains("/io/eagerflow/native/plan9-mips64/"), lines.get(0));
    assertTrue(lines.get(0).contains(NativeLibrary.PATH_PROPERTY), lines.get(0));
  }

  private static void assertLoadFailedTwiceAlike(List<String> lines) {
    assertEquals(2, lines.size(), String.valueOf(lines));
    assertTrue(lines.get(0).startsWith("FAILED java.lang.UnsatisfiedLinkError: "), lines.get(0));
    assertEquals(lines.get(0), lines.get(1));
  }

  /** Runs {@link LoadProbeMain} in a child JVM of the same Java; returns its output lines. */
  private static List<String> runProbe(String classPath, String... jvmArgs) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx64m");
    // On the class path the manifest's Enable-Native-Access does not apply (JDK 22+ would warn).
    command.add("--enable-native-access=ALL-UNNAMED");
    command.addAll(List.of(jvmArgs));
    command.add("-cp");
    command.add(classPath);
    command.add(LoadProbeMain.class.getName());
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    child.getOutputStream().close();
    byte[] out = child.getInputStream().readAllBytes();
    assertTrue(child.waitFor(60, TimeUnit.SECONDS), "child JVM did not exit");
    String output = new String(out, StandardCharsets.UTF_8);
    assertEquals(0, child.exitValue(), output);
    return output.lines().collect(Collectors.toList());
  }
}
