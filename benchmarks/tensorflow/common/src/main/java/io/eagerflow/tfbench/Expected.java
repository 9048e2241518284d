package io.eagerflow.tfbench;

import java.util.Locale;

/**
 * What each workload must compute, from {@link Data}'s inputs, in plain Java. Every result but the
 * softmax is exact (see {@link Data}), so those are compared bit for bit; the softmax, whose {@code
 * exp} differs between libraries, within a relative 1e-5.
 */
public final class Expected {
  /** The outcome of comparing one workload's output. */
  public record Check(String workload, boolean ok, String detail) {}

  /** The workloads whose outputs are checked, in the order the verify step runs them. */
  public static final String[] WORKLOADS = {
    "scalarAdd",
    "scalarAddBackground",
    "add1k",
    "add16m",
    "matMul1024",
    "conv2d3x3",
    "reduceSum16m",
    "softmax1024",
    "chain100",
    "copyOut1m",
    "copyIn1m",
  };

  private static final double SOFTMAX_TOLERANCE = 1e-5;

  private Expected() {}

  /** Compares a workload's output, row-major, with what it must be. */
  public static Check check(String workload, float[] actual) {
    return switch (workload) {
      case "scalarAdd", "scalarAddBackground" ->
          exact(workload, new float[] {Data.SCALAR_X + Data.SCALAR_Y}, actual);
      case "add1k" -> exact(workload, add(Data.a1k(), Data.b1k()), actual);
      case "add16m" -> exact(workload, add(Data.a16m(), Data.b16m()), actual);
      case "matMul1024" -> exact(workload, matMul(), actual);
      case "conv2d3x3" -> exact(workload, conv2d(), actual);
      case "reduceSum16m" -> exact(workload, new float[] {sum(Data.v16m())}, actual);
      case "softmax1024" -> close(workload, softmax(), actual);
      case "chain100" -> exact(workload, chain(), actual);
      case "copyOut1m", "copyIn1m" -> exact(workload, Data.copy1m(), actual);
      case "seedLoop" -> exact(workload, seedLoop(), actual);
      default -> throw new IllegalArgumentException("unknown workload " + workload);
    };
  }

  private static float[] add(float[] a, float[] b) {
    float[] c = new float[a.length];
    for (int i = 0; i < c.length; i++) {
      c[i] = a[i] + b[i];
    }
    return c;
  }

  /** In integers: every input is k / 2^ADD_BITS. */
  private static float sum(float[] v) {
    long k = 0;
    for (float x : v) {
      k += (long) (x * (1 << Data.ADD_BITS));
    }
    float s = (float) ((double) k / (1 << Data.ADD_BITS));
    if ((double) s * (1 << Data.ADD_BITS) != k) {
      throw new IllegalStateException("the sum's inputs do not give an exact float sum: " + k);
    }
    return s;
  }

  /** In integers: every entry is k / 2^MATRIX_BITS, so every product k1 k2 / 2^(2 MATRIX_BITS). */
  private static float[] matMul() {
    int n = Data.MATRIX;
    int[] a = scaled(Data.m1(), Data.MATRIX_BITS);
    int[] b = scaled(Data.m2(), Data.MATRIX_BITS);
    int[] c = new int[n * n];
    for (int i = 0; i < n; i++) {
      for (int k = 0; k < n; k++) {
        int aik = a[i * n + k];
        int row = k * n;
        int out = i * n;
        for (int j = 0; j < n; j++) {
          c[out + j] += aik * b[row + j];
        }
      }
    }
    float[] f = new float[n * n];
    double scale = 1.0 / (1 << (2 * Data.MATRIX_BITS));
    for (int i = 0; i < f.length; i++) {
      f[i] = (float) (c[i] * scale);
    }
    return f;
  }

  /** In integers, as the product: Conv2D, SAME, unit strides, NHWC images, HWIO filter. */
  private static float[] conv2d() {
    int n = Data.CONV_BATCH;
    int s = Data.CONV_SIDE;
    int c = Data.CONV_DEPTH;
    int k = Data.CONV_WINDOW;
    int pad = (k - 1) / 2;
    int[] x = scaled(Data.convInput(), Data.MATRIX_BITS);
    int[] w = scaled(Data.convFilter(), Data.MATRIX_BITS);
    int[] out = new int[n * s * s * c];
    for (int b = 0; b < n; b++) {
      for (int i = 0; i < s; i++) {
        for (int j = 0; j < s; j++) {
          int o = ((b * s + i) * s + j) * c;
          for (int di = 0; di < k; di++) {
            int y = i + di - pad;
            if (y < 0 || y >= s) {
              continue;
            }
            for (int dj = 0; dj < k; dj++) {
              int xx = j + dj - pad;
              if (xx < 0 || xx >= s) {
                continue;
              }
              int in = ((b * s + y) * s + xx) * c;
              for (int q = 0; q < c; q++) {
                int xv = x[in + q];
                int f = ((di * k + dj) * c + q) * c;
                for (int p = 0; p < c; p++) {
                  out[o + p] += xv * w[f + p];
                }
              }
            }
          }
        }
      }
    }
    float[] f = new float[out.length];
    double scale = 1.0 / (1 << (2 * Data.MATRIX_BITS));
    for (int i = 0; i < f.length; i++) {
      f[i] = (float) (out[i] * scale);
    }
    return f;
  }

  private static int[] scaled(float[] v, int bits) {
    int[] k = new int[v.length];
    for (int i = 0; i < v.length; i++) {
      k[i] = (int) (v[i] * (1 << bits));
    }
    return k;
  }

  /** Softmax over the last axis, in double. */
  private static float[] softmax() {
    int n = Data.MATRIX;
    float[] x = Data.logits();
    float[] y = new float[x.length];
    for (int r = 0; r < n; r++) {
      double max = Double.NEGATIVE_INFINITY;
      for (int j = 0; j < n; j++) {
        max = Math.max(max, x[r * n + j]);
      }
      double sum = 0;
      for (int j = 0; j < n; j++) {
        sum += Math.exp(x[r * n + j] - max);
      }
      for (int j = 0; j < n; j++) {
        y[r * n + j] = (float) (Math.exp(x[r * n + j] - max) / sum);
      }
    }
    return y;
  }

  /** One correctly rounded float op after another, as each system's kernels do them. */
  private static float[] chain() {
    float[] y = Data.chainInput();
    for (int k = 0; k < Data.CHAIN_LENGTH; k++) {
      for (int i = 0; i < y.length; i++) {
        y[i] = k % 2 == 0 ? y[i] + Data.CHAIN_ADD : y[i] * Data.CHAIN_MUL;
      }
    }
    return y;
  }

  /** The seed loop's last output, {@code (x + 1) * x + 1}: exact for its inputs. */
  private static float[] seedLoop() {
    float[] x = Data.seedLoopX();
    float[] c = new float[x.length];
    for (int i = 0; i < c.length; i++) {
      c[i] = (x[i] + 1f) * x[i] + 1f;
    }
    return c;
  }

  private static Check exact(String workload, float[] expected, float[] actual) {
    if (actual.length != expected.length) {
      return new Check(
          workload,
          false,
          "expected " + expected.length + " values, got " + actual.length);
    }
    int mismatches = 0;
    int first = -1;
    for (int i = 0; i < expected.length; i++) {
      if (actual[i] != expected[i]) {
        mismatches++;
        if (first < 0) {
          first = i;
        }
      }
    }
    if (mismatches == 0) {
      return new Check(workload, true, expected.length + " values, bit-exact");
    }
    return new Check(
        workload,
        false,
        String.format(
            Locale.ROOT,
            "%d of %d values differ; first at %d: expected %s, got %s",
            mismatches,
            expected.length,
            first,
            expected[first],
            actual[first]));
  }

  private static Check close(String workload, float[] expected, float[] actual) {
    if (actual.length != expected.length) {
      return new Check(
          workload,
          false,
          "expected " + expected.length + " values, got " + actual.length);
    }
    double worst = 0;
    int at = 0;
    for (int i = 0; i < expected.length; i++) {
      double rel = Math.abs(actual[i] - expected[i]) / Math.max(Math.abs(expected[i]), 1e-30);
      if (Double.isNaN(rel)) {
        return new Check(workload, false, "value " + i + " is " + actual[i]);
      }
      if (rel > worst) {
        worst = rel;
        at = i;
      }
    }
    boolean ok = worst <= SOFTMAX_TOLERANCE;
    return new Check(
        workload,
        ok,
        String.format(
            Locale.ROOT,
            "%d values, largest relative difference %.2e at %d (bound %.0e)",
            expected.length,
            worst,
            at,
            SOFTMAX_TOLERANCE));
  }
}
