package io.eagerflow.junit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * Runs a fixture class on the Jupiter engine (EngineTestKit) and reads what happened to its tests.
 * Fixture classes are nested in the test classes and named {@code ...Fixture}, a name the console
 * launcher's class-path scan does not pick up: they run only here.
 */
record Runs(Events tests, Events containers) {
  static Runs of(Class<?> fixture) {
    var results = EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute();
    return new Runs(results.testEvents(), results.containerEvents());
  }

  long succeeded() {
    return tests.succeeded().count();
  }

  long failed() {
    return tests.failed().count();
  }

  /** The display names of the tests that ran, in order. */
  List<String> names() {
    return tests.started().stream()
        .map(e -> e.getTestDescriptor().getDisplayName())
        .collect(Collectors.toList());
  }

  /** Each failed test's display name and its failure. */
  Map<String, Throwable> failures() {
    return tests.failed().stream()
        .collect(Collectors.toMap(e -> e.getTestDescriptor().getDisplayName(), Runs::throwable));
  }

  /** The failure of the only failed test. */
  Throwable onlyFailure() {
    List<Event> failed = tests.failed().list();
    if (failed.size() != 1) {
      throw new AssertionError("expected one failed test, got " + failures() + " of " + names());
    }
    return throwable(failed.get(0));
  }

  /** The failures of containers (a class whose @AfterAll check failed, say). */
  List<Throwable> containerFailures() {
    return containers.failed().stream().map(Runs::throwable).collect(Collectors.toList());
  }

  private static Throwable throwable(Event e) {
    return e.getPayload(TestExecutionResult.class)
        .flatMap(TestExecutionResult::getThrowable)
        .orElseThrow(() -> new AssertionError("no throwable in " + e));
  }
}
