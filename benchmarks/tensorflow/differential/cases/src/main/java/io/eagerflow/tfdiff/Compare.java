package io.eagerflow.tfdiff;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Compares two results files (eagerflow's, TensorFlow's) case by case and prints a Markdown table
 * per op: identical (bit for bit, any NaN matching any NaN), within the op's tolerance, both refuse
 * with the same exception class, both refuse with different classes, and differ; then every
 * differing case. {@code Compare cases.tsv eagerflow.tsv tensorflow.tsv}
 */
public final class Compare {
  /** Relative tolerance in units of the dtype's epsilon, for ops TensorFlow does not compute exactly. */
  static int ulps(String op) {
    return switch (op) {
      // Transcendentals (TensorFlow's Eigen polynomials, eagerflow's libm), FLOAT's reciprocal
      // (an estimate refined by Newton steps), and ops that round in the 16-bit type between
      // steps where eagerflow rounds once.
      case "Log", "Log1p", "Exp", "Expm1", "Sin", "Cos", "Tan", "Tanh", "Sigmoid", "Pow", "Elu",
          "Selu", "Softmax", "LogSoftmax", "Rsqrt", "Sqrt", "Reciprocal", "Inv", "Erf", "Erfc",
          "Atan2", "Softplus", "Softsign", "SquaredDifference", "LRN",
          "SoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits",
          "ResizeBilinear", "FusedBatchNormV3" -> 4;
      // Sums in another order (blocked, threaded, or in the 16-bit type).
      case "Sum", "Mean", "Prod", "Cumsum", "Cumprod", "MatMul", "BatchMatMulV2", "L2Loss",
          "Conv2D", "DepthwiseConv2dNative", "AvgPool", "SegmentSum", "SegmentMean",
          "UnsortedSegmentSum", "TensorScatterAdd", "ScatterNd", "Bincount", "LinSpace" -> 16;
      // Near its roots (-2.5 lies between two) Lgamma's relative error grows in any implementation.
      case "Lgamma" -> 16;
      default -> 0;
    };
  }

  static double epsilon(int dtype) {
    return switch (dtype) {
      case Values.FLOAT -> 0x1p-23;
      case Values.DOUBLE -> 0x1p-52;
      case Values.HALF -> 0x1p-10;
      case Values.BFLOAT16 -> 0x1p-7;
      default -> 0;
    };
  }

  enum Verdict { IDENTICAL, WITHIN, REFUSED, DEVIATION, MISSING, REFUSED_OTHER, DIFFER }

  /** A case's verdict and, for a deviation, which one. */
  record Result(Verdict verdict, String reason) {}

  public static void main(String[] args) throws IOException {
    Map<Integer, Case> cases = new TreeMap<>();
    for (String l : Files.readAllLines(Path.of(args[0]))) {
      Case c = Case.parse(l);
      cases.put(c.id(), c);
    }
    Map<Integer, String[]> ef = results(Path.of(args[1]));
    Map<Integer, String[]> tf = results(Path.of(args[2]));
    Deviations dev = new Deviations(cases.values());
    Map<String, int[]> table = new TreeMap<>();
    Map<String, java.util.Set<String>> dtypes = new TreeMap<>();
    Map<String, Integer> reasons = new TreeMap<>();
    List<String> differ = new ArrayList<>();
    for (Case c : cases.values()) {
      String[] a = ef.get(c.id());
      String[] b = tf.get(c.id());
      int twin = dev.twin(c);
      Result r = verdict(c, a, twin < 0 ? null : ef.get(twin), b);
      Verdict v = r.verdict();
      table.computeIfAbsent(c.op(), k -> new int[8])[v.ordinal()]++;
      table.get(c.op())[7]++;
      if (!c.inputs().isEmpty()) {
        dtypes.computeIfAbsent(c.op(), k -> new java.util.TreeSet<>())
            .add(Values.name(c.inputs().get(0).dtype()));
      }
      if (v == Verdict.DEVIATION) {
        reasons.merge(r.reason(), 1, Integer::sum);
      }
      if (v == Verdict.DIFFER || v == Verdict.REFUSED_OTHER) {
        differ.add(c.op() + " " + v + " case " + c.id() + " inputs " + c.inputs() + " attrs "
            + c.attrs() + "\n    eagerflow:  " + (a == null ? "-" : String.join(" ", a))
            + "\n    tensorflow: " + (b == null ? "-" : String.join(" ", b)));
      }
    }
    System.out.println("| op | dtypes (first input) | cases | identical | within tolerance | both refuse (same exception) | documented deviation | gap: eagerflow lacks the dtype | unexplained: refuse, other exception | unexplained: differ |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|");
    int[] total = new int[8];
    table.forEach((op, n) -> {
      System.out.printf("| %s | %s | %d | %d | %d | %d | %d | %d | %d | %d |%n", op,
          String.join(" ", dtypes.getOrDefault(op, java.util.Set.of())), n[7], n[0], n[1], n[2],
          n[3], n[4], n[5], n[6]);
      for (int i = 0; i < 8; i++) {
        total[i] += n[i];
      }
    });
    System.out.printf("| **all** | | %d | %d | %d | %d | %d | %d | %d | %d |%n", total[7],
        total[0], total[1], total[2], total[3], total[4], total[5], total[6]);
    System.out.println();
    System.out.println("| documented deviation | cases |");
    System.out.println("|---|---|");
    reasons.forEach((k, n) -> System.out.printf("| %s | %d |%n", k, n));
    System.out.println();
    System.out.println("Gaps (eagerflow lacks the dtype): " + total[4]);
    System.out.println("Unexplained: " + (total[5] + total[6]));
    differ.forEach(System.out::println);
  }

  static Map<Integer, String[]> results(Path p) throws IOException {
    Map<Integer, String[]> m = new HashMap<>();
    for (String l : Files.readAllLines(p)) {
      String[] f = l.split("\t", -1);
      m.put(Integer.parseInt(f[0]), java.util.Arrays.copyOfRange(f, 1, f.length));
    }
    return m;
  }

  static Result verdict(Case c, String[] a, String[] twin, String[] b) {
    if (a == null || b == null) {
      return new Result(Verdict.DIFFER, null);
    }
    if (a[0].equals("ERR") || b[0].equals("ERR")) {
      if (a[0].equals(b[0]) && a[1].equals(b[1])) {
        return new Result(Verdict.REFUSED, null);
      }
      String why = Deviations.refusal(a, b);
      if (why != null) {
        return new Result(Verdict.DEVIATION, why);
      }
      if (Deviations.missingKernel(a, b)) {
        return new Result(Verdict.MISSING, null);
      }
      return new Result(a[0].equals(b[0]) ? Verdict.REFUSED_OTHER : Verdict.DIFFER, null);
    }
    String[] xs = a[1].split("\\|", -1);
    String[] ys = b[1].split("\\|", -1);
    String[] zs = twin != null && twin[0].equals("OK") ? twin[1].split("\\|", -1) : null;
    if (xs.length != ys.length) {
      return new Result(Verdict.DIFFER, null);
    }
    Result worst = new Result(Verdict.IDENTICAL, null);
    for (int i = 0; i < xs.length; i++) {
      Values z = zs != null && zs.length == xs.length ? Values.parse(zs[i]) : null;
      Result r = compare(c, i, Values.parse(xs[i]), z, Values.parse(ys[i]));
      if (r.verdict().ordinal() > worst.verdict().ordinal()) {
        worst = r;
      }
    }
    return worst;
  }

  static boolean close(double p, double q, double tol) {
    if ((Double.isNaN(p) && Double.isNaN(q)) || Double.doubleToLongBits(p) == Double.doubleToLongBits(q)) {
      return true;
    }
    return tol > 0 && !Double.isInfinite(p) && !Double.isInfinite(q)
        && Math.abs(p - q) <= tol * Math.max(Math.abs(p), Math.abs(q));
  }

  static Result compare(Case c, int output, Values x, Values twin, Values y) {
    if (x.dtype() != y.dtype() || !java.util.Arrays.equals(x.shape(), y.shape())) {
      // Shapes that depend on values (Unique): TensorFlow's result is eagerflow's on the twin.
      if (twin != null && twin.dtype() == y.dtype() && java.util.Arrays.equals(twin.shape(), y.shape())
          && java.util.Arrays.equals(twin.bytes(), y.bytes())) {
        return new Result(Verdict.DEVIATION, Deviations.FTZ);
      }
      if (c.op().equals("Unique") && (y.dtype() == Values.HALF || y.dtype() == Values.BFLOAT16
          || (y.dtype() == Values.INT32 && isHalfish(c.inputs().get(0).dtype())))) {
        return new Result(Verdict.DEVIATION, Deviations.SIGNED_ZERO);
      }
      return new Result(Verdict.DIFFER, null);
    }
    if (java.util.Arrays.equals(x.bytes(), y.bytes())) {
      return new Result(Verdict.IDENTICAL, null);
    }
    if (twin != null && (twin.dtype() != x.dtype() || !java.util.Arrays.equals(twin.shape(), x.shape()))) {
      twin = null;
    }
    Result v = new Result(Verdict.IDENTICAL, null);
    double tol = ulps(c.op()) * epsilon(x.dtype());
    for (int i = 0; i < x.count(); i++) {
      double p = x.element(i);
      double q = y.element(i);
      if (Values.isFloat(x.dtype()) ? close(p, q, 0) : sameInt(x, y, i)) {
        continue;
      }
      if (Values.isFloat(x.dtype()) && close(p, q, tol)) {
        if (v.verdict() == Verdict.IDENTICAL) {
          v = new Result(Verdict.WITHIN, null);
        }
        continue;
      }
      String why = Deviations.element(c, output, x, twin, y, i, tol);
      if (why == null) {
        return new Result(Verdict.DIFFER, null);
      }
      v = new Result(Verdict.DEVIATION, why);
    }
    return v;
  }

  static boolean isHalfish(int dtype) {
    return dtype == Values.HALF || dtype == Values.BFLOAT16;
  }

  /** Integer elements compared exactly (INT64 through its bytes: doubles cannot hold it). */
  static boolean sameInt(Values x, Values y, int i) {
    int w = Values.size(x.dtype());
    return java.util.Arrays.equals(x.bytes(), i * w, (i + 1) * w, y.bytes(), i * w, (i + 1) * w);
  }
}
