package io.eagerflow.op;

import io.eagerflow.Operand;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TNumber;
import java.util.Objects;

/**
 * Image ops, reached as {@code tf.image}: resizing. The errors are those listed on {@link Ops}.
 * Immutable and thread-safe.
 */
public final class ImageOps {
  private static final OpType RESIZE_BILINEAR = new OpType("ResizeBilinear");
  private static final OpType RESIZE_NEAREST = new OpType("ResizeNearestNeighbor");

  private final Runner runner;

  ImageOps(Runner runner) {
    this.runner = runner;
  }

  /**
   * Resizes images by bilinear interpolation [{@code ResizeBilinear}].
   *
   * @param images {@code [batch, height, width, channels]} of any numeric type
   * @param sizeOutput the new height and width, two positive values
   * @param options {@link ResizeBilinear#alignCorners}, {@link ResizeBilinear#halfPixelCenters}
   * @return {@link TFloat32} images, {@code [batch, newHeight, newWidth, channels]}
   * @throws IllegalArgumentException if the shapes or sizes do not fit
   */
  public Operand<TFloat32> resizeBilinear(
      Operand<? extends TNumber> images,
      Operand<TInt32> sizeOutput,
      ResizeBilinear.Options... options) {
    Objects.requireNonNull(images, "images");
    Objects.requireNonNull(sizeOutput, "sizeOutput");
    return runner.run(RESIZE_BILINEAR, options, images, sizeOutput);
  }

  /**
   * Resizes images to the nearest input pixel [{@code ResizeNearestNeighbor}].
   *
   * @param images {@code [batch, height, width, channels]} of any numeric type
   * @param sizeOutput the new height and width, two positive values
   * @param options {@link ResizeNearestNeighbor#alignCorners}, {@link
   *     ResizeNearestNeighbor#halfPixelCenters}
   * @return images of {@code images}' type, {@code [batch, newHeight, newWidth, channels]}
   * @throws IllegalArgumentException if the shapes or sizes do not fit
   */
  public <T extends TNumber> Operand<T> resizeNearestNeighbor(
      Operand<T> images, Operand<TInt32> sizeOutput, ResizeNearestNeighbor.Options... options) {
    Objects.requireNonNull(images, "images");
    Objects.requireNonNull(sizeOutput, "sizeOutput");
    return runner.run(RESIZE_NEAREST, options, images, sizeOutput);
  }
}
