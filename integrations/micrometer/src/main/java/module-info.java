/**
 * eagerflow-micrometer: Micrometer meters for eagerflow's native memory, tensors, sessions and
 * cleanup. {@link io.eagerflow.micrometer.EagerflowMetrics} binds the process-wide ones; {@link
 * io.eagerflow.micrometer.EagerSessionMetrics} adds one session's on request.
 */
module io.eagerflow.micrometer {
  requires transitive io.eagerflow;
  requires transitive micrometer.core;

  exports io.eagerflow.micrometer;
}
