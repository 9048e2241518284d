package io.eagerflow.internal;

/**
 * A call that reads an output's dtype and shape, {@code [dtype code, rank, dims...]}, or, when it
 * already knows them, only checks it is usable (with the safe point of {@code asTensor}).
 */
public final class DescribeCall extends NativeCall.OnOperand<long[]> {
  private final long handle;
  private final boolean describe;
  private final boolean await;
  private final boolean safePoint;
  private long[] description;

  /**
   * @param describe whether to ask the table (else the result is null)
   * @param await whether a pending output (asynchronous sessions) is waited for even when its build
   *     inferred both dtype and shape
   */
  public DescribeCall(
      Usable owner, long handle, boolean describe, boolean await, boolean safePoint) {
    super(owner);
    this.handle = handle;
    this.describe = describe;
    this.await = await;
    this.safePoint = safePoint;
  }

  @Override
  protected boolean isSafePoint() {
    return safePoint;
  }

  @Override
  protected long invoke(long sessionId) {
    if (describe) {
      description = Native.describe(sessionId, handle, await);
    }
    return 0;
  }

  @Override
  protected long[] result(long ignored) {
    return description;
  }
}
