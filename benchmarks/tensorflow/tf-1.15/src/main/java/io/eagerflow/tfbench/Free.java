package io.eagerflow.tfbench;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.tensorflow.EagerSession;
import org.tensorflow.Operand;
import org.tensorflow.Tensor;

/**
 * Frees one eager op at once in libtensorflow 1.15, which has no public call for it (its outputs
 * live until its cleanup strategy frees them or the session closes). Each op registers a native
 * reference with its session's resource collector; the collector's {@code delete} takes it out of
 * the session's table and frees the op and its output handles ({@code TFE_DeleteTensorHandle},
 * {@code TFE_DeleteOp}), as its cleanup thread and {@code close()} do. Tensors resolved from the
 * outputs are closed first. The fields and methods used are package-private or private; on the
 * class path every package is open, so private lookups reach them, once, at class initialisation.
 */
final class Free {
  private static final MethodHandle NATIVE_REF;
  private static final MethodHandle OUTPUT_TENSORS;
  private static final MethodHandle COLLECTOR;
  private static final MethodHandle DELETE;

  static {
    try {
      Class<?> op = Class.forName("org.tensorflow.EagerOperation");
      Class<?> opRef = Class.forName("org.tensorflow.EagerOperation$NativeReference");
      Class<?> ref = Class.forName("org.tensorflow.EagerSession$NativeReference");
      Class<?> collector = Class.forName("org.tensorflow.EagerSession$NativeResourceCollector");
      MethodHandles.Lookup ops = MethodHandles.privateLookupIn(op, MethodHandles.lookup());
      NATIVE_REF = ops.findGetter(op, "nativeRef", opRef);
      OUTPUT_TENSORS = ops.findGetter(op, "outputTensors", AtomicReferenceArray.class);
      COLLECTOR =
          MethodHandles.privateLookupIn(EagerSession.class, MethodHandles.lookup())
              .findGetter(EagerSession.class, "nativeResources", collector);
      DELETE =
          MethodHandles.privateLookupIn(collector, MethodHandles.lookup())
              .findVirtual(collector, "delete", MethodType.methodType(void.class, ref));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private Free() {}

  /** Frees the op that made {@code output}: all its outputs and the op. */
  static void free(EagerSession session, Operand<?> output) {
    Object op = output.asOutput().op();
    try {
      AtomicReferenceArray<?> tensors = (AtomicReferenceArray<?>) OUTPUT_TENSORS.invoke(op);
      for (int i = 0; i < tensors.length(); i++) {
        Tensor<?> t = (Tensor<?>) tensors.get(i);
        if (t != null) {
          t.close();
        }
      }
      DELETE.invoke(COLLECTOR.invoke(session), NATIVE_REF.invoke(op));
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }
}
