package io.eagerflow.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.DataType;
import io.eagerflow.Tensor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tensorflow.ndarray.BooleanNdArray;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.IntNdArray;
import org.tensorflow.ndarray.LongNdArray;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.StdArrays;
import org.tensorflow.ndarray.buffer.ByteDataBuffer;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.ndarray.buffer.FloatDataBuffer;
import org.tensorflow.ndarray.index.Indices;

/** Standalone tensors used as TensorFlow Java code uses them: as NdArrays of their values. */
class NdArrayTensorTest {

  @Test
  void aMatrixIsReadAndWrittenByCoordinates() {
    try (TFloat32 m = TFloat32.tensorOf(Shape.of(2, 3))) {
      m.setFloat(1.5f, 0, 2).setFloat(-4f, 1, 0);
      assertEquals(1.5f, m.getFloat(0, 2));
      assertEquals(-4f, m.getFloat(1, 0));
      assertEquals(0f, m.getFloat(1, 1));
      assertEquals(Float.valueOf(1.5f), m.getObject(0, 2));
      assertEquals(2, m.rank());
      assertEquals(6, m.size());
      assertEquals(Shape.of(2, 3), m.shape());
      assertEquals(24, m.numBytes());
      assertArrayEquals(new float[] {0, 0, 1.5f, -4f, 0, 0}, m.toArray());
      assertThrows(IndexOutOfBoundsException.class, () -> m.getFloat(2, 0));
    }
  }

  @Test
  void theInitializerStyleFillsEveryType() {
    try (TInt32 i = TInt32.tensorOf(Shape.of(3), t -> t.setInt(7, 1));
        TInt64 l = TInt64.tensorOf(Shape.of(2), t -> t.setLong(Long.MAX_VALUE, 0));
        TFloat64 d = TFloat64.tensorOf(Shape.of(1, 1), t -> t.setDouble(0.25, 0, 0));
        TBool b = TBool.tensorOf(Shape.of(2), t -> t.setBoolean(true, 1));
        TUint8 u = TUint8.tensorOf(Shape.of(2), t -> t.setByte((byte) 200, 0))) {
      assertArrayEquals(new int[] {0, 7, 0}, i.toArray());
      assertEquals(Long.MAX_VALUE, l.getLong(0));
      assertEquals(0.25, d.getDouble(0, 0));
      assertFalse(b.getBoolean(0));
      assertTrue(b.getBoolean(1));
      assertEquals((byte) 200, u.getByte(0));
    }
  }

  @Test
  void tensorsAreMadeFromNdArraysAndEqualThem() {
    FloatNdArray src = StdArrays.ndCopyOf(new float[][] {{1, 2}, {3, 4}, {5, 6}});
    try (TFloat32 t = TFloat32.tensorOf(src)) {
      assertEquals(Shape.of(3, 2), t.shape());
      assertEquals(src, t);
      assertEquals(t, src);
      assertEquals(src.hashCode(), t.hashCode());
      assertEquals(4f, t.getFloat(1, 1));
      t.setFloat(9f, 0, 0);
      assertNotEquals(src, t);
    }
    IntNdArray ints = NdArrays.vectorOf(3, 1, 2);
    try (TInt32 t = TInt32.tensorOf(ints)) {
      assertEquals(ints, t);
    }
    LongNdArray longs = NdArrays.scalarOf(42L);
    try (TInt64 t = TInt64.tensorOf(longs)) {
      assertEquals(0, t.rank());
      assertEquals(42L, t.getLong());
    }
    BooleanNdArray bools = StdArrays.ndCopyOf(new boolean[][] {{true}, {false}});
    try (TBool t = TBool.tensorOf(bools)) {
      assertEquals(bools, t);
    }
  }

  @Test
  void scalarsVectorsAndBuffersMakeTensors() {
    try (TFloat32 s = TFloat32.scalarOf(3f);
        TFloat32 v = TFloat32.vectorOf(1f, 2f, 3f);
        TFloat32 b = TFloat32.tensorOf(Shape.of(2, 2), DataBuffers.of(1f, 2f, 3f, 4f))) {
      assertEquals(3f, s.getFloat());
      assertEquals(0, s.rank());
      assertEquals(Shape.of(3), v.shape());
      assertEquals(4f, b.getFloat(1, 1));
      // Refused before the tensor is made (TensorFlow Java allocates it, then underflows).
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> TFloat32.tensorOf(Shape.of(2, 2), DataBuffers.of(1f, 2f)));
      assertTrue(e.getMessage().contains("needs 4 values but the buffer has 2"), e.getMessage());
    }
  }

  @Test
  void tensorOfByClassFollowsTensorFlowJava() {
    try (TInt32 t = Tensor.of(TInt32.class, Shape.of(2, 2), x -> x.setInt(5, 1, 1));
        TFloat64 z = Tensor.of(TFloat64.class, Shape.of(3))) {
      assertEquals(5, t.getInt(1, 1));
      assertEquals(TInt32.class, t.type());
      assertEquals(DataType.INT32, t.dataType());
      assertArrayEquals(new double[3], z.toArray());
    }
    assertThrows(IllegalArgumentException.class, () -> Tensor.of(TFloat32.class, Shape.of(4), 15));
    try (TFloat32 t = Tensor.of(TFloat32.class, Shape.of(4), 16)) {
      assertEquals(4, t.size());
    }
  }

  @Test
  void rawBytesInPlatformOrderMakeTensors() {
    ByteBuffer raw = ByteBuffer.allocate(12).order(ByteOrder.nativeOrder());
    raw.putFloat(1.5f).putFloat(-2f).putFloat(3f);
    byte[] bools = {0, 1};
    ByteDataBuffer floats = DataBuffers.of(raw.array(), true, false);
    try (TFloat32 t = Tensor.of(TFloat32.class, Shape.of(3), floats);
        TBool b = Tensor.of(TBool.class, Shape.of(2), DataBuffers.of(bools, true, false))) {
      assertEquals(NdArrays.vectorOf(1.5f, -2f, 3f), t);
      assertEquals(NdArrays.vectorOf(false, true), b);
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> Tensor.of(TInt64.class, Shape.of(2), DataBuffers.of(new byte[15], true, false)));
  }

  @Test
  void aFailingInitializerClosesTheTensor() {
    List<TFloat32> seen = new ArrayList<>();
    assertThrows(
        ArithmeticException.class,
        () ->
            Tensor.of(
                TFloat32.class,
                Shape.of(2),
                t -> {
                  seen.add(t);
                  throw new ArithmeticException("boom");
                }));
    assertThrows(IllegalStateException.class, () -> seen.get(0).getFloat(0));
  }

  @Test
  void unknownOrNegativeDimensionsAreRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> TFloat32.tensorOf(Shape.of(-1, 2)));
    assertTrue(e.getMessage().contains("[-1, 2]"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> TInt32.tensorOf(Shape.unknown()));
    assertThrows(IllegalArgumentException.class, () -> Tensor.of(TInt64.class, Shape.of(3, -2)));
  }

  @Test
  void slicesAndElementsAreViewsOfTheTensor() {
    try (TFloat32 m = TFloat32.tensorOf(StdArrays.ndCopyOf(new float[][] {{1, 2, 3}, {4, 5, 6}}))) {
      FloatNdArray row = m.slice(Indices.at(1), Indices.all());
      assertEquals(Shape.of(3), row.shape());
      assertEquals(6f, row.getFloat(2));
      FloatNdArray column = m.slice(Indices.all(), Indices.at(1));
      assertEquals(NdArrays.vectorOf(2f, 5f), column);
      FloatNdArray corner = m.slice(Indices.range(0, 2), Indices.range(1, 3));
      assertEquals(StdArrays.ndCopyOf(new float[][] {{2, 3}, {5, 6}}), corner);

      row.setFloat(60f, 2);
      assertEquals(60f, m.getFloat(1, 2));

      List<Float> firsts = new ArrayList<>();
      m.elements(0).forEach(r -> firsts.add(r.getFloat(0)));
      assertEquals(List.of(1f, 4f), firsts);
      float sum = 0;
      for (FloatNdArray s : m.scalars()) {
        sum += s.getFloat();
      }
      assertEquals(1 + 2 + 3 + 4 + 5 + 60, sum);
      assertEquals(m.get(1), NdArrays.vectorOf(4f, 5f, 60f));
    }
  }

  @Test
  void heapArraysAreCopiedIntoTheRightRows() {
    // Bulk copies into a view that starts past the tensor's first element land where it starts.
    try (TFloat32 m = TFloat32.tensorOf(Shape.of(3, 2));
        TBool b = TBool.tensorOf(Shape.of(2, 2))) {
      m.set(NdArrays.vectorOf(7f, 8f), 1);
      NdArrays.vectorOf(9f, 10f).copyTo(m.get(2));
      assertArrayEquals(new float[] {0, 0, 7, 8, 9, 10}, m.toArray());
      b.set(NdArrays.vectorOf(true, true), 1);
      assertArrayEquals(new boolean[] {false, false, true, true}, b.toArray());
      FloatNdArray row = NdArrays.ofFloats(Shape.of(2));
      m.get(1).copyTo(row);
      assertEquals(NdArrays.vectorOf(7f, 8f), row);
    }
  }

  @Test
  void bulkCopiesGoBothWays() {
    try (TFloat32 t = TFloat32.tensorOf(Shape.of(2, 2))) {
      t.copyFrom(DataBuffers.of(1f, 2f, 3f, 4f));
      float[] out = new float[4];
      t.copyTo(DataBuffers.of(out, false, false));
      assertArrayEquals(new float[] {1, 2, 3, 4}, out);
      FloatNdArray dst = NdArrays.ofFloats(Shape.of(2, 2));
      t.copyTo(dst);
      assertEquals(t, dst);
      float[] direct = new float[4];
      t.copyTo(direct);
      assertArrayEquals(out, direct);
      FloatDataBuffer raw = t.buffer();
      assertEquals(4, raw.size());
      assertEquals(3f, raw.getFloat(2));
    }
  }

  @Test
  void afterCloseEveryViewThrows() {
    TFloat32 t = TFloat32.vectorOf(1f, 2f, 3f, 4f);
    FloatNdArray slice = t.slice(Indices.range(1, 3));
    NdArray<Float> element = t.get(0);
    Iterator<FloatNdArray> scalars = t.scalars().iterator();
    FloatDataBuffer buffer = t.buffer();
    assertEquals(2f, slice.getFloat(0));
    t.close();
    t.close(); // twice is fine
    assertThrows(IllegalStateException.class, () -> t.getFloat(0));
    assertThrows(IllegalStateException.class, () -> slice.getFloat(0));
    assertThrows(IllegalStateException.class, () -> element.getObject());
    assertThrows(IllegalStateException.class, () -> scalars.next().getFloat());
    assertThrows(IllegalStateException.class, () -> buffer.getFloat(0));
    assertThrows(IllegalStateException.class, () -> slice.setFloat(1f, 0));
    assertThrows(IllegalStateException.class, t::shape);
    assertThrows(IllegalStateException.class, t::toArray);
    assertThrows(
        IllegalStateException.class, () -> t.copyTo(DataBuffers.of(new float[4], false, false)));
  }

  @Test
  void writesThroughAViewReachTheTensorsConstant() {
    // A standalone tensor's NdArray writes must be visible to native code that reads it later.
    try (TInt32 t = TInt32.vectorOf(1, 2, 3)) {
      IntNdArray view = t.slice(Indices.at(2));
      view.setInt(30);
      assertArrayEquals(new int[] {1, 2, 30}, t.toArray());
      t.copyFrom(new int[] {4, 5, 6});
      assertEquals(6, view.getInt());
    }
  }

  @Test
  void aGenericMethodOverNumbersSeesShapeRankAndSize() {
    try (TFloat64 d = TFloat64.tensorOf(Shape.of(2, 5));
        TUint8 u = TUint8.vectorOf((byte) 1, (byte) 2)) {
      assertEquals("2:10", describe(d));
      assertEquals("1:2", describe(u));
    }
  }

  private static <T extends TNumber> String describe(T tensor) {
    return tensor.rank() + ":" + tensor.size();
  }

  @Test
  void typesNameTheirClassAndDataType() {
    try (TBool b = TBool.scalarOf(true);
        TUint8 u = TUint8.scalarOf((byte) 1);
        TFloat64 d = TFloat64.scalarOf(1)) {
      assertSame(TBool.class, b.type());
      assertSame(TUint8.class, u.type());
      assertSame(TFloat64.class, d.type());
      assertEquals(DataType.BOOL, b.dataType());
      assertEquals(DataType.UINT8, u.dataType());
      assertEquals(DataType.DOUBLE, d.dataType());
    }
  }

  @Test
  void aStandaloneTensorsBufferIsWritable() {
    try (TFloat32 t = TFloat32.vectorOf(1f, 2f)) {
      assertFalse(t.buffer().isReadOnly());
      t.buffer().setFloat(5f, 1);
      assertEquals(5f, t.getFloat(1));
    }
    // read-only tensors (op outputs) are covered by op.NdArrayConstantTest
  }
}
