package io.eagerflow.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.DataType;
import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.Tensor;
import io.eagerflow.op.Ops;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.StdArrays;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.ndarray.index.Indices;

/** {@link TString} in TensorFlow Java's style: string tensors are {@code NdArray<String>}s. */
class TStringTensorTest {
  private static final String CHICK = "\uD83D\uDC25";

  @Test
  void scalarsVectorsAndMatrices() {
    try (TString s = TString.scalarOf("Pretty vacant");
        TString v = TString.vectorOf("Pretty", "", "vacant");
        TString m = TString.tensorOf(StdArrays.ndCopyOf(new String[][] {{"a", "b"}, {"c", "d"}}))) {
      assertEquals(Shape.scalar(), s.shape());
      assertEquals("Pretty vacant", s.getObject());
      assertEquals(Shape.of(3), v.shape());
      assertEquals("", v.getObject(1));
      assertEquals("vacant", v.getObject(2));
      assertEquals(Shape.of(2, 2), m.shape());
      assertEquals("c", m.getObject(1, 0));
      assertEquals("d", m.slice(Indices.all(), Indices.at(1)).getObject(1));
      assertEquals(DataType.STRING, m.dataType());
      assertEquals(DataType.DT_STRING, m.dataType());
      assertEquals(TString.class, m.type());
      assertEquals(4, m.numBytes());
      String[] row = new String[2];
      m.get(0).copyTo(NdArrays.wrap(Shape.of(2), DataBuffers.of(row, false, false)));
      assertArrayEquals(new String[] {"a", "b"}, row);
    }
  }

  @Test
  void ndArrayRoundTripsAndValueEquality() {
    String longer = "longer than one hundred and twenty-seven bytes ".repeat(4);
    String[] flat = {"x", "", "y", "z", "w", longer};
    NdArray<String> src = NdArrays.wrap(Shape.of(2, 3), DataBuffers.of(flat, true, false));
    try (TString t = TString.tensorOf(src);
        TString again = TString.tensorOf(Shape.of(2, 3), DataBuffers.of(flat, true, false))) {
      src.scalars().forEachIndexed((idx, e) -> assertEquals(e.getObject(), t.getObject(idx)));
      assertEquals(longer, t.getObject(1, 2));
      assertEquals(src, t);
      assertEquals(t, again);
      String[] out = new String[6];
      t.copyTo(DataBuffers.of(out, false, false));
      assertArrayEquals(flat, out);
    }
  }

  @Test
  void charsetsAndBytes() {
    try (TString utf8 = TString.scalarOf(CHICK);
        TString utf16 =
            TString.tensorOf(StandardCharsets.UTF_16LE, NdArrays.scalarOfObject(CHICK))) {
      assertArrayEquals(
          new byte[] {(byte) 0xF0, (byte) 0x9F, (byte) 0x90, (byte) 0xA5},
          utf8.asBytes().getObject());
      assertArrayEquals(
          new byte[] {0x3D, (byte) 0xD8, 0x25, (byte) 0xDC}, utf16.asBytes().getObject());
      assertEquals(CHICK, utf16.using(StandardCharsets.UTF_16LE).getObject());
      assertTrue(!CHICK.equals(utf16.getObject()), "decoded as UTF-8 by default");
    }
    NdArray<byte[]> raw = NdArrays.ofObjects(byte[].class, Shape.of(3));
    raw.setObject(new byte[] {0, (byte) 0xFF}, 0)
        .setObject(new byte[0], 1)
        .setObject("ok".getBytes(), 2);
    try (TString t = TString.tensorOfBytes(raw)) {
      assertArrayEquals(new byte[] {0, (byte) 0xFF}, t.asBytes().getObject(0));
      assertArrayEquals(new byte[0], t.asBytes().getObject(1));
      assertEquals("ok", t.getObject(2));
      byte[] copy = t.asBytes().getObject(2);
      copy[0] = 'X';
      assertEquals("ok", t.getObject(2), "reads return copies");
    }
  }

  @Test
  void stringTensorsAreReadOnly() {
    try (TString t = TString.vectorOf("a", "b")) {
      assertThrows(ReadOnlyBufferException.class, () -> t.setObject("c", 0));
      assertThrows(ReadOnlyBufferException.class, () -> t.asBytes().setObject(new byte[0], 0));
    }
  }

  @Test
  void readsAfterCloseOrReleaseThrow() {
    TString t = TString.vectorOf("a", "b");
    NdArray<String> slice = t.slice(Indices.at(1));
    NdArray<byte[]> bytes = t.asBytes();
    t.close();
    assertThrows(IllegalStateException.class, () -> t.getObject(0));
    assertThrows(IllegalStateException.class, slice::getObject);
    assertThrows(IllegalStateException.class, () -> bytes.getObject(0));
    assertThrows(IllegalStateException.class, t::shape);

    try (EagerSession session = EagerSession.create()) {
      Ops tf = Ops.create(session);
      Operand<TString> c = tf.constant(new String[] {"x", "y"});
      TString view = c.asTensor();
      assertEquals("y", view.getObject(1));
      NdArray<String> s = view.slice(Indices.at(0));
      session.release(c);
      assertThrows(IllegalStateException.class, () -> view.getObject(1));
      assertThrows(IllegalStateException.class, s::getObject);
      Operand<TString> d = tf.constant("z");
      TString dv = d.asTensor();
      session.close();
      assertThrows(IllegalStateException.class, dv::getObject);
    }
  }

  @Test
  void tensorOfStringClassIsRefusedForRawBytes() {
    assertThrows(
        IllegalArgumentException.class,
        () -> Tensor.of(TString.class, Shape.of(1), DataBuffers.of(new byte[8], true, false)));
    try (TString empty = Tensor.of(TString.class, Shape.of(2))) {
      assertEquals("", empty.getObject(1));
    }
  }
}
