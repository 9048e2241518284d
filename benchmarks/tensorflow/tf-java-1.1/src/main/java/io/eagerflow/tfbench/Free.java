package io.eagerflow.tfbench;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.bytedeco.javacpp.Pointer;
import org.tensorflow.EagerSession;
import org.tensorflow.Operand;
import org.tensorflow.RawTensor;
import org.tensorflow.Tensor;
import org.tensorflow.internal.c_api.TFE_Op;
import org.tensorflow.internal.c_api.TFE_TensorHandle;
import org.tensorflow.internal.c_api.TF_Tensor;

/**
 * Frees one eager op at once in TensorFlow Java 1.1, which has no public call for it (its outputs
 * live until the collector finds their Java objects or the session closes). The session holds each
 * native object of an op (the {@code TFE_Op}, its output tensor handles and the tensors resolved
 * from them) in its pointer scope; detaching one drops its last reference, and JavaCPP runs its
 * deallocator ({@code TFE_DeleteOp}, {@code TFE_DeleteTensorHandle}, {@code TF_DeleteTensor}) then
 * and there. That is what the session's {@code close()} does for each of them. The fields and
 * methods used are package-private; on the class path every package is open, so private lookups
 * reach them, once, at class initialisation.
 */
final class Free {
  private static final MethodHandle OP_HANDLE;
  private static final MethodHandle OUTPUT_HANDLES;
  private static final MethodHandle OUTPUT_TENSORS;
  private static final MethodHandle DETACH;
  private static final MethodHandle RAW_TENSOR_HANDLE;

  static {
    try {
      Class<?> op = Class.forName("org.tensorflow.EagerOperation");
      MethodHandles.Lookup ops = MethodHandles.privateLookupIn(op, MethodHandles.lookup());
      OP_HANDLE = ops.findGetter(op, "opHandle", TFE_Op.class);
      OUTPUT_HANDLES = ops.findGetter(op, "outputHandles", TFE_TensorHandle[].class);
      OUTPUT_TENSORS = ops.findGetter(op, "outputTensors", AtomicReferenceArray.class);
      DETACH =
          MethodHandles.privateLookupIn(EagerSession.class, MethodHandles.lookup())
              .findVirtual(
                  EagerSession.class,
                  "detach",
                  MethodType.methodType(void.class, Pointer[].class));
      RAW_TENSOR_HANDLE =
          MethodHandles.privateLookupIn(RawTensor.class, MethodHandles.lookup())
              .findVirtual(RawTensor.class, "nativeHandle", MethodType.methodType(TF_Tensor.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private Free() {}

  /** Frees the op that made {@code output}: all its outputs and the op. */
  static void free(EagerSession session, Operand<?> output) {
    Object op = output.op();
    try {
      AtomicReferenceArray<?> tensors = (AtomicReferenceArray<?>) OUTPUT_TENSORS.invoke(op);
      for (int i = 0; i < tensors.length(); i++) {
        Tensor t = (Tensor) tensors.get(i);
        if (t != null) {
          DETACH.invoke(session, new Pointer[] {(TF_Tensor) RAW_TENSOR_HANDLE.invoke(t.asRawTensor())});
        }
      }
      DETACH.invoke(session, (Pointer[]) (TFE_TensorHandle[]) OUTPUT_HANDLES.invoke(op));
      DETACH.invoke(session, new Pointer[] {(TFE_Op) OP_HANDLE.invoke(op)});
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }
}
