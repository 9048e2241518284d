package example.spark;

import java.util.Iterator;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;
import org.apache.spark.util.CollectionAccumulator;
import org.apache.spark.util.LongAccumulator;

/**
 * The function Spark runs on each partition of points: it finds this executor's session, the model
 * in it (loaded by the first task that needs it), and returns the partition's lazily scored rows.
 * Serialized to the executors with the broadcast's handle, never with the weights themselves.
 */
final class ScorePartition implements MapPartitionsFunction<Row, Row> {
  private static final long serialVersionUID = 1L;

  private final Broadcast<SoftmaxModel.Weights> weights;
  private final int batchSize;
  private final LongAccumulator modelLoads;
  private final CollectionAccumulator<TaskReport> reports;

  ScorePartition(
      Broadcast<SoftmaxModel.Weights> weights,
      int batchSize,
      LongAccumulator modelLoads,
      CollectionAccumulator<TaskReport> reports) {
    this.weights = weights;
    this.batchSize = batchSize;
    this.modelLoads = modelLoads;
    this.reports = reports;
  }

  @Override
  public Iterator<Row> call(Iterator<Row> points) {
    ExecutorSession executor = ExecutorSession.get();
    // The model first: it must not be made inside the partition's scope.
    SoftmaxModel.Loaded model = executor.model(weights, modelLoads);
    return new ScoringIterator(points, executor, model, batchSize, TaskContext.get(), reports);
  }
}
