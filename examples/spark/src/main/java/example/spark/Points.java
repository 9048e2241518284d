package example.spark;

import java.util.SplittableRandom;

/**
 * The dataset scored: point {@code id} belongs to class {@code id % 3} and lies near that class's
 * centre, with standard normal noise drawn from a generator seeded by the id alone. So the points
 * are a pure function of their ids: Spark's tasks and the check without Spark make the same ones,
 * however the ids are split into partitions.
 */
final class Points {
  private static final long SEED = 0x5eed_2026L;

  private Points() {}

  static int label(long id) {
    return (int) (id % SoftmaxModel.CLASSES);
  }

  /** Writes point {@code id}'s two coordinates to {@code out[offset]} and {@code out[offset+1]}. */
  static void fill(long id, float[] out, int offset) {
    SplittableRandom random = new SplittableRandom(SEED ^ (id * 0x9E37_79B9_7F4A_7C15L));
    float[] centre = SoftmaxModel.CENTRES[label(id)];
    out[offset] = centre[0] + (float) random.nextGaussian();
    out[offset + 1] = centre[1] + (float) random.nextGaussian();
  }
}
