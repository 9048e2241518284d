package io.eagerflow.kotlin

import io.eagerflow.Operand
import io.eagerflow.Tensor
import io.eagerflow.op.Cast
import io.eagerflow.op.DtypesOps
import io.eagerflow.op.Ops
import io.eagerflow.types.TBool
import io.eagerflow.types.TFloat32
import io.eagerflow.types.TFloat64
import io.eagerflow.types.TInt32
import io.eagerflow.types.TInt64
import io.eagerflow.types.TNumber
import io.eagerflow.types.TString
import io.eagerflow.types.TType
import io.eagerflow.types.TUint8
import java.util.function.Consumer
import org.tensorflow.ndarray.Shape
import org.tensorflow.ndarray.buffer.ByteDataBuffer

// The Java API's factories that take a tensor class (Tensor.of(TFloat32::class.java, shape), ...)
// with the class as a reified type argument instead. Java's Tensor is an interface with static
// methods and Kotlin (2.4) cannot add functions to a Java type's statics, so Tensor.of<TFloat32>
// is spelled tensorOf<TFloat32>. tf.constant already takes Kotlin's primitive arrays: FloatArray is
// Java's float[], Array<FloatArray> is float[][], and so on to rank 4 for Float, Double, Int,
// Long, Boolean and Byte (UINT8); the functions here add Kotlin collections.

/** A standalone tensor of type [T] and [shape], filled with zeros, as `Tensor.of(T, shape)`. */
inline fun <reified T : TType> tensorOf(shape: Shape): T = Tensor.of(T::class.java, shape)

/**
 * A standalone tensor of type [T] and [shape], filled with zeros and then passed to [init], as
 * `Tensor.of(T, shape, init)`; if [init] throws, the tensor is closed.
 */
inline fun <reified T : TType> tensorOf(shape: Shape, crossinline init: (T) -> Unit): T =
    Tensor.of(T::class.java, shape, Consumer { init(it) })

/**
 * A standalone tensor of type [T] and [shape] holding [rawData], the values' bytes in the
 * platform's byte order, as `Tensor.of(T, shape, rawData)`.
 */
inline fun <reified T : TType> tensorOf(shape: Shape, rawData: ByteDataBuffer): T =
    Tensor.of(T::class.java, shape, rawData)

/** A scalar constant of type [T] holding [value] converted as Java's primitive conversions do. */
inline fun <reified T : TNumber> Ops.constant(value: Number): Operand<T> =
    constant(T::class.java, value)

/** A tensor of shape [dims] filled with zeros (`false` for [TBool]). */
inline fun <reified T : TType> Ops.zeros(dims: Operand<out TNumber>): Operand<T> =
    zeros(dims, T::class.java)

/** A tensor of shape [dims] filled with ones (`true` for [TBool]). */
inline fun <reified T : TType> Ops.ones(dims: Operand<out TNumber>): Operand<T> =
    ones(dims, T::class.java)

/** [x] converted element by element to [U] [`Cast`], as `tf.dtypes.cast(x, U, options)`. */
inline fun <reified U : TType> DtypesOps.cast(
    x: Operand<out TType>,
    vararg options: Cast.Options,
): Operand<U> = cast(x, U::class.java, *options)

/** This operand converted element by element to [U] [`Cast`] in its session. */
inline fun <reified U : TType> Operand<out TType>.cast(): Operand<U> =
    ops().dtypes.cast(this, U::class.java)

/** A vector constant of [values]. */
@JvmName("constantOfFloats")
fun Ops.constant(values: Collection<Float>): Operand<TFloat32> = constant(values.toFloatArray())

/** A vector constant of [values]. */
@JvmName("constantOfDoubles")
fun Ops.constant(values: Collection<Double>): Operand<TFloat64> = constant(values.toDoubleArray())

/** A vector constant of [values]. */
@JvmName("constantOfInts")
fun Ops.constant(values: Collection<Int>): Operand<TInt32> = constant(values.toIntArray())

/** A vector constant of [values]. */
@JvmName("constantOfLongs")
fun Ops.constant(values: Collection<Long>): Operand<TInt64> = constant(values.toLongArray())

/** A vector constant of [values]. */
@JvmName("constantOfBooleans")
fun Ops.constant(values: Collection<Boolean>): Operand<TBool> = constant(values.toBooleanArray())

/** A vector constant of [values], UTF-8 encoded. */
@JvmName("constantOfStrings")
fun Ops.constant(values: Collection<String>): Operand<TString> = constant(values.toTypedArray())

/** The values, row-major: one native copy. */
fun Operand<TFloat32>.toFloatArray(): FloatArray = asTensor().toArray()

/** The values, row-major: one native copy. */
fun Operand<TFloat64>.toDoubleArray(): DoubleArray = asTensor().toArray()

/** The values, row-major: one native copy. */
fun Operand<TInt32>.toIntArray(): IntArray = asTensor().toArray()

/** The values, row-major: one native copy. */
fun Operand<TInt64>.toLongArray(): LongArray = asTensor().toArray()

/** The values, row-major: one native copy. */
fun Operand<TBool>.toBooleanArray(): BooleanArray = asTensor().toArray()

/** The values, row-major: one native copy. */
fun Operand<TUint8>.toByteArray(): ByteArray = asTensor().toArray()
