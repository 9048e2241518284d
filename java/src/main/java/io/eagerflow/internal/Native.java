package io.eagerflow.internal;

/**
 * The one class that declares {@code native} methods; nothing else in the library calls JNI. (The
 * test sources add {@code TestHooks}, whose natives only the test build of the Rust library, with
 * the cargo feature {@code testing}, exports.)
 *
 * <p>This class is public, so any code on the classpath can call it; nothing it is given can crash
 * the JVM. Sessions cross as the id {@link #newSession} returned, a generation-checked entry in a
 * Rust registry, never a pointer: after {@link #closeSession}, or for a value that was never a
 * session id (a tensor handle, a forged number), every call throws {@link IllegalStateException}.
 * Id {@code 0} names the process-wide table of standalone tensors, which cannot be closed. Tensors
 * cross as handles, checked the same way. A call that is still running on a session while another
 * thread closes it finishes safely: it fails or returns, and adds nothing to the closed session.
 * Every method may throw the exception its Rust error maps to: {@link IllegalArgumentException},
 * {@link IllegalStateException}, {@link IndexOutOfBoundsException} (also for an offset or array too
 * short for the region it names), {@link NullPointerException} (a {@code null} array or string
 * where one is needed), {@link UnsupportedOperationException}, {@code
 * NativeMemoryExhaustedException}, or a {@link RuntimeException} for a panic.
 */
public final class Native {
  static {
    NativeLibrary.load();
  }

  private Native() {}

  /** Makes sure the library is loaded (the static initializer does the work). */
  public static void ensureLoaded() {}

  public static native String version();

  /** The constants shared with the library, one {@code NAME=value} a line; see {@link Wire}. */
  public static native String wire();

  /**
   * A new session; {@code maxBytes <= 0} means no hard limit. With {@code gcSignals}, calls that
   * allocate return a negative handle ({@code ~handle}) when the caller should request a garbage
   * collection; {@code gcTriggerBytes <= 0} makes the soft threshold adaptive.
   */
  public static native long newSession(long maxBytes, long gcTriggerBytes, boolean gcSignals);

  /**
   * A new asynchronous session ({@link #newSession}'s arguments): ops with one output are queued,
   * at most {@code queueCapacity} at once (a full queue blocks the caller), and run in order by
   * {@link #runExecutor}; their handles name pending outputs that reads wait for. The queue's
   * memory follows what it holds. A {@code queueCapacity} outside 1 to {@code
   * EagerSession.Options.MAX_ASYNC_QUEUE_CAPACITY} throws {@link IllegalArgumentException}.
   */
  public static native long newAsyncSession(
      long maxBytes, long gcTriggerBytes, boolean gcSignals, int queueCapacity);

  /**
   * Runs an asynchronous session's queued ops until {@link #closeSession}: the body of its executor
   * thread. Blocks for the session's lifetime; a second call, or one on a session that is not
   * asynchronous, throws {@link IllegalStateException}. When the hard limit refuses a queued op's
   * allocation (in a session with {@code gcSignals}), it calls {@code relief} on this thread to
   * collect and free what is unreachable; if that returns true the op is retried once.
   */
  public static native void runExecutor(long session, java.util.function.BooleanSupplier relief);

  /**
   * Waits until every op queued on the session so far has run, then throws the first error an op
   * met since the previous call, if any. Returns at once for a synchronous session.
   */
  public static native void sync(long session);

  /**
   * Frees everything the session holds, writes its final stats (when {@code statsOut} is not {@code
   * null}) and removes its id; closing an id again throws {@link IllegalStateException}.
   */
  public static native void closeSession(long session, long[] statsOut);

  /** Writes the counters of {@code SessionStats}, at the positions {@code Wire.STATS_*} says. */
  public static native void stats(long session, long[] out);

  /**
   * Writes the process-wide counters of {@code NativeMemory}, at the positions {@code
   * Wire.MEMORY_*} says.
   */
  public static native void memoryStats(long[] out);

  /**
   * Counts one {@code NativeMemoryExhaustedException} thrown to a caller, in {@code
   * NativeMemory.limitExhaustions()}.
   */
  public static native void countLimitExhaustion();

  /** Releases every idle pooled buffer; returns the bytes released. */
  public static native long trimPool();

  public static native int opIndex(String type);

  /** Whether op {@code op} always yields exactly one output (the fast paths need that). */
  public static native boolean opSingleOutput(int op);

  /**
   * The attribute names op {@code op} accepts: its own, comma-separated, then {@code ';'}, then the
   * inferred type and count attributes. An attribute's id is its position in this list.
   */
  /**
   * As {@link #execute}, with input {@code i} taken from session {@code inputSessions[i]} (each
   * entered by the caller; {@code session} for its own); with {@code scalarDtype >= 0} a scalar of
   * that dtype holding {@code scalarValue}, never stored or counted, is the last input.
   */
  public static native long[] executeMixed(
      long session,
      int op,
      long[] inputs,
      long[] inputSessions,
      int[] listLens,
      long[] attrs,
      int scalarDtype,
      double scalarValue);

  public static native String opAttrNames(int op);

  /**
   * The argument names of op {@code op}: inputs, comma-separated, then {@code ';'}, then outputs; a
   * list argument's name ends in {@code "[]"}.
   */
  public static native String opArgNames(int op);

  /**
   * Runs an attribute-free op that always yields one output ({@link #opSingleOutput}) on one input;
   * an op that yields another number is an {@link IllegalStateException}, and its outputs are freed
   * uncounted.
   */
  public static native long execute1(long session, int op, long x);

  /** {@link #execute1} with two inputs. */
  public static native long execute2(long session, int op, long x, long y);

  /**
   * {@link #execute2} whose second input is a scalar of dtype code {@code dtype} holding {@code
   * value} (converted as a cast would), made natively and never stored in the session or counted:
   * {@code zeros} and {@code ones} as {@code Fill}.
   */
  public static native long executeWithScalar(
      long session, int op, long x, int dtype, double value);

  /**
   * Runs an op with input lists ({@code listLens[i]} is -1 for a single input) and attributes
   * encoded as records {@code [name id, kind, count, payload...]}, a name given by its position in
   * {@link #opAttrNames}.
   */
  public static native long[] execute(
      long session, int op, long[] inputs, int[] listLens, long[] attrs);

  /**
   * {@code [dtype code, rank, dims...]}. A pending output (asynchronous sessions) is waited for,
   * unless {@code await} is false and its build inferred both its dtype and shape; a failed one
   * throws its op's error when waited for.
   */
  public static native long[] describe(long session, long handle, boolean await);

  public static native boolean free(long session, long handle, int reason);

  public static native int freeMany(long session, long[] handles, int count, int reason);

  /**
   * After a requested collection: counts it if {@code countRequest} (one ran) and moves the soft
   * threshold to {@code nextTrigger} ({@code <= 0}: twice what is still live; a fixed one never
   * moves).
   */
  public static native void collected(long session, boolean countRequest, long nextTrigger);

  public static native long copyTensor(long dstSession, long srcSession, long handle);

  public static native long fromFloats(long session, long[] shape, float[] data);

  public static native long fromDoubles(long session, long[] shape, double[] data);

  public static native long fromInts(long session, long[] shape, int[] data);

  public static native long fromLongs(long session, long[] shape, long[] data);

  public static native long fromBytes(long session, long[] shape, byte[] data);

  public static native long fromBooleans(long session, long[] shape, boolean[] data);

  /** A HALF tensor: each float rounded to the nearest half, ties to even. */
  public static native long fromHalfFloats(long session, long[] shape, float[] data);

  /** A BFLOAT16 tensor: each float's 16 high bits (NaN: 0x7fc0), as TensorFlow Java writes. */
  public static native long fromBfloat16s(long session, long[] shape, float[] data);

  /** A UINT16 tensor of the shorts' bits. */
  public static native long fromShorts(long session, long[] shape, short[] data);

  /** A HALF, BFLOAT16 or UINT16 tensor (TensorFlow code {@code dtype}) of 16-bit patterns. */
  public static native long fromBits16(long session, int dtype, long[] shape, short[] data);

  /**
   * A STRING tensor of {@code shape}: element {@code i} is the next {@code lengths[i]} bytes of
   * {@code data}.
   */
  public static native long fromStrings(long session, long[] shape, byte[] data, int[] lengths);

  /**
   * Every element of a STRING tensor: returns their bytes back to back and writes each one's length
   * into {@code lengths}, which has one entry per element.
   */
  public static native byte[] readStrings(long session, long handle, int[] lengths);

  public static native void readFloats(long session, long handle, long offset, float[] dst);

  public static native void readDoubles(long session, long handle, long offset, double[] dst);

  public static native void readInts(long session, long handle, long offset, int[] dst);

  public static native void readLongs(long session, long handle, long offset, long[] dst);

  public static native void readBytes(long session, long handle, long offset, byte[] dst);

  public static native void readBooleans(long session, long handle, long offset, boolean[] dst);

  public static native void readHalfFloats(long session, long handle, long offset, float[] dst);

  public static native void readBfloat16s(long session, long handle, long offset, float[] dst);

  public static native void readShorts(long session, long handle, long offset, short[] dst);

  public static native void writeFloats(long session, long handle, long offset, float[] src);

  public static native void writeDoubles(long session, long handle, long offset, double[] src);

  public static native void writeInts(long session, long handle, long offset, int[] src);

  public static native void writeLongs(long session, long handle, long offset, long[] src);

  public static native void writeBytes(long session, long handle, long offset, byte[] src);

  public static native void writeBooleans(long session, long handle, long offset, boolean[] src);

  public static native void writeHalfFloats(long session, long handle, long offset, float[] src);

  public static native void writeBfloat16s(long session, long handle, long offset, float[] src);

  public static native void writeShorts(long session, long handle, long offset, short[] src);

  public static native float getFloat(long session, long handle, long index);

  public static native double getDouble(long session, long handle, long index);

  public static native int getInt(long session, long handle, long index);

  public static native long getLong(long session, long handle, long index);

  public static native byte getByte(long session, long handle, long index);

  public static native boolean getBoolean(long session, long handle, long index);

  public static native float getHalfFloat(long session, long handle, long index);

  public static native float getBfloat16(long session, long handle, long index);

  public static native short getShort(long session, long handle, long index);
}
