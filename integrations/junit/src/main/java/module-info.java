/**
 * eagerflow-junit: a JUnit 5 extension for tests that use eagerflow. {@link
 * io.eagerflow.junit.EagerSessionExtension} injects sessions and {@code Ops}, closes them, and
 * fails tests that leave sessions or tensors behind; {@link io.eagerflow.junit.EagerTest} runs a
 * test once per cleanup strategy and execution mode.
 */
module io.eagerflow.junit {
  requires transitive io.eagerflow;
  requires transitive org.junit.jupiter.api;

  exports io.eagerflow.junit;
}
