package io.eagerflow.kotlin

import io.eagerflow.DataType
import io.eagerflow.Operand
import io.eagerflow.Tensor
import org.tensorflow.ndarray.Shape
import org.tensorflow.ndarray.Shaped

// Java's shape() and dataType() are not getters by JavaBeans rules (no "get"), so Kotlin shows
// them as functions; these make them properties, for operands, tensors and every ndarray.

/** The shape of the operand's value; throws IllegalStateException once it was freed. */
val Operand<*>.shape: Shape
    get() = shape()

/** The element type of the operand's value; throws IllegalStateException once it was freed. */
val Operand<*>.dataType: DataType
    get() = dataType()

/** The number of dimensions of the operand's value (0 for a scalar). */
val Operand<*>.rank: Int
    get() = shape().numDimensions()

/** The shape of a tensor or of any ndarray. */
val Shaped.shape: Shape
    get() = shape()

/** The number of dimensions of a tensor or of any ndarray (0 for a scalar). */
val Shaped.rank: Int
    get() = shape().numDimensions()

/** The element type of the tensor. */
val Tensor.dataType: DataType
    get() = dataType()
