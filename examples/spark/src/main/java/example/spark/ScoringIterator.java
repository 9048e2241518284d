package example.spark;

import io.eagerflow.EagerScope;
import io.eagerflow.EagerSession;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt64;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.CollectionAccumulator;
import org.apache.spark.util.TaskCompletionListener;

/**
 * One partition's scored rows, made lazily as Spark pulls them: points are read and scored a batch
 * at a time, and each scored row is read from the batch's output tensors when {@link #next()} hands
 * it out.
 *
 * <p>Spark calls the partition function once and then pulls rows from the iterator it returned, so
 * a try-with-resources block around the function would close a scope before the first row is
 * scored. The partition's scope is therefore opened here, on the task thread, and closed by a task
 * completion listener, which Spark runs on the same task thread when the task ends: after the last
 * row, when a consumer stops early ({@code limit}, {@code take}), and when the task fails or is
 * killed. Between {@code next()} calls the scope holds the current batch's scores; each batch's
 * intermediate tensors are freed by a nested scope as soon as the batch is scored, and the previous
 * batch's scores are released when the next batch is scored, so a partition holds one batch at a
 * time however long it is. (The listener checks the thread: a scope is confined to the thread that
 * opened it, and closing it from another thread would throw.)
 */
final class ScoringIterator implements Iterator<Row> {
  static final int INPUT_ID = 0;
  static final int INPUT_X = 2;

  private final Iterator<Row> input;
  private final ExecutorSession executor;
  private final EagerSession session;
  private final Ops tf;
  private final SoftmaxModel.Loaded model;
  private final EagerScope partitionScope;
  private final long[] ids;
  private final int[] labels;
  private final float[] xy;

  private BatchScores scores;
  private TFloat32 probabilities;
  private TInt64 classes;
  private int count;
  private int position;
  private long rowsScored;

  ScoringIterator(
      Iterator<Row> input,
      ExecutorSession executor,
      SoftmaxModel.Loaded model,
      int batchSize,
      TaskContext task,
      CollectionAccumulator<TaskReport> reports) {
    this.input = input;
    this.executor = executor;
    this.session = executor.session;
    this.tf = Ops.create(session);
    this.model = model;
    this.ids = new long[batchSize];
    this.labels = new int[batchSize];
    this.xy = new float[batchSize * SoftmaxModel.FEATURES];
    Thread taskThread = Thread.currentThread();
    this.partitionScope = session.newScope();
    task.addTaskCompletionListener(
        (TaskCompletionListener)
            context -> {
              boolean onTaskThread = Thread.currentThread() == taskThread;
              boolean batchHeld = scores != null;
              if (onTaskThread) {
                partitionScope.close();
              }
              reports.add(
                  new TaskReport(
                      executor.executorId,
                      context.partitionId(),
                      context.attemptNumber(),
                      rowsScored,
                      onTaskThread,
                      batchHeld,
                      session.stats().peakBytes(),
                      executor.maxNativeBytes));
              if (!onTaskThread) {
                throw new IllegalStateException(
                    "the completion listener ran on "
                        + Thread.currentThread().getName()
                        + ", not on the task thread "
                        + taskThread.getName()
                        + " that opened the partition's scope");
              }
            });
  }

  @Override
  public boolean hasNext() {
    if (position < count) {
      return true;
    }
    releaseBatch();
    if (!input.hasNext()) {
      return false;
    }
    scoreNextBatch();
    return true;
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    int i = position++;
    return RowFactory.create(
        ids[i],
        labels[i],
        (int) classes.getLong(i),
        probabilities.getFloat(i, 0),
        probabilities.getFloat(i, 1),
        probabilities.getFloat(i, 2));
  }

  private void scoreNextBatch() {
    int n = 0;
    while (n < ids.length && input.hasNext()) {
      Row point = input.next();
      ids[n] = point.getLong(INPUT_ID);
      labels[n] = point.getInt(INPUT_ID + 1);
      xy[2 * n] = point.getFloat(INPUT_X);
      xy[2 * n + 1] = point.getFloat(INPUT_X + 1);
      n++;
    }
    try (EagerScope batch = session.newScope()) {
      BatchScores scored = BatchScores.of(tf, model, xy, n);
      scores = new BatchScores(batch.keep(scored.probabilities()), batch.keep(scored.classes()));
    }
    probabilities = scores.probabilities().asTensor();
    classes = scores.classes().asTensor();
    count = n;
    position = 0;
    rowsScored += n;
  }

  /** Frees the handed-out batch's scores now rather than at the end of the partition. */
  private void releaseBatch() {
    if (scores != null) {
      session.release(scores.probabilities(), scores.classes());
      scores = null;
      probabilities = null;
      classes = null;
      count = 0;
      position = 0;
    }
  }

  /** The scored rows' schema: the point's id and label, then the prediction and probabilities. */
  static final StructType SCHEMA =
      new StructType()
          .add("id", "long", false)
          .add("label", "int", false)
          .add("predicted", "int", false)
          .add("p0", "float", false)
          .add("p1", "float", false)
          .add("p2", "float", false);
}
