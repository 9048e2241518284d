package io.eagerflow;

import static io.eagerflow.TestSupport.constant;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class LeakTrackingTest {

  @Test
  void theLoggedSiteNamesTheMethodThatMadeTheTensor() {
    List<String> messages = new CopyOnWriteArrayList<>();
    Logger logger = Logger.getLogger("io.eagerflow");
    Handler handler =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
              messages.add(r.getMessage());
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    logger.addHandler(handler);
    try {
      EagerSession s =
          EagerSession.options()
              .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
              .trackLeaks(true)
              .build();
      makeAnUnreleasedTensor(s);
      s.close();
    } finally {
      logger.removeHandler(handler);
    }
    assertTrue(
        messages.stream().anyMatch(m -> m.contains("makeAnUnreleasedTensor")),
        () -> "logged: " + messages);
  }

  @Test
  void aForgottenSessionIsFreedByTheCleanerWithAWarning() {
    List<String> messages = new CopyOnWriteArrayList<>();
    Logger logger = Logger.getLogger("io.eagerflow");
    Handler handler =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            messages.add(r.getMessage());
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    logger.addHandler(handler);
    long threads = TestSupport.cleanupThreads();
    try {
      forgetASession();
      // Its cleanup thread holds only the native half, so the session itself can be collected.
      TestSupport.await(
          "the cleaner to free the forgotten session",
          java.time.Duration.ofSeconds(30),
          System::gc,
          () ->
              messages.stream().anyMatch(m -> m.contains("without close()"))
                  && TestSupport.cleanupThreads() == threads);
    } finally {
      logger.removeHandler(handler);
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
