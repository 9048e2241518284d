package example.spark;

import io.eagerflow.EagerSession;
import io.eagerflow.op.Ops;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.LongAccumulator;

/**
 * The one {@link EagerSession} of this executor JVM, and the models loaded in it. Every task the
 * executor runs, on any of its task threads, shares them: an {@code EagerSession} and the operands
 * made on it may be used from any number of threads at once, so a model is loaded once per
 * executor, not once per partition or per task. (With {@code local[2]} the driver's JVM is the one
 * executor, and its two task threads share this session.) Scopes stay per thread: each task opens
 * its own on this session.
 *
 * <p>The session is never closed: it lives as long as the executor, like Spark's own per-executor
 * caches, and the operating system takes its memory back when the executor exits.
 */
final class ExecutorSession {
  private static final long MIB = 1L << 20;

  /** Share of the memory overhead the session may hold; the rest is for the JVM's own needs. */
  static final String SHARE_KEY = "spark.eagerflow.overheadShare";

  static final double DEFAULT_SHARE = 0.5;

  final String executorId;
  final long maxNativeBytes;
  final EagerSession session;
  private final Ops tf;
  private final ConcurrentHashMap<Long, SoftmaxModel.Loaded> models = new ConcurrentHashMap<>();

  private ExecutorSession(String executorId, long maxNativeBytes) {
    this.executorId = executorId;
    this.maxNativeBytes = maxNativeBytes;
    this.session = EagerSession.options().maxNativeBytes(maxNativeBytes).build();
    this.tf = Ops.create(session);
  }

  private static volatile ExecutorSession instance;

  /** This JVM's session, created on first use (in a task, where {@code SparkEnv} is set). */
  static ExecutorSession get() {
    ExecutorSession current = instance;
    if (current == null) {
      synchronized (ExecutorSession.class) {
        current = instance;
        if (current == null) {
          SparkEnv env = SparkEnv.get();
          current = new ExecutorSession(env.executorId(), maxNativeBytes(env.conf()));
          instance = current;
        }
      }
    }
    return current;
  }

  /** The session if a task of this JVM created it, else null; for checks in local mode. */
  static ExecutorSession ifCreated() {
    return instance;
  }

  /**
   * The session's cap: a share ({@value #SHARE_KEY}, default {@value #DEFAULT_SHARE}) of the memory
   * Spark reserves beside the executor's heap. A cluster manager (YARN, Kubernetes) kills an
   * executor whose heap plus native memory outgrows heap + overhead; the cap turns that into a
   * {@code NativeMemoryExhaustedException} in the task that asked for too much. The overhead is
   * {@code spark.executor.memoryOverhead} when set, else Spark's default: {@code
   * spark.executor.memoryOverheadFactor} (0.10) of {@code spark.executor.memory} (1g), at least
   * {@code spark.executor.minMemoryOverhead} (384m). In local mode the executor runs in the
   * driver's JVM, so the driver's settings of the same names apply: 384 MiB overhead by default, a
   * 192 MiB cap.
   */
  static long maxNativeBytes(SparkConf conf) {
    String role = isLocal(conf.get("spark.master", "")) ? "driver" : "executor";
    String prefix = "spark." + role + ".";
    long overheadMib;
    if (conf.contains(prefix + "memoryOverhead")) {
      overheadMib = conf.getSizeAsMb(prefix + "memoryOverhead");
    } else {
      long heapMib = conf.getSizeAsMb(prefix + "memory", "1g");
      double factor = conf.getDouble(prefix + "memoryOverheadFactor", 0.10);
      long minimumMib = conf.getSizeAsMb(prefix + "minMemoryOverhead", "384m");
      overheadMib = Math.max(minimumMib, (long) (factor * heapMib));
    }
    double share = conf.getDouble(SHARE_KEY, DEFAULT_SHARE);
    if (!(share > 0 && share <= 1)) {
      throw new IllegalArgumentException(SHARE_KEY + " must be in (0, 1], got " + share);
    }
    return (long) (share * overheadMib * MIB);
  }

  /**
   * Whether {@code master} runs the executor inside the driver's JVM: {@code local}, {@code
   * local[N]}, {@code local[N,F]}, {@code local[*]}; not {@code local-cluster[...]}, whose
   * executors are JVMs of their own.
   */
  static boolean isLocal(String master) {
    return master.equals("local") || master.startsWith("local[");
  }

  /**
   * The model {@code weights} holds, loaded into this session by the first task that asks; later
   * tasks on any thread get the same operands. Each load adds one to {@code loads}.
   */
  SoftmaxModel.Loaded model(Broadcast<SoftmaxModel.Weights> weights, LongAccumulator loads) {
    return models.computeIfAbsent(
        weights.id(),
        id -> {
          SoftmaxModel.Loaded loaded = loadOutsideScopes(weights.value());
          loads.add(1);
          return loaded;
        });
  }

  /**
   * Makes the model's constants on a thread of its own. A tensor belongs to the innermost scope its
   * thread has open on the session, and a task thread may have one open (a scored partition
   * upstream in the same task): the model must belong to the session, or that scope's close would
   * free it under every later task.
   */
  private SoftmaxModel.Loaded loadOutsideScopes(SoftmaxModel.Weights weights) {
    FutureTask<SoftmaxModel.Loaded> load =
        new FutureTask<>(() -> new SoftmaxModel.Loaded(tf, weights));
    Thread loader = new Thread(load, "eagerflow-model-load");
    loader.start();
    try {
      return load.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("loading the model failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while loading the model", e);
    }
  }

  /** Tensors the session holds outside any task: those of the loaded models. */
  long modelTensors() {
    return (long) models.size() * SoftmaxModel.Loaded.TENSORS;
  }
}
