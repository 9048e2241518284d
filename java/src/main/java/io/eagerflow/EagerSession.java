package io.eagerflow;

import io.eagerflow.internal.ConstantCall;
import io.eagerflow.internal.Flight;
import io.eagerflow.internal.FreeCall;
import io.eagerflow.internal.LeakSites;
import io.eagerflow.internal.LibraryCleaner;
import io.eagerflow.internal.NativeSession;
import io.eagerflow.internal.NativeTensor;
import io.eagerflow.internal.OpInfo;
import io.eagerflow.internal.SessionAccess;
import io.eagerflow.internal.TensorTypes;
import io.eagerflow.internal.Wire;
import io.eagerflow.types.TType;
import java.lang.ref.Cleaner;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.tensorflow.ndarray.Shape;

/**
 * An environment that runs ops at once, as they are built, and owns the native tensors they
 * produce.
 *
 * <p>Every tensor an op produces is native memory the garbage collector cannot see. The session
 * frees it when {@link #release} is called, when the session is {@link #close() closed}, or,
 * depending on the {@link ResourceCleanupStrategy}, once the Java objects that refer to it have
 * become unreachable. An {@link EagerScope} ({@link #newScope()}) frees a block's tensors when it
 * closes, deterministically and without the garbage collector. Use try-with-resources:
 *
 * <pre>{@code
 * try (EagerSession session = EagerSession.create()) {
 *   Ops tf = Ops.create(session);
 *   ...
 * }
 * }</pre>
 *
 * <p>Thread-safe: any number of threads may run ops on one session. {@link #close()} refuses new
 * calls at once, waits (parked) for calls in flight, stops the cleanup thread and frees everything;
 * calls racing with it end with {@link IllegalStateException}, never anything else.
 *
 * <p>After close, every call on the session or on anything it produced (operations, outputs,
 * builders, the tensors {@link Operand#asTensor()} returned, ops run through it) throws {@code
 * IllegalStateException("Eager session has been closed")}, except {@link #stats()} (the final
 * counts), {@link #isClosed()}, {@link #close()}, {@link #resourceCleanupStrategy()} and the naming
 * metadata held in Java: {@link Operation#type()}, {@link Operation#name()}, {@link
 * Operation#numOutputs()} and {@link Output#index()}. {@code shape()} and {@code dataType()} throw,
 * as after {@link #release}.
 *
 * <p>Threads: an {@link ResourceCleanupStrategy#IN_BACKGROUND IN_BACKGROUND} session runs one
 * daemon thread, {@code eagerflow-cleanup-<n>}, from {@link Options#build()} to {@link #close()};
 * the other strategies start none. An asynchronous session ({@link Options#async(boolean)
 * async(true)}) also runs one executor thread, a daemon named {@code eagerflow-exec-<n>}, from
 * {@link Options#build()} to {@link #close()}; it holds no reference to the session (it runs
 * collections for queued ops that meet the memory limit, see below). The library's one cleaner
 * thread, {@code eagerflow-cleaner}, frees standalone tensors and sessions that became unreachable
 * without being closed (with a warning). Such a forgotten session keeps its tensors and its thread
 * until a garbage collection finds it, so when sessions left open accumulate (64 at first; then
 * twice as many as a collection left open), {@link Options#build()} requests a collection and waits
 * briefly for the cleaner to close the forgotten ones. That request is not counted in any session's
 * {@link SessionStats#gcRequests()}.
 *
 * <p>Asynchronous sessions ({@link Options#async(boolean) async(true)}): building an op with one
 * output checks what needs no values (the op exists, its inputs' number and layout, its attributes'
 * names, that its inputs are live) and, for the ops with build-time inference (the list is in the
 * README's "Asynchronous sessions" section), what their inputs' dtypes and shapes decide, throwing
 * from {@code build()} the exception and message a synchronous session would; inputs still pending
 * count with the dtype and shape inferred when their own op was built. It then queues the op on the
 * session's executor thread and returns at once; ops with several outputs ({@code split}, {@code
 * unstack}, the cross-entropy ops) wait for their inputs and run on the building thread, since
 * their output count depends on values. Queued ops run one at a time in the order they were queued,
 * so each thread's ops run in the order it built them, and an op runs after the ops whose outputs
 * it reads, whichever thread built them. Reading an output ({@link Operand#asTensor()}, copies)
 * waits for that output only; {@code shape()} and {@code dataType()} answer at once when the build
 * inferred them (an op whose output shape depends on values computed by an earlier op, such as
 * {@code gather}, or {@code Reshape}, {@code Transpose} or a reduction given a computed shape,
 * permutation or axis, is known once it ran) and wait otherwise. An op that fails when it runs (a
 * dtype or shape mismatch, an index out of range, the memory limit) marks its output failed: every
 * read of it, or of an output computed from it, throws the exception a synchronous session would
 * have thrown when building it, naming the op; {@link #sync()} throws the first such error once.
 * {@link #release}, scopes and the cleanup strategies free a pending output once its op has run,
 * and nothing a queued op still needs is freed before it runs. {@link #close()} cancels the queued
 * ops that have not started, waits for the one running, and frees everything. The queue is bounded
 * ({@link Options#asyncQueueCapacity}): a thread that builds an op while it is full waits for room,
 * so neither the queue nor native memory grows without limit ({@link Options#maxNativeBytes} bounds
 * what queued ops allocate too). A queued op whose allocation meets that limit gets what a building
 * thread gets under {@link ResourceCleanupStrategy#IN_BACKGROUND IN_BACKGROUND} and {@link
 * ResourceCleanupStrategy#ON_SAFE_POINTS ON_SAFE_POINTS}: the executor thread requests a garbage
 * collection, lets the cleanup free what was unreachable, and retries the op once; under {@link
 * ResourceCleanupStrategy#ON_SESSION_CLOSE ON_SESSION_CLOSE} the op fails with {@link
 * NativeMemoryExhaustedException} at once.
 */
public final class EagerSession implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.eagerflow");
  private static final Object DEFAULT_LOCK = new Object();
  private static volatile EagerSession defaultSession;

  static {
    SessionAccess.set(new Access());
  }

  /** Controls how native tensors of unreachable outputs are freed. */
  public enum ResourceCleanupStrategy {
    /**
     * The session's own daemon thread ({@code eagerflow-cleanup-<n>}, one per open session) frees
     * unreachable outputs as soon as the garbage collector finds them. The default.
     */
    IN_BACKGROUND,
    /**
     * The thread that next calls into the session (running an op, creating a constant, {@code
     * asTensor()}, {@link EagerSession#release}) first frees what the garbage collector found
     * unreachable. No extra thread; a session nobody calls keeps its garbage until then.
     */
    ON_SAFE_POINTS,
    /**
     * Nothing is freed before {@link EagerSession#close()} (other than by {@link
     * EagerSession#release}); no reference is even tracked. Cheapest per op, but memory grows with
     * every op until close: use it for short sessions, or with {@link Options#maxNativeBytes}.
     */
    ON_SESSION_CLOSE
  }

  /**
   * Where ops run. This library computes on the CPU only, so the policy has no effect; it exists so
   * that TensorFlow Java code ports unchanged.
   */
  public enum DevicePlacementPolicy {
    /** No effect (CPU only). */
    EXPLICIT,
    /** No effect (CPU only). */
    WARN,
    /** No effect (CPU only). The default. */
    SILENT,
    /** No effect (CPU only). */
    SILENT_FOR_INT32
  }

  /** Settings for a new session. */
  public static final class Options {
    private static final double DEFAULT_MAX_GC_TIME_SHARE = 0.6;
    private boolean async;
    private DevicePlacementPolicy devicePlacementPolicy = DevicePlacementPolicy.SILENT;
    private ResourceCleanupStrategy resourceCleanupStrategy = ResourceCleanupStrategy.IN_BACKGROUND;
    private long maxNativeBytes;
    private long gcTriggerBytes;
    private double maxGcTimeShare = DEFAULT_MAX_GC_TIME_SHARE;
    private boolean trackLeaks;
    private int asyncQueueCapacity = DEFAULT_ASYNC_QUEUE_CAPACITY;

    /** The default bound of an asynchronous session's queue. */
    public static final int DEFAULT_ASYNC_QUEUE_CAPACITY = 1024;

    /**
     * The largest {@link #asyncQueueCapacity} accepted, 65,536 (64 times the default): one executor
     * thread gains nothing from a building thread that runs further ahead. The queue sets nothing
     * aside for its capacity; each op waiting in it holds a few hundred bytes of bookkeeping (more
     * with long input or attribute lists), counted against {@link #maxNativeBytes}. The native
     * library enforces the same bound.
     */
    public static final int MAX_ASYNC_QUEUE_CAPACITY = 1 << 16;

    private Options() {}

    /**
     * Asynchronous execution: ops are queued on the session's executor thread and building one
     * returns at once (see {@link EagerSession} for the rules). Default {@code false}: each op runs
     * on the thread that builds it before the call returns.
     */
    public Options async(boolean value) {
      this.async = value;
      return this;
    }

    /**
     * How many ops an asynchronous session may hold queued; building an op while the queue is full
     * waits for room (backpressure). No effect without {@link #async(boolean) async(true)}. Default
     * {@value #DEFAULT_ASYNC_QUEUE_CAPACITY}, at most {@value #MAX_ASYNC_QUEUE_CAPACITY}.
     *
     * <p>Memory follows what is queued, not the capacity: nothing is set aside when the session is
     * built. An op waiting in the queue holds a few hundred bytes of bookkeeping, counted against
     * {@link #maxNativeBytes} until it has run, so tensors cannot use that room. An ordinary op is
     * queued even with the limit reached (it fails when it runs, as its allocation would); one
     * whose bookkeeping exceeds 1 KiB (long input or attribute lists) is refused at build past the
     * limit with {@link NativeMemoryExhaustedException}. A full queue at the maximum capacity thus
     * holds at most 64 MiB beyond the limit.
     *
     * @throws IllegalArgumentException if {@code capacity} is not between 1 and {@value
     *     #MAX_ASYNC_QUEUE_CAPACITY}
     */
    public Options asyncQueueCapacity(int capacity) {
      if (capacity <= 0 || capacity > MAX_ASYNC_QUEUE_CAPACITY) {
        throw new IllegalArgumentException(
            "asyncQueueCapacity must be between 1 and "
                + MAX_ASYNC_QUEUE_CAPACITY
                + ", got "
                + capacity);
      }
      this.asyncQueueCapacity = capacity;
      return this;
    }

    /** Accepted for compatibility; has no effect, since ops run on the CPU only. */
    public Options devicePlacementPolicy(DevicePlacementPolicy value) {
      this.devicePlacementPolicy = Objects.requireNonNull(value, "value");
      return this;
    }

    /** How unreachable outputs are freed; default {@link ResourceCleanupStrategy#IN_BACKGROUND}. */
    public Options resourceCleanupStrategy(ResourceCleanupStrategy value) {
      this.resourceCleanupStrategy = Objects.requireNonNull(value, "value");
      return this;
    }

    /**
     * A hard limit on the bytes of live tensors in the session. An op or constant that would exceed
     * it first triggers one collection and cleanup (except under {@code ON_SESSION_CLOSE}), then,
     * if still too large, throws {@link NativeMemoryExhaustedException} naming the limit, the live
     * and requested bytes, the strategy, the collections the session requested and what they freed,
     * and what to do. Nothing is left half-allocated and the session stays usable.
     *
     * <p>Every session has a limit. Default ({@code 0} or less): a quarter of the memory the
     * process may use, that is of its cgroup's memory limit ({@code /sys/fs/cgroup/memory.max}, or
     * {@code memory/memory.limit_in_bytes} under cgroup v1) when there is one, else of the physical
     * RAM (6 GiB on a 24 GiB machine). {@code Long.MAX_VALUE} means no practical limit.
     *
     * <p>When garbage collections cannot free native memory (the session has no way to cause one:
     * {@code -XX:+DisableExplicitGC} makes {@code System.gc()} a no-op and the collector has no
     * Eden to fill, as with ZGC; or three requested collections in a row freed nothing), an {@code
     * IN_BACKGROUND} or {@code ON_SAFE_POINTS} session stops requesting them, logs one WARNING
     * ({@code io.eagerflow}), and relies on this limit: it never grows past it.
     */
    public Options maxNativeBytes(long bytes) {
      this.maxNativeBytes = bytes;
      return this;
    }

    /**
     * The soft threshold of live native bytes past which an {@code IN_BACKGROUND} or {@code
     * ON_SAFE_POINTS} session causes a garbage collection and lets its cleanup catch up before the
     * allocating call returns (the GC cannot see native memory, so without this a loop with a large
     * heap could exhaust RAM first). Outputs' Java owners die young, so where the collector has an
     * Eden (G1, Parallel, Serial) the session causes a young collection by filling the rest of Eden
     * with short-lived arrays, which works under {@code -XX:+DisableExplicitGC} too and costs far
     * less than a full collection with a large live heap; it calls {@code System.gc()} when the
     * last full collection cost less than filling Eden would, when a young collection freed
     * nothing, and on collectors without an Eden (ZGC, Shenandoah). Requests are rate-limited: at
     * least half the threshold must have been allocated since the previous one; each collection
     * caused is counted in {@link SessionStats#gcRequests()}. {@code ON_SESSION_CLOSE} never
     * requests one. A value set here is fixed; one above {@link #maxNativeBytes} means the session
     * never requests a collection (only the hard limit does). Default ({@code 0} or less):
     * adaptive, see {@link #maxGcTimeShare}.
     */
    public Options gcTriggerBytes(long bytes) {
      this.gcTriggerBytes = bytes;
      return this;
    }

    /**
     * How much of the wall time the collections an {@code IN_BACKGROUND} or {@code ON_SAFE_POINTS}
     * session requests may take, between 0 and 1 (exclusive). After each requested collection the
     * session measures what it cost (the wall time the caller waited, and the collectors' own times
     * from their MX beans) and how fast its live native bytes grew since the previous one, and sets
     * the adaptive soft threshold to the bytes still live plus what it may allocate before the
     * collections would exceed this share, but at most an eighth of {@link #maxNativeBytes} (768
     * MiB under a 6 GiB cap) more; never below 64 MiB nor above three quarters of {@link
     * #maxNativeBytes}. So a small heap (cheap collections) keeps native memory near 64 MiB, and a
     * large live heap (costly collections) lets it grow, within that eighth, instead of spending
     * all the time collecting. Has no effect with a fixed {@link #gcTriggerBytes}. Default 0.6
     * ({@code docs/memory.md} has the measurements behind it).
     *
     * @throws IllegalArgumentException if {@code share} is not in (0, 1)
     */
    public Options maxGcTimeShare(double share) {
      if (!(share > 0 && share < 1)) {
        throw new IllegalArgumentException(
            "maxGcTimeShare must be between 0 and 1 (exclusive), got " + share);
      }
      this.maxGcTimeShare = share;
      return this;
    }

    /**
     * Records where each op output (and, from then on, each standalone tensor) is created. When one
     * is freed by the cleanup strategy or at close instead of by {@link EagerSession#release} or
     * {@code close()}, or the session is collected without {@code close()}, the creation site is
     * logged once at WARNING through {@link System.Logger} ({@code io.eagerflow}). Costs a stack
     * capture per op; off by default, and free when off. The system property {@code
     * eagerflow.trackLeaks=true} turns it on for standalone tensors.
     */
    public Options trackLeaks(boolean value) {
      this.trackLeaks = value;
      return this;
    }

    /**
     * A new session with these options; under {@code IN_BACKGROUND} its cleanup thread is started,
     * and with {@code async(true)} its executor thread. When many sessions are open (see {@link
     * EagerSession}), first requests a garbage collection and waits briefly, bounded, for forgotten
     * sessions to be closed.
     */
    public EagerSession build() {
      return new EagerSession(this, false);
    }
  }

  private final NativeSession core;
  private final ResourceCleanupStrategy strategy;
  private final boolean isDefault;
  private final Cleaner.Cleanable cleanable;
  private final AtomicBoolean closedByCaller = new AtomicBoolean();
  private final LeakSites.Site site;

  /** The scopes open on this session, per thread. */
  final ScopeStack scopes = new ScopeStack();

  private EagerSession(Options options, boolean isDefault) {
    this.strategy = options.resourceCleanupStrategy;
    this.isDefault = isDefault;
    NativeSession.Mode mode =
        switch (strategy) {
          case IN_BACKGROUND -> NativeSession.Mode.BACKGROUND;
          case ON_SAFE_POINTS -> NativeSession.Mode.SAFE_POINTS;
          case ON_SESSION_CLOSE -> NativeSession.Mode.ON_CLOSE;
        };
    this.core =
        new NativeSession(
            options.maxNativeBytes > 0
                ? options.maxNativeBytes
                : io.eagerflow.internal.GcFacts.defaultMaxNativeBytes(),
            options.gcTriggerBytes,
            options.maxGcTimeShare,
            mode,
            strategy.name(),
            options.trackLeaks,
            options.async ? options.asyncQueueCapacity : 0);
    this.site = isDefault ? null : LeakSites.sessionSite(options.trackLeaks);
    this.cleanable =
        isDefault ? null : LibraryCleaner.register(this, new Forgotten(core, closedByCaller, site));
  }

  /** New options with the defaults. */
  public static Options options() {
    return new Options();
  }

  /** A new session with default options; close it when done. */
  public static EagerSession create() {
    return options().build();
  }

  /**
   * Creates the default session (used by {@code Ops.create()}) with {@code options}.
   *
   * @throws IllegalStateException if the default session already exists
   */
  public static EagerSession initDefault(Options options) {
    Objects.requireNonNull(options, "options");
    synchronized (DEFAULT_LOCK) {
      if (defaultSession != null) {
        throw new IllegalStateException("Default eager session is already initialized");
      }
      defaultSession = new EagerSession(options, true);
      return defaultSession;
    }
  }

  /** The default session, created with default options on first use; it is never closed. */
  public static EagerSession getDefault() {
    EagerSession s = defaultSession;
    if (s == null) {
      synchronized (DEFAULT_LOCK) {
        s = defaultSession;
        if (s == null) {
          s = new EagerSession(options(), true);
          defaultSession = s;
        }
      }
    }
    return s;
  }

  /** This session's cleanup strategy. */
  public ResourceCleanupStrategy resourceCleanupStrategy() {
    return strategy;
  }

  NativeSession core() {
    return core;
  }

  /**
   * A builder for an op of TensorFlow type {@code type} (such as {@code "AddV2"}); a safe point.
   *
   * @param name the op's name, or {@code null} for one derived from the type
   * @throws IllegalArgumentException if there is no such op type
   * @throws IllegalStateException if the session is closed
   */
  public OperationBuilder opBuilder(String type, @Nullable String name) {
    Objects.requireNonNull(type, "type");
    core.safePoint();
    return new EagerOperationBuilder(this, OpInfo.of(type), name);
  }

  /**
   * Frees the given op outputs now, under every strategy; a safe point. Releasing twice is a no-op;
   * any later use of a released operand throws {@link IllegalStateException} naming it. Every
   * operand is checked before anything is freed: if one is invalid, none is released.
   *
   * @throws NullPointerException if {@code operands} or one of them is null
   * @throws IllegalArgumentException if an operand belongs to another session
   * @throws IllegalStateException if this session, or an operand's session, is closed
   */
  public void release(Operand<?>... operands) {
    Release release = Release.acquire(this, operands);
    try {
      core.call(release);
    } finally {
      release.done();
    }
  }

  private Output<?> releasable(Operand<?>[] operands, int i) {
    Operand<?> operand = operands[i];
    if (operand == null) {
      throw new NullPointerException("operands[" + i + "]");
    }
    Output<?> o = operand.asOutput();
    if (o == null) {
      throw new NullPointerException("operands[" + i + "].asOutput()");
    }
    if (o.session() != this) {
      throw new IllegalArgumentException(
          "release: operands[" + i + "] " + o + " belongs to another session");
    }
    return o;
  }

  /**
   * Frees released outputs in one native call; a safe point. Each thread reuses one, as the op
   * facade reuses its calls, so that releasing allocates nothing.
   */
  private static final class Release extends FreeCall {
    private static final ThreadLocal<Release> CACHED = ThreadLocal.withInitial(Release::new);

    private EagerSession session;
    private Operand<?>[] operands;
    private Output<?> only;
    private Output<?>[] outputs;
    private boolean busy;

    private Release() {
      super(true, Wire.FREED_EXPLICITLY);
    }

    static Release acquire(EagerSession session, Operand<?>[] operands) {
      Release r = CACHED.get();
      if (r.busy) {
        r = new Release(); // a release made while this thread's is running
      }
      r.busy = true;
      r.session = session;
      r.operands = operands;
      return r;
    }

    /** Forgets the operands, and lets this thread use it again. */
    void done() {
      resetFrees();
      session = null;
      operands = null;
      only = null;
      outputs = null;
      busy = false;
    }

    @Override
    protected void select() {
      Objects.requireNonNull(operands, "operands");
      if (operands.length == 1) {
        only = session.releasable(operands, 0);
        if (only.markReleased()) {
          free(only.handle);
        }
        return;
      }
      // Operand is an interface: ask each one once, and check them all before freeing any.
      outputs = new Output<?>[operands.length];
      for (int i = 0; i < operands.length; i++) {
        outputs[i] = session.releasable(operands, i);
      }
      for (Output<?> o : outputs) {
        if (o.markReleased()) {
          free(o.handle);
        }
      }
    }

    @Override
    protected void freed() {
      // Untracking is idempotent: outputs released before this call are untracked again harmlessly.
      if (only != null) {
        only.operation().outputReleased();
      } else {
        for (Output<?> o : outputs) {
          o.operation().outputReleased();
        }
      }
    }
  }

  /**
   * Opens a scope on the calling thread: until it closes, every tensor this thread creates on this
   * session (while no scope opened later on this thread and session is open) belongs to it, and
   * {@link EagerScope#close()} frees them all at once, under every strategy, with no garbage
   * collection. {@link EagerScope#keep} moves a result out. Scopes nest, and are confined to the
   * thread that opened them, like {@code Arena.ofConfined()}; see {@link EagerScope} for the rules.
   *
   * <pre>{@code
   * try (EagerScope scope = session.newScope()) {
   *   Operand<TFloat32> t = tf.math.mul(x, x);
   *   y = scope.keep(tf.math.add(t, x));   // t is freed at the end of the block, y is not
   * }
   * }</pre>
   *
   * @throws IllegalStateException if the session is closed
   */
  public EagerScope newScope() {
    core.checkOpen();
    return scopes.push(this);
  }

  /**
   * Waits until every op queued on this asynchronous session so far (by any thread) has run, then
   * reports failures, as TensorFlow Java's {@code sync} does: the session remembers only the
   * <em>first</em> queued op that failed since the previous {@code sync()} returned or threw, in
   * the order the executor ran them, and this call throws its error (the exception type and message
   * a synchronous session would have thrown building that op). Ops that failed after it in the same
   * interval are not reported by this call nor by any later one; each failure stays attached to its
   * own outputs instead, so reading one of them, or an output of any op that depends on it, throws
   * that op's error. An op that failed only because an input had failed is not a failure of its
   * own. Errors thrown by {@code build()} itself (what dtypes and shapes decide) are never queued
   * and never reported here. The error is thrown once: the next {@code sync()} reports only
   * failures after this call, and the session goes on. On a synchronous session there is nothing to
   * wait for. A safe point.
   *
   * @throws IllegalStateException if the session is closed (also while waiting)
   */
  public void sync() {
    core.sync();
  }

  /** Counters of this session's native tensors; after close, the final counts. */
  public SessionStats stats() {
    return SessionStats.of(core.stats());
  }

  /** Whether {@link #close()} has been called. */
  public boolean isClosed() {
    return core.isClosed();
  }

  /**
   * Frees everything the session holds and stops its cleanup thread; later calls throw {@link
   * IllegalStateException}. Waits for calls in flight on other threads to end first. On an
   * asynchronous session, cancels the queued ops that have not started (reads of their outputs
   * throw {@code IllegalStateException("Eager session has been closed")}), waits for the one
   * running, and joins the executor thread. Idempotent; a concurrent second call waits for the
   * first.
   *
   * @throws IllegalStateException on the default session, which cannot be closed
   */
  @Override
  public void close() {
    if (isDefault) {
      throw new IllegalStateException("Default eager session cannot be closed");
    }
    closedByCaller.set(true);
    cleanable.clean();
    core.close(); // waits if another thread is closing it right now
  }

  /**
   * Frees a session: run by {@link #close()}, or by the library's cleaner for a session that became
   * unreachable without it, which is then reported.
   */
  private record Forgotten(NativeSession core, AtomicBoolean closedByCaller, LeakSites.Site site)
      implements Runnable {
    @Override
    public void run() {
      boolean first = core.close();
      if (closedByCaller.get()) {
        LeakSites.closed(site);
      } else if (first) {
        LeakSites.report(site, "the session was collected without close()");
        SessionStats s = SessionStats.of(core.stats());
        Flight.log(
            LOG,
            System.Logger.Level.WARNING,
            Flight.Kind.FORGOTTEN_SESSION,
            "An EagerSession became unreachable without close(); freed its "
                + s.freedAtClose()
                + " remaining tensors. Close sessions with try-with-resources.",
            null);
      }
    }
  }

  private static final class Access extends SessionAccess {
    @Override
    public <T extends TType> Output<T> constant(
        EagerSession session, DataType dataType, Shape shape, Object data) {
      return session.core.call(new Constant(session, dataType, shape, data)).output(0);
    }

    @Override
    public <T extends TType> Output<T> constantOf(EagerSession session, TType tensor) {
      NativeTensor source = TensorTypes.unwrap(tensor);
      return session.core.call(new Constant(session, source)).output(0);
    }

    @Override
    public OperationBuilder opBuilder(EagerSession session, OpInfo op, @Nullable String name) {
      return new EagerOperationBuilder(session, op, name);
    }

    @Override
    public void name(Output<?> output, String name) {
      output.operation().rename(name);
    }

    @Override
    public <T extends TType> Output<T> run(EagerSession session, OpInfo op, Operand<?>... inputs) {
      int n = inputs.length;
      boolean fast = op.singleOutput() && (n == 1 || n == 2);
      Output<?> x = fast ? input(inputs[0]) : null;
      Output<?> y = fast && n == 2 ? input(inputs[1]) : null;
      if (!fast || x.session() != session || (y != null && y.session() != session)) {
        // The general path: other output counts and arities, and inputs of another session,
        // which the builder enters for the call. Outputs go in as they are, so that the builder's
        // own checks name the op (Output.asOutput() would throw first, without it).
        OperationBuilder b = new EagerOperationBuilder(session, op, null);
        for (Operand<?> in : inputs) {
          b.addInput(input(in));
        }
        return b.build().output(0);
      }
      FacadeCall call = FacadeCall.acquire(session, op, x, y);
      try {
        return session.core.call(call).output(0);
      } finally {
        call.release();
      }
    }

    @Override
    public <T extends TType> Output<T> runWithScalar(
        EagerSession session, OpInfo op, Operand<?> input, DataType dataType, double value) {
      Output<?> x = input(input);
      if (x.session() != session) {
        EagerOperationBuilder.checkForeign(op.type(), x, "input");
      }
      FacadeCall call = FacadeCall.acquire(session, op, x, null).withScalar(dataType, value);
      try {
        return session.core.call(call).output(0);
      } finally {
        call.release();
      }
    }

    private static Output<?> input(Operand<?> operand) {
      // An Output is checked by the call; other Operands may compute their output.
      return Objects.requireNonNull(operand, "input") instanceof Output<?> out
          ? out
          : operand.asOutput();
    }
  }

  /** A constant made in the session's table, from an array or as a copy of a tensor. */
  private static final class Constant extends ConstantCall<EagerOperation> {
    private final EagerSession session;

    Constant(EagerSession session, DataType dataType, Shape shape, Object data) {
      super(dataType, shape, data);
      this.session = session;
    }

    Constant(EagerSession session, NativeTensor source) {
      super(source);
      this.session = session;
    }

    @Override
    protected EagerOperation result(long handle) {
      return new EagerOperation(session, "Const", null, handle, dataType, shape);
    }
  }
}
