package io.eagerflow.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eagerflow.ChildJvm;
import io.eagerflow.DataType;
import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.OperationBuilder;
import io.eagerflow.Output;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tensorflow.ndarray.Shape;

/**
 * The library's global registries take exactly one registration, the library's own: on the class
 * path, where {@code io.eagerflow.internal} is open, a caller can neither register first nor
 * replace what the library registered. Runs in a child JVM, so the first calls are really first,
 * and so a registry that can be replaced cannot spoil the other tests.
 */
class RegistriesTest {
  /** Tries each registration before and after the library's own; prints one line per try. */
  public static final class Probe {
    public static void main(String[] args) {
      List<String> out = new ArrayList<>();
      // Before any eagerflow class is initialized.
      out.add("first set: " + attempt(() -> SessionAccess.set(new FakeAccess())));
      out.add("first unwrapper: " + attempt(() -> TensorTypes.registerUnwrapper(t -> null)));
      out.add(
          "first register: "
              + attempt(() -> TensorTypes.register(DataType.FLOAT, TFloat32.class, t -> null)));
      out.add("works: " + works());
      // After the library registered everything.
      out.add("second set: " + attempt(() -> SessionAccess.set(new FakeAccess())));
      out.add("second unwrapper: " + attempt(() -> TensorTypes.registerUnwrapper(t -> null)));
      for (DataType d : DataType.values()) {
        out.add(
            "second register "
                + d
                + ": "
                + attempt(() -> TensorTypes.register(d, TFloat32.class, t -> null)));
      }
      out.add("access: " + (SessionAccess.get() instanceof FakeAccess ? "fake" : "library"));
      out.add("works: " + works());
      out.forEach(System.out::println);
    }

    private static String attempt(Runnable r) {
      try {
        r.run();
        return "accepted";
      } catch (IllegalStateException e) {
        return "refused";
      } catch (RuntimeException e) {
        return "failed " + e;
      }
    }

    /** Ops, tensors and their types, as a user would use them. */
    private static String works() {
      try (EagerSession s = EagerSession.create();
          TFloat32 standalone = TFloat32.vectorOf(1f, 2f)) {
        Ops tf = Ops.create(s);
        Operand<TFloat32> x = tf.constantOf(standalone);
        TFloat32 y = tf.math.add(x, x).asTensor();
        return y.getFloat(1) + " " + x.type().getSimpleName() + " " + y.getClass().getSimpleName();
      } catch (RuntimeException e) {
        return "failed " + e;
      }
    }
  }

  /** What a caller might try to slip in. */
  static final class FakeAccess extends SessionAccess {
    @Override
    public <T extends TType> Output<T> constant(
        EagerSession session, DataType dataType, Shape shape, Object data) {
      throw new AssertionError("fake");
    }

    @Override
    public <T extends TType> Output<T> constantOf(EagerSession session, TType tensor) {
      throw new AssertionError("fake");
    }

    @Override
    public OperationBuilder opBuilder(EagerSession session, OpInfo op, String name) {
      throw new AssertionError("fake");
    }

    @Override
    public void name(Output<?> output, String name) {
      throw new AssertionError("fake");
    }

    @Override
    public <T extends TType> Output<T> run(EagerSession session, OpInfo op, Operand<?>... inputs) {
      throw new AssertionError("fake");
    }

    @Override
    public <T extends TType> Output<T> runWithScalar(
        EagerSession session, OpInfo op, Operand<?> input, DataType dataType, double value) {
      throw new AssertionError("fake");
    }
  }

  @Test
  void eachRegistryTakesOnlyTheLibrarysRegistration() throws Exception {
    ChildJvm.Result r =
        ChildJvm.runMain(List.of("-Xmx64m"), Probe.class, List.of(), Duration.ofSeconds(60));
    assertEquals(0, r.exitCode(), r.describe());
    List<String> expected = new ArrayList<>();
    expected.add("first set: refused");
    expected.add("first unwrapper: refused");
    expected.add("first register: refused");
    expected.add("works: 4.0 TFloat32 TFloat32Impl");
    expected.add("second set: refused");
    expected.add("second unwrapper: refused");
    for (DataType d : DataType.values()) {
      expected.add("second register " + d + ": refused");
    }
    expected.add("access: library");
    expected.add("works: 4.0 TFloat32 TFloat32Impl");
    assertEquals(expected, r.lines(), r.describe());
  }
}
