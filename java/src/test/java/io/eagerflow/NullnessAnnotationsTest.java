package io.eagerflow;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.exceptions.TFInvalidArgumentException;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import java.lang.reflect.AnnotatedType;
import java.util.List;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The API's nullness annotations, which Kotlin reads instead of platform types: every exported
 * package is {@code @NullMarked}, and the few parameters that take null say so.
 */
class NullnessAnnotationsTest {

  @Test
  void everyApiPackageIsNullMarked() {
    List<Class<?>> oneClassPerPackage =
        List.of(EagerSession.class, Ops.class, TFloat32.class, TFInvalidArgumentException.class);
    for (Class<?> c : oneClassPerPackage) {
      assertTrue(
          c.getPackage().isAnnotationPresent(NullMarked.class),
          c.getPackageName() + " is not @NullMarked");
    }
  }

  @Test
  void opBuilderTakesANullName() throws NoSuchMethodException {
    AnnotatedType[] params =
        EagerSession.class
            .getMethod("opBuilder", String.class, String.class)
            .getAnnotatedParameterTypes();
    assertFalse(params[0].isAnnotationPresent(Nullable.class), "type is not nullable");
    assertTrue(params[1].isAnnotationPresent(Nullable.class), "name is nullable");
  }

  @Test
  void exceptionMessagesAndCausesAreNullable() throws NoSuchMethodException {
    AnnotatedType[] params =
        NativeMemoryExhaustedException.class
            .getConstructor(String.class, Throwable.class)
            .getAnnotatedParameterTypes();
    assertTrue(params[0].isAnnotationPresent(Nullable.class));
    assertTrue(params[1].isAnnotationPresent(Nullable.class));
  }
}
