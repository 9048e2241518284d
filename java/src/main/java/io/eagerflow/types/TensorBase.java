package io.eagerflow.types;

import io.eagerflow.DataType;
import io.eagerflow.internal.NativeTensor;
import io.eagerflow.internal.Shapes;
import io.eagerflow.internal.TensorTypes;
import java.lang.reflect.Array;
import java.nio.ReadOnlyBufferException;
import org.tensorflow.ndarray.Shape;

/**
 * What every tensor class holds: the native tensor and the heap mirror its NdArray methods read.
 *
 * <p>NdArray reads and writes never touch native memory, which a session may free at any moment
 * from another thread: the first one copies the tensor into a Java array (one native call, which
 * checks the tensor under the session's lock), and every later one checks that the tensor is still
 * usable, then uses that array. An op's output never changes, so its mirror stays exact; a
 * standalone tensor's writes go to the mirror and reach native memory ({@link #flush}) before
 * native code reads the tensor. The bulk readers ({@code toArray}, {@code copyTo(float[])}, a
 * whole-tensor {@code read}) copy straight from native memory while there is no mirror.
 */
final class TensorBase {
  // Registers every tensor class without initializing any: lambdas and class literals load
  // classes, never initialize them, so a thread that started with, say, TFloat32.vectorOf cannot
  // deadlock against this initializer.
  static {
    TensorTypes.registerUnwrapper(TensorBase::unwrap);
    TensorTypes.register(DataType.FLOAT, TFloat32.class, t -> new TFloat32Impl(t));
    TensorTypes.register(DataType.DOUBLE, TFloat64.class, t -> new TFloat64Impl(t));
    TensorTypes.register(DataType.INT32, TInt32.class, t -> new TInt32Impl(t));
    TensorTypes.register(DataType.INT64, TInt64.class, t -> new TInt64Impl(t));
    TensorTypes.register(DataType.UINT8, TUint8.class, t -> new TUint8Impl(t));
    TensorTypes.register(DataType.BOOL, TBool.class, t -> new TBoolImpl(t));
    TensorTypes.register(DataType.STRING, TString.class, t -> new TStringImpl(t));
    TensorTypes.register(DataType.HALF, TFloat16.class, t -> new TFloat16Impl(t));
    TensorTypes.register(DataType.BFLOAT16, TBfloat16.class, t -> new TBfloat16Impl(t));
    TensorTypes.register(DataType.UINT16, TUint16.class, t -> new TUint16Impl(t));
  }

  final NativeTensor tensor;
  final Shape shape;
  final DataType dataType;
  private final boolean readOnly;

  /** The element count, or -1 if it does not fit in a Java array (then NdArray access throws). */
  private final int length;

  private volatile Object mirror;
  // Standalone tensors are not thread-safe for writes (as in TensorFlow Java), so a plain flag.
  private boolean dirty;

  TensorBase(NativeTensor tensor) {
    this.tensor = tensor;
    this.shape = tensor.shape();
    this.dataType = tensor.dataType();
    this.readOnly = tensor.isView();
    long n = shape.size();
    this.length = n > Integer.MAX_VALUE - 8 ? -1 : (int) n;
  }

  /** What each typed tensor implementation (other than TString's) gives this class. */
  interface Holder {
    TensorBase base();
  }

  /** The native tensor behind one of this package's tensors, with its writes flushed. */
  private static NativeTensor unwrap(Object t) {
    if (t instanceof TStringImpl s) {
      return s.data.tensor; // read-only on the Java side: nothing to flush
    }
    if (!(t instanceof Holder h)) {
      return null;
    }
    TensorBase base = h.base();
    base.flush();
    return base.tensor;
  }

  /** Allocates a standalone tensor of {@code shape} filled with zeros of the given type. */
  static NativeTensor allocate(Shape shape, DataType dataType) {
    return NativeTensor.allocate(shape, dataType);
  }

  /** A standalone tensor holding a copy of {@code data}, a primitive array of {@code shape}. */
  static NativeTensor standalone(Shape shape, DataType dataType, Object data) {
    return NativeTensor.fromArray(shape, dataType, data);
  }

  /** The element count of {@code shape} as a Java array length. */
  static int checkedLength(Shape shape) {
    long n = Shapes.size(shape, "shape");
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("shape " + shape + " is too large for a Java array");
    }
    return (int) n;
  }

  /** Refuses a buffer of fewer than {@code shape.size()} values, before anything is allocated. */
  static void checkBuffer(Shape shape, long available) {
    long needed = Shapes.size(shape, "shape");
    if (available < needed) {
      throw new IllegalArgumentException(
          "shape " + shape + " needs " + needed + " values but the buffer has " + available);
    }
  }

  /** The size of the data buffer of a tensor of this shape (0 when too large for an array). */
  int bufferSize() {
    return Math.max(length, 0);
  }

  /** Throws {@link IllegalStateException} unless the tensor may still be used. */
  void check() {
    tensor.checkUsable();
  }

  boolean isReadOnly() {
    return readOnly;
  }

  /** The heap mirror, made on first use; checks that the tensor is usable first. */
  Object mirror() {
    tensor.checkUsable();
    Object m = mirror;
    return m != null ? m : materialize();
  }

  /** The heap mirror for a write. */
  Object writableMirror() {
    Object m = mirror();
    if (readOnly) {
      throw new ReadOnlyBufferException();
    }
    dirty = true;
    return m;
  }

  boolean hasMirror() {
    return mirror != null;
  }

  private synchronized Object materialize() {
    Object m = mirror;
    if (m == null) {
      m = newArray();
      readNative(m);
      mirror = m;
    }
    return m;
  }

  /** A Java array of this tensor's element type and count. */
  Object newArray() {
    int n = arrayLength();
    return switch (dataType) {
      case FLOAT, HALF, BFLOAT16 -> new float[n];
      case DOUBLE -> new double[n];
      case UINT16 -> new short[n];
      case INT32 -> new int[n];
      case INT64 -> new long[n];
      case UINT8 -> new byte[n];
      case BOOL -> new boolean[n];
      case STRING -> throw new IllegalStateException("TString has its own storage");
    };
  }

  /**
   * Copies every element into {@code dst} (an array of {@link #arrayLength()} elements): from the
   * mirror if there is one, else from native memory in one call.
   */
  void read(Object dst) {
    Object m = mirror;
    if (m != null) {
      tensor.checkUsable();
      System.arraycopy(m, 0, dst, 0, length);
    } else {
      readNative(dst);
    }
  }

  private void readNative(Object dst) {
    tensor.read(dst);
  }

  /** Overwrites every element from {@code src} (standalone tensors only). */
  void write(Object src) {
    tensor.checkWritable();
    checkLength(Array.getLength(src));
    Object m = mirror;
    if (m != null) {
      System.arraycopy(src, 0, m, 0, length);
      if (HalfFloats.rounds(dataType)) {
        HalfFloats.round(dataType, (float[]) m, 0, length); // as native memory will hold them
      }
      dirty = true;
    } else {
      writeNative(src);
    }
  }

  /** Writes the mirror's changes to native memory, before native code reads the tensor. */
  void flush() {
    if (dirty) {
      synchronized (this) {
        writeNative(mirror);
        dirty = false;
      }
    }
  }

  private void writeNative(Object src) {
    tensor.write(src);
  }

  /** The element count as a Java array length. */
  int arrayLength() {
    if (length < 0) {
      throw new IllegalStateException(
          "a tensor of shape " + shape + " does not fit in a Java array");
    }
    return length;
  }

  void checkLength(int n) {
    if (n != arrayLength()) {
      throw new IllegalArgumentException(
          "array of length "
              + n
              + " does not match a tensor of shape "
              + shape
              + " ("
              + shape.size()
              + " elements)");
    }
  }

  Shape shape() {
    return tensor.shape();
  }

  DataType dataType() {
    return tensor.dataType();
  }

  long numBytes() {
    return shape().size() * dataType.byteSize();
  }

  void close() {
    tensor.close();
    if (!readOnly) {
      mirror = null;
    }
  }

  @Override
  public String toString() {
    return tensor.toString();
  }
}
