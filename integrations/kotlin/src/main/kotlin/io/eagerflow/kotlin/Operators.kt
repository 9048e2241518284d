package io.eagerflow.kotlin

import io.eagerflow.Operand
import io.eagerflow.op.MatMul
import io.eagerflow.op.Ops
import io.eagerflow.types.TBool
import io.eagerflow.types.TType

// Operators on operands. Each runs one op in the session of its left operand (Operand.env()), as
// tf.math.add and the like would; both operands must belong to that session, have the same element
// type and broadcast (NumPy rules), or the op throws IllegalArgumentException naming both.
// Kotlin's comparison operators must return Int (compareTo) and == must return Boolean, so the
// element-wise comparisons, which make a TBool tensor, are infix functions: a lt b, a eq b.

/** The ops of this operand's session: operators run there. */
@PublishedApi
internal fun Operand<*>.ops(): Ops = Ops.create(env())

/** Element-wise `this + other` [`AddV2`]. */
operator fun <T : TType> Operand<T>.plus(other: Operand<T>): Operand<T> = ops().math.add(this, other)

/** Element-wise `this - other` [`Sub`]. */
operator fun <T : TType> Operand<T>.minus(other: Operand<T>): Operand<T> =
    ops().math.sub(this, other)

/** Element-wise `this * other` [`Mul`]. */
operator fun <T : TType> Operand<T>.times(other: Operand<T>): Operand<T> =
    ops().math.mul(this, other)

/**
 * Element-wise `this / other` [`RealDiv`]; integers divide truncating toward zero, as Kotlin's `/`
 * on `Int` does.
 */
operator fun <T : TType> Operand<T>.div(other: Operand<T>): Operand<T> = ops().math.div(this, other)

/** Element-wise `-this` [`Neg`]. */
operator fun <T : TType> Operand<T>.unaryMinus(): Operand<T> = ops().math.neg(this)

/** The matrix product `this × other` [`MatMul`], with the options of `tf.linalg.matMul`. */
fun <T : TType> Operand<T>.matMul(other: Operand<T>, vararg options: MatMul.Options): Operand<T> =
    ops().linalg.matMul(this, other, *options)

/** The matrix product `this × other` [`MatMul`]: `x matMul w`. */
infix fun <T : TType> Operand<T>.matMul(other: Operand<T>): Operand<T> =
    ops().linalg.matMul(this, other)

/** Element-wise `this < other` [`Less`]. */
infix fun <T : TType> Operand<T>.lt(other: Operand<T>): Operand<TBool> =
    ops().math.less(this, other)

/** Element-wise `this <= other` [`LessEqual`]. */
infix fun <T : TType> Operand<T>.le(other: Operand<T>): Operand<TBool> =
    ops().math.lessEqual(this, other)

/** Element-wise `this > other` [`Greater`]. */
infix fun <T : TType> Operand<T>.gt(other: Operand<T>): Operand<TBool> =
    ops().math.greater(this, other)

/** Element-wise `this >= other` [`GreaterEqual`]. */
infix fun <T : TType> Operand<T>.ge(other: Operand<T>): Operand<TBool> =
    ops().math.greaterEqual(this, other)

/** Element-wise `this == other` [`Equal`]; strings compare too. */
infix fun <T : TType> Operand<T>.eq(other: Operand<T>): Operand<TBool> =
    ops().math.equal(this, other)

/** Element-wise `this != other` [`NotEqual`]; strings compare too. */
infix fun <T : TType> Operand<T>.ne(other: Operand<T>): Operand<TBool> =
    ops().math.notEqual(this, other)

/** Element-wise `this && other` [`LogicalAnd`]. */
infix fun Operand<TBool>.and(other: Operand<TBool>): Operand<TBool> =
    ops().math.logicalAnd(this, other)

/** Element-wise `this || other` [`LogicalOr`]. */
infix fun Operand<TBool>.or(other: Operand<TBool>): Operand<TBool> =
    ops().math.logicalOr(this, other)

/** Element-wise `!this` [`LogicalNot`]. */
operator fun Operand<TBool>.not(): Operand<TBool> = ops().math.logicalNot(this)
