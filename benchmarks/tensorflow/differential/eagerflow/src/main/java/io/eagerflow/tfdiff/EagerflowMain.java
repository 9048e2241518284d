package io.eagerflow.tfdiff;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import io.eagerflow.DataType;
import io.eagerflow.EagerSession;
import io.eagerflow.Operation;
import io.eagerflow.OperationBuilder;
import io.eagerflow.Output;
import io.eagerflow.Tensor;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TBfloat16;
import io.eagerflow.types.TBool;
import io.eagerflow.types.TFloat16;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TFloat64;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TInt64;
import io.eagerflow.types.TUint16;
import io.eagerflow.types.TType;
import io.eagerflow.types.TUint8;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;

/** The runner on this system: {@code EagerflowMain cases.tsv results.tsv}. */
public final class EagerflowMain implements Sys {
  private EagerSession session = EagerSession.create();
  private Ops tf = Ops.create(session);
  private int names;

  public static void main(String[] args) throws Exception {
    try (Sys sys = new EagerflowMain()) {
      Runner.run(sys, Path.of(args[0]), Path.of(args[1]));
    }
  }

  private static Class<? extends TType> type(int code) {
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
    OperationBuilder b = session.opBuilder(type, type + "_" + names++);
    for (Object in : inputs) {
      b.addInput(((io.eagerflow.Operand<?>) in).asOutput());
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
    return DataType.fromCode(code);
  }

  @Override
  public Values read(Object output) {
    Tensor t = ((Output<?>) output).asTensor();
    int code = t.dataType().code();
    long[] shape = t.shape().asArray();
    // No raw byte view of a tensor in eagerflow: each type's values, written little-endian.
    int n = (int) t.shape().size();
    ByteBuffer b = ByteBuffer.allocate(n * Values.size(code)).order(ByteOrder.LITTLE_ENDIAN);
    switch (code) {
      case Values.FLOAT -> { for (float v : ((TFloat32) t).toArray()) b.putFloat(v); }
      case Values.DOUBLE -> { for (double v : ((TFloat64) t).toArray()) b.putDouble(v); }
      case Values.INT32 -> { for (int v : ((TInt32) t).toArray()) b.putInt(v); }
      case Values.INT64 -> { for (long v : ((TInt64) t).toArray()) b.putLong(v); }
      case Values.UINT8 -> b.put(((TUint8) t).toArray());
      case Values.BOOL -> { for (boolean v : ((TBool) t).toArray()) b.put((byte) (v ? 1 : 0)); }
      case Values.UINT16 -> { for (short v : ((TUint16) t).toArray()) b.putShort(v); }
      // Exact: every HALF and BFLOAT16 value is a float; NaN payloads are not kept.
      case Values.HALF -> { for (float v : ((TFloat16) t).toArray()) b.putShort(Values.halfBits(v)); }
      case Values.BFLOAT16 -> {
        for (float v : ((TBfloat16) t).toArray()) b.putShort(Values.bfloat16Bits(v));
      }
      default -> throw new IllegalStateException("dtype " + code);
    }
    return new Values(code, shape, b.array());
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
