package io.eagerflow.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.eagerflow.EagerScope;
import io.eagerflow.EagerSession;
import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.NativeMemory;
import io.eagerflow.Operand;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.opentest4j.AssertionFailedError;

/** The extension fails tests that leave sessions or tensors behind, naming where they came from. */
class LeakCheckTest {
  /** The line a fixture made something on, and what it made. */
  static int line;

  static Object made;

  /** Keeps {@code thing} and the line of {@code here}, made in the same expression. */
  static <T> T keep(Throwable here, T thing) {
    line = here.getStackTrace()[0].getLineNumber();
    made = thing;
    return thing;
  }

  /** The frame a leak report names: {@code fixture.method(LeakCheckTest.java:<line>)}. */
  static String frame(Class<?> fixture, String method) {
    return fixture.getName() + "." + method + "(LeakCheckTest.java:" + line + ")";
  }

  @ExtendWith(EagerSessionExtension.class)
  static class OpenTensorFixture {
    @Test
    void leaksATensor() {
      keep(new Throwable(), TFloat32.vectorOf(1f, 2f));
    }
  }

  @Test
  void aStandaloneTensorLeftOpenFailsTheTestNamingTheLineThatCreatedIt() {
    try {
      Throwable t = Runs.of(OpenTensorFixture.class).onlyFailure();
      assertTrue(t instanceof AssertionFailedError, t::toString);
      String expected =
          "standalone tensor created at " + frame(OpenTensorFixture.class, "leaksATensor") + " <- ";
      assertTrue(t.getMessage().contains(expected), () -> t.getMessage() + "\nlacks " + expected);
      assertTrue(t.getMessage().contains(": still open, never closed"), t::getMessage);
      assertTrue(t.getMessage().startsWith("leaksATensor() left 1 thing behind:"), t::getMessage);
      // The creation stack rides along for IDEs and reports.
      assertEquals(1, t.getSuppressed().length);
      assertTrue(
          Arrays.stream(t.getSuppressed()[0].getStackTrace())
              .anyMatch(e -> e.getMethodName().equals("leaksATensor") && e.getLineNumber() == line),
          () -> Arrays.toString(t.getSuppressed()[0].getStackTrace()));
    } finally {
      ((TFloat32) made).close();
    }
  }

  @ExtendWith(EagerSessionExtension.class)
  static class ForgottenTensorFixture {
    @Test
    void dropsATensor() {
      long before = NativeMemory.liveTensors();
      keep(new Throwable(), TFloat32.vectorOf(1f, 2f));
      made = null;
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (NativeMemory.liveTensors() > before) { // the library's cleaner frees it
        if (System.nanoTime() > deadline) {
          fail("the cleaner did not free the dropped tensor within 30 s");
        }
        System.gc();
        Thread.onSpinWait();
      }
    }
  }

  @Test
  void aStandaloneTensorFreedByTheCleanerInsteadOfCloseFailsTheTest() {
    Throwable t = Runs.of(ForgottenTensorFixture.class).onlyFailure();
    assertTrue(
        t.getMessage()
            .contains(
                "standalone tensor created at "
                    + frame(ForgottenTensorFixture.class, "dropsATensor")),
        t::getMessage);
    assertTrue(t.getMessage().contains(": freed by the cleaner once unreachable"), t::getMessage);
  }

  @ExtendWith(EagerSessionExtension.class)
  static class OpenSessionFixture {
    @Test
    void leaksASession() {
      keep(new Throwable(), EagerSession.create());
    }
  }

  @Test
  void aSessionLeftOpenFailsTheTest() {
    try {
      Throwable t = Runs.of(OpenSessionFixture.class).onlyFailure();
      assertTrue(
          t.getMessage()
              .contains(
                  "EagerSession created at "
                      + frame(OpenSessionFixture.class, "leaksASession")
                      + " <- "),
          t::getMessage);
      assertTrue(t.getMessage().contains(": never closed"), t::getMessage);
    } finally {
      ((EagerSession) made).close();
    }
  }

  @ExtendWith(EagerSessionExtension.class)
  static class TidyFixture {
    @Test
    void closesWhatItMakes(Ops tf) {
      try (EagerSession own = EagerSession.create();
          TFloat32 t = TFloat32.scalarOf(2f)) {
        Ops mine = Ops.create(own);
        assertEquals(
            4f, mine.math.mul(mine.constantOf(t), mine.constant(2f)).asTensor().getFloat());
      }
      tf.math.add(tf.constant(1f), tf.constant(2f)); // the session's: closed by the extension
    }
  }

  @Test
  void aTestThatClosesWhatItMakesPasses() {
    Runs runs = Runs.of(TidyFixture.class);
    assertEquals(1, runs.succeeded(), () -> runs.failures().toString());
  }

  @ExtendWith(EagerSessionExtension.class)
  static class FailingFixture {
    @Test
    void failsAndLeaks() {
      keep(new Throwable(), TFloat32.scalarOf(1f));
      fail("its own failure");
    }
  }

  @Test
  void aTestThatFailsOnItsOwnIsNotAlsoFailedForLeaks() {
    try {
      Throwable t = Runs.of(FailingFixture.class).onlyFailure();
      assertEquals("its own failure", t.getMessage());
      assertEquals(0, t.getSuppressed().length, () -> Arrays.toString(t.getSuppressed()));
    } finally {
      ((TFloat32) made).close();
    }
  }

  static class StrictFixture {
    @EagerTest(strict = true)
    void leavesAnOutputToTheSession(Ops tf) {
      Operand<TFloat32> kept = keep(new Throwable(), tf.constant(1f));
      assertEquals(1f, kept.asTensor().getFloat());
    }
  }

  @Test
  void strictModeFailsATestWhoseOutputsTheSessionFreedNamingWhereEachWasMade() {
    Runs runs = Runs.of(StrictFixture.class);
    assertEquals(3, runs.failed(), () -> runs.names().toString());
    runs.failures()
        .forEach(
            (name, t) ->
                assertTrue(
                    t.getMessage()
                            .contains(
                                "op output created at "
                                    + frame(StrictFixture.class, "leavesAnOutputToTheSession")
                                    + " <- ")
                        && t.getMessage().contains(": freed when its session closed")
                        && t.getMessage().contains("release op outputs"),
                    name + ": " + t.getMessage()));
  }

  static class LenientFixture {
    @EagerTest
    void leavesAnOutputToTheSession(Ops tf) {
      assertEquals(1f, tf.constant(1f).asTensor().getFloat());
    }
  }

  @Test
  void withoutStrictModeTheSessionMayFreeOutputs() {
    Runs runs = Runs.of(LenientFixture.class);
    assertEquals(3, runs.succeeded(), () -> runs.failures().toString());
  }

  static class StrictAndTidyFixture {
    @EagerTest(
        strict = true,
        async = {false, true})
    void releasesOrScopesEveryOutput(EagerSession session, Ops tf) {
      Operand<TFloat32> x = tf.constant(3f);
      try (EagerScope scope = session.newScope()) {
        Operand<TFloat32> y = tf.math.mul(x, tf.constant(2f));
        assertEquals(6f, y.asTensor().getFloat());
      }
      session.release(x);
    }
  }

  @Test
  void strictModePassesATestThatReleasesOrScopesEveryOutput() {
    Runs runs = Runs.of(StrictAndTidyFixture.class);
    assertEquals(6, runs.succeeded(), () -> runs.failures().toString());
  }

  @ExtendWith(EagerSessionExtension.class)
  @WithEagerSession(strategy = ResourceCleanupStrategy.ON_SAFE_POINTS)
  static class BeforeAllFixture {
    @BeforeAll
    static void makesAFixtureItNeverCloses() {
      keep(new Throwable(), TFloat32.scalarOf(1f));
    }

    @Test
    void uses(EagerSession session) {
      assertEquals(ResourceCleanupStrategy.ON_SAFE_POINTS, session.resourceCleanupStrategy());
    }
  }

  @Test
  void whatBeforeAllLeavesOpenFailsTheClassAfterAll() {
    try {
      Runs runs = Runs.of(BeforeAllFixture.class);
      assertEquals(1, runs.succeeded(), () -> runs.failures().toString());
      assertEquals(1, runs.containerFailures().size(), () -> runs.containerFailures().toString());
      String message = runs.containerFailures().get(0).getMessage();
      assertTrue(
          message.contains(
              "standalone tensor created at "
                  + frame(BeforeAllFixture.class, "makesAFixtureItNeverCloses")),
          message);
    } finally {
      ((TFloat32) made).close();
    }
  }
}
