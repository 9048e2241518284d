package io.eagerflow.kotlin

import io.eagerflow.EagerSession
import io.eagerflow.op.Ops
import io.eagerflow.types.TFloat32
import io.eagerflow.types.TInt32
import io.eagerflow.types.TString
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.tensorflow.ndarray.FloatNdArray
import org.tensorflow.ndarray.Shape
import org.tensorflow.ndarray.index.Indices

class IndexingTest {
    private val session = EagerSession.create()
    private val tf = Ops.create(session)

    @AfterEach
    fun close() {
        session.close()
    }

    // 2 x 3: [[0, 1, 2], [10, 11, 12]]
    private val m get() = tf.constant(arrayOf(intArrayOf(0, 1, 2), intArrayOf(10, 11, 12)))

    @Test
    fun intIndicesOfAnOperandDropTheirDimensions() {
        val row = m[1]
        assertEquals(Shape.of(3), row.shape)
        assertArrayEquals(intArrayOf(10, 11, 12), row.toIntArray())
        val element = m[1, 2]
        assertEquals(0, element.rank)
        assertArrayEquals(intArrayOf(12), element.toIntArray())
        assertEquals("StridedSlice", element.op().type())
        val i = 0
        val j = 1
        assertArrayEquals(intArrayOf(1), m[i, j].toIntArray())
    }

    @Test
    fun negativeIndicesCountFromTheEnd() {
        assertArrayEquals(intArrayOf(10, 11, 12), m[-1].toIntArray())
        assertArrayEquals(intArrayOf(11), m[-1, -2].toIntArray())
        assertArrayEquals(intArrayOf(2), m[0, -1].toIntArray())
    }

    @Test
    fun ndarrayIndicesSelectSlices() {
        val column = m[Indices.all(), Indices.at(1)]
        assertEquals(Shape.of(2), column.shape)
        assertArrayEquals(intArrayOf(1, 11), column.toIntArray())
        val block = m[Indices.all(), Indices.range(1, 3)]
        assertEquals(Shape.of(2, 2), block.shape)
        assertArrayEquals(intArrayOf(1, 2, 11, 12), block.toIntArray())
        assertArrayEquals(intArrayOf(2, 1, 0), m[Indices.at(0), Indices.flip()].toIntArray())
        assertArrayEquals(intArrayOf(0, 2, 10, 12), m[Indices.all(), Indices.even()].toIntArray())
        assertArrayEquals(intArrayOf(1, 2, 11, 12), m[Indices.all(), Indices.sliceFrom(1)].toIntArray())
        assertEquals(Shape.of(2, 1, 3), m[Indices.all(), Indices.newAxis()].shape)
        assertEquals(Shape.of(2), m[Indices.ellipsis(), Indices.at(0)].shape)
        assertEquals(Shape.of(1, 3), m[Indices.at(1, true)].shape)
    }

    @Test
    fun indicesThatAreNoStridedSliceAreRefused() {
        val e = assertThrows<IllegalArgumentException> { m[Indices.seq(0, 1)] }
        assertTrue(e.message!!.contains("index 0"), e.message)
    }

    @Test
    fun outOfRangeIndicesThrowFromTheOp() {
        val e = assertThrows<IllegalArgumentException> { m[2] }
        assertTrue(e.message!!.contains("StridedSlice"), e.message)
    }

    @Test
    fun tensorIndexingIsNdarraysGetForLiteralsAndIntsAlike() {
        val t: TFloat32 = tensorOf(Shape.of(2, 2))
        t.use {
            t[0, 1] = 5f
            val i = 1
            val j = 0
            t[i, j] = 7f
            t[1L, 1L] = 9f
            val literal: FloatNdArray = t[0, 1] // ndarray's own get(long...)
            val fromInts: FloatNdArray = t[i, j] // the Int extension, same meaning
            assertEquals(5f, literal.getFloat())
            assertEquals(7f, fromInts.getFloat())
            assertArrayEquals(floatArrayOf(7f, 9f), t[i].toFloats())
            assertArrayEquals(floatArrayOf(0f, 5f, 7f, 9f), t.toArray())
        }
    }

    @Test
    fun typedTensorsOfEveryKindIndexWithInts() {
        val i = 1
        tensorOf<TInt32>(Shape.of(2)).use { t ->
            t[i] = 4
            assertEquals(4, t[i].getInt())
        }
        val words = TString.vectorOf("x", "y")
        assertEquals("y", words[i].getObject())
        val read = tf.constant(floatArrayOf(1f, 2f)).asTensor()
        assertEquals(2f, read[i].getFloat())
    }

    private fun FloatNdArray.toFloats(): FloatArray = FloatArray(size().toInt()) { getFloat(it.toLong()) }
}
