package io.eagerflow.internal;

import io.eagerflow.DataType;
import java.lang.ref.Cleaner;
import java.lang.reflect.Array;
import org.tensorflow.ndarray.Shape;

/**
 * A native tensor as the typed tensor classes see it: a standalone tensor that owns its handle in
 * the process-wide table (closed explicitly or by the library's cleaner once unreachable), or a
 * read-only view of an op output that its owner ({@link Usable}) checks on every access. Every
 * native call goes through its session's door.
 */
public final class NativeTensor implements Usable {

  private final NativeSession session;
  private final long handle;
  private final Shape shape;
  private final DataType dataType;
  private final Usable owner;
  // Both set once, before the tensor is published.
  private Cleaner.Cleanable cleanable;
  private FreeStandalone free;
  private volatile boolean closed;

  private NativeTensor(
      NativeSession session, long handle, Shape shape, DataType dataType, Usable owner) {
    this.session = session;
    this.handle = handle;
    this.shape = shape;
    this.dataType = dataType;
    this.owner = owner;
  }

  /** A standalone tensor of {@code shape}, filled with zeros (empty strings). */
  public static NativeTensor allocate(Shape shape, DataType dataType) {
    long n = Shapes.size(shape, "shape");
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "a " + dataType.name() + " tensor of shape " + shape + " is too large for a Java array");
    }
    int size = (int) n;
    Object zeros =
        switch (dataType) {
          case FLOAT, HALF, BFLOAT16 -> new float[size];
          case DOUBLE -> new double[size];
          case UINT16 -> new short[size];
          case INT32 -> new int[size];
          case INT64 -> new long[size];
          case UINT8 -> new byte[size];
          case BOOL -> new boolean[size];
          case STRING -> EncodedStrings.empty(shape, size);
        };
    return NativeSession.STANDALONE.call(new Standalone(dataType, shape, zeros));
  }

  /**
   * A standalone tensor holding a copy of {@code data}, a primitive array of {@code shape.size()}
   * elements (or {@link EncodedStrings}).
   *
   * @throws IllegalArgumentException if the array's length is not the shape's size
   */
  public static NativeTensor fromArray(Shape shape, DataType dataType, Object data) {
    long size = Shapes.size(shape, "shape");
    if (dataType != DataType.STRING) {
      int length = Array.getLength(data);
      if (size != length) {
        throw new IllegalArgumentException(
            "shape " + shape + " needs " + size + " elements but the array has " + length);
      }
    }
    return NativeSession.STANDALONE.call(new Standalone(dataType, shape, data));
  }

  private static final class Standalone extends ConstantCall<NativeTensor> {
    Standalone(DataType dataType, Shape shape, Object data) {
      super(dataType, shape, data);
    }

    @Override
    protected NativeTensor result(long handle) {
      NativeTensor t = new NativeTensor(NativeSession.STANDALONE, handle, shape, dataType, null);
      t.free = new FreeStandalone(handle, LeakSites.standaloneSite());
      t.cleanable = LibraryCleaner.register(t, t.free);
      return t;
    }
  }

  /** A read-only view of an op output's tensor in {@code session}, checked by {@code owner}. */
  public static NativeTensor view(
      NativeSession session, long handle, Shape shape, DataType dataType, Usable owner) {
    return new NativeTensor(session, handle, shape, dataType, owner);
  }

  public NativeSession session() {
    return session;
  }

  public long handle() {
    return handle;
  }

  /**
   * @throws IllegalStateException if closed or released
   */
  public Shape shape() {
    checkUsable();
    return shape;
  }

  /**
   * @throws IllegalStateException if closed or released
   */
  public DataType dataType() {
    checkUsable();
    return dataType;
  }

  /** Whether this is the read-only tensor of an op output. */
  public boolean isView() {
    return owner != null;
  }

  /**
   * @throws IllegalStateException if closed, or its operand released or session closed
   */
  public void checkUsable() {
    if (closed) {
      throw new IllegalStateException("Tensor has been closed");
    }
    if (owner != null) {
      owner.checkUsable();
    }
  }

  /**
   * @throws UnsupportedOperationException on the read-only tensor of an op output
   */
  public void checkWritable() {
    checkUsable(); // a closed session's tensor says so, whatever the call
    if (owner != null) {
      throw new UnsupportedOperationException(
          "the tensor of an op output is read-only; copy it into a standalone tensor to modify");
    }
  }

  /** Copies every element into {@code dst}, a primitive array of this tensor's element type. */
  public void read(Object dst) {
    session.call(new Transfer(this, dst, false));
  }

  /** Overwrites every element from {@code src}, a primitive array of the element type. */
  public void write(Object src) {
    session.call(new Transfer(this, src, true));
  }

  /**
   * Every element of a STRING tensor: their bytes back to back; each one's length goes into {@code
   * lengths}, which has one entry per element.
   */
  public byte[] readStrings(int[] lengths) {
    return session.call(new ReadStrings(this, lengths));
  }

  /** A bulk copy between the tensor and a Java array; not a safe point. */
  private static final class Transfer extends NativeCall.OnOperand<Void> {
    private final NativeTensor tensor;
    private final Object array;
    private final boolean write;

    Transfer(NativeTensor tensor, Object array, boolean write) {
      super(tensor);
      this.tensor = tensor;
      this.array = array;
      this.write = write;
    }

    @Override
    protected long invoke(long id) {
      long h = tensor.handle;
      if (write) {
        switch (tensor.dataType) {
          case FLOAT -> Native.writeFloats(id, h, 0, (float[]) array);
          case DOUBLE -> Native.writeDoubles(id, h, 0, (double[]) array);
          case INT32 -> Native.writeInts(id, h, 0, (int[]) array);
          case INT64 -> Native.writeLongs(id, h, 0, (long[]) array);
          case UINT8 -> Native.writeBytes(id, h, 0, (byte[]) array);
          case BOOL -> Native.writeBooleans(id, h, 0, (boolean[]) array);
          case HALF -> Native.writeHalfFloats(id, h, 0, (float[]) array);
          case BFLOAT16 -> Native.writeBfloat16s(id, h, 0, (float[]) array);
          case UINT16 -> Native.writeShorts(id, h, 0, (short[]) array);
          case STRING -> throw new IllegalStateException("STRING tensors are read-only");
        }
      } else {
        switch (tensor.dataType) {
          case FLOAT -> Native.readFloats(id, h, 0, (float[]) array);
          case DOUBLE -> Native.readDoubles(id, h, 0, (double[]) array);
          case INT32 -> Native.readInts(id, h, 0, (int[]) array);
          case INT64 -> Native.readLongs(id, h, 0, (long[]) array);
          case UINT8 -> Native.readBytes(id, h, 0, (byte[]) array);
          case BOOL -> Native.readBooleans(id, h, 0, (boolean[]) array);
          case HALF -> Native.readHalfFloats(id, h, 0, (float[]) array);
          case BFLOAT16 -> Native.readBfloat16s(id, h, 0, (float[]) array);
          case UINT16 -> Native.readShorts(id, h, 0, (short[]) array);
          case STRING -> throw new IllegalStateException("a STRING tensor is read by readStrings");
        }
      }
      return 0;
    }

    @Override
    protected Void result(long handle) {
      return null;
    }
  }

  private static final class ReadStrings extends NativeCall.OnOperand<byte[]> {
    private final NativeTensor tensor;
    private final int[] lengths;
    private byte[] bytes;

    ReadStrings(NativeTensor tensor, int[] lengths) {
      super(tensor);
      this.tensor = tensor;
      this.lengths = lengths;
    }

    @Override
    protected long invoke(long id) {
      bytes = Native.readStrings(id, tensor.handle, lengths);
      return 0;
    }

    @Override
    protected byte[] result(long handle) {
      return bytes;
    }
  }

  @Override
  public String toString() {
    return "tensor with shape " + shape;
  }

  /** Frees a standalone tensor now (twice is fine); a view is freed with its operand. */
  public void close() {
    if (owner != null || closed) {
      return;
    }
    closed = true;
    free.explicit = true;
    cleanable.clean();
  }

  /** Frees a standalone tensor: on close(), or on the cleaner's thread once unreachable. */
  private static final class FreeStandalone implements Runnable {
    private final long handle;
    private final LeakSites.Site site;
    volatile boolean explicit;

    FreeStandalone(long handle, LeakSites.Site site) {
      this.handle = handle;
      this.site = site;
    }

    @Override
    public void run() {
      if (explicit) {
        LeakSites.closed(site);
      } else {
        LeakSites.report(site, "freed by the cleaner once unreachable");
      }
      int reason = explicit ? Wire.FREED_EXPLICITLY : Wire.FREED_BY_CLEANUP;
      NativeSession.STANDALONE.call(
          new FreeCall(false, reason) {
            @Override
            protected void select() {
              free(handle);
            }
          });
    }
  }
}
