package io.eagerflow.kotlin

import io.eagerflow.Operand
import io.eagerflow.types.TBool
import io.eagerflow.types.TFloat32
import io.eagerflow.types.TFloat64
import io.eagerflow.types.TInt32
import io.eagerflow.types.TInt64

// Operators between an operand and a Kotlin number of its element type: x * 2f, 1.0 - p, n lt 10.
// The number becomes a scalar constant in the operand's session (a tensor like any other: a scope
// frees it, or the cleanup strategy does), which broadcasts over the operand. One overload per
// element type, so a number of another type does not compile (x * 2 for a TFloat32 operand: write
// 2f), as Kotlin refuses to assign an Int to a Float.

// ---- TFloat32 with Float ----

/** Element-wise `this + y`. */
operator fun Operand<TFloat32>.plus(y: Float): Operand<TFloat32> = this + ops().constant(y)

/** Element-wise `this + y`. */
operator fun Float.plus(y: Operand<TFloat32>): Operand<TFloat32> = y.ops().constant(this) + y

/** Element-wise `this - y`. */
operator fun Operand<TFloat32>.minus(y: Float): Operand<TFloat32> = this - ops().constant(y)

/** Element-wise `this - y`. */
operator fun Float.minus(y: Operand<TFloat32>): Operand<TFloat32> = y.ops().constant(this) - y

/** Element-wise `this * y`. */
operator fun Operand<TFloat32>.times(y: Float): Operand<TFloat32> = this * ops().constant(y)

/** Element-wise `this * y`. */
operator fun Float.times(y: Operand<TFloat32>): Operand<TFloat32> = y.ops().constant(this) * y

/** Element-wise `this / y`. */
operator fun Operand<TFloat32>.div(y: Float): Operand<TFloat32> = this / ops().constant(y)

/** Element-wise `this / y`. */
operator fun Float.div(y: Operand<TFloat32>): Operand<TFloat32> = y.ops().constant(this) / y

/** Element-wise `this < y`. */
infix fun Operand<TFloat32>.lt(y: Float): Operand<TBool> = this lt ops().constant(y)

/** Element-wise `this <= y`. */
infix fun Operand<TFloat32>.le(y: Float): Operand<TBool> = this le ops().constant(y)

/** Element-wise `this > y`. */
infix fun Operand<TFloat32>.gt(y: Float): Operand<TBool> = this gt ops().constant(y)

/** Element-wise `this >= y`. */
infix fun Operand<TFloat32>.ge(y: Float): Operand<TBool> = this ge ops().constant(y)

/** Element-wise `this == y`. */
infix fun Operand<TFloat32>.eq(y: Float): Operand<TBool> = this eq ops().constant(y)

/** Element-wise `this != y`. */
infix fun Operand<TFloat32>.ne(y: Float): Operand<TBool> = this ne ops().constant(y)

// ---- TFloat64 with Double ----

/** Element-wise `this + y`. */
operator fun Operand<TFloat64>.plus(y: Double): Operand<TFloat64> = this + ops().constant(y)

/** Element-wise `this + y`. */
operator fun Double.plus(y: Operand<TFloat64>): Operand<TFloat64> = y.ops().constant(this) + y

/** Element-wise `this - y`. */
operator fun Operand<TFloat64>.minus(y: Double): Operand<TFloat64> = this - ops().constant(y)

/** Element-wise `this - y`. */
operator fun Double.minus(y: Operand<TFloat64>): Operand<TFloat64> = y.ops().constant(this) - y

/** Element-wise `this * y`. */
operator fun Operand<TFloat64>.times(y: Double): Operand<TFloat64> = this * ops().constant(y)

/** Element-wise `this * y`. */
operator fun Double.times(y: Operand<TFloat64>): Operand<TFloat64> = y.ops().constant(this) * y

/** Element-wise `this / y`. */
operator fun Operand<TFloat64>.div(y: Double): Operand<TFloat64> = this / ops().constant(y)

/** Element-wise `this / y`. */
operator fun Double.div(y: Operand<TFloat64>): Operand<TFloat64> = y.ops().constant(this) / y

/** Element-wise `this < y`. */
infix fun Operand<TFloat64>.lt(y: Double): Operand<TBool> = this lt ops().constant(y)

/** Element-wise `this <= y`. */
infix fun Operand<TFloat64>.le(y: Double): Operand<TBool> = this le ops().constant(y)

/** Element-wise `this > y`. */
infix fun Operand<TFloat64>.gt(y: Double): Operand<TBool> = this gt ops().constant(y)

/** Element-wise `this >= y`. */
infix fun Operand<TFloat64>.ge(y: Double): Operand<TBool> = this ge ops().constant(y)

/** Element-wise `this == y`. */
infix fun Operand<TFloat64>.eq(y: Double): Operand<TBool> = this eq ops().constant(y)

/** Element-wise `this != y`. */
infix fun Operand<TFloat64>.ne(y: Double): Operand<TBool> = this ne ops().constant(y)

// ---- TInt32 with Int ----

/** Element-wise `this + y`. */
operator fun Operand<TInt32>.plus(y: Int): Operand<TInt32> = this + ops().constant(y)

/** Element-wise `this + y`. */
operator fun Int.plus(y: Operand<TInt32>): Operand<TInt32> = y.ops().constant(this) + y

/** Element-wise `this - y`. */
operator fun Operand<TInt32>.minus(y: Int): Operand<TInt32> = this - ops().constant(y)

/** Element-wise `this - y`. */
operator fun Int.minus(y: Operand<TInt32>): Operand<TInt32> = y.ops().constant(this) - y

/** Element-wise `this * y`. */
operator fun Operand<TInt32>.times(y: Int): Operand<TInt32> = this * ops().constant(y)

/** Element-wise `this * y`. */
operator fun Int.times(y: Operand<TInt32>): Operand<TInt32> = y.ops().constant(this) * y

/** Element-wise `this / y`. */
operator fun Operand<TInt32>.div(y: Int): Operand<TInt32> = this / ops().constant(y)

/** Element-wise `this / y`. */
operator fun Int.div(y: Operand<TInt32>): Operand<TInt32> = y.ops().constant(this) / y

/** Element-wise `this < y`. */
infix fun Operand<TInt32>.lt(y: Int): Operand<TBool> = this lt ops().constant(y)

/** Element-wise `this <= y`. */
infix fun Operand<TInt32>.le(y: Int): Operand<TBool> = this le ops().constant(y)

/** Element-wise `this > y`. */
infix fun Operand<TInt32>.gt(y: Int): Operand<TBool> = this gt ops().constant(y)

/** Element-wise `this >= y`. */
infix fun Operand<TInt32>.ge(y: Int): Operand<TBool> = this ge ops().constant(y)

/** Element-wise `this == y`. */
infix fun Operand<TInt32>.eq(y: Int): Operand<TBool> = this eq ops().constant(y)

/** Element-wise `this != y`. */
infix fun Operand<TInt32>.ne(y: Int): Operand<TBool> = this ne ops().constant(y)

// ---- TInt64 with Long ----

/** Element-wise `this + y`. */
operator fun Operand<TInt64>.plus(y: Long): Operand<TInt64> = this + ops().constant(y)

/** Element-wise `this + y`. */
operator fun Long.plus(y: Operand<TInt64>): Operand<TInt64> = y.ops().constant(this) + y

/** Element-wise `this - y`. */
operator fun Operand<TInt64>.minus(y: Long): Operand<TInt64> = this - ops().constant(y)

/** Element-wise `this - y`. */
operator fun Long.minus(y: Operand<TInt64>): Operand<TInt64> = y.ops().constant(this) - y

/** Element-wise `this * y`. */
operator fun Operand<TInt64>.times(y: Long): Operand<TInt64> = this * ops().constant(y)

/** Element-wise `this * y`. */
operator fun Long.times(y: Operand<TInt64>): Operand<TInt64> = y.ops().constant(this) * y

/** Element-wise `this / y`. */
operator fun Operand<TInt64>.div(y: Long): Operand<TInt64> = this / ops().constant(y)

/** Element-wise `this / y`. */
operator fun Long.div(y: Operand<TInt64>): Operand<TInt64> = y.ops().constant(this) / y

/** Element-wise `this < y`. */
infix fun Operand<TInt64>.lt(y: Long): Operand<TBool> = this lt ops().constant(y)

/** Element-wise `this <= y`. */
infix fun Operand<TInt64>.le(y: Long): Operand<TBool> = this le ops().constant(y)

/** Element-wise `this > y`. */
infix fun Operand<TInt64>.gt(y: Long): Operand<TBool> = this gt ops().constant(y)

/** Element-wise `this >= y`. */
infix fun Operand<TInt64>.ge(y: Long): Operand<TBool> = this ge ops().constant(y)

/** Element-wise `this == y`. */
infix fun Operand<TInt64>.eq(y: Long): Operand<TBool> = this eq ops().constant(y)

/** Element-wise `this != y`. */
infix fun Operand<TInt64>.ne(y: Long): Operand<TBool> = this ne ops().constant(y)
