package io.eagerflow.op;

import java.util.Objects;

/**
 * Optional attributes of {@link ImageOps#resizeBilinear}, TensorFlow's {@code ResizeBilinear} op,
 * in TensorFlow Java's style.
 */
public final class ResizeBilinear {
  private ResizeBilinear() {}

  /**
   * Whether the corner pixels of input and output are aligned (default false).
   *
   * @param alignCorners the value of attribute {@code align_corners}
   * @return the option
   */
  public static Options alignCorners(Boolean alignCorners) {
    return new Options("align_corners", Objects.requireNonNull(alignCorners, "alignCorners"));
  }

  /**
   * Whether pixels are sampled at their centers (default false; exclusive with {@link
   * #alignCorners}).
   *
   * @param halfPixelCenters the value of attribute {@code half_pixel_centers}
   * @return the option
   */
  public static Options halfPixelCenters(Boolean halfPixelCenters) {
    return new Options(
        "half_pixel_centers", Objects.requireNonNull(halfPixelCenters, "halfPixelCenters"));
  }

  /** One optional attribute of this op, made by the static methods of {@link ResizeBilinear}. */
  public static final class Options extends OpOption {
    private Options(String attr, boolean value) {
      super(attr, value);
    }
  }
}
