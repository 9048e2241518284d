package io.eagerflow.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.DataType;
import io.eagerflow.DeviceSpec;
import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.Tensor;
import io.eagerflow.TensorFlow;
import io.eagerflow.exceptions.TFInvalidArgumentException;
import io.eagerflow.op.Ops;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.StdArrays;
import org.tensorflow.ndarray.buffer.DataBuffers;

/**
 * TFloat16, TBfloat16 and TUint16: what a written value reads back as, how ops and casts treat
 * them, raw bytes, and the source-compatibility pieces that came with them ({@code
 * TensorFlow.version()}, {@code DeviceSpec}, {@code Ops.withDevice}).
 */
class SixteenBitTypesTest {

  /** The float nearest 0.1 among halves: 0x2e66, 1638 * 2^-14. */
  private static final float HALF_OF_TENTH = 1638f / 16384f;

  @Test
  void writesToAHalfTensorReadBackRoundedToNearestEven() {
    try (TFloat16 t = TFloat16.vectorOf(0.1f, 2049f, 2051f, 65520f, 1e-8f, -0f)) {
      assertEquals(DataType.HALF, t.dataType());
      assertEquals(12, t.numBytes());
      assertArrayEquals(
          new float[] {HALF_OF_TENTH, 2048f, 2052f, Float.POSITIVE_INFINITY, 0f, -0f}, t.toArray());
      t.setFloat(0.1f, 4);
      assertEquals(HALF_OF_TENTH, t.getFloat(4), "the heap mirror holds what native memory holds");
      t.copyFrom(new float[] {1f, 3f, 1f + 1f / 2048f, Float.NaN, 6e-8f, 5e-8f});
      assertArrayEquals(
          new float[] {1f, 3f, 1f, Float.NaN, 0x1p-24f, 0x1p-24f}, t.toArray(), "ties to even");
    }
  }

  @Test
  void writesToABfloat16TensorKeepTheHighBitsAsTensorFlowJavaDoes() {
    float justBelowTwo = Float.intBitsToFloat(0x3fffffff);
    try (TBfloat16 t = TBfloat16.tensorOf(Shape.of(3))) {
      t.setFloat(justBelowTwo, 0);
      t.setFloat(Float.intBitsToFloat(0x7f800001), 1); // a NaN whose payload is in the low bits
      t.setFloat(-1.5f, 2);
      assertEquals(Float.intBitsToFloat(0x3fff0000), t.getFloat(0));
      assertTrue(Float.isNaN(t.getFloat(1)), "not truncated to infinity");
      assertEquals(-1.5f, t.getFloat(2));
      try (EagerSession session = EagerSession.create()) {
        Ops tf = Ops.create(session);
        // The cast kernel rounds to nearest even, as TensorFlow's does.
        float rounded =
            tf.dtypes.cast(tf.constant(justBelowTwo), TBfloat16.class).asTensor().getFloat();
        assertEquals(2f, rounded);
        assertArrayEquals(
            new float[] {Float.intBitsToFloat(0x3fff0000), Float.NaN, -1.5f},
            tf.constantOf(t).asTensor().toArray());
      }
    }
  }

  @Test
  void uint16ValuesAreUnsignedAndWrap() {
    try (EagerSession session = EagerSession.create()) {
      Ops tf = Ops.create(session);
      try (TUint16 t = TUint16.vectorOf((short) 0, (short) 1, (short) -1)) {
        Operand<TUint16> x = tf.constantOf(t);
        TUint16 diff = tf.math.sub(x, tf.constantOf(TUint16.scalarOf((short) 1))).asTensor();
        assertArrayEquals(new short[] {-1, 0, -2}, diff.toArray(), "0 - 1 is 65535");
        TInt32 wide = tf.dtypes.cast(x, TInt32.class).asTensor();
        assertArrayEquals(new int[] {0, 1, 65535}, wide.toArray());
        TBool less = tf.math.less(x, tf.constantOf(TUint16.scalarOf((short) 2))).asTensor();
        assertEquals(false, less.getBoolean(2), "65535 is not less than 2");
        assertThrows(TFInvalidArgumentException.class, () -> tf.math.neg(x));
      }
    }
  }

  @Test
  void halfOpsComputeInFloatAndRoundOnce() {
    try (EagerSession session = EagerSession.create()) {
      Ops tf = Ops.create(session);
      Operand<TFloat16> x;
      try (TFloat16 t = TFloat16.vectorOf(2048f, 1f, 0.5f)) {
        x = tf.constantOf(t);
      }
      Operand<TFloat16> one = tf.dtypes.cast(tf.constant(1f), TFloat16.class);
      assertArrayEquals(new float[] {2048f, 2f, 1.5f}, tf.math.add(x, one).asTensor().toArray());
      Operand<TFloat16> ones =
          tf.dtypes.cast(tf.constant(StdArrays.ndCopyOf(new float[4096])), TFloat16.class);
      Operand<TFloat16> counted = tf.math.add(ones, one);
      assertEquals(
          4096f,
          tf.reduceSum(counted, tf.constant(0)).asTensor().getFloat(),
          "summed in FLOAT: a HALF running sum would stop at 2048");
      @SuppressWarnings("unchecked") // a FLOAT operand passed off as HALF, as raw-typed code can
      Operand<TFloat16> notHalf = (Operand<TFloat16>) (Operand<?>) tf.constant(1f);
      TFInvalidArgumentException mixed =
          assertThrows(TFInvalidArgumentException.class, () -> tf.math.mul(x, notHalf));
      assertTrue(mixed.getMessage().contains("HALF and FLOAT"), mixed.getMessage());
      Operand<TBfloat16> b = tf.dtypes.cast(x, TBfloat16.class);
      assertEquals(TBfloat16.class, b.asTensor().type());
      assertArrayEquals(
          new float[] {2048f, 1f, 0.5f}, tf.dtypes.cast(b, TFloat32.class).asTensor().toArray());
    }
  }

  @Test
  void rawBytesKeepEverySixteenBitPattern() {
    ByteBuffer bytes = ByteBuffer.allocate(4).order(ByteOrder.nativeOrder());
    bytes.putShort((short) 0x7e01).putShort((short) 0xbc00); // a NaN with a payload, -1
    try (TFloat16 t =
        Tensor.of(TFloat16.class, Shape.of(2), DataBuffers.of(bytes.array(), true, false))) {
      assertTrue(Float.isNaN(t.getFloat(0)));
      assertEquals(-1f, t.getFloat(1));
      try (EagerSession session = EagerSession.create()) {
        Ops tf = Ops.create(session);
        TUint16 bits = tf.dtypes.cast(tf.constantOf(t), TUint16.class).asTensor();
        assertEquals(0, bits.getShort(1), "-1 saturates to 0 as an unsigned integer");
      }
    }
  }

  @Test
  void ndArraysCopyInAndOutThroughTheRounding() {
    try (TFloat16 t = TFloat16.tensorOf(NdArrays.vectorOf(0.1f, 1f))) {
      float[] out = new float[2];
      StdArrays.copyFrom(t, out);
      assertArrayEquals(new float[] {HALF_OF_TENTH, 1f}, out);
      t.set(NdArrays.scalarOf(0.1f), 1);
      assertEquals(HALF_OF_TENTH, t.getFloat(1));
    }
  }

  @Test
  void typesAreFoundByCodeAndClass() {
    assertSame(DataType.HALF, DataType.fromCode(19));
    assertSame(DataType.BFLOAT16, DataType.fromCode(14));
    assertSame(DataType.UINT16, DataType.fromCode(17));
    assertSame(DataType.DT_HALF, DataType.HALF);
    assertEquals(2, DataType.DT_BFLOAT16.byteSize());
    try (TUint16 t = Tensor.of(TUint16.class, Shape.of(2, 2))) {
      assertEquals(TUint16.class, t.type());
      assertEquals(8, t.numBytes());
    }
  }

  @Test
  void versionAndDevicesAreThereForSourceCompatibility() {
    assertTrue(TensorFlow.version().matches("\\d+\\.\\d+\\.\\d+.*"), TensorFlow.version());
    DeviceSpec gpu =
        DeviceSpec.newBuilder().job("worker").task(1).deviceType(DeviceSpec.DeviceType.GPU).build();
    assertEquals("/job:worker/task:1/device:GPU:*", gpu.toString());
    assertEquals("", DeviceSpec.newBuilder().build().toString());
    try (EagerSession session = EagerSession.create()) {
      Ops tf = Ops.create(session);
      Ops onGpu = tf.withDevice(gpu);
      assertEquals(3f, onGpu.math.add(tf.constant(1f), tf.constant(2f)).asTensor().getFloat());
    }
  }
}
