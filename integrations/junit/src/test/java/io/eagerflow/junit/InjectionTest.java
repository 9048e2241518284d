package io.eagerflow.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession;
import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.op.Ops;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ParameterResolutionException;

/** What EagerSessionExtension injects where, and that it closes what it built. */
class InjectionTest {

  @ExtendWith(EagerSessionExtension.class)
  static class LifecycleFixture {
    static final List<String> events = new ArrayList<>();
    static EagerSession classSession;
    static final List<EagerSession> testSessions = new ArrayList<>();
    EagerSession beforeEach;

    @BeforeAll
    static void beforeAll(EagerSession session) {
      classSession = session;
    }

    @BeforeEach
    void beforeEach(EagerSession session, Ops tf) {
      beforeEach = session;
      events.add("beforeEach ops on the same session " + (tf.session() == session));
    }

    @Test
    void first(EagerSession session, Ops tf) {
      record(session, tf);
    }

    @Test
    void second(Ops tf, EagerSession session) {
      record(session, tf);
    }

    private void record(EagerSession session, Ops tf) {
      events.add("test gets beforeEach's session " + (session == beforeEach));
      events.add("test ops on the same session " + (tf.session() == session));
      events.add("class session open during the test " + !classSession.isClosed());
      events.add("test session is not the class session " + (session != classSession));
      assertEquals(3f, tf.math.add(tf.constant(1f), tf.constant(2f)).asTensor().getFloat());
      testSessions.add(session);
    }

    @AfterEach
    void afterEach(EagerSession session) {
      events.add("afterEach gets the test's session, still open " + !session.isClosed());
    }

    @AfterAll
    static void afterAll(EagerSession session) {
      events.add("afterAll gets the class session " + (session == classSession));
      events.add(
          "test sessions closed before afterAll "
              + testSessions.stream().allMatch(EagerSession::isClosed));
    }
  }

  @Test
  void eachTestHasItsOwnSessionSharedWithItsLifecycleMethodsAndClosedAfterThem() {
    LifecycleFixture.events.clear();
    LifecycleFixture.testSessions.clear();
    Runs runs = Runs.of(LifecycleFixture.class);
    assertEquals(2, runs.succeeded(), () -> runs.failures().toString());
    assertTrue(runs.containerFailures().isEmpty(), () -> runs.containerFailures().toString());
    List<String> wrong =
        LifecycleFixture.events.stream().filter(e -> !e.endsWith(" true")).toList();
    assertTrue(wrong.isEmpty(), () -> "not so: " + wrong + " of " + LifecycleFixture.events);
    assertEquals(
        2 + 2 * 4 + 2 + 2, LifecycleFixture.events.size(), LifecycleFixture.events::toString);
    assertEquals(2, LifecycleFixture.testSessions.size());
    assertNotSame(LifecycleFixture.testSessions.get(0), LifecycleFixture.testSessions.get(1));
    assertTrue(LifecycleFixture.testSessions.stream().allMatch(EagerSession::isClosed));
    assertTrue(LifecycleFixture.classSession.isClosed(), "the class session is closed after all");
    // The defaults: IN_BACKGROUND.
    assertSame(
        ResourceCleanupStrategy.IN_BACKGROUND,
        LifecycleFixture.testSessions.get(0).resourceCleanupStrategy());
  }

  @WithEagerSession(strategy = ResourceCleanupStrategy.ON_SAFE_POINTS)
  static class ConfiguredFixture {
    static final List<ResourceCleanupStrategy> seen = new ArrayList<>();

    @Test
    void classDefault(EagerSession session) {
      seen.add(session.resourceCleanupStrategy());
    }

    @Test
    @WithEagerSession(strategy = ResourceCleanupStrategy.ON_SESSION_CLOSE)
    void methodOverrides(EagerSession session) {
      seen.add(session.resourceCleanupStrategy());
    }
  }

  @Test
  void withEagerSessionConfiguresTheSessionsOfAClassAndAMethodOverridesIt() {
    ConfiguredFixture.seen.clear();
    Runs runs = Runs.of(ConfiguredFixture.class);
    assertEquals(2, runs.succeeded(), () -> runs.failures().toString());
    assertTrue(ConfiguredFixture.seen.contains(ResourceCleanupStrategy.ON_SAFE_POINTS));
    assertTrue(ConfiguredFixture.seen.contains(ResourceCleanupStrategy.ON_SESSION_CLOSE));
  }

  @ExtendWith(EagerSessionExtension.class)
  static class ConstructorFixture {
    ConstructorFixture(EagerSession session) {}

    @Test
    void never() {}
  }

  @Test
  void aConstructorParameterIsRefusedWithAReason() {
    Runs runs = Runs.of(ConstructorFixture.class);
    Throwable t = runs.onlyFailure();
    assertTrue(t instanceof ParameterResolutionException, t::toString);
    assertTrue(
        t.getMessage().contains("not into the constructor of")
            && t.getMessage().contains("ConstructorFixture"),
        t.getMessage());
    assertFalse(t.getMessage().isEmpty());
  }
}
