package io.eagerflow.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession;
import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.op.Ops;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/** {@code @EagerTest}: one invocation per strategy and mode, each with its own session. */
class EagerTestTemplateTest {

  /** Executor threads (one per open async session) alive now. */
  static long executorThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("eagerflow-exec-") && t.isAlive())
        .count();
  }

  static class EveryStrategyFixture {
    static final List<String> seen = new ArrayList<>();
    static final List<EagerSession> sessions = new ArrayList<>();

    @EagerTest(async = {false, true})
    void adds(Ops tf, EagerSession session) {
      assertEquals(3f, tf.math.add(tf.constant(1f), tf.constant(2f)).asTensor().getFloat());
      seen.add(session.resourceCleanupStrategy() + " " + (executorThreads() > 0));
      sessions.add(session);
    }
  }

  @Test
  void runsOncePerStrategyAndModeWithSessionsBuiltThatWay() {
    EveryStrategyFixture.seen.clear();
    EveryStrategyFixture.sessions.clear();
    long executors = executorThreads();
    Runs runs = Runs.of(EveryStrategyFixture.class);
    assertEquals(6, runs.succeeded(), () -> runs.failures().toString());
    assertEquals(
        List.of(
            "[1] IN_BACKGROUND, sync",
            "[2] IN_BACKGROUND, async",
            "[3] ON_SAFE_POINTS, sync",
            "[4] ON_SAFE_POINTS, async",
            "[5] ON_SESSION_CLOSE, sync",
            "[6] ON_SESSION_CLOSE, async"),
        runs.names());
    assertEquals(
        List.of(
            "IN_BACKGROUND " + (executors > 0),
            "IN_BACKGROUND true",
            "ON_SAFE_POINTS " + (executors > 0),
            "ON_SAFE_POINTS true",
            "ON_SESSION_CLOSE " + (executors > 0),
            "ON_SESSION_CLOSE true"),
        EveryStrategyFixture.seen);
    assertTrue(EveryStrategyFixture.sessions.stream().allMatch(EagerSession::isClosed));
    assertEquals(executors, executorThreads(), "every async session's executor was joined");
  }

  static class NamedFixture {
    @EagerTest(
        strategies = {ResourceCleanupStrategy.ON_SAFE_POINTS},
        async = {true},
        name = "{displayName} #{index} under {strategy} ({mode})")
    void named(EagerSession session) {}
  }

  @Test
  void theNamePatternHasJUnitStylePlaceholders() {
    Runs runs = Runs.of(NamedFixture.class);
    assertEquals(List.of("named(EagerSession) #1 under ON_SAFE_POINTS (async)"), runs.names());
  }

  static class EmptyFixture {
    @EagerTest(strategies = {})
    void none() {}
  }

  @Test
  void noStrategiesIsAConfigurationError() {
    Runs runs = Runs.of(EmptyFixture.class);
    List<Throwable> failures = runs.containerFailures();
    assertEquals(1, failures.size(), failures::toString);
    assertTrue(failures.get(0) instanceof ExtensionConfigurationException, failures::toString);
    assertTrue(failures.get(0).getMessage().contains("has no strategies"), failures::toString);
  }
}
