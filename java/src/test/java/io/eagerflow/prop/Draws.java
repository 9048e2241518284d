package io.eagerflow.prop;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The random choices of one generated case. Every choice is a bounded int drawn from a seeded
 * stream and recorded as its distance from the lower bound, so a case can be replayed from its
 * record and shrunk by making the record shorter or its entries smaller: generators put the
 * simplest outcome at the lower bound (size 0, the first alternative), so smaller entries mean
 * smaller shapes, fewer inputs and shorter strings. A replayed record that runs out draws the lower
 * bound.
 */
public final class Draws {
  private final SplittableRandom random;
  private final int[] replay;
  private int[] record = new int[32];
  private int count;

  Draws(long seed) {
    this.random = new SplittableRandom(seed);
    this.replay = null;
  }

  Draws(int[] replay) {
    this.random = null;
    this.replay = replay;
  }

  /** An int in {@code [lo, hi]}. */
  public int between(int lo, int hi) {
    if (hi < lo) {
      throw new IllegalArgumentException("empty range " + lo + ".." + hi);
    }
    int span = hi - lo;
    int offset;
    if (replay == null) {
      offset =
          span == Integer.MAX_VALUE
              ? random.nextInt() & Integer.MAX_VALUE
              : random.nextInt(span + 1);
    } else {
      offset = count < replay.length ? Math.min(replay[count], span) : 0;
    }
    if (count == record.length) {
      record = Arrays.copyOf(record, count * 2);
    }
    record[count++] = offset;
    return lo + offset;
  }

  public boolean bool() {
    return between(0, 1) == 1;
  }

  /** One of {@code values}; shrinks toward the first. */
  @SafeVarargs
  public final <T> T of(T... values) {
    return values[between(0, values.length - 1)];
  }

  /** One of {@code values}; shrinks toward the first. */
  public <T> T of(List<T> values) {
    return values.get(between(0, values.size() - 1));
  }

  /** One of {@code values}; shrinks toward the first. */
  public long ofLongs(long... values) {
    return values[between(0, values.length - 1)];
  }

  /**
   * The index of an alternative chosen with the given weights; shrinks toward index 0, so the
   * simplest alternative goes first.
   */
  public int weighted(int... weights) {
    int total = 0;
    for (int w : weights) {
      total += w;
    }
    int pick = between(0, total - 1);
    for (int i = 0; i < weights.length; i++) {
      pick -= weights[i];
      if (pick < 0) {
        return i;
      }
    }
    return weights.length - 1;
  }

  /** A string of {@code 0..maxLength} chars in {@code [from, to]}. */
  public String string(char from, char to, int maxLength) {
    char[] c = new char[between(0, maxLength)];
    for (int i = 0; i < c.length; i++) {
      c[i] = (char) between(from, to);
    }
    return new String(c);
  }

  /** The choices made so far, as a replayable record. */
  int[] record() {
    return Arrays.copyOf(record, count);
  }
}
