package io.eagerflow;

import io.eagerflow.internal.Wire;

/**
 * A snapshot of a session's native tensors. At every moment {@code createdTensors ==
 * freedExplicitly + freedByScope + freedByCleanup + freedAtClose + liveTensors}. Bytes count tensor
 * data buffers, each once however many tensors share it.
 *
 * @param liveTensors tensors held now
 * @param liveBytes bytes of their buffers
 * @param peakBytes the most {@code liveBytes} has been
 * @param createdTensors tensors ever created (one per op output; one per constant)
 * @param freedExplicitly freed by {@link EagerSession#release}
 * @param freedByCleanup freed by the cleanup strategy once unreachable
 * @param freedAtClose freed by {@link EagerSession#close}
 * @param gcRequests garbage collections the session caused because of native memory pressure
 * @param freedByScope freed when the {@link EagerScope} that owned them closed
 */
public record SessionStats(
    long liveTensors,
    long liveBytes,
    long peakBytes,
    long createdTensors,
    long freedExplicitly,
    long freedByCleanup,
    long freedAtClose,
    long gcRequests,
    long freedByScope) {

  /**
   * Stats without {@code freedByScope} (zero), the components this record had before scopes were
   * counted apart: code written for them compiles unchanged.
   */
  public SessionStats(
      long liveTensors,
      long liveBytes,
      long peakBytes,
      long createdTensors,
      long freedExplicitly,
      long freedByCleanup,
      long freedAtClose,
      long gcRequests) {
    this(
        liveTensors,
        liveBytes,
        peakBytes,
        createdTensors,
        freedExplicitly,
        freedByCleanup,
        freedAtClose,
        gcRequests,
        0);
  }

  static SessionStats of(long[] v) {
    return new SessionStats(
        v[Wire.STATS_LIVE_TENSORS],
        v[Wire.STATS_LIVE_BYTES],
        v[Wire.STATS_PEAK_BYTES],
        v[Wire.STATS_CREATED_TENSORS],
        v[Wire.STATS_FREED_EXPLICITLY],
        v[Wire.STATS_FREED_BY_CLEANUP],
        v[Wire.STATS_FREED_AT_CLOSE],
        v[Wire.STATS_GC_REQUESTS],
        v[Wire.STATS_FREED_BY_SCOPE]);
  }
}
