package io.eagerflow;

import static io.eagerflow.TestSupport.constant;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class LeakTrackingTest {

  /** Collects the WARNING messages of the library's logger while open. */
  private static final class Warnings extends Handler implements AutoCloseable {
    private final Logger logger = Logger.getLogger("io.eagerflow");
    final List<String> messages = new CopyOnWriteArrayList<>();

    Warnings() {
      logger.addHandler(this);
    }

    @Override
    public void publish(LogRecord r) {
      if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
        messages.add(r.getMessage());
      }
    }

    boolean any(String fragment) {
      return messages.stream().anyMatch(m -> m.contains(fragment));
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
      logger.removeHandler(this);
    }
  }

  @Test
  void theLoggedSiteNamesTheMethodThatMadeTheTensor() {
    assertLoggedAt("makeAnUnreleasedTensor", LeakTrackingTest::makeAnUnreleasedTensor);
  }

  @Test
  void anUnreleasedStringTensorIsLoggedWithItsSite() {
    assertLoggedAt("makeAnUnreleasedString", LeakTrackingTest::makeAnUnreleasedString);
  }

  /** A session closed with what {@code make} left unreleased logs {@code site} as its origin. */
  private static void assertLoggedAt(String site, java.util.function.Consumer<EagerSession> make) {
    try (Warnings warnings = new Warnings()) {
      EagerSession s =
          EagerSession.options()
              .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
              .trackLeaks(true)
              .build();
      make.accept(s);
      s.close();
      assertTrue(warnings.any(site), () -> "logged: " + warnings.messages);
    }
  }

  private static void makeAnUnreleasedString(EagerSession s) {
    io.eagerflow.op.Ops tf = io.eagerflow.op.Ops.create(s);
    tf.strings.join(java.util.List.of(tf.constant("a"), tf.constant("b")));
  }

  @Test
  void aForgottenSessionIsFreedByTheCleanerWithAWarning() {
    long threads = TestSupport.cleanupThreads();
    try (Warnings warnings = new Warnings()) {
      forgetASession();
      // Its cleanup thread holds only the native half, so the session itself can be collected.
      TestSupport.await(
          "the cleaner to free the forgotten session",
          Duration.ofSeconds(30),
          System::gc,
          () -> warnings.any("without close()") && TestSupport.cleanupThreads() == threads);
    }
  }

  private static void forgetASession() {
    EagerSession s = EagerSession.create();
    TestSupport.add(s, constant(s, 1f, 2f), constant(s, 3f, 4f));
  }

  private static void makeAnUnreleasedTensor(EagerSession s) {
    constant(s, 1f, 2f, 3f);
  }
}
