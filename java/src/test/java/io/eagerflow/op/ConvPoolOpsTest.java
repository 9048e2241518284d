package io.eagerflow.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.Operand;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TFloat64;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TInt64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The convolution, pooling, top-k and activation ops of {@code tf.nn}, by hand-computed values. */
class ConvPoolOpsTest extends OpsTestBase {
  private static final List<Long> ONES = List.of(1L, 1L, 1L, 1L);

  /** A [1, 3, 3, 1] image holding 1..9. */
  private Operand<TFloat32> image() {
    return tf.constant(new float[][][][] {{{{1}, {2}, {3}}, {{4}, {5}, {6}}, {{7}, {8}, {9}}}});
  }

  @Test
  void conv2dValidSameExplicitAndDilated() {
    // [1, 0; 0, -1]: x[i][j] - x[i+1][j+1].
    Operand<TFloat32> f = tf.constant(new float[][][][] {{{{1}}, {{0}}}, {{{0}}, {{-1}}}});
    assertFloats(tf.nn.conv2d(image(), f, ONES, "VALID"), dims(1, 2, 2, 1), -4, -4, -4, -4);
    // SAME pads one row and column after: the last row and column see zeros.
    assertFloats(
        tf.nn.conv2d(image(), f, ONES, "SAME"), dims(1, 3, 3, 1), -4, -4, 3, -4, -4, 6, 7, 8, 9);
    // One row and column of zeros before: -x[i-1][j-1] + ... at the top-left corner.
    assertFloats(
        tf.nn.conv2d(
            image(),
            f,
            List.of(1L, 2L, 2L, 1L),
            "EXPLICIT",
            Conv2d.explicitPaddings(0L, 0L, 1L, 0L, 1L, 0L, 0L, 0L)),
        dims(1, 2, 2, 1),
        -1,
        -3,
        -7,
        -4);
    // Dilation 2: x[0][0] - x[2][2] only.
    assertFloats(
        tf.nn.conv2d(image(), f, ONES, "VALID", Conv2d.dilations(1L, 2L, 2L, 1L)),
        dims(1, 1, 1, 1),
        -8);
    Operand<TFloat64> d =
        tf.nn.conv2d(
            tf.constant(new double[][][][] {{{{1, 2}}}}),
            tf.constant(new double[][][][] {{{{1, 10, 100}, {2, 20, 200}}}}),
            ONES,
            "VALID");
    assertEquals(org.tensorflow.ndarray.Shape.of(1, 1, 1, 3), d.shape());
    assertArrayEquals(new double[] {5, 50, 500}, doubles(d), 0);
  }

  @Test
  void conv2dErrors() {
    Operand<TFloat32> f = tf.constant(new float[2][2][2][1]);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> tf.nn.conv2d(image(), f, ONES, "SAME"));
    assertTrue(
        e.getMessage().startsWith("Conv2D") && e.getMessage().contains("filter depth"),
        e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> tf.nn.conv2d(image(), tf.constant(new float[1][1][1][1]), ONES, "FULL"));
    assertThrows(
        UnsupportedOperationException.class,
        () ->
            tf.nn.conv2d(
                image(),
                tf.constant(new float[1][1][3][1]),
                ONES,
                "SAME",
                Conv2d.dataFormat("NCHW")));
  }

  @Test
  void maxPoolAndAvgPool() {
    Operand<TInt32> k = tf.constant(new int[] {1, 2, 2, 1});
    assertFloats(tf.nn.maxPool(image(), k, k, "SAME"), dims(1, 2, 2, 1), 5, 6, 8, 9);
    assertFloats(
        tf.nn.maxPool(image(), k, tf.constant(new int[] {1, 1, 1, 1}), "VALID"),
        dims(1, 2, 2, 1),
        5,
        6,
        8,
        9);
    List<Long> k2 = List.of(1L, 2L, 2L, 1L);
    // SAME averages only the positions inside the image.
    assertFloats(tf.nn.avgPool(image(), k2, k2, "SAME"), dims(1, 2, 2, 1), 3, 4.5f, 7.5f, 9);
    assertThrows(
        IllegalArgumentException.class, () -> tf.nn.avgPool(image(), List.of(1L, 2L), k2, "SAME"));
  }

  @Test
  void topKAndInTopK() {
    Operand<TFloat32> x = tf.constant(new float[][] {{1, 3, 2, 3}, {-1, -2, -3, 0}});
    TopK<TFloat32, TInt32> top = tf.nn.topK(x, tf.constant(2));
    assertFloats(top.values(), dims(2, 2), 3, 3, 0, -1);
    // Equal values: the lower index first.
    assertInts(top.indices(), dims(2, 2), 1, 3, 3, 0);
    TopK<TFloat32, TInt64> top64 = tf.nn.topK(x, tf.constant(1L), TInt64.class, TopK.sorted(true));
    assertLongs(top64.indices(), dims(2, 1), 1, 3);
    assertThrows(IllegalArgumentException.class, () -> tf.nn.topK(x, tf.constant(5)));
    assertBools(
        tf.nn.inTopK(x, tf.constant(new int[] {2, 1}), tf.constant(2)), dims(2), false, false);
    assertBools(
        tf.nn.inTopK(x, tf.constant(new int[] {3, 0}), tf.constant(2)), dims(2), true, true);
  }

  @Test
  void activations() {
    Operand<TFloat32> x = tf.constant(new float[] {-2, 0, 3});
    assertFloats(tf.nn.leakyRelu(x), dims(3), -0.4f, 0, 3);
    assertFloats(tf.nn.leakyRelu(x, LeakyRelu.alpha(0.5f)), dims(3), -1, 0, 3);
    assertFloats(tf.nn.softsign(x), dims(3), -2f / 3, 0, 0.75f);
    assertFloats(
        tf.math.softplus(x),
        dims(3),
        (float) Math.log1p(Math.exp(-2)),
        (float) Math.log(2),
        (float) Math.log1p(Math.exp(3)));
  }

  @Test
  void depthwiseConv2dNative() {
    // Two channels, multiplier 2: channel 0 times (1, 2), channel 1 times (10, 20), 1x1 window.
    Operand<TFloat32> x = tf.constant(new float[][][][] {{{{1, 2}, {3, 4}}}});
    Operand<TFloat32> f = tf.constant(new float[][][][] {{{{1, 2}, {10, 20}}}});
    assertFloats(
        tf.nn.depthwiseConv2dNative(x, f, ONES, "VALID"),
        dims(1, 1, 2, 4),
        1,
        2,
        20,
        40,
        3,
        6,
        40,
        80);
    assertThrows(
        UnsupportedOperationException.class,
        () ->
            tf.nn.depthwiseConv2dNative(
                x, f, ONES, "VALID", DepthwiseConv2dNative.dilations(1L, 2L, 2L, 1L)));
  }

  @Test
  void fusedBatchNormInInference() {
    Operand<TFloat32> x = tf.constant(new float[][][][] {{{{1, 2}, {3, 4}}}});
    FusedBatchNorm<TFloat32, TFloat32> bn =
        tf.nn.fusedBatchNorm(
            x,
            tf.constant(new float[] {2, 1}),
            tf.constant(new float[] {0.5f, -1}),
            tf.constant(new float[] {1, 2}),
            tf.constant(new float[] {4, 0.25f}),
            FusedBatchNorm.isTraining(false),
            FusedBatchNorm.epsilon(0f));
    assertFloats(bn.y(), dims(1, 1, 2, 2), 0.5f, -1, 2.5f, 3);
    assertFloats(bn.batchMean(), dims(2), 1, 2);
    assertFloats(bn.batchVariance(), dims(2), 4, 0.25f);
    assertFloats(bn.reserveSpace3(), dims(), 0);
    assertThrows(
        UnsupportedOperationException.class,
        () -> tf.nn.fusedBatchNorm(x, x, x, x, x, FusedBatchNorm.isTraining(true)));
  }

  @Test
  void localResponseNormalization() {
    Operand<TFloat32> x = tf.constant(new float[][][][] {{{{1, 2, 3, 4}}}});
    float d = (float) Math.sqrt(31);
    assertFloats(tf.nn.localResponseNormalization(x), dims(1, 1, 1, 4), 1 / d, 2 / d, 3 / d, 4 / d);
    float e = (float) Math.pow(1 + 0.5 * 5, 0.75);
    Operand<TFloat32> r =
        tf.nn.localResponseNormalization(
            x,
            LocalResponseNormalization.depthRadius(1L),
            LocalResponseNormalization.alpha(0.5f),
            LocalResponseNormalization.beta(0.75f));
    assertEquals(1 / e, floats(r)[0], EPS);
  }

  @Test
  void resizeImages() {
    Operand<TFloat32> x = tf.constant(new float[][][][] {{{{0}, {10}}, {{20}, {30}}}});
    Operand<TInt32> size = tf.constant(new int[] {3, 3});
    assertFloats(
        tf.image.resizeBilinear(x, size, ResizeBilinear.alignCorners(true)),
        dims(1, 3, 3, 1),
        0,
        5,
        10,
        10,
        15,
        20,
        20,
        25,
        30);
    assertFloats(
        tf.image.resizeNearestNeighbor(x, size), dims(1, 3, 3, 1), 0, 0, 10, 0, 0, 10, 20, 20, 30);
    assertFloats(
        tf.image.resizeBilinear(
            tf.constant(new int[][][][] {{{{0}, {30}}}}),
            tf.constant(new int[] {1, 4}),
            ResizeBilinear.halfPixelCenters(true)),
        dims(1, 1, 4, 1),
        0,
        7.5f,
        22.5f,
        30);
    assertThrows(
        IllegalArgumentException.class,
        () -> tf.image.resizeBilinear(x, tf.constant(new int[] {0, 3})));
  }
}
