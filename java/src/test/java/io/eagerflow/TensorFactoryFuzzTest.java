package io.eagerflow;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.op.Ops;
import io.eagerflow.types.TBfloat16;
import io.eagerflow.types.TBool;
import io.eagerflow.types.TFloat16;
import io.eagerflow.types.TFloat32;
import io.eagerflow.types.TFloat64;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TInt64;
import io.eagerflow.types.TString;
import io.eagerflow.types.TType;
import io.eagerflow.types.TUint16;
import io.eagerflow.types.TUint8;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffer;
import org.tensorflow.ndarray.buffer.DataBuffers;

/**
 * Jazzer fuzz target: standalone tensors from every factory of every element type ({@code
 * scalarOf}, {@code vectorOf}, {@code tensorOf} of a shape, an array, a data buffer, an ndarray or
 * an initializer; {@code TString} from strings and bytes) and constants from ndarrays and buffers
 * ({@code tf.constant(shape, buffer)}, {@code tf.constant(ndarray)}, {@code tf.constantOf}), with
 * hostile shapes (rank 0 to 8; zero, unknown, negative, overflowing and huge dimensions) and
 * arrays, buffers and ndarrays of sizes that fit or not. The tensor made is then read and written
 * at coordinates and offsets from the input, copied, closed, and used after close. Each input must
 * end in results or documented exceptions and leave no tensor or byte behind.
 *
 * <p>A shape of more than {@link #MAX_ELEMENTS} elements that Java arrays can still hold is a real
 * allocation the caller asked for, and is not made here (see {@link FuzzInput#largeButPossible}).
 *
 * <p>{@code gradle fuzz -Pfuzz.target=io.eagerflow.TensorFactoryFuzzTest#tensorFactories}.
 */
class TensorFactoryFuzzTest {
  static final long MAX_ELEMENTS = 1 << 20;

  private static EagerSession session;

  @SuppressWarnings("unchecked")
  private static Class<TType> typeOf(DataType dtype) {
    Class<?> c =
        switch (dtype) {
          case FLOAT -> TFloat32.class;
          case DOUBLE -> TFloat64.class;
          case INT32 -> TInt32.class;
          case INT64 -> TInt64.class;
          case UINT8 -> TUint8.class;
          case BOOL -> TBool.class;
          case STRING -> TString.class;
          case HALF -> TFloat16.class;
          case BFLOAT16 -> TBfloat16.class;
          case UINT16 -> TUint16.class;
        };
    return (Class<TType>) c;
  }

  @FuzzTest(maxDuration = "10m")
  void tensorFactories(FuzzedDataProvider data) {
    FuzzInput in = new FuzzInput(data);
    EagerSession s = session();
    long sessionTensors = s.stats().liveTensors();
    long bytes = NativeMemory.liveBytes();
    long tensors = NativeMemory.liveTensors();
    DataType dtype = in.of(DataType.values());
    Shape shape = FuzzInput.shapeOf(in.bool() ? in.dims() : in.smallDims(64));
    int kind = in.between(0, 9);
    String what = dtype + " " + shape + " factory " + kind;
    boolean allocatesTheShape =
        kind != 0 && kind != 1 && kind != 9 && !(kind == 3 && dtype != DataType.STRING);
    if (allocatesTheShape && FuzzInput.largeButPossible(shape, MAX_ELEMENTS)) {
      return;
    }
    NdArray<?> nd = null;
    if ((kind == 5 || kind == 7) && !ndArrayFits(shape)) {
      return;
    }
    if (kind == 5 || kind == 7) {
      try {
        nd = ndArray(in, dtype, shape);
      } catch (RuntimeException e) {
        return; // ndarray's own refusal of the shape, before the library is called
      }
    }
    TType t = null;
    Operand<?> constant = null;
    try {
      int length =
          in.bool() ? (int) Math.max(0, Math.min(shape.size(), 1 << 16)) : in.between(0, 64);
      t =
          switch (kind) {
            case 0 -> scalar(in, dtype);
            case 1 -> vector(in, dtype, length);
            case 2 -> HostileInputTest.emptyFactory(dtype, shape);
            case 3 -> HostileInputTest.factory(dtype, shape, array(in, dtype, length));
            case 4 -> fromBuffer(dtype, shape, array(in, dtype, length));
            case 5 -> fromNdArray(dtype, nd);
            case 6 -> withInit(in, dtype, shape);
            case 8 -> Tensor.of(typeOf(dtype), shape, in.bool() ? -1 : in.anyLong());
            case 9 -> Tensor.of(typeOf(dtype), shape, DataBuffers.ofBytes(in.between(0, 1 << 12)));
            default -> null;
          };
      if (kind == 7) {
        Ops tf = Ops.create(s);
        constant =
            in.bool()
                ? constantFromBuffer(tf, dtype, shape, array(in, dtype, length))
                : constantFromNdArray(tf, dtype, nd);
        t = constant.asTensor();
      }
      use(in, t, s);
    } catch (RuntimeException e) {
      FuzzInput.requireDocumentedOrNdArrayIndex(e, what); // an initializer's reads
    } finally {
      if (constant != null) {
        s.release(constant);
      } else if (t != null) {
        t.close();
      }
    }
    if (t != null) {
      TType closed = t;
      try {
        closed.shape();
        throw new AssertionError("a closed " + what + " tensor is still usable");
      } catch (IllegalStateException expected) {
        // closed or released, as documented
      }
    }
    if (s.stats().liveTensors() != sessionTensors
        || NativeMemory.liveBytes() > bytes
        || NativeMemory.liveTensors() > tensors) {
      throw new AssertionError(
          "leaked by " + what + ": process bytes " + bytes + " -> " + NativeMemory.liveBytes());
    }
  }

  /** Reads, writes, copies and slices {@code t} where the input says. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void use(FuzzInput in, TType t, EagerSession s) {
    t.shape();
    t.dataType();
    t.numBytes();
    NdArray<?> a = (NdArray<?>) t;
    for (int n = in.between(0, 4); n > 0; n--) {
      long[] coords = new long[in.between(0, 8)];
      for (int i = 0; i < coords.length; i++) {
        coords[i] = in.between(0, 2) > 0 ? in.between(0L, 3L) : in.anyLong();
      }
      try {
        switch (in.between(0, 4)) {
          case 0 -> a.getObject(coords);
          case 1 -> a.get(coords).shape();
          case 2 -> setObject(in, a, t.dataType(), coords);
          case 3 -> {
            Operand<?> copy = Ops.create(s).constantOf(t);
            s.release(copy);
          }
          default -> {
            try {
              ((NdArray) a).copyTo((DataBuffer) bufferFor(t.dataType(), in.between(0, 64)));
            } catch (java.nio.BufferOverflowException e) {
              // NdArray.copyTo's documented answer to a destination too small
            }
          }
        }
      } catch (RuntimeException e) {
        FuzzInput.requireDocumentedOrNdArrayIndex(e, "use of " + t.dataType() + " " + t.shape());
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static void setObject(FuzzInput in, NdArray<?> a, DataType dtype, long[] coords) {
    Object v =
        switch (dtype) {
          case FLOAT, HALF, BFLOAT16 -> in.anyFloat();
          case UINT16 -> (short) in.anyInt();
          case DOUBLE -> in.anyDouble();
          case INT32 -> in.anyInt();
          case INT64 -> in.anyLong();
          case UINT8 -> (byte) in.anyInt();
          case BOOL -> in.bool();
          case STRING -> in.stringOrNull(8);
        };
    ((NdArray<Object>) a).setObject(v, coords);
  }

  private static org.tensorflow.ndarray.buffer.DataBuffer<?> bufferFor(DataType dtype, int n) {
    return switch (dtype) {
      case FLOAT, HALF, BFLOAT16 -> DataBuffers.ofFloats(n);
      case UINT16 -> DataBuffers.ofShorts(n);
      case DOUBLE -> DataBuffers.ofDoubles(n);
      case INT32 -> DataBuffers.ofInts(n);
      case INT64 -> DataBuffers.ofLongs(n);
      case UINT8 -> DataBuffers.ofBytes(n);
      case BOOL -> DataBuffers.ofBooleans(n);
      case STRING -> DataBuffers.ofObjects(String.class, n);
    };
  }

  private static TType scalar(FuzzInput in, DataType dtype) {
    return switch (dtype) {
      case FLOAT -> TFloat32.scalarOf(in.anyFloat());
      case DOUBLE -> TFloat64.scalarOf(in.anyDouble());
      case INT32 -> TInt32.scalarOf(in.anyInt());
      case INT64 -> TInt64.scalarOf(in.anyLong());
      case UINT8 -> TUint8.scalarOf((byte) in.anyInt());
      case BOOL -> TBool.scalarOf(in.bool());
      case HALF -> TFloat16.scalarOf(in.anyFloat());
      case BFLOAT16 -> TBfloat16.scalarOf(in.anyFloat());
      case UINT16 -> TUint16.scalarOf((short) in.anyInt());
      case STRING -> TString.scalarOf(in.stringOrNull(40));
    };
  }

  private static TType vector(FuzzInput in, DataType dtype, int length) {
    Object a = array(in, dtype, length);
    return switch (dtype) {
      case FLOAT -> TFloat32.vectorOf((float[]) a);
      case DOUBLE -> TFloat64.vectorOf((double[]) a);
      case INT32 -> TInt32.vectorOf((int[]) a);
      case INT64 -> TInt64.vectorOf((long[]) a);
      case UINT8 -> TUint8.vectorOf((byte[]) a);
      case BOOL -> TBool.vectorOf((boolean[]) a);
      case HALF -> TFloat16.vectorOf((float[]) a);
      case BFLOAT16 -> TBfloat16.vectorOf((float[]) a);
      case UINT16 -> TUint16.vectorOf((short[]) a);
      case STRING -> TString.vectorOf((String[]) a);
    };
  }

  /** An array of {@code length} elements (or, one in 16, null), some values from the input. */
  private static Object array(FuzzInput in, DataType dtype, int length) {
    if (in.between(0, 15) == 0) {
      return null;
    }
    Object a = HostileInputTest.valuesArray(dtype, length, in.between(0, 63));
    if (dtype == DataType.STRING && length > 0) {
      ((String[]) a)[0] = in.stringOrNull(40);
    }
    return a;
  }

  private static TType fromBuffer(DataType dtype, Shape shape, Object a) {
    return switch (dtype) {
      case FLOAT -> TFloat32.tensorOf(shape, a == null ? null : DataBuffers.of((float[]) a));
      case DOUBLE -> TFloat64.tensorOf(shape, a == null ? null : DataBuffers.of((double[]) a));
      case INT32 -> TInt32.tensorOf(shape, a == null ? null : DataBuffers.of((int[]) a));
      case INT64 -> TInt64.tensorOf(shape, a == null ? null : DataBuffers.of((long[]) a));
      case UINT8 -> TUint8.tensorOf(shape, a == null ? null : DataBuffers.of((byte[]) a));
      case BOOL -> TBool.tensorOf(shape, a == null ? null : DataBuffers.of((boolean[]) a));
      case HALF -> TFloat16.tensorOf(shape, a == null ? null : DataBuffers.of((float[]) a));
      case BFLOAT16 -> TBfloat16.tensorOf(shape, a == null ? null : DataBuffers.of((float[]) a));
      case UINT16 -> TUint16.tensorOf(shape, a == null ? null : DataBuffers.of((short[]) a));
      case STRING ->
          a != null && ((String[]) a).length % 2 == 1
              ? TString.tensorOfBytes(shape, DataBuffers.ofObjects(bytes((String[]) a)))
              : TString.tensorOf(
                  StandardCharsets.UTF_16,
                  shape,
                  a == null ? null : DataBuffers.of((String[]) a, true, false));
    };
  }

  private static byte[][] bytes(String[] a) {
    byte[][] b = new byte[a.length][];
    for (int i = 0; i < a.length; i++) {
      b[i] = a[i] == null ? null : a[i].getBytes(StandardCharsets.UTF_8);
    }
    return b;
  }

  /**
   * Whether the test may make its own ndarray of {@code shape}: ndarray multiplies dimensions
   * without an overflow check, so a shape past a {@code long} wraps to a size it then allocates (a
   * caller's own allocation, before the library is called; found as an OutOfMemoryError).
   */
  private static boolean ndArrayFits(Shape shape) {
    if (shape.isUnknown()) {
      return true; // refused by ndarray itself
    }
    long n = 1;
    for (int i = 0; i < shape.numDimensions(); i++) {
      long d = shape.size(i);
      if (d <= 0) {
        return true; // no elements, or refused by ndarray itself
      }
      n = d > Long.MAX_VALUE / n ? Long.MAX_VALUE : n * d;
    }
    return n <= MAX_ELEMENTS;
  }

  /** An ndarray of {@code shape} (which ndarray itself may refuse), some elements set. */
  private static NdArray<?> ndArray(FuzzInput in, DataType dtype, Shape shape) {
    NdArray<?> a =
        switch (dtype) {
          case FLOAT, HALF, BFLOAT16 -> NdArrays.ofFloats(shape);
          case UINT16 -> NdArrays.ofShorts(shape);
          case DOUBLE -> NdArrays.ofDoubles(shape);
          case INT32 -> NdArrays.ofInts(shape);
          case INT64 -> NdArrays.ofLongs(shape);
          case UINT8 -> NdArrays.ofBytes(shape);
          case BOOL -> NdArrays.ofBooleans(shape);
          case STRING -> NdArrays.ofObjects(String.class, shape);
        };
    if (dtype == DataType.STRING && shape.size() > 0 && in.bool()) {
      ((NdArray<String>) a).setObject(in.stringOrNull(20), new long[shape.numDimensions()]);
    }
    return a;
  }

  @SuppressWarnings("unchecked")
  private static TType fromNdArray(DataType dtype, NdArray<?> a) {
    return switch (dtype) {
      case FLOAT -> TFloat32.tensorOf((NdArray<Float>) a);
      case DOUBLE -> TFloat64.tensorOf((NdArray<Double>) a);
      case INT32 -> TInt32.tensorOf((NdArray<Integer>) a);
      case INT64 -> TInt64.tensorOf((NdArray<Long>) a);
      case UINT8 -> TUint8.tensorOf((NdArray<Byte>) a);
      case BOOL -> TBool.tensorOf((NdArray<Boolean>) a);
      case HALF -> TFloat16.tensorOf((NdArray<Float>) a);
      case BFLOAT16 -> TBfloat16.tensorOf((NdArray<Float>) a);
      case UINT16 -> TUint16.tensorOf((NdArray<Short>) a);
      case STRING -> TString.tensorOf((NdArray<String>) a);
    };
  }

  private static TType withInit(FuzzInput in, DataType dtype, Shape shape) {
    long[] at = new long[in.between(0, 4)];
    boolean fail = in.between(0, 7) == 0;
    float value = in.anyFloat();
    java.util.function.Consumer<NdArray<?>> init =
        t -> {
          if (fail) {
            throw new IllegalStateException("the initializer failed on purpose");
          }
          ((NdArray<?>) t).get(at).shape();
        };
    return switch (dtype) {
      case FLOAT ->
          TFloat32.tensorOf(
              shape,
              t -> {
                init.accept(t);
                t.setFloat(value, at);
              });
      case DOUBLE -> TFloat64.tensorOf(shape, init::accept);
      case INT32 -> TInt32.tensorOf(shape, init::accept);
      case INT64 -> TInt64.tensorOf(shape, init::accept);
      case UINT8 -> TUint8.tensorOf(shape, init::accept);
      case BOOL -> TBool.tensorOf(shape, init::accept);
      case HALF -> TFloat16.tensorOf(shape, init::accept);
      case BFLOAT16 -> TBfloat16.tensorOf(shape, init::accept);
      case UINT16 -> TUint16.tensorOf(shape, init::accept);
      case STRING -> HostileInputTest.emptyFactory(dtype, shape);
    };
  }

  @SuppressWarnings("unchecked")
  private static Operand<?> constantFromBuffer(Ops tf, DataType dtype, Shape shape, Object a) {
    return switch (dtype) {
      case FLOAT -> tf.constant(shape, a == null ? null : DataBuffers.of((float[]) a));
      case DOUBLE -> tf.constant(shape, a == null ? null : DataBuffers.of((double[]) a));
      case INT32 -> tf.constant(shape, a == null ? null : DataBuffers.of((int[]) a));
      case INT64 -> tf.constant(shape, a == null ? null : DataBuffers.of((long[]) a));
      case UINT8 -> tf.constant(shape, a == null ? null : DataBuffers.of((byte[]) a));
      case BOOL -> tf.constant(shape, a == null ? null : DataBuffers.of((boolean[]) a));
      case HALF, BFLOAT16, UINT16 -> HostileInputTest.flatConstant(tf, dtype, shape, a);
      case STRING ->
          tf.constant(shape, a == null ? null : DataBuffers.of((String[]) a, true, false));
    };
  }

  @SuppressWarnings("unchecked")
  private static Operand<?> constantFromNdArray(Ops tf, DataType dtype, NdArray<?> a) {
    return switch (dtype) {
      case FLOAT -> tf.constant((org.tensorflow.ndarray.FloatNdArray) a);
      case DOUBLE -> tf.constant((org.tensorflow.ndarray.DoubleNdArray) a);
      case INT32 -> tf.constant((org.tensorflow.ndarray.IntNdArray) a);
      case INT64 -> tf.constant((org.tensorflow.ndarray.LongNdArray) a);
      case UINT8 -> tf.constant((org.tensorflow.ndarray.ByteNdArray) a);
      case BOOL -> tf.constant((org.tensorflow.ndarray.BooleanNdArray) a);
      case HALF ->
          HostileInputTest.castOnly(
              tf, tf.constant((org.tensorflow.ndarray.FloatNdArray) a), TFloat16.class);
      case BFLOAT16 ->
          HostileInputTest.castOnly(
              tf, tf.constant((org.tensorflow.ndarray.FloatNdArray) a), TBfloat16.class);
      case UINT16 -> {
        try (TUint16 t = TUint16.tensorOf((NdArray<Short>) a)) {
          yield tf.constantOf(t);
        }
      }
      case STRING -> tf.constant((NdArray<String>) a);
    };
  }

  private static synchronized EagerSession session() {
    if (session == null) {
      session =
          EagerSession.options()
              .resourceCleanupStrategy(ResourceCleanupStrategy.ON_SESSION_CLOSE)
              .maxNativeBytes(64L << 20)
              .build();
    }
    return session;
  }

  @AfterAll
  static synchronized void closeSession() {
    if (session != null) {
      session.close();
      session = null;
    }
  }

  static String describe(long[] dims) {
    return Arrays.toString(dims);
  }
}
