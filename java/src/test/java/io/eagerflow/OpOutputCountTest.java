package io.eagerflow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TInt32;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Whether an op has a single output is the registry's word, never learned from a first call: an op
 * whose output count depends on its input ({@code OutputsForTest}, an op of the test build of the
 * library) must not be sent down the single-output fast path after a call that made one output,
 * where the other outputs would be stored without Java ever holding their handles.
 */
class OpOutputCountTest {
  @ParameterizedTest
  @EnumSource(ResourceCleanupStrategy.class)
  void everyOutputIsHandedOutAndCountedWhateverTheFirstCallMade(ResourceCleanupStrategy strategy) {
    try (EagerSession s = EagerSession.options().resourceCleanupStrategy(strategy).build()) {
      Ops tf = Ops.create(s);
      List<Operand<?>> held = new ArrayList<>();
      int made = 0;
      for (int n : new int[] {1, 1, 2, 0, 1, 3, 1}) {
        Operand<TInt32> count = tf.constant(n);
        held.add(count);
        Operation op = s.opBuilder("OutputsForTest", null).addInput(count.asOutput()).build();
        assertEquals(n, op.numOutputs(), "outputs of a call with n = " + n);
        for (int i = 0; i < n; i++) {
          Output<TInt32> out = op.output(i);
          assertEquals(n, out.asTensor().getInt());
          held.add(out);
        }
        made += 1 + n;
      }
      SessionStats st = s.stats();
      assertEquals(made, st.createdTensors(), "one count per output: " + st);
      s.release(held.toArray(new Operand<?>[0]));
      st = s.stats();
      // Every handle the library made was handed to Java: releasing them all leaves nothing.
      assertEquals(0, st.liveTensors(), "no untracked handle is left: " + st);
      assertEquals(0, st.liveBytes(), String.valueOf(st));
      assertEquals(made, st.freedExplicitly(), String.valueOf(st));
    }
  }
}
