package example.spark;

import java.io.Serializable;

/**
 * What one task tells the driver when it completes, through an accumulator: where it ran, how many
 * rows it scored, whether its completion listener ran on the thread that opened its scope and found
 * a batch's scores still held (the consumer stopped before the batch's last row), and its executor
 * session's peak native bytes so far (the session is per executor, so the largest value over an
 * executor's tasks is that executor's peak).
 */
record TaskReport(
    String executorId,
    int partition,
    int attempt,
    long rowsScored,
    boolean listenerOnTaskThread,
    boolean batchHeldAtCompletion,
    long sessionPeakBytes,
    long maxNativeBytes)
    implements Serializable {}
