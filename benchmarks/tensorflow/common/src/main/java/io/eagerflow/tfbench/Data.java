package io.eagerflow.tfbench;

import java.util.SplittableRandom;

/**
 * The inputs every system gets: the same values from fixed seeds, and the sizes of the workloads.
 *
 * <p>The inputs of the adds, the sum and the matrix product are dyadic: {@code k / 2^bits} for
 * integers {@code k}, chosen so that every partial sum any kernel can form is exact in float
 * arithmetic. The results then do not depend on the order in which a kernel adds (SIMD lanes,
 * threads, FMA), and all three systems must agree bit for bit with {@link Expected}, which computes
 * them in integers.
 */
public final class Data {
  /** The 1,000-element add. */
  public static final int SMALL = 1000;

  /** 16M floats (64 MiB): the large add and the sum. */
  public static final int LARGE = 1 << 24;

  /** The side of the square matrices (MatMul, softmax). */
  public static final int MATRIX = 1024;

  /**
   * The convolution: a batch of {@code CONV_BATCH} images of {@code CONV_SIDE x CONV_SIDE x
   * CONV_DEPTH} (NHWC) with a {@code 3 x 3 x CONV_DEPTH x CONV_DEPTH} filter (HWIO), SAME padding,
   * unit strides: a ResNet-style layer.
   */
  public static final int CONV_BATCH = 8;

  public static final int CONV_SIDE = 32;

  public static final int CONV_DEPTH = 64;

  public static final int CONV_WINDOW = 3;

  /** 1M floats (4 MiB): the copies in and out. */
  public static final int COPY = 1 << 20;

  /** The chain of small ops: its length and the width of its vectors. */
  public static final int CHAIN_LENGTH = 100;

  public static final int CHAIN_WIDTH = 64;

  /** The chain alternates {@code y + CHAIN_ADD} and {@code y * CHAIN_MUL}. */
  public static final float CHAIN_ADD = 0.25f;

  public static final float CHAIN_MUL = 0.75f;

  /** The seed loop's tensors: 1 MiB of floats. */
  public static final int SEED_LOOP_FLOATS = 1 << 18;

  /** The seed loop's default length: 3 ops x 3,000 iterations. */
  public static final int SEED_LOOP_ITERATIONS = 3000;

  /** The scalar add's operands; their sum is exact. */
  public static final float SCALAR_X = 1.5f;

  public static final float SCALAR_Y = 2.25f;

  /** Bits after the binary point of the adds' and the sum's inputs (values in [-1, 1)). */
  static final int ADD_BITS = 8;

  /** Bits after the binary point of the matrices' entries (values in [-1, 1)). */
  static final int MATRIX_BITS = 6;

  private Data() {}

  public static float[] a1k() {
    return dyadic(SMALL, ADD_BITS, 11);
  }

  public static float[] b1k() {
    return dyadic(SMALL, ADD_BITS, 12);
  }

  public static float[] a16m() {
    return dyadic(LARGE, ADD_BITS, 21);
  }

  public static float[] b16m() {
    return dyadic(LARGE, ADD_BITS, 22);
  }

  /** The sum's input; 16M values in [-1, 1) whose partial sums stay far below 2^16. */
  public static float[] v16m() {
    return dyadic(LARGE, ADD_BITS, 31);
  }

  /** The left matrix of the product, row-major. */
  public static float[] m1() {
    return dyadic(MATRIX * MATRIX, MATRIX_BITS, 41);
  }

  /** The right matrix of the product, row-major. */
  public static float[] m2() {
    return dyadic(MATRIX * MATRIX, MATRIX_BITS, 42);
  }

  /**
   * The convolution's images, NHWC. With MATRIX_BITS, each output is at most 576 products of
   * multiples of 2^-12 below 1 in magnitude: exact in float in any order.
   */
  public static float[] convInput() {
    return dyadic(CONV_BATCH * CONV_SIDE * CONV_SIDE * CONV_DEPTH, MATRIX_BITS, 91);
  }

  /** The convolution's filter, HWIO. */
  public static float[] convFilter() {
    return dyadic(CONV_WINDOW * CONV_WINDOW * CONV_DEPTH * CONV_DEPTH, MATRIX_BITS, 92);
  }

  /** The softmax's logits, row-major, in [-4, 4). */
  public static float[] logits() {
    float[] v = dyadic(MATRIX * MATRIX, 4, 51);
    for (int i = 0; i < v.length; i++) {
      v[i] *= 4;
    }
    return v;
  }

  /** What the copies carry. */
  public static float[] copy1m() {
    return dyadic(COPY, ADD_BITS, 61);
  }

  /** The chain's first vector. */
  public static float[] chainInput() {
    return dyadic(CHAIN_WIDTH, ADD_BITS, 71);
  }

  /** The seed loop's {@code x}. */
  public static float[] seedLoopX() {
    return dyadic(SEED_LOOP_FLOATS, ADD_BITS, 81);
  }

  /** {@code n} values {@code k / 2^bits}, {@code k} uniform in [-2^bits, 2^bits). */
  static float[] dyadic(int n, int bits, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int range = 1 << bits;
    float scale = 1f / range;
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = r.nextInt(-range, range) * scale;
    }
    return v;
  }
}
