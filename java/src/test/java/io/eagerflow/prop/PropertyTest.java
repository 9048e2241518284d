package io.eagerflow.prop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The harness itself: a planted failure is found, shrunk to a small case, and replayed. */
class PropertyTest {
  /** Lists of up to 20 ints in 0..100 whose sum stays at most 50: false for most lists. */
  private static List<Integer> list(Draws d) {
    List<Integer> l = new ArrayList<>();
    for (int n = d.between(0, 20); n > 0; n--) {
      l.add(d.between(0, 100));
    }
    return l;
  }

  private static final Consumer<Draws> SUM_AT_MOST_50 =
      d -> {
        List<Integer> l = list(d);
        int sum = l.stream().mapToInt(Integer::intValue).sum();
        if (sum > 50) {
          throw new AssertionError("sum " + sum + " of " + l);
        }
      };

  @Test
  void aPlantedFailureShrinksToTheSmallestCase() {
    AssertionError e =
        assertThrows(AssertionError.class, () -> Property.check("sum", 200, SUM_AT_MOST_50));
    // The smallest failing case: one int, just over the bound.
    Matcher m = Pattern.compile("to the choices \\[([0-9, ]*)\\]").matcher(e.getMessage());
    assertTrue(m.find(), e.getMessage());
    String[] parts = m.group(1).split(", ");
    int[] record = new int[parts.length];
    for (int i = 0; i < parts.length; i++) {
      record[i] = Integer.parseInt(parts[i]);
    }
    assertEquals(List.of(51), list(new Draws(record)));
  }

  @Test
  void thePrintedSeedReplaysTheFailingCase() {
    AssertionError first =
        assertThrows(AssertionError.class, () -> Property.check("sum", 200, SUM_AT_MOST_50));
    Matcher m = Pattern.compile("-Dprop\\.seed=(-?[0-9]+)").matcher(first.getMessage());
    assertTrue(m.find(), first.getMessage());
    String seed = m.group(1);
    // The original (unshrunk) failure is kept as suppressed; replaying the seed gives it again.
    String original = first.getSuppressed()[0].getMessage();
    String before = System.getProperty("prop.seed");
    System.setProperty("prop.seed", seed);
    try {
      AssertionError again =
          assertThrows(AssertionError.class, () -> Property.check("sum", 200, SUM_AT_MOST_50));
      assertEquals(original, again.getSuppressed()[0].getMessage());
    } finally {
      if (before == null) {
        System.clearProperty("prop.seed");
      } else {
        System.setProperty("prop.seed", before);
      }
    }
  }

  @Test
  void aPropertyThatHoldsPasses() {
    Property.check("sum of one int in 0..50", 200, d -> assertTrue(d.between(0, 50) <= 50));
  }
}
