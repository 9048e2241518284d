package io.eagerflow.prop;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * A seeded property harness for plain JUnit 5: {@link #check} runs a property on generated cases;
 * when one fails it shrinks the case's choices ({@link Draws}) to a small failing one and throws an
 * {@link AssertionError} that names the case's seed and how to replay it ({@code -Dprop.seed=...},
 * which runs that one case again). The run's seed comes from {@code prop.seed} when set, else from
 * the clock, and is printed either way.
 */
public final class Property {
  /** Re-runs that shrinking may spend on one failure. */
  private static final int SHRINK_BUDGET = 2_000;

  private Property() {}

  /** Runs {@code property} on {@code tries} generated cases. */
  public static void check(String name, int tries, Consumer<Draws> property) {
    String fixed = System.getProperty("prop.seed");
    if (fixed != null) {
      run(name, Long.parseLong(fixed.trim()), property);
      return;
    }
    long runSeed = System.nanoTime();
    System.out.println("property " + name + ": " + tries + " cases, run seed " + runSeed);
    SplittableRandom seeds = new SplittableRandom(runSeed);
    for (int i = 0; i < tries; i++) {
      run(name, seeds.nextLong(), property);
    }
  }

  private static void run(String name, long seed, Consumer<Draws> property) {
    Draws draws = new Draws(seed);
    try {
      property.accept(draws);
    } catch (Throwable failure) {
      Shrunk s = shrink(draws.record(), property, failure);
      AssertionError e =
          new AssertionError(
              "property "
                  + name
                  + " failed for the case of seed "
                  + seed
                  + " (replay it with -Dprop.seed="
                  + seed
                  + ", in Gradle -Pprop.seed="
                  + seed
                  + " -Ptest.classes=...); shrunk in "
                  + s.runs
                  + " runs to the choices "
                  + Arrays.toString(s.record)
                  + ", which fail with: "
                  + s.failure,
              s.failure);
      e.addSuppressed(failure);
      throw e;
    }
  }

  /** A failing record as small as the budget found, and its failure. */
  record Shrunk(int[] record, Throwable failure, int runs) {}

  /**
   * Shrinks a failing record: drops runs of choices (8, 4, 2, 1 at a time), moves later values onto
   * earlier choices, then lowers each choice (a binary search for its lowest failing value), until
   * a whole pass changes nothing or the budget is spent.
   */
  static Shrunk shrink(int[] failing, Consumer<Draws> property, Throwable failure) {
    int[] best = failing;
    Throwable bestFailure = failure;
    int runs = 0;
    boolean improved = true;
    while (improved && runs < SHRINK_BUDGET) {
      improved = false;
      for (int k = 8; k >= 1; k /= 2) {
        for (int i = 0; i + k <= best.length && runs < SHRINK_BUDGET; ) {
          int[] candidate = new int[best.length - k];
          System.arraycopy(best, 0, candidate, 0, i);
          System.arraycopy(best, i + k, candidate, i, best.length - i - k);
          runs++;
          Attempt a = attempt(candidate, property);
          if (a.failure != null && smaller(a.record, best)) {
            best = a.record;
            bestFailure = a.failure;
            improved = true;
          } else {
            i++;
          }
        }
      }
      // Moves a later choice's value onto an earlier one: a sum spread over several entries
      // gathers in the first, so a smaller size can drop the rest.
      for (int i = 0; i < best.length && runs < SHRINK_BUDGET; i++) {
        for (int j = i + 1; j < best.length && runs < SHRINK_BUDGET; j++) {
          if (best[j] == 0) {
            continue;
          }
          int[] candidate = best.clone();
          candidate[i] += candidate[j];
          candidate[j] = 0;
          runs++;
          Attempt a = attempt(candidate, property);
          if (a.failure != null && smaller(a.record, best)) {
            best = a.record;
            bestFailure = a.failure;
            improved = true;
          }
        }
      }
      for (int i = 0; i < best.length && runs < SHRINK_BUDGET; i++) {
        int lo = 0;
        int hi = best[i]; // fails at hi; find the lowest failing value above lo
        while (lo < hi && runs < SHRINK_BUDGET) {
          int mid = lo + (hi - lo) / 2;
          int[] candidate = best.clone();
          candidate[i] = mid;
          runs++;
          Attempt a = attempt(candidate, property);
          if (a.failure != null) {
            hi = mid;
            best = a.record;
            bestFailure = a.failure;
            improved = true;
          } else {
            lo = mid + 1;
          }
        }
      }
    }
    return new Shrunk(best, bestFailure, runs);
  }

  /**
   * The order shrinking follows: shorter, else a smaller sum of choices, else smaller read from the
   * end (values gathered early, zeros late, where a smaller size can drop them). Every accepted
   * step goes down this order, so shrinking ends.
   */
  private static boolean smaller(int[] a, int[] b) {
    if (a.length != b.length) {
      return a.length < b.length;
    }
    long sa = Arrays.stream(a).asLongStream().sum();
    long sb = Arrays.stream(b).asLongStream().sum();
    if (sa != sb) {
      return sa < sb;
    }
    for (int i = a.length - 1; i >= 0; i--) {
      if (a[i] != b[i]) {
        return a[i] < b[i];
      }
    }
    return false;
  }

  private record Attempt(int[] record, Throwable failure) {}

  private static Attempt attempt(int[] record, Consumer<Draws> property) {
    Draws draws = new Draws(record);
    try {
      property.accept(draws);
      return new Attempt(draws.record(), null);
    } catch (Throwable t) {
      return new Attempt(draws.record(), t);
    }
  }
}
