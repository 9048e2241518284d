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
import org.tensorflow.ndarray.impl.dense.DenseNdArray;
import org.tensorflow.ndarray.impl.dimension.DimensionalSpace;

/**
 * The library's {@link TString}: ndarray's dense array over a {@link StringTensorBuffer} that
 * decodes the tensor's bytes (see {@link StringData}). Hidden behind the interface so that
 * ndarray's implementation classes are not part of the API.
 */
final class TStringImpl extends DenseNdArray<String> implements TString {
  final StringData data;

  TStringImpl(NativeTensor tensor) {
    this(new StringData(tensor), StandardCharsets.UTF_8);
  }

  private TStringImpl(StringData data, Charset charset) {
    super(new StringTensorBuffer<>(data, charset, 0, data.bufferSize()), data.shape);
    this.data = data;
  }

  static TString standalone(EncodedStrings strings) {
    return new TStringImpl(NativeTensor.fromArray(strings.shape(), DataType.STRING, strings));
  }

  @Override
  public TString using(Charset charset) {
    Objects.requireNonNull(charset, "charset");
    return new TStringImpl(data, charset);
  }

  @Override
  public NdArray<byte[]> asBytes() {
    data.check();
    return NdArrays.wrap(
        data.shape, new StringTensorBuffer<byte[]>(data, null, 0, data.bufferSize()));
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
