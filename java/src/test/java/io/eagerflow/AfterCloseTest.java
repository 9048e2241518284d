package io.eagerflow;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TType;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffer;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.ndarray.impl.dimension.DimensionalSpace;
import org.tensorflow.ndarray.index.Index;
import org.tensorflow.ndarray.index.Indices;

/**
 * After {@code close()}, every public method of the session and of everything it produced
 * (operations, outputs, builders, the tensors {@code asTensor()} returned, ops run through {@link
 * Ops}) throws {@code IllegalStateException("Eager session has been closed")}, except the reads
 * API.md lists. The test walks the methods by reflection, so a method added later is covered.
 */
class AfterCloseTest {
  private static final String CLOSED = "Eager session has been closed";

  /** Methods that stay usable after close, by declaring type. */
  private static final Set<String> READABLE =
      Set.of(
          "EagerSession.stats",
          "EagerSession.isClosed",
          "EagerSession.close",
          "EagerSession.resourceCleanupStrategy",
          "Operation.type",
          "Operation.name",
          "Operation.numOutputs",
          "Output.index",
          "Tensor.close",
          "Tensor.type",
          "Ops.session");

  private static final Set<String> OBJECT_METHODS = Set.of("toString", "hashCode", "equals");

  /** Everything made while the session was open, used after it closed. */
  private static final class Fixtures {
    final EagerSession session;
    final Ops tf;
    final Output<TFloat32> output;
    final Operation operation;
    final OperationBuilder freshBuilder;
    final OperationBuilder usedBuilder;
    final List<TType> views = new ArrayList<>();
    final TFloat32 standalone = TFloat32.scalarOf(2f);

    Fixtures(ResourceCleanupStrategy strategy) {
      session = EagerSession.options().resourceCleanupStrategy(strategy).build();
      tf = Ops.create(session);
      Output<TFloat32> x = tf.constant(1f).asOutput();
      operation = session.opBuilder("AddV2", null).addInput(x).addInput(x).build();
      output = operation.output(0);
      freshBuilder = session.opBuilder("AddV2", null);
      usedBuilder = session.opBuilder("Sum", "sum").addInput(x).setAttr("keep_dims", true);
      views.add(output.asTensor());
      views.add(tf.constant(1d).asTensor());
      views.add(tf.constant(1).asTensor());
      views.add(tf.constant(1L).asTensor());
      views.add(tf.constant((byte) 1).asTensor());
      views.add(tf.constant(true).asTensor());
      session.close();
    }

    /** A valid-looking argument of {@code type}: only the closed session should be wrong. */
    Object arg(Class<?> type) {
      if (type == int.class) {
        return 0; // a valid output index
      } else if (type == long.class) {
        return 1L;
      } else if (type == float.class) {
        return 1f;
      } else if (type == double.class) {
        return 1d;
      } else if (type == boolean.class) {
        return true;
      } else if (type == byte.class) {
        return (byte) 1;
      } else if (type.isArray()) {
        Class<?> c = type.getComponentType();
        if (c.isPrimitive() || c.isArray() || c == String.class) {
          Object a = Array.newInstance(c, 1);
          Array.set(a, 0, arg(c));
          return a;
        }
        if (c.isAssignableFrom(Output.class)) {
          Object a = Array.newInstance(c, 1);
          Array.set(a, 0, output);
          return a;
        }
        return Array.newInstance(c, 0); // options
      } else if (type == String.class) {
        return "AddV2";
      } else if (type == java.nio.charset.Charset.class) {
        return java.nio.charset.StandardCharsets.UTF_8;
      } else if (type == DataType.class) {
        return DataType.FLOAT;
      } else if (type == Shape.class) {
        return Shape.scalar();
      } else if (type.isAssignableFrom(Output.class)) {
        return output;
      } else if (type == Iterable.class || type == List.class) {
        return List.of(output, output);
      } else if (type == Class.class) {
        return TFloat32.class;
      } else if (TType.class.isAssignableFrom(type)) {
        return standalone;
      } else if (type == Number.class) {
        return 1;
      } else if (type == Consumer.class) {
        return (Consumer<Object>) t -> {};
      } else if (type == EagerSession.class) {
        return session;
      } else if (type == Float.class) {
        return 1f;
      } else if (type == Double.class) {
        return 1d;
      } else if (type == Integer.class) {
        return 1;
      } else if (type == Long.class) {
        return 1L;
      } else if (type == Boolean.class) {
        return true;
      } else if (type == Byte.class) {
        return (byte) 1;
      } else if (type == DeviceSpec.class) {
        return DeviceSpec.newBuilder().build();
      } else if (type == Index.class) {
        return Indices.all();
      } else if (type == DimensionalSpace.class) {
        return DimensionalSpace.create(Shape.scalar());
      } else if (DataBuffer.class.isAssignableFrom(type)) {
        return scalarOf(type, DataBuffer.class);
      } else if (NdArray.class.isAssignableFrom(type)) {
        return scalarOf(type, NdArray.class);
      }
      throw new AssertionError("no argument for " + type);
    }
  }

  /** A one-element heap buffer or ndarray of the element type {@code type} names. */
  private static Object scalarOf(Class<?> type, Class<?> family) {
    List<Object> candidates =
        family == NdArray.class
            ? List.of(
                NdArrays.scalarOf(1f),
                NdArrays.scalarOf(1d),
                NdArrays.scalarOf(1),
                NdArrays.scalarOf(1L),
                NdArrays.scalarOf(true),
                NdArrays.scalarOf((byte) 1))
            : List.of(
                DataBuffers.ofFloats(1),
                DataBuffers.ofDoubles(1),
                DataBuffers.ofInts(1),
                DataBuffers.ofLongs(1),
                DataBuffers.ofBooleans(1),
                DataBuffers.ofBytes(1));
    for (Object candidate : candidates) {
      if (type.isInstance(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError("no argument for " + type);
  }

  /**
   * The method of a package-private superclass that bridge {@code m} only makes callable (javac
   * adds such bridges to Ops for the constants its hidden superclasses declare), or null if {@code
   * m} forwards a generic signature to a typed method the walk calls anyway.
   */
  private static Method visibilityBridgeTarget(Method m) {
    for (Class<?> c = m.getDeclaringClass().getSuperclass(); c != null; c = c.getSuperclass()) {
      for (Method s : c.getDeclaredMethods()) {
        if (!s.isBridge()
            && s.getName().equals(m.getName())
            && s.getReturnType() == m.getReturnType()
            && Arrays.equals(s.getParameterTypes(), m.getParameterTypes())) {
          return s;
        }
      }
    }
    return null;
  }

  /** Calls each public instance method of {@code target}; lists those that did not throw. */
  private static void walk(
      Fixtures f, Object target, Class<?> api, String label, List<String> wrong, int[] count) {
    for (Method m : api.getMethods()) {
      if (Modifier.isStatic(m.getModifiers())
          || (m.isBridge() && visibilityBridgeTarget(m) == null) // its typed method is walked
          || m.getDeclaringClass() == Object.class
          || OBJECT_METHODS.contains(m.getName())
          || READABLE.contains(label + "." + m.getName())) {
        continue;
      }
      Object[] args = Arrays.stream(m.getParameterTypes()).map(f::arg).toArray();
      // A bridge's parameter types are erased; the method it makes callable has them.
      Method declared = m.isBridge() ? visibilityBridgeTarget(m) : m;
      java.lang.reflect.Type[] generic = declared.getGenericParameterTypes();
      for (int i = 0; i < args.length; i++) {
        // String constants take NdArray<String> and DataBuffer<String>, not the numeric ones.
        if (generic[i].getTypeName().endsWith("<java.lang.String>")) {
          args[i] =
              args[i] instanceof NdArray
                  ? NdArrays.vectorOfObjects("a")
                  : DataBuffers.ofObjects("a");
        }
        // Window sizes and strides (conv2d, pooling) are lists of longs, not of operands.
        if (generic[i].getTypeName().equals("java.util.List<java.lang.Long>")) {
          args[i] = List.of(1L, 1L, 1L, 1L);
        }
      }
      if (m.isVarArgs() && args[args.length - 1] instanceof long[]) {
        args[args.length - 1] = new long[0]; // coordinates of a scalar: every tensor here is one
      }
      String call =
          label
              + "."
              + m.getName()
              + Arrays.stream(m.getParameterTypes())
                  .map(Class::getSimpleName)
                  .collect(Collectors.joining(", ", "(", ")"));
      count[0]++;
      try {
        m.invoke(target, args);
        wrong.add(call + " returned");
      } catch (InvocationTargetException e) {
        Throwable t = e.getCause();
        if (!(t instanceof IllegalStateException) || !CLOSED.equals(t.getMessage())) {
          wrong.add(call + " threw " + t);
        }
      } catch (IllegalAccessException e) {
        throw new AssertionError(e);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void everyCallAfterCloseThrowsExceptTheListedReads(ResourceCleanupStrategy strategy)
      throws Exception {
    Fixtures f = new Fixtures(strategy);
    List<String> wrong = new ArrayList<>();
    int[] count = {0};
    walk(f, f.session, EagerSession.class, "EagerSession", wrong, count);
    walk(f, f.operation, Operation.class, "Operation", wrong, count);
    walk(f, f.output, Output.class, "Output", wrong, count);
    walk(f, f.freshBuilder, OperationBuilder.class, "OperationBuilder", wrong, count);
    walk(f, f.usedBuilder, OperationBuilder.class, "OperationBuilder", wrong, count);
    for (TType view : f.views) {
      // The public interface (TFloat32, ...): its implementation class is not accessible.
      walk(f, view, view.type(), "Tensor", wrong, count);
    }
    walk(f, f.tf, Ops.class, "Ops", wrong, count);
    for (Field group : Ops.class.getFields()) {
      if (!Modifier.isStatic(group.getModifiers())) {
        walk(f, group.get(f.tf), group.getType(), "Ops." + group.getName(), wrong, count);
      }
    }
    assertTrue(count[0] > 200, "walked " + count[0] + " methods");
    assertEquals(List.of(), wrong, wrong.size() + " of " + count[0] + " calls did not throw");

    IllegalStateException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalStateException.class, () -> Ops.create(f.session));
    assertEquals(CLOSED, e.getMessage());
    e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalStateException.class, () -> f.tf.constantOf(f.standalone));
    assertEquals(CLOSED, e.getMessage());
    f.standalone.close();
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void theListedReadsStayReadable(ResourceCleanupStrategy strategy) {
    Fixtures f = new Fixtures(strategy);
    assertEquals("AddV2", f.operation.type());
    assertTrue(f.operation.name().startsWith("AddV2"), f.operation.name());
    assertEquals(1, f.operation.numOutputs());
    assertEquals(0, f.output.index());
    assertEquals(strategy, f.session.resourceCleanupStrategy());
    assertTrue(f.session.isClosed());
    assertEquals(0, f.session.stats().liveTensors());
    assertEquals(f.session, f.tf.session());
    f.session.close();
    for (TType view : f.views) {
      view.close();
      assertDoesNotThrow(view::toString);
    }
    assertDoesNotThrow(f.output::toString);
    assertDoesNotThrow(f.operation::toString);
    assertTrue(f.output.toString().contains("closed"), f.output.toString());
    f.standalone.close();
  }
}
