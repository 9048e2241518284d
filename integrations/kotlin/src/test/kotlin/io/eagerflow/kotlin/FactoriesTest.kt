package io.eagerflow.kotlin

import io.eagerflow.DataType
import io.eagerflow.EagerSession
import io.eagerflow.Operand
import io.eagerflow.op.Ops
import io.eagerflow.types.TBool
import io.eagerflow.types.TFloat32
import io.eagerflow.types.TFloat64
import io.eagerflow.types.TInt32
import io.eagerflow.types.TInt64
import io.eagerflow.types.TString
import io.eagerflow.types.TUint8
import java.nio.ByteOrder
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.tensorflow.ndarray.Shape
import org.tensorflow.ndarray.buffer.DataBuffers

class FactoriesTest {
    private val session = EagerSession.create()
    private val tf = Ops.create(session)

    @AfterEach
    fun close() {
        session.close()
    }

    @Test
    fun constantsFromKotlinPrimitiveArraysOfRankOneToFour() {
        val f: Operand<TFloat32> = tf.constant(floatArrayOf(1f, 2f))
        val d: Operand<TFloat64> = tf.constant(doubleArrayOf(0.5))
        val i: Operand<TInt32> = tf.constant(intArrayOf(1, 2, 3))
        val l: Operand<TInt64> = tf.constant(longArrayOf(Long.MAX_VALUE))
        val b: Operand<TBool> = tf.constant(booleanArrayOf(true, false))
        val u: Operand<TUint8> = tf.constant(byteArrayOf(1, -1))
        assertArrayEquals(floatArrayOf(1f, 2f), f.toFloatArray())
        assertArrayEquals(doubleArrayOf(0.5), d.toDoubleArray())
        assertArrayEquals(intArrayOf(1, 2, 3), i.toIntArray())
        assertArrayEquals(longArrayOf(Long.MAX_VALUE), l.toLongArray())
        assertArrayEquals(booleanArrayOf(true, false), b.toBooleanArray())
        assertArrayEquals(byteArrayOf(1, -1), u.toByteArray())
        val m = tf.constant(arrayOf(floatArrayOf(1f, 2f, 3f), floatArrayOf(4f, 5f, 6f)))
        assertEquals(Shape.of(2, 3), m.shape)
        assertArrayEquals(floatArrayOf(1f, 2f, 3f, 4f, 5f, 6f), m.toFloatArray())
        val cube = tf.constant(Array(2) { x -> Array(3) { y -> IntArray(4) { z -> 100 * x + 10 * y + z } } })
        assertEquals(Shape.of(2, 3, 4), cube.shape)
        assertEquals(123, cube.asTensor().getInt(1, 2, 3))
        val four = tf.constant(Array(1) { Array(2) { Array(1) { doubleArrayOf(1.0, 2.0) } } })
        assertEquals(Shape.of(1, 2, 1, 2), four.shape)
    }

    @Test
    fun raggedArraysAreRefused() {
        val ragged = arrayOf(floatArrayOf(1f, 2f), floatArrayOf(3f))
        assertThrows<IllegalArgumentException> { tf.constant(ragged) }
    }

    @Test
    fun constantsFromKotlinCollections() {
        assertArrayEquals(floatArrayOf(1f, 2f), tf.constant(listOf(1f, 2f)).toFloatArray())
        assertArrayEquals(doubleArrayOf(3.0), tf.constant(setOf(3.0)).toDoubleArray())
        assertArrayEquals(intArrayOf(0, 1, 2), tf.constant((0..2).toList()).toIntArray())
        assertArrayEquals(longArrayOf(7L), tf.constant(listOf(7L)).toLongArray())
        assertArrayEquals(booleanArrayOf(false), tf.constant(listOf(false)).toBooleanArray())
        val s: Operand<TString> = tf.constant(listOf("a", "é"))
        assertEquals("é", s.asTensor().getObject(1))
        assertEquals(Shape.of(0), tf.constant(emptyList<Float>()).shape)
    }

    @Test
    fun reifiedConstantZerosOnesAndCast() {
        val two: Operand<TInt64> = tf.constant<TInt64>(2)
        assertEquals(2L, two.asTensor().getLong())
        assertEquals(2, tf.constant<TInt32>(2.7).asTensor().getInt())
        val dims = tf.constant(intArrayOf(2, 2))
        assertArrayEquals(floatArrayOf(0f, 0f, 0f, 0f), tf.zeros<TFloat32>(dims).toFloatArray())
        assertArrayEquals(booleanArrayOf(true, true, true, true), tf.ones<TBool>(dims).toBooleanArray())
        val x = tf.constant(floatArrayOf(1.7f, -1.7f))
        assertArrayEquals(intArrayOf(1, -1), tf.dtypes.cast<TInt32>(x).toIntArray())
        assertArrayEquals(doubleArrayOf(1.0, 0.0), tf.constant(booleanArrayOf(true, false)).cast<TFloat64>().toDoubleArray())
    }

    @Test
    fun reifiedTensorFactories() {
        tensorOf<TFloat32>(Shape.of(2, 3)).use { t ->
            assertEquals(Shape.of(2, 3), t.shape)
            assertEquals(DataType.FLOAT, t.dataType)
            assertEquals(2, t.rank)
            assertArrayEquals(FloatArray(6), t.toArray())
        }
        val filled = tensorOf<TInt64>(Shape.of(3)) { t -> for (i in 0L until 3L) t[i] = i * i }
        filled.use { assertArrayEquals(longArrayOf(0, 1, 4), it.toArray()) }
        val raw = DataBuffers.of(
            java.nio.ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putInt(5).putInt(-6).array(),
            true,
            false,
        )
        tensorOf<TInt32>(Shape.of(2), raw).use { assertArrayEquals(intArrayOf(5, -6), it.toArray()) }
        val e = assertThrows<IllegalStateException> {
            tensorOf<TFloat32>(Shape.of(1)) { error("init failed") }
        }
        assertEquals("init failed", e.message)
    }

    @Test
    fun extensionPropertiesOfOperands() {
        val x = tf.constant(arrayOf(longArrayOf(1, 2, 3)))
        assertEquals(Shape.of(1, 3), x.shape)
        assertEquals(DataType.INT64, x.dataType)
        assertEquals(2, x.rank)
        assertEquals(0, tf.constant(true).rank)
        session.release(x)
        val e = assertThrows<IllegalStateException> { x.shape }
        assertTrue(e.message!!.contains("released"), e.message)
    }

    @Test
    fun standardUseClosesSessionsAndTensors() {
        val s = EagerSession.create()
        val t = TFloat32.scalarOf(1f)
        s.use { t.use { assertEquals(1f, it.getFloat()) } }
        assertTrue(s.isClosed)
        assertThrows<IllegalStateException> { t.getFloat() }
    }
}
