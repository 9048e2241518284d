package io.eagerflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.ndarray.Shape;

/**
 * On the module path the jar is the module {@code io.eagerflow}: a module that requires it reads
 * the API packages and nothing of {@code io.eagerflow.internal}, neither at compile time nor by
 * reflection.
 */
class ModuleEncapsulationTest {
  private static final String PROBE_MODULE = "module probe { requires io.eagerflow; }\n";

  /** Uses the API, then tries the internal classes by reflection; one line per finding. */
  private static final String PROBE_MAIN =
      """
      package probe;

      import io.eagerflow.EagerSession;
      import io.eagerflow.Operand;
      import io.eagerflow.op.Ops;
      import io.eagerflow.types.TFloat32;
      import java.lang.reflect.InaccessibleObjectException;
      import java.lang.reflect.Method;
      import java.util.TreeSet;
      import org.tensorflow.ndarray.Shape;

      public final class Main {
        public static void main(String[] args) throws Exception {
          try (EagerSession s = EagerSession.create()) {
            Ops tf = Ops.create(s);
            Operand<TFloat32> y = tf.math.add(tf.constant(1f), tf.constant(2f));
            System.out.println("API " + y.asTensor().getFloat());
          }
          try (TFloat32 t = TFloat32.vectorOf(4f, 5f)) {
            System.out.println("TENSOR " + t.getFloat(1));
            Shape shape = t.shape(); // readable through io.eagerflow's requires transitive
            System.out.println("SHAPE " + shape);
          }
          Module m = EagerSession.class.getModule();
          TreeSet<String> exported = new TreeSet<>();
          for (String p : m.getPackages()) {
            if (m.isExported(p)) {
              exported.add(p);
            }
          }
          System.out.println("MODULE " + m.getName() + " exports " + exported);
          probe("io.eagerflow.internal.Native", "version");
          probe("io.eagerflow.internal.SessionAccess", "get");
          probe("io.eagerflow.internal.TensorTypes", "registerUnwrapper",
              java.util.function.Function.class);
        }

        private static void probe(String className, String method, Class<?>... params)
            throws Exception {
          Method target = Class.forName(className).getMethod(method, params);
          Object[] args = new Object[params.length];
          try {
            target.invoke(null, args);
            System.out.println("CALLED " + className);
          } catch (IllegalAccessException e) {
            System.out.println("DENIED " + className);
          } catch (java.lang.reflect.InvocationTargetException e) {
            System.out.println("CALLED " + className + " (" + e.getCause() + ")");
          }
          try {
            target.setAccessible(true);
            System.out.println("OPENED " + className);
          } catch (InaccessibleObjectException e) {
            System.out.println("SEALED " + className);
          }
        }
      }
      """;

  /** Refers to an internal class at compile time. */
  private static final String PROBE_INTERNAL =
      """
      package probe;

      public final class Internal {
        public static String version() {
          return io.eagerflow.internal.Native.version();
        }
      }
      """;

  @TempDir Path dir;

  @Test
  void onTheModulePathOnlyTheApiIsReadable() throws Exception {
    Path jar = ChildJvm.eagerflowJar();
    assumeTrue(jar != null, "the tests do not run against the eagerflow jar");
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertNotNull(javac, "the tests run on a JDK");

    Path src = dir.resolve("src");
    Path classes = dir.resolve("classes");
    write(src, Map.of("module-info.java", PROBE_MODULE, "probe/Main.java", PROBE_MAIN));
    Compilation ok = compile(javac, jar, src, classes);
    assertEquals(0, ok.exitCode, ok.output);

    // The same module with a reference to io.eagerflow.internal does not compile.
    Path badSrc = dir.resolve("bad");
    write(
        badSrc,
        Map.of(
            "module-info.java", PROBE_MODULE,
            "probe/Main.java", PROBE_MAIN,
            "probe/Internal.java", PROBE_INTERNAL));
    Compilation bad = compile(javac, jar, badSrc, dir.resolve("bad-classes"));
    assertTrue(bad.exitCode != 0, "a reference to io.eagerflow.internal compiled:\n" + bad.output);
    assertTrue(
        bad.output.contains("io.eagerflow.internal") && bad.output.contains("not visible"),
        bad.output);

    List<String> command = new ArrayList<>();
    command.add(ChildJvm.java().toString());
    command.add("--enable-native-access=io.eagerflow");
    command.add("--module-path");
    command.add(modulePath(jar) + File.pathSeparator + classes);
    command.add("-m");
    command.add("probe/probe.Main");
    ChildJvm.Result r = ChildJvm.run(command, Duration.ofSeconds(60));
    assertEquals(0, r.exitCode(), r.describe());
    assertEquals(
        List.of(
            "API 3.0",
            "TENSOR 5.0",
            "SHAPE [2]",
            "MODULE io.eagerflow exports [io.eagerflow, io.eagerflow.exceptions, io.eagerflow.op,"
                + " io.eagerflow.types]",
            "DENIED io.eagerflow.internal.Native",
            "SEALED io.eagerflow.internal.Native",
            "DENIED io.eagerflow.internal.SessionAccess",
            "SEALED io.eagerflow.internal.SessionAccess",
            "DENIED io.eagerflow.internal.TensorTypes",
            "SEALED io.eagerflow.internal.TensorTypes"),
        r.lines(),
        r.describe());
    assertFalse(r.output().contains("WARNING"), r.describe());
  }

  /** The eagerflow jar and the ndarray jar it requires, as a module path. */
  private static String modulePath(Path jar) throws Exception {
    Path ndarray = Path.of(Shape.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    return jar + File.pathSeparator + ndarray;
  }

  private record Compilation(int exitCode, String output) {}

  private static Compilation compile(JavaCompiler javac, Path jar, Path src, Path out)
      throws Exception {
    List<String> args = new ArrayList<>(List.of("--module-path", modulePath(jar), "-d"));
    args.add(out.toString());
    try (var files = Files.walk(src)) {
      files.filter(p -> p.toString().endsWith(".java")).forEach(p -> args.add(p.toString()));
    }
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    int code = javac.run(null, output, output, args.toArray(new String[0]));
    return new Compilation(code, output.toString(StandardCharsets.UTF_8));
  }

  private static void write(Path root, Map<String, String> files) throws Exception {
    for (Map.Entry<String, String> f : files.entrySet()) {
      Path p = root.resolve(f.getKey());
      Files.createDirectories(p.getParent());
      Files.writeString(p, f.getValue());
    }
  }
}
