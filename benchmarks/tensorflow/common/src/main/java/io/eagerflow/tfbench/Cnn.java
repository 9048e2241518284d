package io.eagerflow.tfbench;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.SplittableRandom;

/**
 * The small convolutional network every system runs in eager mode: 28x28x1 images, {@code conv
 * 3x3x1x32 SAME + bias + relu}, {@code max pool 2x2}, {@code conv 3x3x32x64 SAME + bias + relu},
 * {@code max pool 2x2}, flatten to 3136, {@code dense 3136x128 + bias + relu}, {@code dense 128x10
 * + bias}: 10 logits per image.
 *
 * <p>The weights come from a fixed seed (He-uniform, biases uniform in [-0.1, 0.1)) and live in a
 * file, {@link #weightsFile()}, that the first JVM to need them writes and every system then reads
 * (1.7 MB, so it is generated rather than committed). {@link #reference} computes the logits in
 * double, as the check every system's float logits are compared with.
 */
public final class Cnn {
  /** Images per forward pass (the throughput is reported per image). */
  public static final int BATCH = 64;

  public static final int SIDE = 28;
  public static final int C1 = 32;
  public static final int C2 = 64;
  public static final int HIDDEN = 128;
  public static final int CLASSES = 10;

  /** The flattened second pooling's output: 7 x 7 x C2. */
  public static final int FLAT = (SIDE / 4) * (SIDE / 4) * C2;

  /** The weights' seed. */
  public static final long SEED = 20261202L;

  /** w1, b1, w2, b2, w3, b3, w4, b4: HWIO filters, [in, out] dense matrices, vectors. */
  public static final long[][] SHAPES = {
    {3, 3, 1, C1},
    {C1},
    {3, 3, C1, C2},
    {C2},
    {FLAT, HIDDEN},
    {HIDDEN},
    {HIDDEN, CLASSES},
    {CLASSES}
  };

  /**
   * The check's bound on each logit: {@code |actual - reference| <= TOLERANCE * max(1, max
   * |reference|)}. Float sums of up to 3136 terms in any order, against double.
   */
  public static final double TOLERANCE = 1e-4;

  private static final int MAGIC = 0x45464e31; // "EFN1"

  private Cnn() {}

  /** The weights, generated from {@link #SEED}. */
  public static float[][] generate() {
    SplittableRandom r = new SplittableRandom(SEED);
    float[][] w = new float[SHAPES.length][];
    for (int t = 0; t < SHAPES.length; t++) {
      long[] s = SHAPES[t];
      int n = 1;
      for (long d : s) {
        n = Math.multiplyExact(n, (int) d);
      }
      boolean bias = s.length == 1;
      long fanIn = bias ? 1 : n / s[s.length - 1];
      double limit = bias ? 0.1 : Math.sqrt(6.0 / fanIn);
      w[t] = new float[n];
      for (int i = 0; i < n; i++) {
        w[t][i] = (float) ((r.nextDouble() * 2 - 1) * limit);
      }
    }
    return w;
  }

  /**
   * Where the weights file is: the system property {@code tfbench.cnnWeights} (run.sh sets it to
   * its results directory), else the temporary directory.
   */
  public static Path weightsFile() {
    String p = System.getProperty("tfbench.cnnWeights");
    return p != null
        ? Path.of(p)
        : Path.of(System.getProperty("java.io.tmpdir"), "tfbench-cnn-weights.bin");
  }

  /** The weights from {@link #weightsFile()}, written there first from the seed if absent. */
  public static float[][] weights() {
    Path file = weightsFile();
    try {
      if (!Files.exists(file)) {
        save(generate(), file);
      }
      return load(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes the weights: magic, count, then per tensor its rank, dimensions and floats. */
  public static void save(float[][] w, Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, "cnn-weights", ".tmp");
    try (OutputStream os = Files.newOutputStream(tmp);
        DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(os))) {
      out.writeInt(MAGIC);
      out.writeInt(w.length);
      for (int t = 0; t < w.length; t++) {
        out.writeInt(SHAPES[t].length);
        for (long d : SHAPES[t]) {
          out.writeLong(d);
        }
        for (float v : w[t]) {
          out.writeFloat(v);
        }
      }
    }
    // Several JVMs may race to write it: each writes a whole file and renames it into place.
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Reads a file {@link #save} wrote, checking its shapes. */
  public static float[][] load(Path file) throws IOException {
    try (InputStream is = Files.newInputStream(file);
        DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(is))) {
      if (in.readInt() != MAGIC || in.readInt() != SHAPES.length) {
        throw new IOException(file + " is not a weights file of this network");
      }
      float[][] w = new float[SHAPES.length][];
      for (int t = 0; t < SHAPES.length; t++) {
        int rank = in.readInt();
        if (rank != SHAPES[t].length) {
          throw new IOException(file + ": tensor " + t + " has rank " + rank);
        }
        int n = 1;
        for (int d = 0; d < rank; d++) {
          long dim = in.readLong();
          if (dim != SHAPES[t][d]) {
            throw new IOException(file + ": tensor " + t + " has dimension " + dim);
          }
          n *= (int) dim;
        }
        w[t] = new float[n];
        for (int i = 0; i < n; i++) {
          w[t][i] = in.readFloat();
        }
      }
      return w;
    }
  }

  /** The batch of images, NHWC, values in [0, 1). */
  public static float[] images() {
    SplittableRandom r = new SplittableRandom(SEED + 1);
    float[] x = new float[BATCH * SIDE * SIDE];
    for (int i = 0; i < x.length; i++) {
      x[i] = (float) r.nextDouble();
    }
    return x;
  }

  /** The logits, {@code [BATCH, CLASSES]} row-major, computed in double. */
  public static float[] reference(float[][] w, float[] images) {
    double[] x = new double[images.length];
    for (int i = 0; i < x.length; i++) {
      x[i] = images[i];
    }
    double[] h = pool(relu(conv(x, BATCH, SIDE, 1, w[0], C1, w[1])), BATCH, SIDE, C1);
    h = pool(relu(conv(h, BATCH, SIDE / 2, C1, w[2], C2, w[3])), BATCH, SIDE / 2, C2);
    h = relu(dense(h, BATCH, FLAT, w[4], HIDDEN, w[5]));
    double[] logits = dense(h, BATCH, HIDDEN, w[6], CLASSES, w[7]);
    float[] out = new float[logits.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = (float) logits[i];
    }
    return out;
  }

  /** 3x3 SAME convolution plus bias, NHWC images {@code side x side x c}, HWIO filter. */
  private static double[] conv(double[] x, int n, int side, int c, float[] f, int oc, float[] b) {
    double[] out = new double[n * side * side * oc];
    for (int img = 0; img < n; img++) {
      for (int i = 0; i < side; i++) {
        for (int j = 0; j < side; j++) {
          int o = ((img * side + i) * side + j) * oc;
          for (int p = 0; p < oc; p++) {
            out[o + p] = b[p];
          }
          for (int di = 0; di < 3; di++) {
            int y = i + di - 1;
            for (int dj = 0; dj < 3; dj++) {
              int xx = j + dj - 1;
              if (y < 0 || y >= side || xx < 0 || xx >= side) {
                continue;
              }
              int in = ((img * side + y) * side + xx) * c;
              for (int q = 0; q < c; q++) {
                double v = x[in + q];
                int fo = ((di * 3 + dj) * c + q) * oc;
                for (int p = 0; p < oc; p++) {
                  out[o + p] += v * f[fo + p];
                }
              }
            }
          }
        }
      }
    }
    return out;
  }

  /** 2x2 max pooling, stride 2, of NHWC {@code side x side x c}. */
  private static double[] pool(double[] x, int n, int side, int c) {
    int half = side / 2;
    double[] out = new double[n * half * half * c];
    for (int img = 0; img < n; img++) {
      for (int i = 0; i < half; i++) {
        for (int j = 0; j < half; j++) {
          for (int q = 0; q < c; q++) {
            double m = Double.NEGATIVE_INFINITY;
            for (int di = 0; di < 2; di++) {
              for (int dj = 0; dj < 2; dj++) {
                m = Math.max(m, x[((img * side + 2 * i + di) * side + 2 * j + dj) * c + q]);
              }
            }
            out[((img * half + i) * half + j) * c + q] = m;
          }
        }
      }
    }
    return out;
  }

  private static double[] dense(double[] x, int n, int in, float[] w, int out, float[] b) {
    double[] y = new double[n * out];
    for (int r = 0; r < n; r++) {
      for (int p = 0; p < out; p++) {
        y[r * out + p] = b[p];
      }
      for (int k = 0; k < in; k++) {
        double v = x[r * in + k];
        for (int p = 0; p < out; p++) {
          y[r * out + p] += v * w[k * out + p];
        }
      }
    }
    return y;
  }

  private static double[] relu(double[] x) {
    for (int i = 0; i < x.length; i++) {
      x[i] = Math.max(0, x[i]);
    }
    return x;
  }

  /** Writes logits as big-endian floats. */
  public static void saveLogits(float[] logits, Path file) throws IOException {
    try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(file))) {
      for (float v : logits) {
        out.writeFloat(v);
      }
    }
  }

  static float[] loadLogits(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    float[] v = new float[bytes.length / 4];
    java.nio.ByteBuffer.wrap(bytes).asFloatBuffer().get(v);
    return v;
  }

  /**
   * Compares two systems' logits (the files Verify writes): prints the largest absolute and
   * relative differences and whether each image's predicted class agrees.
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      throw new IllegalArgumentException("usage: Cnn <logits file> <logits file>");
    }
    float[] a = loadLogits(Path.of(args[0]));
    float[] b = loadLogits(Path.of(args[1]));
    if (a.length != b.length || a.length != BATCH * CLASSES) {
      throw new IllegalStateException("logit counts differ: " + a.length + ", " + b.length);
    }
    double worst = 0;
    double scale = 0;
    int sameClass = 0;
    for (int r = 0; r < BATCH; r++) {
      int ia = 0;
      int ib = 0;
      for (int c = 0; c < CLASSES; c++) {
        int i = r * CLASSES + c;
        worst = Math.max(worst, Math.abs((double) a[i] - b[i]));
        scale = Math.max(scale, Math.abs(a[i]));
        ia = a[i] > a[r * CLASSES + ia] ? c : ia;
        ib = b[i] > b[r * CLASSES + ib] ? c : ib;
      }
      sameClass += ia == ib ? 1 : 0;
    }
    System.out.printf(
        java.util.Locale.ROOT,
        "%d logits: largest absolute difference %.3e (largest |logit| %.3f, relative %.2e);"
            + " same predicted class for %d of %d images%n",
        a.length,
        worst,
        scale,
        worst / scale,
        sameClass,
        BATCH);
  }
}
