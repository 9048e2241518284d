package io.eagerflow.internal;

import io.eagerflow.DataType;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.lang.reflect.Array;
import org.tensorflow.ndarray.Shape;

/**
 * The native side of a typed tensor: its table, handle, shape and type, and what keeps it valid.
 * A standalone tensor owns its handle and frees it on {@link #close()} (or through the library's
 * {@link Cleaner} once unreachable); a view of an op output is read-only, keeps that output
 * reachable, and is freed with it.
 */
public final class NativeTensor {
  /** Checks that an op output may still be read; throws {@link IllegalStateException} if not. */
  public interface Owner {
    void checkUsable();
  }

  private final NativeScope scope;
  private final long handle;
  private final Shape shape;
  private final DataType dataType;
  private final Owner owner;
  // Both set once, before the tensor is published.
  private Cleaner.Cleanable cleanable;
  private FreeStandalone free;
  private volatile boolean closed;

  private NativeTensor(
      NativeScope scope,
      long handle,
      Shape shape,
      DataType dataType,
      Owner owner) {
    this.scope = scope;
    this.handle = handle;
    this.shape = shape;
    this.dataType = dataType;
    this.owner = owner;
  }

  /** A standalone tensor owning {@code handle} in the standalone table. */
  public static NativeTensor standalone(long handle, Shape shape, DataType dataType) {
    NativeTensor t = new NativeTensor(NativeScope.STANDALONE, handle, shape, dataType, null);
    t.free = new FreeStandalone(handle, LeakSites.standaloneSite());
    t.cleanable = LibraryCleaner.register(t, t.free);
    return t;
  }

  /**
   * A standalone tensor of {@code shape} filled with zeros of {@code dataType} (empty strings for
   * STRING).
   *
   * @throws IllegalArgumentException if a dimension is unknown or negative, or the tensor would not
   *     fit in a Java array
   */
  public static NativeTensor allocate(Shape shape, DataType dataType) {
    long n = Shapes.size(shape, "shape");
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "a " + dataType.name() + " tensor of shape " + shape + " is too large for a Java array");
    }
    int size = (int) n;
    long[] dims = shape.asArray();
    long handle =
        switch (dataType) {
          case FLOAT -> Native.fromFloats(0, dims, new float[size]);
          case DOUBLE -> Native.fromDoubles(0, dims, new double[size]);
          case INT32 -> Native.fromInts(0, dims, new int[size]);
          case INT64 -> Native.fromLongs(0, dims, new long[size]);
          case UINT8 -> Native.fromBytes(0, dims, new byte[size]);
          case BOOL -> Native.fromBooleans(0, dims, new boolean[size]);
          case STRING -> Native.fromStrings(0, dims, new byte[0], new int[size]);
        };
    return standalone(handle, shape, dataType);
  }

  /**
   * A standalone tensor of {@code shape} holding a copy of {@code data}, a primitive array of the
   * element type of {@code dataType} with exactly {@code shape.size()} elements ({@link
   * EncodedStrings} for STRING).
   *
   * @throws IllegalArgumentException if a dimension is unknown or negative, or the array has
   *     another length
   */
  public static NativeTensor fromArray(Shape shape, DataType dataType, Object data) {
    long size = Shapes.size(shape, "shape");
    if (dataType == DataType.STRING) {
      EncodedStrings s = (EncodedStrings) data;
      return standalone(
          Native.fromStrings(0, shape.asArray(), s.bytes(), s.lengths()), shape, dataType);
    }
    int length = Array.getLength(data);
    if (size != length) {
      throw new IllegalArgumentException(
          "shape " + shape + " needs " + size + " elements but the array has " + length);
    }
    long[] dims = shape.asArray();
    long handle =
        switch (dataType) {
          case FLOAT -> Native.fromFloats(0, dims, (float[]) data);
          case DOUBLE -> Native.fromDoubles(0, dims, (double[]) data);
          case INT32 -> Native.fromInts(0, dims, (int[]) data);
          case INT64 -> Native.fromLongs(0, dims, (long[]) data);
          case UINT8 -> Native.fromBytes(0, dims, (byte[]) data);
          case BOOL -> Native.fromBooleans(0, dims, (boolean[]) data);
          case STRING -> throw new IllegalStateException("strings are handled above");
        };
    return standalone(handle, shape, dataType);
  }

  /** A read-only view of op output {@code handle} of {@code scope}, keeping {@code owner} alive. */
  public static NativeTensor view(
      NativeScope scope, long handle, Shape shape, DataType dataType, Owner owner) {
    return new NativeTensor(scope, handle, shape, dataType, owner);
  }

  /** The table this tensor lives in. */
  public NativeScope scope() {
    return scope;
  }

  public long handle() {
    return handle;
  }

  public Shape shape() {
    checkOpen();
    return shape;
  }

  public DataType dataType() {
    checkOpen();
    return dataType;
  }

  /** Whether this is a read-only view of an op output. */
  public boolean isView() {
    return owner != null;
  }

  /**
   * Throws {@link IllegalStateException} if this tensor was closed, or its operand released or
   * its session closed.
   */
  public void checkUsable() {
    checkOpen();
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("Tensor has been closed");
    }
    if (owner != null) {
      owner.checkUsable();
    }
  }

  /**
   * Starts a native call on this tensor and returns its table's session id.
   *
   * @throws IllegalStateException if the tensor, its operand or its session is closed
   */
  public long enter() {
    long ptr = scope.enter();
    try {
      checkOpen();
    } catch (RuntimeException e) {
      scope.exit();
      throw e;
    }
    return ptr;
  }

  /** Ends a call started by {@link #enter()}; keeps this tensor reachable until here. */
  public void exit() {
    scope.exit();
    Reference.reachabilityFence(this);
    Reference.reachabilityFence(owner);
  }

  /** Throws unless this tensor may be written (standalone and open). */
  /** Copies every element into {@code dst}, a primitive array of this tensor's element type. */
  public void read(Object dst) {
    long id = enter();
    try {
      switch (dataType) {
        case FLOAT -> Native.readFloats(id, handle, 0, (float[]) dst);
        case DOUBLE -> Native.readDoubles(id, handle, 0, (double[]) dst);
        case INT32 -> Native.readInts(id, handle, 0, (int[]) dst);
        case INT64 -> Native.readLongs(id, handle, 0, (long[]) dst);
        case UINT8 -> Native.readBytes(id, handle, 0, (byte[]) dst);
        case BOOL -> Native.readBooleans(id, handle, 0, (boolean[]) dst);
        case STRING -> throw new IllegalStateException("a STRING tensor is read by readStrings");
      }
    } finally {
      exit();
    }
  }

  /** Overwrites every element from {@code src}, a primitive array of the element type. */
  public void write(Object src) {
    long id = enter();
    try {
      switch (dataType) {
        case FLOAT -> Native.writeFloats(id, handle, 0, (float[]) src);
        case DOUBLE -> Native.writeDoubles(id, handle, 0, (double[]) src);
        case INT32 -> Native.writeInts(id, handle, 0, (int[]) src);
        case INT64 -> Native.writeLongs(id, handle, 0, (long[]) src);
        case UINT8 -> Native.writeBytes(id, handle, 0, (byte[]) src);
        case BOOL -> Native.writeBooleans(id, handle, 0, (boolean[]) src);
        case STRING -> throw new IllegalStateException("STRING tensors are read-only");
      }
    } finally {
      exit();
    }
  }

  /**
   * Every element of a STRING tensor: their bytes back to back; each one's length goes into
   * {@code lengths}, which has one entry per element.
   */
  public byte[] readStrings(int[] lengths) {
    long id = enter();
    try {
      return Native.readStrings(id, handle, lengths);
    } finally {
      exit();
    }
  }

  public void checkWritable() {
    checkOpen(); // a closed session's tensor says so, whatever the call
    if (owner != null) {
      throw new UnsupportedOperationException(
          "the tensor of an op output is read-only; copy it into a standalone tensor to modify");
    }
  }

  /** Describes the tensor without checking that it is open (for {@code toString}). */
  @Override
  public String toString() {
    return "tensor with shape " + shape;
  }

  /** Frees a standalone tensor now; harmless on views and when repeated. */
  public void close() {
    if (owner != null || closed) {
      return;
    }
    closed = true;
    free.explicit = true;
    cleanable.clean();
  }

  /** Frees a standalone tensor: on close(), or by the cleaner once it is unreachable. */
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
      if (!explicit) {
        LeakSites.report(site, "freed by the cleaner once unreachable");
      }
      Native.free(0, handle, explicit ? Native.FREED_EXPLICITLY : Native.FREED_BY_CLEANUP);
    }
  }
}
