@file:OptIn(ExperimentalContracts::class)

package io.eagerflow.kotlin

import io.eagerflow.EagerScope
import io.eagerflow.EagerSession
import io.eagerflow.Operand
import io.eagerflow.op.Ops
import kotlin.contracts.ExperimentalContracts
import kotlin.contracts.InvocationKind
import kotlin.contracts.contract

// Blocks with a lifetime. session { } owns a session for the length of its block; scope { } frees
// every tensor its block creates when the block ends, except what the block returns, which it keeps
// (EagerScope.keep: to the enclosing scope, or to the session and its cleanup strategy). Both are
// inline: return, break and continue in the block work as in any Kotlin block, and the block may
// assign vals declared outside it. EagerSession, EagerScope and tensors are AutoCloseable, so the
// standard library's use { } works on each of them as well.

/** What a [session] block runs with: its session and the ops that run in it. */
class SessionBlock @PublishedApi internal constructor(
    /** The block's session, closed when the block ends. */
    val session: EagerSession
) {
    /** Ops that run in [session]. */
    val tf: Ops = Ops.create(session)

    /** [EagerSession.scope] on this block's session. */
    inline fun <R> scope(block: (EagerScope) -> R): R {
        contract { callsInPlace(block, InvocationKind.EXACTLY_ONCE) }
        return session.scope(block)
    }
}

/**
 * Runs [block] in a new session built from [options] and closes the session when the block ends,
 * however it ends; returns what the block returns. Closing frees every tensor of the session, so
 * the block returns values read from them (`toFloatArray()`, `asTensor().getFloat()`, ...), not
 * operands: a result that is or holds an operand (as [scope] would keep it) throws
 * [IllegalStateException], since any use of it would.
 *
 * ```
 * val y = session { (tf.constant(floatArrayOf(1f, 2f)) * 2f).toFloatArray() } // [2.0, 4.0]
 * ```
 */
inline fun <R> session(
    options: EagerSession.Options = EagerSession.options(),
    block: SessionBlock.() -> R,
): R {
    contract { callsInPlace(block, InvocationKind.EXACTLY_ONCE) }
    val result = options.build().use { SessionBlock(it).block() }
    checkNoOperands(result)
    return result
}

/**
 * Runs [block] in a new [EagerScope] of this session, closes the scope when the block ends (freeing
 * every tensor the block created on this thread and session), and returns what the block returns,
 * kept out of the scope: the result itself if it is an operand, else each operand that is a
 * component of a [Pair] or [Triple] or an element of a [Collection] or [Array] result. The block
 * may keep more with [EagerScope.keep] on its argument.
 *
 * ```
 * w = session.scope { w - grad(w) * 0.1f } // every temporary freed, the new w kept
 * ```
 *
 * @throws IllegalStateException as [EagerScope.keep] and [EagerScope.close] do (a result freed by
 *   `release`, a scope opened in the block and left open)
 */
inline fun <R> EagerSession.scope(block: (EagerScope) -> R): R {
    contract { callsInPlace(block, InvocationKind.EXACTLY_ONCE) }
    return newScope().use { scope -> keepResult(scope, block(scope)) }
}

/** [EagerSession.scope] on the session these ops run in. */
inline fun <R> Ops.scope(block: (EagerScope) -> R): R {
    contract { callsInPlace(block, InvocationKind.EXACTLY_ONCE) }
    return session().scope(block)
}

/** The operands that a block's result is or holds, by the rules of [scope]. */
private fun operandsIn(result: Any?): List<Operand<*>> =
    when (result) {
        is Operand<*> -> listOf(result)
        is Pair<*, *> -> listOf(result.first, result.second).filterIsInstance<Operand<*>>()
        is Triple<*, *, *> ->
            listOf(result.first, result.second, result.third).filterIsInstance<Operand<*>>()
        is Collection<*> -> result.filterIsInstance<Operand<*>>()
        is Array<*> -> result.filterIsInstance<Operand<*>>()
        else -> emptyList()
    }

@PublishedApi
internal fun <R> keepResult(scope: EagerScope, result: R): R {
    for (operand in operandsIn(result)) {
        scope.keep(operand)
    }
    return result
}

@PublishedApi
internal fun checkNoOperands(result: Any?) {
    val operands = operandsIn(result)
    check(operands.isEmpty()) {
        "session { } returned ${operands.first()}, freed with its session when the block ended: " +
            "return values read from it (such as toFloatArray()), or use scope { } in a session " +
            "that outlives it"
    }
}
