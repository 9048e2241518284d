package io.eagerflow.types;

import io.eagerflow.DataType;
import io.eagerflow.internal.EncodedStrings;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffer;

/**
 * A tensor of byte strings ({@link DataType#STRING}), and an {@link NdArray} of its elements as
 * {@code String}s, decoded as UTF-8 unless {@link #using(Charset)} says otherwise; {@link
 * #asBytes()} gives the raw bytes. As in TensorFlow Java, a string tensor is read-only: writes
 * throw {@link java.nio.ReadOnlyBufferException}.
 *
 * <p>Every read, through this tensor or any view, slice or element of it, throws {@link
 * IllegalStateException} once the tensor is closed or its operand released or its session closed.
 *
 * <p>An interface, as in TensorFlow Java: the library's own class implements it, and only tensors
 * the library made are accepted where a {@code TString} is expected.
 */
public interface TString extends NdArray<String>, TType {
  /**
   * A standalone scalar holding {@code value}, encoded as UTF-8.
   *
   * @throws NullPointerException if {@code value} is null
   */
  static TString scalarOf(String value) {
    Objects.requireNonNull(value, "value");
    return tensorOf(NdArrays.scalarOfObject(value));
  }

  /**
   * A standalone vector of {@code values}, encoded as UTF-8.
   *
   * @throws IllegalArgumentException if {@code values} is null (as in TensorFlow Java)
   */
  static TString vectorOf(String... values) {
    if (values == null) {
      throw new IllegalArgumentException("values must not be null");
    }
    return tensorOf(NdArrays.vectorOfObjects(values));
  }

  /** A standalone tensor holding {@code src}'s strings encoded as UTF-8, of its shape. */
  static TString tensorOf(NdArray<String> src) {
    return tensorOf(StandardCharsets.UTF_8, src);
  }

  /** A standalone tensor holding {@code src}'s strings encoded with {@code charset}. */
  static TString tensorOf(Charset charset, NdArray<String> src) {
    return TStringImpl.standalone(EncodedStrings.of(charset, src));
  }

  /** A standalone tensor of {@code shape} holding the first strings of {@code data}, as UTF-8. */
  static TString tensorOf(Shape shape, DataBuffer<String> data) {
    return tensorOf(StandardCharsets.UTF_8, shape, data);
  }

  /** As {@link #tensorOf(Shape, DataBuffer)}, encoding with {@code charset}. */
  static TString tensorOf(Charset charset, Shape shape, DataBuffer<String> data) {
    // Checked here, as the other types' factories do: ndarray's wrap would fail on null without
    // naming the argument.
    Objects.requireNonNull(data, "data");
    TensorBase.checkBuffer(shape, data.size());
    return tensorOf(charset, NdArrays.wrap(shape, data));
  }

  /** A standalone tensor holding {@code src}'s byte sequences as they are, of its shape. */
  static TString tensorOfBytes(NdArray<byte[]> src) {
    return TStringImpl.standalone(EncodedStrings.ofBytes(src));
  }

  /** A standalone tensor of {@code shape} holding the first byte sequences of {@code data}. */
  static TString tensorOfBytes(Shape shape, DataBuffer<byte[]> data) {
    Objects.requireNonNull(data, "data");
    TensorBase.checkBuffer(shape, data.size());
    return tensorOfBytes(NdArrays.wrap(shape, data));
  }

  /**
   * This tensor with its elements decoded with {@code charset}: a view of the same tensor (closing
   * either closes both).
   */
  TString using(Charset charset);

  /** This tensor's elements as their raw bytes (each read returns a copy): a read-only view. */
  NdArray<byte[]> asBytes();

  /** {@code TString.class}. */
  @Override
  Class<TString> type();
}
