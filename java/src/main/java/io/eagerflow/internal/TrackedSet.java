package io.eagerflow.internal;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Keeps phantom references strongly reachable until they are processed, which the GC requires.
 * Striped by thread, each stripe a slot array with a free list under its own small lock: adding and
 * removing cost a few nanoseconds, allocate nothing in the steady state, and do not contend across
 * threads (unlike one map under one monitor, or a hash set with millions of entries).
 */
final class TrackedSet {
  private static final int STRIPES = 16;

  private final Stripe[] stripes = new Stripe[STRIPES];

  private static final class Stripe {
    Object[] slots = new Object[64];
    int[] free = new int[64];
    int freeCount;
    int used;
  }

  TrackedSet() {
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new Stripe();
    }
  }

  void add(Tracking.Tracked t) {
    int si = (int) (Thread.currentThread().getId() & (STRIPES - 1));
    Stripe s = stripes[si];
    synchronized (s) {
      int slot;
      if (s.freeCount > 0) {
        slot = s.free[--s.freeCount];
      } else {
        if (s.used == s.slots.length) {
          s.slots = Arrays.copyOf(s.slots, s.used * 2);
          s.free = Arrays.copyOf(s.free, s.used * 2);
        }
        slot = s.used++;
      }
      s.slots[slot] = t;
      t.stripe = si;
      t.slot = slot;
    }
  }

  void remove(Tracking.Tracked t) {
    int si = t.stripe;
    if (si < 0) {
      return;
    }
    Stripe s = stripes[si];
    synchronized (s) {
      if (t.stripe == si && s.slots[t.slot] == t) {
        s.slots[t.slot] = null;
        s.free[s.freeCount++] = t.slot;
        t.stripe = -1;
      }
    }
  }

  /** Passes every entry held at this moment to {@code action}; entries stay held. */
  void forEach(Consumer<Tracking.Tracked> action) {
    for (Stripe s : stripes) {
      Object[] held;
      synchronized (s) {
        held = Arrays.copyOf(s.slots, s.used);
      }
      for (Object o : held) {
        if (o != null) {
          action.accept((Tracking.Tracked) o);
        }
      }
    }
  }

  /** Passes every entry still held to {@code action}, then forgets them all. */
  void drainAll(Consumer<Tracking.Tracked> action) {
    for (Stripe s : stripes) {
      Object[] held;
      synchronized (s) {
        held = s.slots;
        s.slots = new Object[64];
        s.free = new int[64];
        s.freeCount = 0;
        s.used = 0;
      }
      for (Object o : held) {
        if (o != null) {
          Tracking.Tracked t = (Tracking.Tracked) o;
          t.stripe = -1;
          action.accept(t);
        }
      }
    }
  }
}
