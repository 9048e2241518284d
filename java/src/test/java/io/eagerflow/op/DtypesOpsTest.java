package io.eagerflow.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eagerflow.DataType;
import io.eagerflow.Operand;
import io.eagerflow.types.TBool;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TFloat64;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TInt64;
import io.eagerflow.types.TUint8;
import org.junit.jupiter.api.Test;

class DtypesOpsTest extends OpsTestBase {
  @Test
  void floatToIntegerTruncatesTowardZero() {
    Operand<TFloat32> x = tf.constant(new float[] {1.7f, -1.7f, 2.5f, -0.2f});
    Operand<TInt32> i = tf.dtypes.cast(x, TInt32.class);
    assertEquals(DataType.INT32, i.dataType());
    assertEquals(TInt32.class, i.type());
    assertInts(i, dims(4), 1, -1, 2, 0);
    assertLongs(tf.dtypes.cast(x, TInt64.class), dims(4), 1, -1, 2, 0);
  }

  @Test
  void betweenTypes() {
    assertFloats(tf.dtypes.cast(tf.constant(new int[] {1, -2}), TFloat32.class), dims(2), 1, -2);
    assertArrayEquals(
        new double[] {0.5, 3},
        doubles(tf.dtypes.cast(tf.constant(new float[] {0.5f, 3}), TFloat64.class)));
    assertInts(tf.dtypes.cast(tf.constant(new long[] {1L << 33 | 5}), TInt32.class), dims(1), 5);
    assertBools(
        tf.dtypes.cast(tf.constant(new float[] {0, 0.5f, -2}), TBool.class),
        dims(3),
        false,
        true,
        true);
    assertInts(
        tf.dtypes.cast(tf.constant(new boolean[] {true, false}), TInt32.class), dims(2), 1, 0);
    Operand<TUint8> u = tf.dtypes.cast(tf.constant(new int[] {200, 7}), TUint8.class);
    assertArrayEquals(new byte[] {(byte) 200, 7}, bytes(u));
    assertInts(tf.dtypes.cast(u, TInt32.class), dims(2), 200, 7);
    assertFloats(tf.dtypes.cast(tf.constant(new float[][] {{1}}), TFloat32.class), dims(1, 1), 1);
  }

  @Test
  void truncateDropsLowBitsOfDoubleToFloat() {
    double x = 1 + Math.ulp(1f) * 0.75; // rounds up to the next float, truncates to 1
    Operand<TFloat64> d = tf.constant(new double[] {x});
    assertEquals(1 + Math.ulp(1f), floats(tf.dtypes.cast(d, TFloat32.class))[0]);
    assertEquals(1f, floats(tf.dtypes.cast(d, TFloat32.class, Cast.truncate(true)))[0]);
  }
}
