package io.eagerflow;

import org.jspecify.annotations.Nullable;

/**
 * Where TensorFlow would place an op ({@code /job:worker/replica:0/task:1/device:GPU:0}), as
 * TensorFlow Java's {@code org.tensorflow.DeviceSpec}, accepted for source compatibility: eagerflow
 * runs every op on the CPU of the calling process, and a device spec changes nothing (see {@link
 * io.eagerflow.op.Ops#withDevice}). The builder and accessors keep what is set, and {@link
 * #toString()} gives TensorFlow's string form, so code that builds or logs specs keeps working.
 */
public final class DeviceSpec {
  /** The device types TensorFlow Java names. */
  public enum DeviceType {
    CPU,
    GPU
  }

  private final @Nullable String job;
  private final @Nullable Integer replica;
  private final @Nullable Integer task;
  private final @Nullable DeviceType deviceType;
  private final @Nullable Integer deviceIndex;

  private DeviceSpec(Builder b) {
    this.job = b.job;
    this.replica = b.replica;
    this.task = b.task;
    this.deviceType = b.deviceType;
    this.deviceIndex = b.deviceIndex;
  }

  /** A builder with nothing set. */
  public static Builder newBuilder() {
    return new Builder();
  }

  public @Nullable String job() {
    return job;
  }

  public @Nullable Integer replica() {
    return replica;
  }

  public @Nullable Integer task() {
    return task;
  }

  public @Nullable DeviceType deviceType() {
    return deviceType;
  }

  public @Nullable Integer deviceIndex() {
    return deviceIndex;
  }

  /**
   * TensorFlow's string form: the set fields as {@code /job:j/replica:r/task:t/device:TYPE:i}
   * ({@code *} for a device type's unset index), or the empty string if none is set.
   */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder();
    if (job != null) {
      s.append("/job:").append(job);
    }
    if (replica != null) {
      s.append("/replica:").append(replica);
    }
    if (task != null) {
      s.append("/task:").append(task);
    }
    if (deviceType != null) {
      s.append("/device:").append(deviceType).append(':');
      s.append(deviceIndex == null ? "*" : deviceIndex.toString());
    }
    return s.toString();
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof DeviceSpec d && toString().equals(d.toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }

  /** Builds a {@link DeviceSpec}; every field may be left unset (null). */
  public static final class Builder {
    private @Nullable String job;
    private @Nullable Integer replica;
    private @Nullable Integer task;
    private @Nullable DeviceType deviceType;
    private @Nullable Integer deviceIndex;

    private Builder() {}

    public Builder job(@Nullable String job) {
      this.job = job;
      return this;
    }

    public Builder replica(@Nullable Integer replica) {
      this.replica = replica;
      return this;
    }

    public Builder task(@Nullable Integer task) {
      this.task = task;
      return this;
    }

    public Builder deviceType(@Nullable DeviceType deviceType) {
      this.deviceType = deviceType;
      return this;
    }

    public Builder deviceIndex(@Nullable Integer deviceIndex) {
      this.deviceIndex = deviceIndex;
      return this;
    }

    public DeviceSpec build() {
      return new DeviceSpec(this);
    }
  }
}
