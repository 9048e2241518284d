package example;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.eagerflow.EagerSession;
import io.eagerflow.SessionStats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Runs through Surefire on the JUnit Platform, against the published jar and its native library.
 */
class StandardizeTest {
  private EagerSession session;

  @BeforeEach
  void openSession() {
    session = EagerSession.create();
  }

  @AfterEach
  void closeSession() {
    session.close();
  }

  @Test
  void twoRowsBecomeMinusOneAndOne() {
    float[][] z = Standardize.standardize(session, new float[][] {{1f, 10f}, {3f, 30f}});
    assertArrayEquals(new float[] {-1f, -1f}, z[0], 1e-6f);
    assertArrayEquals(new float[] {1f, 1f}, z[1], 1e-6f);
  }

  @Test
  void agreesWithPlainJavaAndFreesEveryTensor() {
    float[][] data = Standardize.sample(500, 4, 7);
    float[][] z = Standardize.standardize(session, data);
    assertEquals(0.0, Standardize.largestDifference(z, Standardize.standardizeInJava(data)), 1e-4);
    SessionStats stats = session.stats();
    assertEquals(0, stats.liveTensors(), stats::toString);
    assertEquals(0, stats.liveBytes(), stats::toString);
    // Standardize works in a scope: its closing frees every tensor, counted as freed by scope.
    assertEquals(stats.createdTensors(), stats.freedByScope(), stats::toString);
  }

  @Test
  void raggedRowsAreRefusedAndLeaveNothingBehind() {
    float[][] ragged = {{1f, 2f}, {3f}};
    assertThrows(IllegalArgumentException.class, () -> Standardize.standardize(session, ragged));
    assertEquals(0, session.stats().liveTensors());
  }
}
