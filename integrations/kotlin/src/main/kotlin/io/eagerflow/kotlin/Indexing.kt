package io.eagerflow.kotlin

import io.eagerflow.Operand
import io.eagerflow.op.StridedSlice
import io.eagerflow.types.TType
import org.tensorflow.ndarray.BooleanNdArray
import org.tensorflow.ndarray.ByteNdArray
import org.tensorflow.ndarray.DoubleNdArray
import org.tensorflow.ndarray.FloatNdArray
import org.tensorflow.ndarray.IntNdArray
import org.tensorflow.ndarray.LongNdArray
import org.tensorflow.ndarray.NdArray
import org.tensorflow.ndarray.index.Index
import org.tensorflow.ndarray.index.Indices

// Indexing, two ways. On an operand, x[i, j] is an op (StridedSlice) whose result is another
// operand, as x[i, j] is in TensorFlow's Python API. On a tensor (TFloat32 and the other typed
// tensors are NdArrays), t[i, j] is ndarray's own get: the element as a scalar NdArray, or a slice
// when fewer indices than dimensions are given; read its value with getFloat() and the like. Kotlin
// calls that Java member for t[0, 1] (integer literals fit its long parameters); the extensions
// below give Int indices held in variables the same meaning, and t[i, j] = v writes an element of a
// standalone tensor.

/**
 * The slice of this operand at [indices], one per leading dimension [`StridedSlice`]: each index
 * removes its dimension, so `m[1]` is row 1 of a matrix and `m[1, 2]` the scalar at row 1, column 2.
 * Negative indices count from the end (`v[-1]` is the last element).
 *
 * @throws IllegalArgumentException if an index is out of range
 */
operator fun <T : TType> Operand<T>.get(vararg indices: Int): Operand<T> =
    get(*Array(indices.size) { Indices.at(indices[it].toLong()) })

/**
 * The slice of this operand that ndarray's [indices] select, one per dimension as in
 * `NdArray.slice` [`StridedSlice`]: `m[Indices.all(), Indices.at(0)]` is column 0 of a matrix,
 * `m[Indices.range(1, 3)]` rows 1 and 2, `v[Indices.flip()]` a vector reversed; `Indices.newAxis()`
 * and `Indices.ellipsis()` work as in TensorFlow.
 *
 * @throws IllegalArgumentException if an index cannot be a strided slice (`Indices.seq`,
 *   `Indices.hyperslab`), or is out of range
 */
operator fun <T : TType> Operand<T>.get(vararg indices: Index): Operand<T> {
    // The op's masks hold one bit per index.
    require(indices.size < Long.SIZE_BITS) {
        "StridedSlice takes at most ${Long.SIZE_BITS - 1} indices, got ${indices.size}"
    }
    val begin = LongArray(indices.size)
    val end = LongArray(indices.size)
    val strides = LongArray(indices.size) { 1L }
    var beginMask = 0L
    var endMask = 0L
    var ellipsisMask = 0L
    var newAxisMask = 0L
    var shrinkAxisMask = 0L
    indices.forEachIndexed { i, index ->
        val bit = 1L shl i
        when {
            index.isEllipsis -> ellipsisMask = ellipsisMask or bit
            index.isNewAxis -> newAxisMask = newAxisMask or bit
            index.isPoint -> {
                begin[i] = index.begin()
                end[i] = index.begin() + 1
                shrinkAxisMask = shrinkAxisMask or bit
            }
            else -> {
                require(index.isStridedSlicingCompliant) {
                    "index $i ($index) selects no strided slice: StridedSlice cannot take it"
                }
                begin[i] = index.begin()
                end[i] = index.end()
                strides[i] = index.stride()
                if (index.beginMask()) beginMask = beginMask or bit
                if (index.endMask()) endMask = endMask or bit
            }
        }
    }
    val tf = ops()
    return tf.stridedSlice(
        this,
        tf.constant(begin),
        tf.constant(end),
        tf.constant(strides),
        StridedSlice.beginMask(beginMask),
        StridedSlice.endMask(endMask),
        StridedSlice.ellipsisMask(ellipsisMask),
        StridedSlice.newAxisMask(newAxisMask),
        StridedSlice.shrinkAxisMask(shrinkAxisMask),
    )
}

private fun IntArray.toCoordinates(): LongArray = LongArray(size) { this[it].toLong() }

/** The element (a scalar array) or slice at [indices], as ndarray's `get(long...)`. */
operator fun FloatNdArray.get(vararg indices: Int): FloatNdArray = get(*indices.toCoordinates())

/** Writes the element at [indices] (standalone tensors; op results are read-only). */
operator fun FloatNdArray.set(vararg indices: Int, value: Float) {
    setFloat(value, *indices.toCoordinates())
}

/** Writes the element at [indices] (standalone tensors; op results are read-only). */
operator fun FloatNdArray.set(vararg indices: Long, value: Float) {
    setFloat(value, *indices)
}

/** The element (a scalar array) or slice at [indices], as ndarray's `get(long...)`. */
operator fun DoubleNdArray.get(vararg indices: Int): DoubleNdArray = get(*indices.toCoordinates())

/** Writes the element at [indices] (standalone tensors; op results are read-only). */
operator fun DoubleNdArray.set(vararg indices: Int, value: Double) {
    setDouble(value, *indices.toCoordinates())
}

/** Writes the element at [indices] (standalone tensors; op results are read-only). */
operator fun DoubleNdArray.set(vararg indices: Long, value: Double) {
    setDouble(value, *indices)
}

/** The element (a scalar array) or slice at [indices], as ndarray's `get(long...)`. */
operator fun IntNdArray.get(vararg indices: Int): IntNdArray = get(*indices.toCoordinates())

/** Writes the element at [indices] (standalone tensors; op results are read-only). */
operator fun IntNdArray.set(vararg indices: Int, value: Int) {
    setInt(value, *indices.toCoordinates())
}

/** Writes the element at [indices] (standalone tensors; op results are read-only). */
operator fun IntNdArray.set(vararg indices: Long, value: Int) {
    setInt(value, *indices)
}

/** The element (a scalar array) or slice at [indices], as ndarray's `get(long...)`. */
operator fun LongNdArray.get(vararg indices: Int): LongNdArray = get(*indices.toCoordinates())

/** Writes the element at [indices] (standalone tensors; op results are read-only). */
operator fun LongNdArray.set(vararg indices: Int, value: Long) {
    setLong(value, *indices.toCoordinates())
}

/** Writes the element at [indices] (standalone tensors; op results are read-only). */
operator fun LongNdArray.set(vararg indices: Long, value: Long) {
    setLong(value, *indices)
}

/** The element (a scalar array) or slice at [indices], as ndarray's `get(long...)`. */
operator fun BooleanNdArray.get(vararg indices: Int): BooleanNdArray =
    get(*indices.toCoordinates())

/** Writes the element at [indices] (standalone tensors; op results are read-only). */
operator fun BooleanNdArray.set(vararg indices: Int, value: Boolean) {
    setBoolean(value, *indices.toCoordinates())
}

/** Writes the element at [indices] (standalone tensors; op results are read-only). */
operator fun BooleanNdArray.set(vararg indices: Long, value: Boolean) {
    setBoolean(value, *indices)
}

/** The element (a scalar array) or slice at [indices], as ndarray's `get(long...)`. */
operator fun ByteNdArray.get(vararg indices: Int): ByteNdArray = get(*indices.toCoordinates())

/** Writes the element at [indices] (standalone tensors; op results are read-only). */
operator fun ByteNdArray.set(vararg indices: Int, value: Byte) {
    setByte(value, *indices.toCoordinates())
}

/** Writes the element at [indices] (standalone tensors; op results are read-only). */
operator fun ByteNdArray.set(vararg indices: Long, value: Byte) {
    setByte(value, *indices)
}

/**
 * The element (a scalar array) or slice at [indices], as ndarray's `get(long...)`, for arrays of
 * objects such as a `TString`.
 */
operator fun <T> NdArray<T>.get(vararg indices: Int): NdArray<T> = get(*indices.toCoordinates())
