package io.eagerflow.types;

import io.eagerflow.DataType;
import io.eagerflow.internal.EncodedStrings;
import io.eagerflow.internal.NativeTensor;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffer;
import org.tensorflow.ndarray.impl.dense.DenseNdArray;
import org.tensorflow.ndarray.impl.dimension.DimensionalSpace;

/**
 * A tensor of byte strings ({@link DataType#STRING}), and an {@link NdArray} of its elements as
 * {@code String}s, decoded as UTF-8 unless {@link #using(Charset)} says otherwise; {@link
 * #asBytes()} gives the raw bytes. As in TensorFlow Java, a string tensor is read-only: writes
 * throw {@link java.nio.ReadOnlyBufferException}.
 *
 * <p>Every read, through this tensor or any view, slice or element of it, throws {@link
 * IllegalStateException} once the tensor is closed or its operand released or its session closed.
 */
public final class TString extends DenseNdArray<String> implements TType {
  final StringData data;

  TString(NativeTensor tensor) {
    this(new StringData(tensor), StandardCharsets.UTF_8);
  }

  private TString(StringData data, Charset charset) {
    super(new StringTensorBuffer<>(data, charset, 0, data.bufferSize()), data.shape);
    this.data = data;
  }

  private static TString standalone(EncodedStrings strings) {
    return new TString(NativeTensor.fromArray(strings.shape(), DataType.STRING, strings));
  }

  /**
   * A standalone scalar holding {@code value}, encoded as UTF-8.
   *
   * @throws NullPointerException if {@code value} is null
   */
  public static TString scalarOf(String value) {
    Objects.requireNonNull(value, "value");
    return tensorOf(NdArrays.scalarOfObject(value));
  }

  /**
   * A standalone vector of {@code values}, encoded as UTF-8.
   *
   * @throws IllegalArgumentException if {@code values} is null (as in TensorFlow Java)
   */
  public static TString vectorOf(String... values) {
    if (values == null) {
      throw new IllegalArgumentException("values must not be null");
    }
    return tensorOf(NdArrays.vectorOfObjects(values));
  }

  /** A standalone tensor holding {@code src}'s strings encoded as UTF-8, of its shape. */
  public static TString tensorOf(NdArray<String> src) {
    return tensorOf(StandardCharsets.UTF_8, src);
  }

  /** A standalone tensor holding {@code src}'s strings encoded with {@code charset}. */
  public static TString tensorOf(Charset charset, NdArray<String> src) {
    return standalone(EncodedStrings.of(charset, src));
  }

  /** A standalone tensor of {@code shape} holding the first strings of {@code data}, as UTF-8. */
  public static TString tensorOf(Shape shape, DataBuffer<String> data) {
    return tensorOf(NdArrays.wrap(shape, data));
  }

  /** As {@link #tensorOf(Shape, DataBuffer)}, encoding with {@code charset}. */
  public static TString tensorOf(Charset charset, Shape shape, DataBuffer<String> data) {
    return tensorOf(charset, NdArrays.wrap(shape, data));
  }

  /** A standalone tensor holding {@code src}'s byte sequences as they are, of its shape. */
  public static TString tensorOfBytes(NdArray<byte[]> src) {
    return standalone(EncodedStrings.ofBytes(src));
  }

  /** A standalone tensor of {@code shape} holding the first byte sequences of {@code data}. */
  public static TString tensorOfBytes(Shape shape, DataBuffer<byte[]> data) {
    return tensorOfBytes(NdArrays.wrap(shape, data));
  }

  /**
   * This tensor with its elements decoded with {@code charset}: a view of the same tensor (closing
   * either closes both).
   */
  public TString using(Charset charset) {
    Objects.requireNonNull(charset, "charset");
    return new TString(data, charset);
  }

  /** This tensor's elements as their raw bytes (each read returns a copy): a read-only view. */
  public NdArray<byte[]> asBytes() {
    data.check();
    return NdArrays.wrap(data.shape, new StringTensorBuffer<byte[]>(data, null, 0, data.bufferSize()));
  }

  /** The dimensions. @throws IllegalStateException if closed or released */
  @Override
  public Shape shape() {
    data.check();
    return data.shape;
  }

  /** The dimensions, as ndarray sees them. @throws IllegalStateException if closed or released */
  @Override
  public DimensionalSpace dimensions() {
    data.check();
    return super.dimensions();
  }

  @Override
  public DataType dataType() {
    data.check();
    return DataType.STRING;
  }

  @Override
  public Class<TString> type() {
    return TString.class;
  }

  /** The bytes of every string together. @throws IllegalStateException if closed or released */
  @Override
  public long numBytes() {
    return data.numBytes();
  }

  @Override
  public void close() {
    data.close();
  }

  @Override
  public String toString() {
    return "TString " + data.tensor;
  }
}
