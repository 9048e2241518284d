package io.eagerflow.kotlin

import io.eagerflow.EagerSession
import io.eagerflow.Operand
import io.eagerflow.op.MatMul
import io.eagerflow.op.Ops
import io.eagerflow.types.TBool
import io.eagerflow.types.TFloat32
import io.eagerflow.types.TInt32
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

class OperatorsTest {
    private val session = EagerSession.create()
    private val tf = Ops.create(session)

    @AfterEach
    fun close() {
        session.close()
    }

    private val a get() = tf.constant(floatArrayOf(1f, -2f, 6f))
    private val b get() = tf.constant(floatArrayOf(4f, 4f, 3f))

    @Test
    fun arithmeticRunsTheOpsOfTheLeftOperandsSession() {
        assertArrayEquals(floatArrayOf(5f, 2f, 9f), (a + b).toFloatArray())
        assertArrayEquals(floatArrayOf(-3f, -6f, 3f), (a - b).toFloatArray())
        assertArrayEquals(floatArrayOf(4f, -8f, 18f), (a * b).toFloatArray())
        assertArrayEquals(floatArrayOf(0.25f, -0.5f, 2f), (a / b).toFloatArray())
        assertArrayEquals(floatArrayOf(-1f, 2f, -6f), (-a).toFloatArray())
        val sum = a + b
        assertEquals("AddV2", sum.op().type())
        assertSame(session, sum.env())
    }

    @Test
    fun operatorsFollowKotlinPrecedenceAndBroadcast() {
        val m = tf.constant(arrayOf(floatArrayOf(1f, 2f), floatArrayOf(3f, 4f)))
        val row = tf.constant(floatArrayOf(10f, 20f))
        // -m + row * 2 - m / m: unary minus first, then * and /, then + and -.
        val r = -m + row * 2f - m / m
        assertArrayEquals(floatArrayOf(18f, 37f, 16f, 35f), r.toFloatArray())
    }

    @Test
    fun integerDivisionTruncatesTowardZeroAsKotlinDoes() {
        val x = tf.constant(intArrayOf(-7, 7, 9))
        assertArrayEquals(intArrayOf(-7 / 2, 7 / 2, 9 / 2), (x / 2).toIntArray())
        assertArrayEquals(intArrayOf(100 / -7, 100 / 7, 100 / 9), (100 / x).toIntArray())
    }

    @Test
    fun scalarsOfEachElementTypeOnEitherSide() {
        val f = tf.constant(floatArrayOf(2f, 4f))
        assertArrayEquals(floatArrayOf(3f, 5f), (f + 1f).toFloatArray())
        assertArrayEquals(floatArrayOf(-1f, -3f), (1f - f).toFloatArray())
        assertArrayEquals(floatArrayOf(1f, 0.5f), (2f / f).toFloatArray())
        val d = tf.constant(doubleArrayOf(0.5, 1.5))
        assertArrayEquals(doubleArrayOf(1.0, 3.0), (d * 2.0).toDoubleArray())
        assertArrayEquals(doubleArrayOf(0.5, -0.5), (1.0 - d).toDoubleArray())
        val i = tf.constant(intArrayOf(3, 5))
        assertArrayEquals(intArrayOf(6, 10), (2 * i).toIntArray())
        assertArrayEquals(intArrayOf(1, 3), (i - 2).toIntArray())
        val l = tf.constant(longArrayOf(1L shl 40, 3L))
        assertArrayEquals(longArrayOf((1L shl 40) + 1, 4L), (l + 1L).toLongArray())
        assertArrayEquals(longArrayOf(0L, 1L), (3L / l).toLongArray())
    }

    @Test
    fun comparisonsAreInfixAndMakeBooleanTensors() {
        val x = tf.constant(floatArrayOf(1f, 2f, 3f))
        val y = tf.constant(floatArrayOf(3f, 2f, 1f))
        val lt: Operand<TBool> = x lt y
        assertArrayEquals(booleanArrayOf(true, false, false), lt.toBooleanArray())
        assertArrayEquals(booleanArrayOf(true, true, false), (x le y).toBooleanArray())
        assertArrayEquals(booleanArrayOf(false, false, true), (x gt y).toBooleanArray())
        assertArrayEquals(booleanArrayOf(false, true, true), (x ge y).toBooleanArray())
        assertArrayEquals(booleanArrayOf(false, true, false), (x eq y).toBooleanArray())
        assertArrayEquals(booleanArrayOf(true, false, true), (x ne y).toBooleanArray())
        assertArrayEquals(booleanArrayOf(false, true, true), (x gt 1.5f).toBooleanArray())
        assertArrayEquals(booleanArrayOf(true, false), (tf.constant(intArrayOf(1, 2)) eq 1).toBooleanArray())
        assertArrayEquals(booleanArrayOf(false, true), (tf.constant(longArrayOf(1, 2)) ge 2L).toBooleanArray())
        assertArrayEquals(booleanArrayOf(true, false), (tf.constant(doubleArrayOf(1.0, 2.0)) ne 2.0).toBooleanArray())
        val words = tf.constant(arrayOf("a", "b"))
        assertArrayEquals(booleanArrayOf(false, true), (words eq tf.constant("b")).toBooleanArray())
    }

    @Test
    fun logicOnBooleanTensors() {
        val p = tf.constant(booleanArrayOf(true, true, false, false))
        val q = tf.constant(booleanArrayOf(true, false, true, false))
        assertArrayEquals(booleanArrayOf(true, false, false, false), (p and q).toBooleanArray())
        assertArrayEquals(booleanArrayOf(true, true, true, false), (p or q).toBooleanArray())
        assertArrayEquals(booleanArrayOf(false, false, true, true), (!p).toBooleanArray())
        val x = tf.constant(intArrayOf(-1, 5, 12))
        assertArrayEquals(booleanArrayOf(false, true, false), ((x gt 0) and (x lt 10)).toBooleanArray())
    }

    @Test
    fun matMulIsInfixAndTakesOptions() {
        val m = tf.constant(arrayOf(floatArrayOf(1f, 2f), floatArrayOf(3f, 4f)))
        val v = tf.constant(arrayOf(floatArrayOf(1f), floatArrayOf(1f)))
        assertArrayEquals(floatArrayOf(3f, 7f), (m matMul v).toFloatArray())
        assertArrayEquals(
            floatArrayOf(4f, 6f),
            m.matMul(v, MatMul.transposeA(true)).toFloatArray(),
        )
    }

    @Test
    fun mismatchesThrowWhatTheOpsThrow() {
        val f = tf.constant(floatArrayOf(1f, 2f, 3f))
        val short = tf.constant(floatArrayOf(1f, 2f))
        val e = assertThrows<IllegalArgumentException> { f + short }
        assertTrue(e.message!!.contains("AddV2"), e.message)
        val i: Operand<TInt32> = tf.constant(1)
        @Suppress("UNCHECKED_CAST") // what a Java caller with raw types could pass
        val mistyped = i as Operand<TFloat32>
        val wrongType = assertThrows<IllegalArgumentException> { f - mistyped }
        assertTrue(wrongType.message!!.contains("INT32"), wrongType.message)
    }

    @Test
    fun anOperandOfAnotherOpenSessionIsAnInputAsInJava() {
        val f = tf.constant(floatArrayOf(1f, 2f))
        val other = EagerSession.create()
        val elsewhere: Operand<TFloat32> = Ops.create(other).constant(3f)
        val product = f * elsewhere
        assertSame(session, product.env())
        assertArrayEquals(floatArrayOf(3f, 6f), product.toFloatArray())
        val reversed = elsewhere * f
        assertSame(other, reversed.env())
        other.close()
        assertThrows<IllegalStateException> { f * elsewhere }
    }

    @Test
    fun operatorsOnAClosedSessionThrowItsMessage() {
        val x = a
        session.close()
        val e = assertThrows<IllegalStateException> { x + x }
        assertEquals("Eager session has been closed", e.message)
    }
}
