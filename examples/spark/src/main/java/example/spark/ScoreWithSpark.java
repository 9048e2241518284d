package example.spark;

import io.eagerflow.EagerScope;
import io.eagerflow.EagerSession;
import io.eagerflow.SessionStats;
import io.eagerflow.op.Ops;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.ForeachFunction;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.CollectionAccumulator;
import org.apache.spark.util.LongAccumulator;

/**
 * Scores {@code rows} points (1,000,000 by default) on Spark with the softmax regression of {@code
 * examples/softmax}: trained once on the driver, its weights broadcast, loaded once per executor
 * into that executor's one {@link EagerSession} ({@link ExecutorSession}), and run a batch at a
 * time by every partition ({@link ScoringIterator}). Then it scores the same points without Spark,
 * in one session on the driver, and compares. Arguments are {@code key=value}: {@code rows}, {@code
 * partitions} (8), {@code batch} (8192 rows); the master is {@code local[2]} unless {@code
 * spark-submit} gave one.
 *
 * <p>Jobs, in order: the scoring job (rows collected to the driver; its wall time gives rows/s),
 * the same scoring into Spark's {@code noop} sink (the scoring without the transfer), the same rows
 * with zero scores and no eagerflow into the sink (Spark's own share), a job that stops after 1,000
 * rows, and a job whose task fails downstream of the scoring, on purpose. Checks, each failing the
 * program with exit status 1: every id scored once; the largest absolute difference from the run
 * without Spark at most 1e-6 and identical predicted classes; one model load per executor; every
 * completion listener on its task thread; in local mode, after the early stop and after the
 * failure, the executor's session holds the model's tensors and nothing else.
 */
public final class ScoreWithSpark {
  private static final double TOLERANCE = 1e-6;
  private static final long SETTLE_NANOS = 30_000_000_000L;
  private static final long POLL_NANOS = 10_000_000L;
  private static final int REFERENCE_CHUNK = 1 << 20;

  static final StructType POINT_SCHEMA =
      new StructType()
          .add("id", "long", false)
          .add("label", "int", false)
          .add("x", "float", false)
          .add("y", "float", false);

  private final List<String> failures = new ArrayList<>();

  private ScoreWithSpark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new TreeMap<>(Map.of("rows", "1000000", "partitions", "8"));
    options.put("batch", "8192");
    for (String arg : args) {
      String[] pair = arg.split("=", 2);
      if (pair.length != 2 || !options.containsKey(pair[0])) {
        throw new IllegalArgumentException(
            "arguments are key=value with keys " + options.keySet() + ", got " + arg);
      }
      options.put(pair[0], pair[1]);
    }
    int rows = Integer.parseInt(options.get("rows"));
    int partitions = Integer.parseInt(options.get("partitions"));
    int batch = Integer.parseInt(options.get("batch"));
    if (rows < 1 || partitions < 1 || batch < 1) {
      throw new IllegalArgumentException("rows, partitions and batch must be positive: " + options);
    }
    System.exit(new ScoreWithSpark().run(rows, partitions, batch) ? 0 : 1);
  }

  private boolean run(int rows, int partitions, int batch) throws Exception {
    SparkSession.Builder builder =
        SparkSession.builder()
            .appName("eagerflow-spark-scoring")
            .config("spark.ui.enabled", "false");
    if (!new SparkConf().contains("spark.master")) {
      builder.master("local[2]");
    }
    SparkSession spark = builder.getOrCreate();
    try {
      spark.sparkContext().setLogLevel("WARN");
      return score(spark, rows, partitions, batch);
    } finally {
      spark.stop();
    }
  }

  private boolean score(SparkSession spark, int rows, int partitions, int batch)
      throws IOException {
    String master = spark.sparkContext().master();
    boolean local = ExecutorSession.isLocal(master);
    System.out.printf(
        "master %s, %d rows in %d partitions, batches of %d rows, Spark %s, Java %s%n",
        master, rows, partitions, batch, spark.version(), System.getProperty("java.version"));

    long start = System.nanoTime();
    SoftmaxModel.Weights weights = SoftmaxModel.train();
    System.out.printf(
        "trained on the driver in %.2f s: training accuracy %.1f%%, W %s, b %s%n",
        seconds(start),
        100 * weights.trainingAccuracy(),
        java.util.Arrays.toString(weights.w()),
        java.util.Arrays.toString(weights.b()));

    start = System.nanoTime();
    Dataset<Row> points =
        spark
            .range(0, rows, 1, partitions)
            .mapPartitions(
                (MapPartitionsFunction<Long, Row>) ScoreWithSpark::points,
                Encoders.row(POINT_SCHEMA))
            .cache();
    long generated = points.count();
    System.out.printf(
        "dataset: %d points generated and cached in %.2f s%n", generated, seconds(start));

    Broadcast<SoftmaxModel.Weights> broadcast =
        JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(weights);
    LongAccumulator modelLoads = spark.sparkContext().longAccumulator("eagerflow model loads");
    CollectionAccumulator<TaskReport> reports =
        spark.sparkContext().collectionAccumulator("eagerflow task reports");
    Dataset<Row> scored =
        points.mapPartitions(
            new ScorePartition(broadcast, batch, modelLoads, reports),
            Encoders.row(ScoringIterator.SCHEMA));

    String loadBefore = loadAverage();
    start = System.nanoTime();
    List<Row> result = scored.collectAsList();
    double scoringSeconds = seconds(start);
    String loadAfter = loadAverage();
    List<TaskReport> scoringReports = List.copyOf(reports.value());
    System.out.printf(
        "scoring job (rows collected to the driver): %d rows in %.2f s = %,.0f rows/s"
            + " (load average before %s, after %s)%n",
        result.size(), scoringSeconds, result.size() / scoringSeconds, loadBefore, loadAfter);
    check(
        scoringReports.size() == partitions,
        "one report per partition: " + scoringReports.size() + " for " + partitions);

    start = System.nanoTime();
    scored.write().format("noop").mode("overwrite").save();
    double noopSeconds = seconds(start);
    System.out.printf(
        "the same scoring into the noop sink: %.2f s = %,.0f rows/s%n",
        noopSeconds, rows / noopSeconds);

    // Spark's own share: the same rows out, every score zero, no eagerflow.
    start = System.nanoTime();
    points
        .mapPartitions(
            (MapPartitionsFunction<Row, Row>) ScoreWithSpark::unscored,
            Encoders.row(ScoringIterator.SCHEMA))
        .write()
        .format("noop")
        .mode("overwrite")
        .save();
    double sparkSeconds = seconds(start);
    System.out.printf(
        "Spark alone (the same rows with zero scores) into the noop sink: %.2f s = %,.0f rows/s%n",
        sparkSeconds, rows / sparkSeconds);

    if (local) {
      checkOnlyModelLeft("after the scoring jobs");
    }

    int before = reports.value().size();
    List<Row> first = scored.limit(1000).collectAsList();
    List<TaskReport> early = reports.value().subList(before, reports.value().size());
    long held = early.stream().filter(TaskReport::batchHeldAtCompletion).count();
    System.out.printf(
        "limit(1000): %d rows; %d of its %d tasks ended holding a batch, left to its partition"
            + " scope%n",
        first.size(), held, early.size());
    check(first.size() == Math.min(1000, rows), "limit(1000) gave " + first.size() + " rows");
    if (local) {
      checkOnlyModelLeft("after the job that stopped early");
    }

    long failAt = Math.min(rows - 1L, (long) rows / partitions + 2L * batch + 100);
    System.out.printf("a job whose task fails at id %d, on purpose:%n", failAt);
    try {
      scored.foreach(
          (ForeachFunction<Row>)
              row -> {
                if (row.getLong(0) == failAt) {
                  throw new IllegalStateException("failure injected at id " + failAt);
                }
              });
      check(false, "the job with an injected failure succeeded");
    } catch (Exception expected) {
      System.out.println("  failed as it should: " + firstLine(expected));
    }
    if (local) {
      checkOnlyModelLeft("after the failed job");
    }

    start = System.nanoTime();
    Reference reference = Reference.score(weights, rows);
    double referenceSeconds = seconds(start);
    System.out.printf(
        "without Spark (one session on the driver, batches of up to 1,048,576 rows): %d rows in"
            + " %.2f s = %,.0f rows/s%n",
        rows, referenceSeconds, rows / referenceSeconds);
    compare(result, reference, rows);

    Map<String, Long> peaks = new TreeMap<>();
    long cap = 0;
    for (TaskReport report : reports.value()) {
      peaks.merge(report.executorId(), report.sessionPeakBytes(), Math::max);
      cap = report.maxNativeBytes();
      check(
          report.listenerOnTaskThread(),
          "the completion listener of partition " + report.partition() + " ran on another thread");
    }
    System.out.printf(
        "peak native bytes per executor: %s (maxNativeBytes %,d; one batch %,d)%n",
        peaks, cap, BatchScores.bytes(batch));
    // A task holds one batch at a time, so an executor holds at most one per task slot.
    int slots =
        local
            ? spark.sparkContext().defaultParallelism()
            : spark.sparkContext().getConf().getInt("spark.executor.cores", 0);
    long bound = slots * BatchScores.bytes(batch) + SoftmaxModel.Loaded.BYTES;
    for (Map.Entry<String, Long> peak : peaks.entrySet()) {
      check(
          slots == 0 || peak.getValue() <= bound,
          "executor "
              + peak.getKey()
              + " peaked at "
              + peak.getValue()
              + " bytes, above "
              + slots
              + " batches and the model, "
              + bound);
    }
    System.out.printf("model loads: %d for %d executor(s)%n", modelLoads.value(), peaks.size());
    check(
        modelLoads.value() == peaks.size(),
        "the model was loaded " + modelLoads.value() + " times on " + peaks.size() + " executors");

    if (failures.isEmpty()) {
      System.out.println("all checks passed");
      return true;
    }
    failures.forEach(failure -> System.err.println("check failed: " + failure));
    return false;
  }

  private static Iterator<Row> points(Iterator<Long> ids) {
    float[] xy = new float[2];
    return new Iterator<Row>() {
      @Override
      public boolean hasNext() {
        return ids.hasNext();
      }

      @Override
      public Row next() {
        long id = ids.next();
        Points.fill(id, xy, 0);
        return RowFactory.create(id, Points.label(id), xy[0], xy[1]);
      }
    };
  }

  private static Iterator<Row> unscored(Iterator<Row> points) {
    return new Iterator<Row>() {
      @Override
      public boolean hasNext() {
        return points.hasNext();
      }

      @Override
      public Row next() {
        Row point = points.next();
        return RowFactory.create(point.getLong(0), point.getInt(1), 0, 0f, 0f, 0f);
      }
    };
  }

  /**
   * The scores of every point in one session on the driver, without Spark, in chunks of {@value
   * #REFERENCE_CHUNK} rows (so a million rows are one batch), each in a scope of its own.
   */
  private record Reference(float[] probabilities, long[] classes) {
    static Reference score(SoftmaxModel.Weights weights, int rows) {
      float[] probabilities = new float[rows * SoftmaxModel.CLASSES];
      long[] classes = new long[rows];
      try (EagerSession session = EagerSession.create()) {
        Ops tf = Ops.create(session);
        SoftmaxModel.Loaded model = new SoftmaxModel.Loaded(tf, weights);
        for (int from = 0; from < rows; from += REFERENCE_CHUNK) {
          int n = Math.min(REFERENCE_CHUNK, rows - from);
          float[] xy = new float[n * SoftmaxModel.FEATURES];
          for (int i = 0; i < n; i++) {
            Points.fill(from + i, xy, SoftmaxModel.FEATURES * i);
          }
          try (EagerScope chunk = session.newScope()) {
            BatchScores scores = BatchScores.of(tf, model, xy, n);
            float[] p = scores.probabilities().asTensor().toArray();
            long[] c = scores.classes().asTensor().toArray();
            System.arraycopy(p, 0, probabilities, from * SoftmaxModel.CLASSES, p.length);
            System.arraycopy(c, 0, classes, from, c.length);
          }
        }
      }
      return new Reference(probabilities, classes);
    }
  }

  private void compare(List<Row> result, Reference reference, int rows) {
    boolean[] seen = new boolean[rows];
    int duplicates = 0;
    int differentClasses = 0;
    int correct = 0;
    double largest = 0;
    for (Row row : result) {
      int id = Math.toIntExact(row.getLong(0));
      if (seen[id]) {
        duplicates++;
      }
      seen[id] = true;
      int predicted = row.getInt(2);
      if (predicted != reference.classes()[id]) {
        differentClasses++;
      }
      if (predicted == row.getInt(1)) {
        correct++;
      }
      for (int k = 0; k < SoftmaxModel.CLASSES; k++) {
        double difference =
            Math.abs(
                (double) row.getFloat(3 + k)
                    - reference.probabilities()[SoftmaxModel.CLASSES * id + k]);
        largest = Math.max(largest, difference);
      }
    }
    int missing = 0;
    for (boolean s : seen) {
      missing += s ? 0 : 1;
    }
    System.out.printf(
        "agreement with the run without Spark: largest absolute difference of the probabilities"
            + " %.2e, predicted classes different in %d of %d rows; accuracy against the labels"
            + " %.2f%%%n",
        largest, differentClasses, result.size(), 100.0 * correct / result.size());
    check(missing == 0 && duplicates == 0, missing + " ids missing, " + duplicates + " duplicated");
    check(largest <= TOLERANCE, "largest difference " + largest + " above " + TOLERANCE);
    check(differentClasses == 0, differentClasses + " predicted classes differ");
  }

  /**
   * In local mode the executor's session is in this JVM: once the tasks of the last job have ended
   * (a failed job's other tasks end after the job is reported failed, so this polls), it must hold
   * the model's tensors and nothing else.
   */
  private void checkOnlyModelLeft(String when) {
    ExecutorSession executor = ExecutorSession.ifCreated();
    if (executor == null) {
      check(false, "no executor session in local mode " + when);
      return;
    }
    LongSupplier live = () -> executor.session.stats().liveTensors();
    long deadline = System.nanoTime() + SETTLE_NANOS;
    while (live.getAsLong() != executor.modelTensors() && System.nanoTime() < deadline) {
      LockSupport.parkNanos(POLL_NANOS);
    }
    SessionStats stats = executor.session.stats();
    System.out.printf("  executor session %s: %s%n", when, stats);
    check(
        stats.liveTensors() == executor.modelTensors(),
        when
            + " the executor session holds "
            + stats.liveTensors()
            + " tensors, the model "
            + executor.modelTensors());
  }

  private void check(boolean condition, String failure) {
    if (!condition) {
      failures.add(failure);
    }
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  private static String loadAverage() throws IOException {
    Path loadavg = Path.of("/proc/loadavg");
    if (!Files.exists(loadavg)) {
      return "unknown";
    }
    String[] fields = Files.readString(loadavg).trim().split("\\s+");
    return fields[0] + " " + fields[1] + " " + fields[2];
  }

  private static String firstLine(Throwable error) {
    Throwable cause = error;
    while (cause.getCause() != null) {
      cause = cause.getCause();
    }
    String message = String.valueOf(cause.getMessage());
    int end = message.indexOf('\n');
    return cause.getClass().getSimpleName()
        + ": "
        + (end < 0 ? message : message.substring(0, end));
  }
}
