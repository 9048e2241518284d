package io.eagerflow.tfdiff;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The deliberate deviations of docs/compatibility.md ("Deliberate deviations"), each a precise
 * rule: a differing output element or refusal counts as a deviation only when the rule says what
 * both systems gave, anything else stays a difference.
 */
final class Deviations {
  static final String FTZ = "subnormals: TensorFlow flushes them to zero (FTZ/DAZ)";
  static final String CAST = "Cast of NaN, infinities, out-of-range floats to integers: eagerflow saturates";
  static final String ARG_NAN = "ArgMax/ArgMin over NaN: eagerflow gives the first NaN's index";
  static final String ROUND_INT = "Round of integers: TensorFlow gives 0, eagerflow the input";
  static final String HALF_MEAN = "Mean of HALF: eagerflow sums in FLOAT, TensorFlow overflows in HALF";
  static final String SIGNED_ZERO = "signed zeros in HALF and BFLOAT16 (computed in FLOAT here): Maximum, Minimum, Relu, Relu6 give the other zero, Unique merges -0 with 0";
  static final String TOPK_NAN = "TopKV2 over NaN: TensorFlow's order is undefined, eagerflow sorts NaN first";
  static final String WHERE_SCALAR = "Where of a scalar: TensorFlow refuses, eagerflow gives its 0 or 1 rows of 0 coordinates";
  static final String BN_EXTRA = "FusedBatchNormV3 in inference: batch_mean, batch_variance and the reserve spaces, which TensorFlow leaves unspecified (uninitialized memory)";
  static final String DIV_ZERO = "integer division by zero in TruncateDiv/TruncateMod: TensorFlowException (internal error) in TensorFlow, TFInvalidArgumentException here as for Div";
  static final String SUBNORMAL_EXACT = "Pow and Lgamma of subnormals: TensorFlow's result is neither flushed nor exact, eagerflow's is exact";
  static final String EXTRA = "eagerflow has a kernel for a dtype TensorFlow has none for";
  static final String NO_KERNEL = "no kernel for the dtype: TensorFlowException (NOT_FOUND) in TensorFlow, TFInvalidArgumentException here";

  private final Map<String, Integer> byKey = new HashMap<>();

  Deviations(Iterable<Case> cases) {
    for (Case c : cases) {
      byKey.putIfAbsent(key(c.op(), c.attrs(), c.inputs()), c.id());
    }
  }

  static String key(String op, List<Case.Attr> attrs, List<Values> inputs) {
    return new Case(0, op, attrs, inputs).line();
  }

  /** The case's inputs with every FLOAT, DOUBLE and BFLOAT16 subnormal replaced by a zero of its sign. */
  static List<Values> daz(List<Values> inputs) {
    List<Values> out = new ArrayList<>();
    for (Values v : inputs) {
      if (!flushes(v.dtype())) {
        out.add(v);
        continue;
      }
      double[] d = new double[(int) v.count()];
      for (int i = 0; i < d.length; i++) {
        d[i] = ftz(v.dtype(), v.element(i));
      }
      Values z = Values.of(v.dtype(), v.shape(), d);
      // Values.of would quiet NaN payloads: keep the original bytes where nothing was flushed.
      out.add(java.util.Arrays.equals(d, elements(v)) ? v : keepNans(v, z));
    }
    return out;
  }

  private static double[] elements(Values v) {
    double[] d = new double[(int) v.count()];
    for (int i = 0; i < d.length; i++) {
      d[i] = v.element(i);
    }
    return d;
  }

  private static Values keepNans(Values orig, Values z) {
    byte[] b = z.bytes().clone();
    int w = Values.size(orig.dtype());
    for (int i = 0; i < orig.count(); i++) {
      if (Double.isNaN(orig.element(i))) {
        System.arraycopy(orig.bytes(), i * w, b, i * w, w);
      }
    }
    return new Values(orig.dtype(), orig.shape(), b);
  }

  /** FLOAT, DOUBLE and BFLOAT16 are computed in hardware float or double, where TensorFlow sets FTZ/DAZ; HALF values are all normal as floats. */
  static boolean flushes(int dtype) {
    return dtype == Values.FLOAT || dtype == Values.DOUBLE || dtype == Values.BFLOAT16;
  }

  static boolean subnormal(int dtype, double x) {
    double min = dtype == Values.DOUBLE ? Double.MIN_NORMAL : Float.MIN_NORMAL;
    return flushes(dtype) && x != 0 && Math.abs(x) < min;
  }

  static double ftz(int dtype, double x) {
    return subnormal(dtype, x) ? Math.copySign(0.0, x) : x;
  }

  /** The id of the case with the same op and attributes on the flushed inputs, or -1 when no input holds a subnormal. */
  int twin(Case c) {
    List<Values> z = daz(c.inputs());
    if (z.equals(c.inputs()) || sameBytes(z, c.inputs())) {
      return -1;
    }
    return byKey.getOrDefault(key(c.op(), c.attrs(), z), -1);
  }

  private static boolean sameBytes(List<Values> a, List<Values> b) {
    for (int i = 0; i < a.size(); i++) {
      if (!java.util.Arrays.equals(a.get(i).bytes(), b.get(i).bytes())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Why TensorFlow's element {@code i} of output {@code tf} may differ from eagerflow's {@code ef},
   * or null. {@code efTwin} is eagerflow's same output on the flushed inputs (null when none).
   */
  static String element(Case c, int output, Values ef, Values efTwin, Values tf, int i,
      double tol) {
    if (c.op().equals("FusedBatchNormV3") && output > 0) {
      return BN_EXTRA;
    }
    double q = tf.element(i);
    Values base = efTwin != null ? efTwin : ef;
    if (Values.isFloat(ef.dtype()) || efTwin != null) {
      // Flushed on both sides: a result TensorFlow passes through unflushed (Sign's input) too.
      double p = ftz(ef.dtype(), base.element(i));
      if (efTwin != null || subnormal(ef.dtype(), ef.element(i))) {
        if (Compare.close(p, ftz(ef.dtype(), q), tol) || (p == 0 && q == 0)) {
          return FTZ;
        }
      }
    }
    Values x = c.inputs().isEmpty() ? null : c.inputs().get(0);
    if (x != null && x.count() == ef.count() && subnormal(x.dtype(), x.element(i))) {
      double v = x.element(i);
      double exact = switch (c.op()) {
        case "Pow" -> Math.pow(v, c.inputs().get(1).count() == ef.count()
            ? c.inputs().get(1).element(i) : Double.NaN);
        case "Lgamma" -> -Math.log(v); // lgamma(x) = -ln(x) - 0.577x + ... for tiny x
        default -> Double.NaN;
      };
      if (!Double.isNaN(exact) && Compare.close(ef.element(i), exact, Math.max(tol, 0x1p-7))) {
        return SUBNORMAL_EXACT;
      }
    }
    switch (c.op()) {
      case "Unique" -> {
        if (Compare.isHalfish(x.dtype())) {
          return SIGNED_ZERO;
        }
      }
      case "Cast" -> {
        if (Values.isFloat(x.dtype()) && !Values.isFloat(ef.dtype()) && ef.dtype() != Values.BOOL) {
          double v = x.element(i);
          double[] range = range(ef.dtype());
          boolean outside = Double.isNaN(v) || v <= range[0] - 1 || v >= range[1] + 1;
          double sat = Double.isNaN(v) ? 0 : Math.max(range[0], Math.min(range[1], v < 0 ? Math.ceil(v) : Math.floor(v)));
          if (outside && ef.element(i) == sat) {
            return CAST;
          }
        }
      }
      case "ArgMax", "ArgMin" -> {
        long[] slice = slice(x.shape(), (int) c.inputs().get(1).element(0), i);
        int firstNan = -1;
        for (int k = 0; k < slice.length; k++) {
          if (Double.isNaN(x.element((int) slice[k]))) {
            firstNan = k;
            break;
          }
        }
        if (firstNan >= 0 && ef.element(i) == firstNan) {
          return ARG_NAN;
        }
      }
      case "Round" -> {
        if (!Values.isFloat(x.dtype()) && ef.element(i) == x.element(i) && q == 0) {
          return ROUND_INT;
        }
      }
      case "Maximum", "Minimum", "Relu", "Relu6" -> {
        double p = ef.element(i);
        if ((ef.dtype() == Values.HALF || ef.dtype() == Values.BFLOAT16) && p == 0 && q == 0) {
          return SIGNED_ZERO;
        }
      }
      case "TopKV2" -> {
        long last = x.shape()[x.shape().length - 1];
        long k = ef.shape()[ef.shape().length - 1];
        long row = i / Math.max(k, 1);
        for (long j = row * last; j < (row + 1) * last; j++) {
          if (Values.isFloat(x.dtype()) && Double.isNaN(x.element((int) j))) {
            return TOPK_NAN;
          }
        }
      }
      case "Mean" -> {
        if (ef.dtype() == Values.HALF && Double.isInfinite(q) && !Double.isInfinite(ef.element(i))) {
          return HALF_MEAN;
        }
      }
      default -> {}
    }
    return null;
  }

  static double[] range(int dtype) {
    return switch (dtype) {
      case Values.INT32 -> new double[] {Integer.MIN_VALUE, Integer.MAX_VALUE};
      case Values.INT64 -> new double[] {Long.MIN_VALUE, Long.MAX_VALUE};
      case Values.UINT8 -> new double[] {0, 255};
      case Values.UINT16 -> new double[] {0, 65535};
      default -> throw new IllegalArgumentException("dtype " + dtype);
    };
  }

  /** The flat indices, in order, of the elements along {@code axis} that output element {@code out} reduces. */
  static long[] slice(long[] shape, int axis, int out) {
    int r = shape.length;
    int a = axis < 0 ? axis + r : axis;
    long inner = 1;
    for (int d = a + 1; d < r; d++) {
      inner *= shape[d];
    }
    long outer = out / inner;
    long in = out % inner;
    long[] idx = new long[(int) shape[a]];
    for (int k = 0; k < idx.length; k++) {
      idx[k] = (outer * shape[a] + k) * inner + in;
    }
    return idx;
  }

  /**
   * Whether eagerflow refused for the dtype alone an input TensorFlow computes: a gap (a kernel
   * eagerflow lacks for that dtype), listed apart from the deviations, to be fixed.
   */
  static boolean missingKernel(String[] ef, String[] tf) {
    return ef[0].equals("ERR") && (tf[0].equals("OK") || !noKernel(tf))
        && (ef[2].contains("has dtype") || ef[2].contains("dtypes are not supported")
            || ef[2].contains("which this op does not support"));
  }

  /** Why eagerflow's result {@code ef} and TensorFlow's {@code tf} (either refusing) differ, or null. */
  static String refusal(String[] ef, String[] tf) {
    if (ef[0].equals("OK") && tf[0].equals("ERR") && noKernel(tf)) {
      return EXTRA;
    }
    if (ef[0].equals("ERR") && tf[0].equals("ERR") && ef[2].contains("division by zero")
        && tf[2].startsWith("Unexpected error in binary operator")) {
      return DIV_ZERO;
    }
    if (ef[0].equals("OK") && tf[0].equals("ERR") && tf[2].startsWith("WhereOp : Unhandled input dimensions: 0")) {
      return WHERE_SCALAR;
    }
    if (ef[0].equals("ERR") && tf[0].equals("ERR") && noKernel(tf)) {
      // eagerflow refused for the dtype too (another exception class), or has a kernel for the
      // dtype and refused this input for another reason (RealDiv of integers by zero).
      return ef[2].contains("dtype") ? NO_KERNEL : EXTRA;
    }
    return null;
  }

  /** TensorFlow refused for the dtype alone: the op's type list, or no CPU kernel registered for it. */
  private static boolean noKernel(String[] tf) {
    return tf[2].startsWith("Could not find device for node")
        || tf[2].startsWith("Value for attr 'T' of ")
        || (tf[1].equals("TFUnimplementedException") && tf[2].contains("data type is not supported"))
        || tf[2].startsWith("No WhereOp available for float16");
  }
}
