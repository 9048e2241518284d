package io.eagerflow.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eagerflow.EagerScope;
import io.eagerflow.EagerSession;
import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.Operand;
import io.eagerflow.Operation;
import io.eagerflow.exceptions.TFInvalidArgumentException;
import io.eagerflow.junit.EagerTest;
import io.eagerflow.types.TBool;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TString;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.StdArrays;
import org.tensorflow.ndarray.buffer.DataBuffers;

/**
 * String constants and ops ({@code tf.strings.join}, {@code substr}, {@code length}, {@code
 * tf.math.equal}) under every cleanup strategy, in scopes, async sessions and across sessions.
 */
class StringOpsTest {

  private static EagerSession open(ResourceCleanupStrategy strategy, boolean async) {
    return EagerSession.options().resourceCleanupStrategy(strategy).async(async).build();
  }

  private static String[] strings(Operand<TString> o) {
    TString t = o.asTensor();
    String[] out = new String[(int) t.size()];
    t.copyTo(DataBuffers.of(out, false, false));
    return out;
  }

  private static void exercise(Ops tf) {
    Operand<TString> words = tf.constant(new String[] {"hello", "h\u00e9llo", "ab"});
    Operand<TString> scalar = tf.constant("!");
    Operand<TString> joined = tf.strings.join(List.of(words, scalar), StringJoin.separator(" "));
    assertArrayEquals(new String[] {"hello !", "h\u00e9llo !", "ab !"}, strings(joined));
    assertArrayEquals(new int[] {5, 6, 2}, tf.strings.length(words).asTensor().toArray());
    assertArrayEquals(
        new int[] {5, 5, 2},
        tf.strings.length(words, StringLength.unit("UTF8_CHAR")).asTensor().toArray());
    Operand<TString> sub =
        tf.strings.substr(words, tf.constant(1), tf.constant(3), Substr.unit("UTF8_CHAR"));
    assertArrayEquals(new String[] {"ell", "\u00e9ll", "b"}, strings(sub));
    Operand<TBool> eq = tf.math.equal(words, tf.constant("ab"));
    assertArrayEquals(new boolean[] {false, false, true}, eq.asTensor().toArray());
    Operand<TBool> ne = tf.math.notEqual(words, tf.constant("ab"));
    assertArrayEquals(new boolean[] {true, true, false}, ne.asTensor().toArray());
  }

  @EagerTest(async = {false, true})
  void stringOpsUnderEveryStrategyAndMode(Ops tf) {
    exercise(tf);
  }

  @EagerTest(async = true)
  void aFailedStringOpInAnAsyncSessionThrowsAtTheRead(Ops tf) {
    Operand<TString> bad = tf.strings.substr(tf.constant("ab"), tf.constant(9), tf.constant(1));
    assertThrows(IllegalArgumentException.class, () -> bad.asTensor().getObject());
  }

  @Test
  void constantsFromEveryForm() {
    try (EagerSession s = EagerSession.create()) {
      Ops tf = Ops.create(s);
      assertEquals("x", tf.constant("x").asTensor().getObject());
      assertEquals(Shape.of(2, 2), tf.constant(new String[][] {{"a", "b"}, {"c", "d"}}).shape());
      assertEquals(
          "d", tf.constant(new String[][] {{"a", "b"}, {"c", "d"}}).asTensor().getObject(1, 1));
      assertEquals(
          "b", tf.constant(StdArrays.ndCopyOf(new String[] {"a", "b"})).asTensor().getObject(1));
      assertEquals(
          "q",
          tf.constant(Shape.of(1), DataBuffers.of(new String[] {"q", "r"}, true, false))
              .asTensor()
              .getObject(0));
      Operand<TString> utf16 = tf.constant(StandardCharsets.UTF_16LE, "\u00e9");
      assertArrayEquals(new byte[] {(byte) 0xE9, 0}, utf16.asTensor().asBytes().getObject());
      assertEquals("\u00e9", utf16.asTensor().using(StandardCharsets.UTF_16LE).getObject());
      assertEquals(
          2,
          tf.constant(StandardCharsets.UTF_16LE, NdArrays.vectorOfObjects("a", "b"))
              .asTensor()
              .asBytes()
              .getObject(1)
              .length);
      try (TString standalone = TString.vectorOf("m", "n")) {
        assertEquals("n", tf.constantOf(standalone).asTensor().getObject(1));
      }
    }
  }

  @Test
  void otherOpsRefuseStringsNamingOpAndDtype() {
    try (EagerSession s = EagerSession.create()) {
      Ops tf = Ops.create(s);
      Operand<TString> x = tf.constant(new String[] {"a"});
      TFInvalidArgumentException e =
          assertThrows(
              TFInvalidArgumentException.class,
              () ->
                  s.opBuilder("AddV2", "add")
                      .addInput(x.asOutput())
                      .addInput(x.asOutput())
                      .build());
      assertTrue(
          e.getMessage().contains("AddV2") && e.getMessage().contains("STRING"), e.getMessage());
      e =
          assertThrows(
              TFInvalidArgumentException.class,
              () -> s.opBuilder("Identity", "id").addInput(x.asOutput()).build());
      assertTrue(e.getMessage().startsWith("Identity") && e.getMessage().contains("STRING"));
      Operand<TFloat32> f = tf.constant(new float[] {1f});
      assertThrows(
          IllegalArgumentException.class,
          () -> s.opBuilder("Equal", "eq").addInput(x.asOutput()).addInput(f.asOutput()).build());
      assertThrows(IllegalArgumentException.class, () -> tf.dtypes.cast(x, TFloat32.class));
    }
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void scopesReleaseAndStatsCountStringTensors(ResourceCleanupStrategy strategy) {
    try (EagerSession s = open(strategy, false)) {
      Ops tf = Ops.create(s);
      long before = s.stats().liveBytes();
      Operand<TString> kept;
      try (EagerScope scope = s.newScope()) {
        Operand<TString> a = tf.constant("abc".repeat(1000));
        kept = tf.strings.join(List.of(a, a));
        scope.keep(kept);
      }
      assertEquals(6000, tf.strings.length(kept).asTensor().getInt());
      assertTrue(s.stats().liveBytes() - before >= 6000, "the kept string's bytes are counted");
      s.release(kept);
      assertThrows(IllegalStateException.class, kept::asTensor);
    }
  }

  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void stringOperandsAndTensorAttributesOfAnotherSession(ResourceCleanupStrategy strategy) {
    try (EagerSession mine = open(strategy, false)) {
      Ops tf = Ops.create(mine);
      EagerSession theirs = open(strategy, false);
      Ops other = Ops.create(theirs);
      Operand<TString> a = other.constant(new String[] {"x", "y"});
      Operand<TFloat32> f = other.constant(new float[] {1f, 2f});
      // An operand of another open session, and a tensor attribute (Const's value) of one.
      Operand<TInt32> len = tf.strings.length(a);
      Operation c = mine.opBuilder("Const", "c").setAttr("value", a.asTensor()).build();
      Operation cf = mine.opBuilder("Const", "cf").setAttr("value", f.asTensor()).build();
      assertArrayEquals(new int[] {1, 1}, len.asTensor().toArray());
      assertEquals("y", ((TString) c.output(0).asTensor()).getObject(1));
      assertArrayEquals(new float[] {1f, 2f}, ((TFloat32) cf.output(0).asTensor()).toArray());
      assertEquals(mine, c.env());
      TString stale = a.asTensor();
      theirs.close();
      // The copies outlive the other session; its own tensors and the builder attr do not.
      assertEquals("x", ((TString) c.output(0).asTensor()).getObject(0));
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () -> mine.opBuilder("Const", "late").setAttr("value", stale));
      assertTrue(
          e.getMessage().contains("Const") && e.getMessage().contains("another session"),
          e.getMessage());
      assertThrows(IllegalStateException.class, () -> tf.strings.length(a));
    }
  }
}
