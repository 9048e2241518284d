package io.eagerflow;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

/**
 * Starts a child JVM of the Java the tests run on, with the tests' class path and the tests'
 * library override, and collects its output. A child that outlives its timeout is killed and
 * reported as such, with what it printed.
 */
public final class ChildJvm {
  /** What a child printed (stdout and stderr together) and how it ended. */
  public record Result(int exitCode, boolean timedOut, String output) {
    public List<String> lines() {
      return output.lines().toList();
    }

    /** A description for assertion messages. */
    public String describe() {
      return (timedOut ? "child JVM timed out and was killed" : "child JVM exited " + exitCode)
          + "; its output:\n"
          + output;
    }
  }

  private ChildJvm() {}

  public static Path java() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  /** The tests' class path, plus where the tests and the library were loaded from. */
  public static String classPath() throws IOException {
    List<String> parts = new ArrayList<>();
    parts.add(System.getProperty("java.class.path"));
    for (Class<?> c : List.of(ChildJvm.class, EagerSession.class)) {
      parts.add(location(c).toString());
    }
    return String.join(File.pathSeparator, parts);
  }

  public static Path location(Class<?> c) throws IOException {
    try {
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IOException(e);
    }
  }

  /** The eagerflow jar on the tests' class path, or null when the tests run on class folders. */
  public static Path eagerflowJar() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(p -> p.matches(".*eagerflow[^" + File.separator + "]*\\.jar"))
        .map(Path::of)
        .findFirst()
        .orElse(null);
  }

  /** Runs {@code mainClass} from the tests' class path with the tests' library. */
  public static Result runMain(
      List<String> jvmArgs, Class<?> mainClass, List<String> args, Duration timeout)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(java().toString());
    command.add("--enable-native-access=ALL-UNNAMED");
    String lib = System.getProperty("eagerflow.library.path");
    if (lib != null) {
      command.add("-Deagerflow.library.path=" + lib);
    }
    command.addAll(jvmArgs);
    command.add("-cp");
    command.add(classPath());
    command.add(mainClass.getName());
    command.addAll(args);
    return run(command, timeout);
  }

  /** Runs {@code command}; kills it after {@code timeout}. */
  public static Result run(List<String> command, Duration timeout)
      throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getOutputStream().close();
    // Its own reader thread: a child blocked on a full pipe would look like a hang.
    FutureTask<String> out =
        new FutureTask<>(
            () -> new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    Thread reader = new Thread(out, "child-jvm-output");
    reader.setDaemon(true);
    reader.start();
    boolean finished = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (!finished) {
      p.destroyForcibly().waitFor();
    }
    String output;
    try {
      output = out.get();
    } catch (ExecutionException e) {
      output = "(output lost: " + e.getCause() + ")";
    }
    return new Result(finished ? p.exitValue() : -1, !finished, output);
  }
}
