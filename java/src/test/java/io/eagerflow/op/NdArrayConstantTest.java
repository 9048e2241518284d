package io.eagerflow.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.types.TBool;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TFloat64;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TInt64;
import io.eagerflow.types.TUint8;
import java.nio.ReadOnlyBufferException;
import java.util.Iterator;
import org.junit.jupiter.api.Test;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.IntNdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.StdArrays;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.ndarray.index.Indices;

/** Constants from NdArrays and op results read as NdArrays, as TensorFlow Java eager code does. */
class NdArrayConstantTest extends OpsTestBase {

  @Test
  void constantsOfEveryTypeComeFromNdArrays() {
    FloatNdArray f = StdArrays.ndCopyOf(new float[][] {{1, 2}, {3, 4}});
    assertEquals(f, tf.constant(f).asTensor());
    assertEquals(
        NdArrays.vectorOf(1.5, -2.0), tf.constant(NdArrays.vectorOf(1.5, -2.0)).asTensor());
    IntNdArray i = StdArrays.ndCopyOf(new int[][][] {{{1}, {2}}, {{3}, {4}}});
    Operand<TInt32> ic = tf.constant(i);
    assertEquals(Shape.of(2, 2, 1), ic.shape());
    assertEquals(i, ic.asTensor());
    assertEquals(NdArrays.scalarOf(7L), tf.constant(NdArrays.scalarOf(7L)).asTensor());
    Operand<TBool> b = tf.constant(NdArrays.vectorOf(true, false));
    assertEquals(NdArrays.vectorOf(true, false), b.asTensor());
    Operand<TUint8> u = tf.constant(NdArrays.vectorOf((byte) 250, (byte) 1));
    assertEquals((byte) 250, u.asTensor().getByte(0));
  }

  @Test
  void constantsComeFromShapesAndBuffers() {
    Operand<TFloat32> m = tf.constant(Shape.of(2, 3), DataBuffers.of(1f, 2f, 3f, 4f, 5f, 6f));
    assertEquals(5f, m.asTensor().getFloat(1, 1));
    Operand<TInt64> dims = tf.constant(Shape.of(4, 0, 2));
    assertArrayEquals(new long[] {4, 0, 2}, dims.asTensor().toArray());
    Operand<TFloat64> d = tf.constant(Shape.of(1), DataBuffers.of(2.5, 9.0));
    assertEquals(2.5, d.asTensor().getDouble(0));
    assertThrows(
        IllegalArgumentException.class, () -> tf.constant(Shape.of(3), DataBuffers.of(1, 2)));
    assertThrows(IllegalArgumentException.class, () -> tf.constant(Shape.of(-1), new float[] {1f}));
  }

  @Test
  void aTensorIsAnNdArrayForAnotherConstant() {
    try (TFloat32 t = TFloat32.tensorOf(Shape.of(2), x -> x.setFloat(3f, 1))) {
      Operand<TFloat32> c = tf.constant(t);
      t.setFloat(100f, 1); // later writes do not reach the constant
      assertEquals(NdArrays.vectorOf(0f, 3f), c.asTensor());
      Operand<TFloat32> again = tf.constantOf(t); // the flushed write reaches native memory
      assertArrayEquals(new float[] {0f, 100f}, again.asTensor().toArray());
    }
  }

  @Test
  void resultsAreReadAsNdArrays() {
    Operand<TFloat32> x = tf.constant(StdArrays.ndCopyOf(new float[][] {{1, 2, 3}, {4, 5, 6}}));
    TFloat32 y = tf.math.mul(x, tf.constant(2f)).asTensor();
    assertEquals(2, y.rank());
    assertEquals(6, y.size());
    assertEquals(12f, y.getFloat(1, 2));
    assertEquals(NdArrays.vectorOf(4f, 10f), y.slice(Indices.all(), Indices.at(1)));
    float[] row = new float[3];
    y.get(0).copyTo(DataBuffers.of(row, false, false));
    assertArrayEquals(new float[] {2, 4, 6}, row);
    float[][] all = StdArrays.array2dCopyOf(y);
    assertArrayEquals(new float[] {8, 10, 12}, all[1]);
    assertEquals(tf.math.mul(x, tf.constant(2f)).asTensor(), y);
  }

  @Test
  void resultsAreReadOnlyLikeReadOnlyBuffers() {
    TFloat32 y = tf.math.add(tf.constant(new float[] {1, 2}), tf.constant(1f)).asTensor();
    assertThrows(ReadOnlyBufferException.class, () -> y.setFloat(0f, 0));
    assertThrows(ReadOnlyBufferException.class, () -> y.slice(Indices.at(1)).setFloat(0f));
    assertThrows(ReadOnlyBufferException.class, () -> y.copyFrom(DataBuffers.of(5f, 6f)));
    assertThrows(ReadOnlyBufferException.class, () -> y.buffer().setFloat(0f, 0));
    assertThrows(UnsupportedOperationException.class, () -> y.copyFrom(new float[] {5f, 6f}));
    assertTrue(y.buffer().isReadOnly());
    FloatNdArray copy = NdArrays.ofFloats(y.shape());
    y.copyTo(copy);
    copy.setFloat(9f, 0); // a copy is writable
    assertArrayEquals(new float[] {2, 3}, y.toArray());
  }

  @Test
  void afterReleaseNoViewReadsFreedMemory() {
    Operand<TInt32> r = tf.math.add(tf.constant(new int[] {1, 2, 3}), tf.constant(1));
    TInt32 t = r.asTensor();
    IntNdArray slice = t.slice(Indices.range(1, 3));
    Iterator<IntNdArray> scalars = t.scalars().iterator();
    assertEquals(3, slice.getInt(0));
    session.release(r);
    assertThrows(IllegalStateException.class, () -> t.getInt(0));
    assertThrows(IllegalStateException.class, () -> slice.getInt(0));
    assertThrows(IllegalStateException.class, () -> scalars.next().getInt());
    assertThrows(IllegalStateException.class, () -> t.copyTo(NdArrays.ofInts(Shape.of(3))));
    assertThrows(IllegalStateException.class, () -> tf.constant(t));
  }

  @Test
  void afterSessionCloseNoViewReadsFreedMemory() {
    EagerSession other = EagerSession.create();
    Ops tf2 = Ops.create(other);
    TFloat32 unread = tf2.math.neg(tf2.constant(new float[] {1f, 2f})).asTensor();
    TFloat32 read = tf2.math.neg(tf2.constant(new float[] {3f, 4f})).asTensor();
    FloatNdArray view = read.slice(Indices.at(0));
    assertEquals(-3f, view.getFloat());
    other.close();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> unread.getFloat(0));
    assertEquals("Eager session has been closed", e.getMessage());
    assertThrows(IllegalStateException.class, view::getFloat);
    assertThrows(IllegalStateException.class, () -> read.getFloat(1));
    assertThrows(IllegalStateException.class, () -> read.scalars().forEach(s -> s.getFloat()));
  }

  @Test
  void twoSessionsExchangeValuesAsNdArrays() {
    try (EagerSession second = EagerSession.create()) {
      Ops tf2 = Ops.create(second);
      TFloat32 a = tf.math.square(tf.constant(new float[] {1f, 2f, 3f})).asTensor();
      Operand<TFloat32> b = tf2.math.add(tf2.constant(a), tf2.constant(1f));
      session.close(); // the first session's memory is gone; the constant copied its values
      assertEquals(NdArrays.vectorOf(2f, 5f, 10f), b.asTensor());
      assertThrows(IllegalStateException.class, () -> a.getFloat(0));
    }
  }
}
