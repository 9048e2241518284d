package io.eagerflow;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Jazzer fuzz target: programs of up to {@link #MAX_STEPS} steps over two sessions (any cleanup
 * strategy, synchronous or not) that make constants and ops, open scopes, close them in any order
 * (inner ones still open, twice, from another thread, after their session), keep operands into
 * scopes they may not belong to, release operands in any combination (twice, null, of the other
 * session, of a closed scope), read operands, and close sessions under all of it. A model of who
 * owns what says which operands are live: a live one must read its exact value, a freed one must
 * throw {@link IllegalStateException}; every other outcome must be a documented exception. At the
 * end, with every scope and session closed, the sessions hold nothing and count every tensor they
 * created as freed, and the process's bytes and tensors are back where they were.
 *
 * <p>{@code gradle fuzz -Pfuzz.target=io.eagerflow.ScopeFuzzTest#scopesAndReleases}.
 */
class ScopeFuzzTest {
  static final int MAX_STEPS = 40;

  /** An operand and what the model knows of it. */
  private static final class Value {
    final Operand<TFloat32> operand;
    final int session;
    final float expected;
    Scope owner; // null: owned by the session
    boolean freed;

    Value(Operand<TFloat32> operand, int session, float expected, Scope owner) {
      this.operand = operand;
      this.session = session;
      this.expected = expected;
      this.owner = owner;
    }
  }

  private static final class Scope {
    final EagerScope scope;
    final int session;
    final Scope parent;
    boolean closed;

    Scope(EagerScope scope, int session, Scope parent) {
      this.scope = scope;
      this.session = session;
      this.parent = parent;
    }
  }

  private final List<EagerSession> sessions = new ArrayList<>();
  private final List<Value> values = new ArrayList<>();
  private final List<Scope> scopes = new ArrayList<>();

  @FuzzTest(maxDuration = "10m")
  void scopesAndReleases(FuzzedDataProvider data) throws Exception {
    FuzzInput in = new FuzzInput(data);
    long bytes = NativeMemory.liveBytes();
    long tensors = NativeMemory.liveTensors();
    sessions.clear();
    values.clear();
    scopes.clear();
    for (int i = 0; i < 2; i++) {
      sessions.add(
          EagerSession.options()
              .resourceCleanupStrategy(in.of(ResourceCleanupStrategy.values()))
              .async(in.bool())
              .maxNativeBytes(1L << 20)
              .build());
    }
    try {
      for (int step = 0; step < MAX_STEPS && in.hasMore(); step++) {
        step(in);
      }
    } finally {
      for (int i = scopes.size() - 1; i >= 0; i--) {
        scopes.get(i).scope.close(); // innermost first: the order that always works
      }
      for (EagerSession s : sessions) {
        s.close();
      }
    }
    for (EagerSession s : sessions) {
      SessionStats st = s.stats();
      if (st.liveTensors() != 0
          || st.liveBytes() != 0
          || st.createdTensors()
              != st.freedExplicitly()
                  + st.freedByScope()
                  + st.freedByCleanup()
                  + st.freedAtClose()) {
        throw new AssertionError("a closed session's counts are off: " + st);
      }
    }
    if (NativeMemory.liveBytes() > bytes || NativeMemory.liveTensors() > tensors) {
      throw new AssertionError("process bytes " + bytes + " -> " + NativeMemory.liveBytes());
    }
  }

  private void step(FuzzInput in) throws Exception {
    int k = in.between(0, 1);
    EagerSession s = sessions.get(k);
    String what = "?";
    try {
      switch (in.between(0, 9)) {
        case 0 -> {
          float v = in.between(-8, 8);
          what = "constant " + v;
          add(Ops.create(s).constant(v), k, v);
        }
        case 1 -> {
          Value x = pick(in);
          what = "neg";
          if (x != null) {
            add(Ops.create(s).math.neg(x.operand), k, -x.expected);
          }
        }
        case 2 -> {
          Value x = pick(in);
          Value y = pick(in);
          what = "add";
          if (x != null && y != null) {
            add(Ops.create(s).math.add(x.operand, y.operand), k, x.expected + y.expected);
          }
        }
        case 3 -> {
          what = "newScope";
          EagerScope scope = s.newScope();
          scopes.add(new Scope(scope, k, innermost(k)));
        }
        case 4 -> {
          Scope sc = pickScope(in);
          what = "close a scope";
          if (sc != null) {
            closeScope(sc);
          }
        }
        case 5 -> {
          Scope sc = pickScope(in);
          Value x = pick(in);
          what = "keep";
          if (sc != null && x != null) {
            keep(sc, x);
          }
        }
        case 6 -> {
          what = "release";
          release(in, s, k);
        }
        case 7 -> {
          Value x = pick(in);
          what = "read";
          if (x != null) {
            read(x);
          }
        }
        case 8 -> {
          what = "close session " + k;
          s.close();
          for (Value v : values) {
            v.freed |= v.session == k;
          }
          for (Scope sc : scopes) {
            sc.closed |= sc.session == k;
          }
        }
        default -> {
          Scope sc = pickScope(in);
          Value x = pick(in);
          what = "from another thread";
          if (sc != null) {
            fromAnotherThread(sc, x);
          }
        }
      }
    } catch (RuntimeException e) {
      FuzzInput.requireDocumented(e, what);
    }
  }

  private void add(Operand<TFloat32> o, int session, float expected) {
    values.add(new Value(o, session, expected, innermost(session)));
  }

  private Value pick(FuzzInput in) {
    return values.isEmpty() ? null : in.of(values);
  }

  private Scope pickScope(FuzzInput in) {
    return scopes.isEmpty() ? null : in.of(scopes);
  }

  /** The innermost open scope of a session on this thread, or null. */
  private Scope innermost(int session) {
    for (int i = scopes.size() - 1; i >= 0; i--) {
      Scope sc = scopes.get(i);
      if (sc.session == session && !sc.closed) {
        return sc;
      }
    }
    return null;
  }

  private void closeScope(Scope sc) {
    boolean sessionClosed = sessions.get(sc.session).isClosed();
    boolean innerOpen = !sc.closed && !sessionClosed && innermost(sc.session) != sc;
    try {
      sc.scope.close();
    } catch (IllegalStateException e) {
      if (!innerOpen) {
        throw new AssertionError("closing a scope with no scope open inside it threw", e);
      }
      return;
    }
    if (innerOpen) {
      throw new AssertionError("a scope closed while a scope inside it was open");
    }
    if (!sc.closed) {
      sc.closed = true;
      for (Value v : values) {
        v.freed |= v.owner == sc;
      }
    }
  }

  private void keep(Scope sc, Value x) {
    boolean ok = !sc.closed && x.session == sc.session && !x.freed;
    try {
      sc.scope.keep(x.operand);
    } catch (IllegalStateException | IllegalArgumentException e) {
      if (ok) {
        throw new AssertionError("keep of a live operand into its open scope threw", e);
      }
      return;
    }
    if (!ok) {
      throw new AssertionError("keep accepted what it must refuse");
    }
    if (x.owner == sc) {
      x.owner = sc.parent;
    }
  }

  private void release(FuzzInput in, EagerSession s, int k) {
    int n = in.between(0, 4);
    Operand<?>[] operands = new Operand<?>[n];
    boolean valid = !s.isClosed();
    List<Value> chosen = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Value x = in.between(0, 15) == 0 ? null : pick(in);
      operands[i] = x == null ? null : x.operand;
      if (x == null) {
        valid = false;
      } else {
        chosen.add(x);
        valid &= x.session == k;
      }
    }
    try {
      s.release(operands);
    } catch (RuntimeException e) {
      if (valid) {
        throw new AssertionError("release of operands of its own open session threw", e);
      }
      throw e;
    }
    for (Value x : chosen) {
      x.freed = true;
    }
  }

  private void read(Value x) {
    float got;
    try {
      got = x.operand.asTensor().getFloat();
    } catch (IllegalStateException e) {
      if (!x.freed) {
        throw new AssertionError("a live operand could not be read", e);
      }
      return;
    }
    if (x.freed) {
      throw new AssertionError("a freed operand was read: " + got);
    }
    if (got != x.expected) {
      throw new AssertionError("read " + got + ", expected " + x.expected);
    }
  }

  /**
   * A scope's close or keep from a thread that did not open it: always {@link
   * IllegalStateException} (confinement is checked first), and nothing changes.
   */
  private void fromAnotherThread(Scope sc, Value x) throws InterruptedException {
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread t =
        new Thread(
            () -> {
              try {
                if (x == null) {
                  sc.scope.close();
                } else {
                  sc.scope.keep(x.operand);
                }
              } catch (Throwable e) {
                thrown.set(e);
              }
            });
    t.start();
    t.join();
    if (!(thrown.get() instanceof IllegalStateException)) {
      throw new AssertionError("a call from another thread threw " + thrown.get(), thrown.get());
    }
  }
}
