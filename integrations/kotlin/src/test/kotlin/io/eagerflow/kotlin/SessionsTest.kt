package io.eagerflow.kotlin

import io.eagerflow.EagerScope
import io.eagerflow.EagerSession
import io.eagerflow.Operand
import io.eagerflow.op.Ops
import io.eagerflow.types.TFloat32
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

class SessionsTest {
    // Tests that count live tensors use sessions that free nothing before they close.
    private fun closeOnly() =
        EagerSession.options().resourceCleanupStrategy(
            EagerSession.ResourceCleanupStrategy.ON_SESSION_CLOSE
        )

    @Test
    fun sessionReturnsTheBlocksValueAndClosesTheSession() {
        var inside: EagerSession? = null
        val y = session {
            inside = session
            (tf.constant(floatArrayOf(1f, 2f)) * 2f).toFloatArray()
        }
        assertArrayEquals(floatArrayOf(2f, 4f), y)
        assertTrue(inside!!.isClosed)
    }

    @Test
    fun sessionTakesOptions() {
        val strategy = session(closeOnly()) { session.resourceCleanupStrategy() }
        assertEquals(EagerSession.ResourceCleanupStrategy.ON_SESSION_CLOSE, strategy)
    }

    @Test
    fun sessionClosesWhenTheBlockThrows() {
        var inside: EagerSession? = null
        assertThrows<ArithmeticException> {
            session {
                inside = session
                throw ArithmeticException("from the block")
            }
        }
        assertTrue(inside!!.isClosed)
    }

    @Test
    fun sessionRefusesToReturnOperandsItFreed() {
        // Assigned to a variable outside, so the block's type is its value's, not the Unit that
        // assertThrows' lambda returns.
        var escaped: Any? = null
        val e = assertThrows<IllegalStateException> { escaped = session { tf.constant(1f) } }
        assertTrue(e.message!!.contains("session { } returned <Const"), e.message)
        assertThrows<IllegalStateException> { escaped = session { listOf(1, tf.constant(2f)) } }
        assertNull(escaped)
        assertEquals(3, session { Pair(3, "three") }.first)
    }

    @Test
    fun scopeKeepsWhatTheBlockReturnsAndFreesTheRest() {
        session(closeOnly()) {
            var w: Operand<TFloat32> = tf.constant(floatArrayOf(1f, 1f))
            val before = session.stats()
            repeat(10) {
                w = scope { w - (w * 0.5f) } // a constant, Mul and Sub per step
            }
            val after = session.stats()
            assertEquals(30, after.createdTensors() - before.createdTensors())
            assertEquals(20, after.freedByScope() - before.freedByScope())
            assertEquals(before.liveTensors() + 10, after.liveTensors())
            assertArrayEquals(floatArrayOf(1f / 1024, 1f / 1024), w.toFloatArray())
        }
    }

    @Test
    fun scopeKeepsOperandsHeldInPairsTriplesCollectionsAndArrays() {
        session(closeOnly()) {
            val (p, q) = scope { Pair(tf.constant(1f), tf.constant(2f)) }
            val (r, s, t) = scope { Triple(tf.constant(3f), "not an operand", tf.constant(4f)) }
            val list = scope { listOf(tf.constant(5f), tf.constant(6f)) }
            val array = scope { arrayOf(tf.constant(7f)) }
            val dropped = scope { tf.constant(8f); 9 }
            assertEquals(9, dropped)
            val kept = listOf(p, q, r, t) + list + array
            assertEquals(listOf(1f, 2f, 3f, 4f, 5f, 6f, 7f), kept.map { it.asTensor().getFloat() })
            assertEquals("not an operand", s)
            assertEquals(7, session.stats().liveTensors())
        }
    }

    @Test
    fun scopeFreesEverythingWhenTheBlockThrows() {
        session {
            var made: Operand<TFloat32>? = null
            assertThrows<IllegalStateException> {
                scope {
                    made = tf.constant(1f)
                    error("from the block")
                }
            }
            val e = assertThrows<IllegalStateException> { made!!.asTensor() }
            assertTrue(e.message!!.contains("Const"), e.message)
            assertEquals(0, session.stats().liveTensors())
        }
    }

    @Test
    fun nestedScopesKeepIntoTheEnclosingOne() {
        session(closeOnly()) {
            val outerResult = scope { outer: EagerScope ->
                val inner = scope { tf.constant(1f) + tf.constant(2f) }
                assertFalse(outer.toString().isEmpty())
                inner * 10f
            }
            assertEquals(30f, outerResult.asTensor().getFloat())
            assertEquals(1, session.stats().liveTensors())
        }
    }

    @Test
    fun theBlocksScopeKeepsMoreOnRequest() {
        session {
            var side: Operand<TFloat32>? = null
            val result = scope {
                side = it.keep(tf.constant(1f))
                tf.constant(2f)
            }
            assertEquals(3f, (side!! + result).asTensor().getFloat())
        }
    }

    @Test
    fun blocksAreInlineSoReturnsAndAssignmentsWork() {
        val found: Float
        session {
            found = scope { tf.constant(4f).asTensor().getFloat() }
        }
        assertEquals(4f, found)
        assertNull(firstNegative(floatArrayOf(1f, 2f)))
        assertEquals(1, firstNegative(floatArrayOf(1f, -2f)))
    }

    private fun firstNegative(values: FloatArray): Int? {
        session {
            val negative = (tf.constant(values) lt 0f).toBooleanArray()
            scope {
                negative.forEachIndexed { i, n -> if (n) return i }
            }
        }
        return null
    }

    @Test
    fun opsAndSessionsOpenScopesToo() {
        closeOnly().build().use { s ->
            val tf = Ops.create(s)
            val x = tf.scope { tf.constant(2f) * tf.constant(3f) }
            val y = s.scope { x + 1f }
            assertEquals(7f, y.asTensor().getFloat())
            assertEquals(2, s.stats().liveTensors())
        }
    }
}
