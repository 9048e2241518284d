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
      case "Log", "Log1p", "Exp", "Expm1", "Sin", "Cos", "Tan", "Tanh", "Sigmoid", "Pow", "Elu",
          "Selu", "Softmax", "LogSoftmax", "Rsqrt", "Sqrt" -> 4;
      case "Sum", "Mean", "Prod", "Cumsum", "MatMul", "BatchMatMulV2", "L2Loss" -> 16;
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

  enum Verdict { IDENTICAL, WITHIN, REFUSED, REFUSED_OTHER, DIFFER }

  public static void main(String[] args) throws IOException {
    Map<Integer, Case> cases = new HashMap<>();
    for (String l : Files.readAllLines(Path.of(args[0]))) {
      Case c = Case.parse(l);
      cases.put(c.id(), c);
    }
    Map<Integer, String[]> ef = results(Path.of(args[1]));
    Map<Integer, String[]> tf = results(Path.of(args[2]));
    Map<String, int[]> table = new TreeMap<>();
    List<String> differ = new ArrayList<>();
    for (Case c : cases.values()) {
      String[] a = ef.get(c.id());
      String[] b = tf.get(c.id());
      Verdict v = verdict(c.op(), a, b);
      table.computeIfAbsent(c.op(), k -> new int[6])[v.ordinal()]++;
      table.get(c.op())[5]++;
      if (v == Verdict.DIFFER || v == Verdict.REFUSED_OTHER) {
        differ.add(c.op() + " " + v + " case " + c.id() + " inputs " + c.inputs() + " attrs "
            + c.attrs() + "\n    eagerflow:  " + String.join(" ", a) + "\n    tensorflow: "
            + String.join(" ", b));
      }
    }
    System.out.println("| op | cases | identical | within tolerance | both refuse | both refuse, other exception | differ |");
    System.out.println("|---|---|---|---|---|---|---|");
    int[] total = new int[6];
    table.forEach((op, n) -> {
      System.out.printf("| %s | %d | %d | %d | %d | %d | %d |%n", op, n[5], n[0], n[1], n[2], n[3], n[4]);
      for (int i = 0; i < 6; i++) {
        total[i] += n[i];
      }
    });
    System.out.printf("| **all** | %d | %d | %d | %d | %d | %d |%n", total[5], total[0], total[1],
        total[2], total[3], total[4]);
    System.out.println();
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

  static Verdict verdict(String op, String[] a, String[] b) {
    if (a == null || b == null) {
      return Verdict.DIFFER;
    }
    if (a[0].equals("ERR") || b[0].equals("ERR")) {
      if (!a[0].equals(b[0])) {
        return Verdict.DIFFER;
      }
      return a[1].equals(b[1]) ? Verdict.REFUSED : Verdict.REFUSED_OTHER;
    }
    String[] xs = a[1].split("\\|", -1);
    String[] ys = b[1].split("\\|", -1);
    if (xs.length != ys.length) {
      return Verdict.DIFFER;
    }
    Verdict worst = Verdict.IDENTICAL;
    for (int i = 0; i < xs.length; i++) {
      Verdict v = compare(op, Values.parse(xs[i]), Values.parse(ys[i]));
      if (v.ordinal() > worst.ordinal()) {
        worst = v;
      }
    }
    return worst;
  }

  static Verdict compare(String op, Values x, Values y) {
    if (x.dtype() != y.dtype() || !java.util.Arrays.equals(x.shape(), y.shape())) {
      return Verdict.DIFFER;
    }
    if (java.util.Arrays.equals(x.bytes(), y.bytes())) {
      return Verdict.IDENTICAL;
    }
    if (!Values.isFloat(x.dtype())) {
      return Verdict.DIFFER;
    }
    Verdict v = Verdict.IDENTICAL;
    double tol = ulps(op) * epsilon(x.dtype());
    for (int i = 0; i < x.count(); i++) {
      double p = x.element(i);
      double q = y.element(i);
      if (Double.isNaN(p) && Double.isNaN(q)) {
        continue;
      }
      if (Double.doubleToLongBits(p) == Double.doubleToLongBits(q)) {
        continue;
      }
      if (tol == 0) {
        return Verdict.DIFFER; // -0.0 against 0.0 too
      }
      boolean close = !Double.isInfinite(p) && !Double.isInfinite(q)
          && Math.abs(p - q) <= tol * Math.max(Math.abs(p), Math.abs(q));
      if (!close) {
        return Verdict.DIFFER;
      }
      v = Verdict.WITHIN;
    }
    return v;
  }
}
