package io.eagerflow.tfdiff;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tensorflow.proto.DataType;
import org.tensorflow.EagerSession;
import org.tensorflow.Operation;
import org.tensorflow.OperationBuilder;
import org.tensorflow.Output;
import org.tensorflow.Tensor;
import org.tensorflow.op.Ops;
import org.tensorflow.types.TBfloat16;
import org.tensorflow.types.TBool;
import org.tensorflow.types.TFloat16;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TFloat64;
import org.tensorflow.types.TInt32;
import org.tensorflow.types.TInt64;
import org.tensorflow.types.TUint16;
import org.tensorflow.types.TUint8;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;

/** The runner on this system: {@code TensorFlowMain cases.tsv results.tsv}. */
public final class TensorFlowMain implements Sys {
  private EagerSession session = EagerSession.create();
  private Ops tf = Ops.create(session);
  private int names;

  public static void main(String[] args) throws Exception {
    try (Sys sys = new TensorFlowMain()) {
      Runner.run(sys, Path.of(args[0]), Path.of(args[1]));
    }
  }

  private static Class<? extends org.tensorflow.types.family.TType> type(int code) {
    return switch (code) {
      case Values.FLOAT -> TFloat32.class;
      case Values.DOUBLE -> TFloat64.class;
      case Values.INT32 -> TInt32.class;
      case Values.INT64 -> TInt64.class;
      case Values.UINT8 -> TUint8.class;
      case Values.BOOL -> TBool.class;
      case Values.HALF -> TFloat16.class;
      case Values.BFLOAT16 -> TBfloat16.class;
      case Values.UINT16 -> TUint16.class;
      default -> throw new IllegalArgumentException("dtype " + code);
    };
  }

  @Override
  public Object constant(Values v) {
    try (var t = Tensor.of(type(v.dtype()), Shape.of(v.shape()), DataBuffers.of(v.bytes(), true, false))) {
      return tf.constantOf(t);
    }
  }

  @Override
  public List<Object> run(String type, List<Object> inputs, List<Case.Attr> attrs) {
    OperationBuilder b = session.opBuilder(type, type + "_" + names++, tf.scope());
    for (Object in : inputs) {
      b.addInput(((org.tensorflow.Operand<?>) in).asOutput());
    }
    for (Case.Attr a : attrs) {
      switch (a.kind()) {
        case 'i' -> b.setAttr(a.name(), Long.parseLong(a.value()));
        case 'b' -> b.setAttr(a.name(), Boolean.parseBoolean(a.value()));
        case 't' -> b.setAttr(a.name(), dataType(Integer.parseInt(a.value())));
        default -> throw new IllegalArgumentException("attribute kind " + a.kind());
      }
    }
    Operation op = b.build();
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < op.numOutputs(); i++) {
      out.add(op.output(i));
    }
    return out;
  }

  private static DataType dataType(int code) {
    return DataType.forNumber(code);
  }

  @Override
  public Values read(Object output) {
    Tensor t = ((Output<?>) output).asTensor();
    int code = t.dataType().getNumber();
    long[] shape = t.shape().asArray();
    byte[] bytes = new byte[(int) t.numBytes()];
    t.asRawTensor().data().read(bytes);
    return new Values(code, shape, bytes);
  }

  @Override
  public void renew() {
    session.close();
    session = EagerSession.create();
    tf = Ops.create(session);
  }

  @Override
  public void close() {
    session.close();
  }
}
