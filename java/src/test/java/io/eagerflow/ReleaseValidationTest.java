package io.eagerflow;

import static io.eagerflow.TestSupport.constant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.types.TFloat32;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code release} checks every operand before it frees any: a bad one releases nothing. */
class ReleaseValidationTest {
  /** An operand whose output is something other than an output of the releasing session. */
  private enum Bad {
    NULL(other -> null),
    NULL_OUTPUT(
        other ->
            new Operand<TFloat32>() {
              @Override
              public Output<TFloat32> asOutput() {
                return null;
              }
            }),
    OTHER_SESSION(other -> constant(other, 5f)),
    CLOSED_SESSION(
        other -> {
          EagerSession closed = EagerSession.create();
          Output<TFloat32> o = constant(closed, 6f);
          closed.close();
          return o;
        });

    final Function<EagerSession, Operand<?>> make;

    Bad(Function<EagerSession, Operand<?>> make) {
      this.make = make;
    }
  }

  @ParameterizedTest
  @EnumSource(Bad.class)
  void aBadOperandReleasesNothing(Bad bad) {
    for (ResourceCleanupStrategy strategy : ResourceCleanupStrategy.values()) {
      try (EagerSession s = EagerSession.options().resourceCleanupStrategy(strategy).build();
          EagerSession other = EagerSession.create()) {
        Output<TFloat32> a = constant(s, 1f, 2f);
        Output<TFloat32> b = constant(s, 3f);
        Operand<?> wrong = bad.make.apply(other);
        SessionStats before = s.stats();

        RuntimeException e =
            assertThrows(
                RuntimeException.class, () -> s.release(a, wrong, b), bad + "/" + strategy);
        assertTrue(
            e instanceof NullPointerException
                || e instanceof IllegalArgumentException
                || e instanceof IllegalStateException,
            String.valueOf(e));
        assertThrows(RuntimeException.class, () -> s.release(wrong, a), bad + "/" + strategy);

        assertEquals(before, s.stats(), bad + "/" + strategy);
        assertEquals(0, s.stats().freedExplicitly());
        assertEquals(2f, a.asTensor().getFloat(1));
        assertEquals(3f, b.asTensor().getFloat());
        assertEquals(4f, TestSupport.add(s, a, b).asTensor().getFloat(0));

        // The same operands without the bad one are released, once.
        s.release(a, b, a);
        assertEquals(2, s.stats().freedExplicitly());
        assertThrows(IllegalStateException.class, a::asTensor);
      }
    }
  }
}
