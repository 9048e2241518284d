package io.eagerflow.op;

import java.util.List;
import java.util.Objects;

/**
 * Optional attributes of {@link Ops#squeeze}, TensorFlow's {@code Squeeze} op, in TensorFlow Java's
 * style: each static method makes one option, passed as a trailing argument.
 *
 * <pre>{@code tf.squeeze(x, Squeeze.axis(0, 2))}</pre>
 */
public final class Squeeze {
  private Squeeze() {}

  /**
   * Removes only these dimensions, each of which must have size 1 (default: every dimension of size
   * 1). Negative values count from the end.
   *
   * @param axis the value of attribute {@code squeeze_dims}
   * @return the option, to pass to {@link Ops#squeeze}
   */
  public static Options axis(long... axis) {
    return new Options(Objects.requireNonNull(axis, "axis"));
  }

  /**
   * TensorFlow Java's form of {@link #axis(long...)}.
   *
   * @param axis the value of attribute {@code squeeze_dims}
   * @return the option, to pass to {@link Ops#squeeze}
   * @throws NullPointerException if {@code axis} or one of its elements is null
   */
  public static Options axis(List<Long> axis) {
    Objects.requireNonNull(axis, "axis");
    long[] a = new long[axis.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = Objects.requireNonNull(axis.get(i), "axis");
    }
    return new Options(a);
  }

  /** One optional attribute of this op, made by the static methods of {@link Squeeze}. */
  public static final class Options extends OpOption {
    private Options(long[] axis) {
      super("squeeze_dims", axis);
    }
  }
}
