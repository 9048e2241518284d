package io.eagerflow.op;

import io.eagerflow.DataType;

/**
 * Turns a rectangular multi-dimensional Java array ({@code float[][]}, {@code int[][][]}, ...) into
 * its dimensions and one row-major primitive array, so that a constant costs one native call
 * whatever its rank. Ragged and null rows are reported by position.
 */
final class Flattener {
  private Flattener() {}

  /** The dimensions of {@code value}, read along its first rows; unvisited ones are 0. */
  static long[] dims(Object[] value, int rank) {
    long[] dims = new long[rank];
    Object a = value;
    for (int d = 0; d < rank; d++) {
      int n = length(a);
      dims[d] = n;
      if (n == 0) {
        break;
      }
      if (d < rank - 1) {
        a = ((Object[]) a)[0];
        if (a == null) {
          throw new NullPointerException("row " + path(new int[d + 1], d + 1) + " is null");
        }
      }
    }
    return dims;
  }

  /**
   * Copies {@code value}, whose dimensions {@link #dims} returned, into a new primitive array of
   * {@code type}.
   *
   * @throws IllegalArgumentException if a row's length differs from the first row's at its depth,
   *     or the array has more elements than a Java array can hold
   * @throws NullPointerException if a row is null
   */
  static Object flatten(Object[] value, long[] dims, DataType type) {
    long count = 1;
    for (long d : dims) {
      count *= d; // each d < 2^31 and the product is checked after each step
      if (count > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException(
            "an array with dimensions " + java.util.Arrays.toString(dims) + " is too large");
      }
    }
    Object flat =
        switch (type) {
          case FLOAT, HALF, BFLOAT16 -> new float[(int) count];
          case UINT16 -> new short[(int) count];
          case DOUBLE -> new double[(int) count];
          case INT32 -> new int[(int) count];
          case INT64 -> new long[(int) count];
          case UINT8 -> new byte[(int) count];
          case BOOL -> new boolean[(int) count];
          case STRING -> new String[(int) count];
        };
    copy(value, dims, 0, new int[dims.length], flat, 0);
    return flat;
  }

  /** Copies the rows under {@code rows} (at {@code depth}) into {@code flat} from {@code pos}. */
  private static int copy(Object[] rows, long[] dims, int depth, int[] path, Object flat, int pos) {
    int leafDepth = dims.length - 1;
    for (int i = 0; i < rows.length; i++) {
      path[depth] = i;
      Object row = rows[i];
      if (row == null) {
        throw new NullPointerException("row " + path(path, depth + 1) + " is null");
      }
      int n = length(row);
      if (n != dims[depth + 1]) {
        throw new IllegalArgumentException(
            "ragged array: row "
                + path(path, depth + 1)
                + " has length "
                + n
                + " but row "
                + path(new int[depth + 1], depth + 1)
                + " has "
                + dims[depth + 1]);
      }
      if (depth + 1 == leafDepth) {
        System.arraycopy(row, 0, flat, pos, n);
        pos += n;
      } else {
        pos = copy((Object[]) row, dims, depth + 1, path, flat, pos);
      }
    }
    return pos;
  }

  private static int length(Object a) {
    if (a instanceof Object[] o) {
      return o.length;
    } else if (a instanceof float[] f) {
      return f.length;
    } else if (a instanceof double[] d) {
      return d.length;
    } else if (a instanceof int[] i) {
      return i.length;
    } else if (a instanceof long[] l) {
      return l.length;
    } else if (a instanceof byte[] b) {
      return b.length;
    } else {
      return ((boolean[]) a).length;
    }
  }

  /** {@code "[1][0]"} for the first {@code n} entries of {@code path}. */
  private static String path(int[] path, int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append('[').append(path[i]).append(']');
    }
    return b.toString();
  }
}
