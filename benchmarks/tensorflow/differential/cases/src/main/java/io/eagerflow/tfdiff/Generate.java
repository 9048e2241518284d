package io.eagerflow.tfdiff;

import static io.eagerflow.tfdiff.Values.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the cases: each op of eagerflow's registry that takes single tensors (list-input ops and
 * random ops are left out: see docs/compatibility.md), on every dtype it might take, with edge
 * values (NaN, infinities, -0.0, subnormals, each integer type's extremes), rank-0, empty and
 * broadcast shapes. Ops a dtype does not support are generated too: both systems must refuse them.
 * To add an op, add it to one of the lists below (or a block of its own). {@code Generate
 * cases.tsv}
 */
public final class Generate {
  static final String[] UNARY = {
    "Neg", "Abs", "Sign", "Square", "Log", "Log1p", "Exp", "Expm1", "Sqrt", "Rsqrt", "Reciprocal",
    "Sin", "Cos", "Tan", "Tanh", "Sigmoid", "Floor", "Ceil", "Round", "Relu", "Relu6", "Elu",
    "Selu", "Softmax", "LogSoftmax", "LogicalNot", "Identity", "ZerosLike", "OnesLike", "L2Loss"
  };
  static final String[] BINARY = {
    "AddV2", "Sub", "Mul", "RealDiv", "Div", "FloorDiv", "FloorMod", "Pow", "Maximum", "Minimum",
    "SquaredDifference", "DivNoNan", "Less", "LessEqual", "Greater", "GreaterEqual", "Equal",
    "NotEqual", "LogicalAnd", "LogicalOr"
  };
  static final String[] REDUCTIONS = {"Sum", "Prod", "Max", "Min", "Mean", "All", "Any"};

  private final List<Case> cases = new ArrayList<>();

  public static void main(String[] args) throws IOException {
    Generate g = new Generate();
    g.all();
    List<String> lines = new ArrayList<>();
    g.cases.forEach(c -> lines.add(c.line()));
    Files.write(Path.of(args[0]), lines);
    System.out.println(lines.size() + " cases");
  }

  void add(String op, List<Case.Attr> attrs, Values... in) {
    cases.add(new Case(cases.size(), op, attrs, List.of(in)));
  }

  static long[] s(long... d) {
    return d;
  }

  /** The edge values of a dtype, as doubles (INT64's extremes in {@link #longEdges}). */
  static double[] edges(int dtype) {
    return switch (dtype) {
      case FLOAT -> new double[] {0, -0.0, 1, -1, 0.5, 2.5, -2.5, 3, 1e-3, 100, Double.NaN,
          Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 3.4e38, 1e-45, -7.25};
      case DOUBLE -> new double[] {0, -0.0, 1, -1, 0.5, 2.5, -2.5, 3, 1e-3, 100, Double.NaN,
          Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.7e308, 4.9e-324, -7.25};
      case HALF -> new double[] {0, -0.0, 1, -1, 0.5, 2.5, -2.5, 3, 1e-3, 100, Double.NaN,
          Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 65504, 6e-8, -7.25};
      case BFLOAT16 -> new double[] {0, -0.0, 1, -1, 0.5, 2.5, -2.5, 3, 1e-3, 100, Double.NaN,
          Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 3.38e38, 1e-40, -7.25};
      case INT32 -> new double[] {0, 1, -1, 2, 3, -3, 7, -7, 100, Integer.MAX_VALUE,
          Integer.MIN_VALUE, 2, 5, -2, 9, 4};
      case UINT8 -> new double[] {0, 1, 2, 3, 7, 100, 255, 254, 128, 5, 9, 4, 1, 2, 6, 10};
      case UINT16 -> new double[] {0, 1, 2, 3, 7, 100, 65535, 65534, 32768, 5, 9, 4, 1, 2, 6, 10};
      case BOOL -> new double[] {0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 0, 1, 0, 1, 0};
      default -> throw new IllegalArgumentException("dtype " + dtype);
    };
  }

  static final long[] LONG_EDGES = {0, 1, -1, 2, 3, -3, 7, -7, 100, Long.MAX_VALUE, Long.MIN_VALUE,
      2, 5, -2, 9, 4};

  static Values vector(int dtype, int rotate) {
    if (dtype == INT64) {
      long[] v = new long[LONG_EDGES.length];
      for (int i = 0; i < v.length; i++) {
        v[i] = LONG_EDGES[(i + rotate) % v.length];
      }
      return ofLongs(s(v.length), v);
    }
    double[] e = edges(dtype);
    double[] v = new double[e.length];
    for (int i = 0; i < v.length; i++) {
      v[i] = e[(i + rotate) % e.length];
    }
    return of(dtype, s(v.length), v);
  }

  static Values shaped(int dtype, long[] shape, int start) {
    int n = 1;
    for (long d : shape) {
      n *= (int) d;
    }
    if (dtype == INT64) {
      long[] v = new long[n];
      for (int i = 0; i < n; i++) {
        v[i] = LONG_EDGES[(start + i) % LONG_EDGES.length];
      }
      return ofLongs(shape, v);
    }
    double[] e = edges(dtype);
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = e[(start + i) % e.length];
    }
    return of(dtype, shape, v);
  }

  static Values plain(int dtype, long[] shape, int seed) {
    int n = 1;
    for (long d : shape) {
      n *= (int) d;
    }
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = dtype == BOOL ? (i + seed) % 2 : ((i * 7 + seed * 3) % 11) - (isSigned(dtype) ? 5 : 0);
    }
    return of(dtype, shape, v);
  }

  static boolean isSigned(int dtype) {
    return dtype != UINT8 && dtype != UINT16 && dtype != BOOL;
  }

  void all() {
    for (String op : UNARY) {
      for (int d : ALL) {
        add(op, List.of(), vector(d, 0));
        add(op, List.of(), shaped(d, s(), 2));
        add(op, List.of(), shaped(d, s(0), 0));
        add(op, List.of(), shaped(d, s(2, 3), 5));
      }
    }
    for (String op : BINARY) {
      for (int d : ALL) {
        for (int r = 0; r < 16; r += 3) {
          add(op, List.of(), vector(d, 0), vector(d, r));
        }
        add(op, List.of(), plain(d, s(2, 3), 1), plain(d, s(3), 2));
        add(op, List.of(), plain(d, s(2, 1), 1), plain(d, s(1, 3), 4));
        add(op, List.of(), plain(d, s(), 3), plain(d, s(4), 2));
        add(op, List.of(), plain(d, s(0), 3), plain(d, s(1), 2));
        add(op, List.of(), plain(d, s(2), 3), plain(d, s(3), 2)); // no broadcast: refused
      }
      add(op, List.of(), plain(FLOAT, s(2), 1), plain(DOUBLE, s(2), 1)); // mixed: refused
      add(op, List.of(), plain(HALF, s(2), 1), plain(FLOAT, s(2), 1));
    }
    Values axis0 = of(INT32, s(), 0);
    Values axisLast = of(INT32, s(), -1);
    Values axes = of(INT32, s(2), 0, 1);
    Values axisOut = of(INT32, s(), 2);
    for (String op : REDUCTIONS) {
      for (int d : ALL) {
        for (boolean keep : new boolean[] {false, true}) {
          List<Case.Attr> a = List.of(new Case.Attr("keep_dims", 'b', String.valueOf(keep)));
          add(op, a, shaped(d, s(4, 4), 0), axis0);
          add(op, a, shaped(d, s(4, 4), 3), axisLast);
          add(op, a, plain(d, s(3, 4), 1), axes);
          add(op, a, plain(d, s(0, 3), 1), axis0);
          add(op, a, plain(d, s(0, 3), 1), axisLast);
        }
        add(op, List.of(), plain(d, s(), 1), of(INT32, s(0)));
        add(op, List.of(), plain(d, s(3, 4), 1), axisOut); // out of range: refused
      }
    }
    for (String op : new String[] {"ArgMax", "ArgMin"}) {
      for (int d : ALL) {
        add(op, List.of(), shaped(d, s(4, 4), 0), axis0);
        add(op, List.of(), shaped(d, s(4, 4), 5), axisLast);
        add(op, List.of(), plain(d, s(0, 3), 1), axisLast);
      }
    }
    for (int d : ALL) {
      add("Cumsum", List.of(), shaped(d, s(4, 4), 0), axis0);
      add("Cumsum", List.of(new Case.Attr("exclusive", 'b', "true"),
          new Case.Attr("reverse", 'b', "true")), plain(d, s(3, 4), 2), axisLast);
      add("ClipByValue", List.of(), vector(d, 0), plain(d, s(), 1), plain(d, s(), 4));
      add("BiasAdd", List.of(), plain(d, s(2, 3), 1), plain(d, s(3), 2));
      add("MatMul", List.of(), plain(d, s(2, 3), 1), plain(d, s(3, 4), 2));
      add("MatMul", List.of(new Case.Attr("transpose_b", 'b', "true")), plain(d, s(2, 3), 1),
          plain(d, s(4, 3), 2));
      add("BatchMatMulV2", List.of(), plain(d, s(2, 2, 3), 1), plain(d, s(3, 2), 2));
      add("SelectV2", List.of(), plain(BOOL, s(4), 1), vector(d, 0).slice4(), plain(d, s(), 3));
      add("Transpose", List.of(), shaped(d, s(2, 3), 1), of(INT32, s(2), 1, 0));
      add("Reshape", List.of(), shaped(d, s(2, 3), 1), of(INT32, s(2), 3, -1));
      add("ExpandDims", List.of(), shaped(d, s(2, 3), 1), of(INT32, s(), -1));
      add("Tile", List.of(), shaped(d, s(2, 1), 1), of(INT32, s(2), 2, 3));
      add("Fill", List.of(), of(INT32, s(2), 2, 2), shaped(d, s(), 4));
      add("GatherV2", List.of(), shaped(d, s(4, 2), 1), of(INT32, s(3), 3, 0, 1), of(INT32, s(), 0));
      add("Slice", List.of(), shaped(d, s(4, 4), 0), of(INT32, s(2), 1, 0), of(INT32, s(2), 2, -1));
      add("Shape", List.of(), shaped(d, s(2, 3), 1));
      add("Size", List.of(), shaped(d, s(2, 3), 1));
      add("Rank", List.of(), shaped(d, s(2, 3), 1));
      add("Squeeze", List.of(), shaped(d, s(1, 3, 1), 1));
      add("StopGradient", List.of(), vector(d, 0));
      for (int dst : ALL) {
        add("Cast", List.of(new Case.Attr("DstT", 't', String.valueOf(dst))), vector(d, 0));
        add("Cast", List.of(new Case.Attr("DstT", 't', String.valueOf(dst))), shaped(d, s(), 7));
      }
    }
    add("Cast", List.of(new Case.Attr("DstT", 't', String.valueOf(FLOAT)),
        new Case.Attr("Truncate", 'b', "true")), vector(DOUBLE, 0));
    add("Cast", List.of(new Case.Attr("DstT", 't', String.valueOf(BFLOAT16)),
        new Case.Attr("Truncate", 'b', "true")), vector(FLOAT, 0));
    add("Cast", List.of(new Case.Attr("DstT", 't', String.valueOf(HALF)),
        new Case.Attr("Truncate", 'b', "true")), vector(FLOAT, 0));
    for (int d : new int[] {INT32, INT64, UINT8}) {
      add("OneHot", List.of(), plain(d, s(3), 1), of(INT32, s(), 4), of(FLOAT, s(), 1),
          of(FLOAT, s(), 0));
    }
    add("Range", List.of(), of(INT32, s(), 0), of(INT32, s(), 10), of(INT32, s(), 3));
    add("Range", List.of(), of(FLOAT, s(), 0), of(FLOAT, s(), 1), of(FLOAT, s(), 0.25));
  }
}
