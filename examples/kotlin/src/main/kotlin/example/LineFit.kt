package example

import io.eagerflow.EagerSession
import io.eagerflow.Operand
import io.eagerflow.kotlin.get
import io.eagerflow.kotlin.lt
import io.eagerflow.kotlin.minus
import io.eagerflow.kotlin.plus
import io.eagerflow.kotlin.rank
import io.eagerflow.kotlin.session
import io.eagerflow.kotlin.shape
import io.eagerflow.kotlin.times
import io.eagerflow.kotlin.toBooleanArray
import io.eagerflow.kotlin.toFloatArray
import io.eagerflow.types.TFloat32
import java.util.SplittableRandom
import kotlin.math.abs
import kotlin.system.exitProcess

// A consumer of the published io.eagerflow:eagerflow-kotlin, built by Maven (kotlin-maven-plugin):
// fits a line y = slope * x + intercept to noisy points by gradient descent on the mean squared
// error, each step in a scope { } that keeps the new parameters and frees every temporary, then
// checks the fit against the least-squares solution computed in plain Kotlin. Exits with status 1
// when a check fails.

private const val POINTS = 1000
private const val STEPS = 200
private const val RATE = 0.5f
private const val TOLERANCE = 1e-3

/** A fitted line, what the fit left live, and how many points lie below the line. */
class Fit(val slope: Float, val intercept: Float, val leftLive: Long, val below: Int)

/** Points with x uniform in [-1, 1) and y = 3 x - 2 plus normal noise of deviation 0.1. */
fun sample(n: Int, seed: Long): Pair<FloatArray, FloatArray> {
    val random = SplittableRandom(seed)
    val xs = FloatArray(n) { (2 * random.nextDouble() - 1).toFloat() }
    val ys = FloatArray(n) { (3 * xs[it] - 2 + 0.1 * random.nextGaussian()).toFloat() }
    return xs to ys
}

/** The fit by gradient descent, with eagerflow's Kotlin operators. */
fun fit(xs: FloatArray, ys: FloatArray): Fit {
    // Nothing is freed but by scopes and release, so the count of live tensors shows the scopes'.
    val options =
        EagerSession.options()
            .resourceCleanupStrategy(EagerSession.ResourceCleanupStrategy.ON_SESSION_CLOSE)
    return session(options) {
        val x = tf.constant(xs)
        val y = tf.constant(ys)
        check(x.shape.get(0) == xs.size.toLong() && x[0].rank == 0) { "x has shape ${x.shape}" }
        val axis = tf.constant(0)
        var slope: Operand<TFloat32> = tf.constant(0f)
        var intercept: Operand<TFloat32> = tf.constant(0f)
        val live = session.stats().liveTensors()
        repeat(STEPS) {
            val (nextSlope, nextIntercept) =
                scope {
                    val residual = slope * x + intercept - y
                    val slopeGradient = tf.math.mean(residual * x, axis) * 2f
                    val interceptGradient = tf.math.mean(residual, axis) * 2f
                    Pair(slope - slopeGradient * RATE, intercept - interceptGradient * RATE)
                }
            session.release(slope, intercept)
            slope = nextSlope
            intercept = nextIntercept
        }
        val leftLive = session.stats().liveTensors() - live
        val below = (y lt slope * x + intercept).toBooleanArray().count { it }
        Fit(slope.toFloatArray()[0], intercept.toFloatArray()[0], leftLive, below)
    }
}

fun main() {
    val (xs, ys) = sample(POINTS, 7)
    val fit = fit(xs, ys)

    // Least squares in plain Kotlin, in double precision.
    val meanX = xs.average()
    val meanY = ys.average()
    var covariance = 0.0
    var variance = 0.0
    for (i in xs.indices) {
        covariance += (xs[i] - meanX) * (ys[i] - meanY)
        variance += (xs[i] - meanX) * (xs[i] - meanX)
    }
    val slope = covariance / variance
    val intercept = meanY - slope * meanX
    // The same float arithmetic as the ops (a multiply, then an add), so the count is exact.
    val below = xs.indices.count { ys[it] < fit.slope * xs[it] + fit.intercept }

    println(
        "eagerflow from Kotlin: fitted y = %.4f x %+.4f in %d steps; least squares %.4f x %+.4f;"
            .format(fit.slope, fit.intercept, STEPS, slope, intercept) +
            " %d of %d points below the line; %d tensors left live by the steps"
                .format(fit.below, POINTS, fit.leftLive)
    )
    val failures = buildList {
        if (!(abs(fit.slope - slope) <= TOLERANCE)) add("slope ${fit.slope}, least squares $slope")
        if (!(abs(fit.intercept - intercept) <= TOLERANCE)) {
            add("intercept ${fit.intercept}, least squares $intercept")
        }
        if (fit.below != below) add("${fit.below} points below the line, plain Kotlin counts $below")
        if (fit.leftLive != 0L) add("the scopes left ${fit.leftLive} tensors live")
    }
    if (failures.isNotEmpty()) {
        failures.forEach { System.err.println("check failed: $it") }
        exitProcess(1)
    }
}
