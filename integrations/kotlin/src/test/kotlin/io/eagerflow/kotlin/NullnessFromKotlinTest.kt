package io.eagerflow.kotlin

import java.nio.file.Files
import java.nio.file.Path
import org.jetbrains.kotlin.cli.common.ExitCode
import org.jetbrains.kotlin.cli.common.arguments.K2JVMCompilerArguments
import org.jetbrains.kotlin.cli.common.messages.CompilerMessageSeverity
import org.jetbrains.kotlin.cli.common.messages.CompilerMessageSourceLocation
import org.jetbrains.kotlin.cli.common.messages.MessageCollector
import org.jetbrains.kotlin.cli.jvm.K2JVMCompiler
import org.jetbrains.kotlin.config.Services
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir

/**
 * What Kotlin callers see of the Java API's JSpecify annotations (@NullMarked packages), checked by
 * compiling snippets with the Kotlin compiler, default settings, against the library as users get
 * it: non-null types where the API is annotated (null arguments do not compile, results need no
 * null checks), nullable where it says @Nullable, and platform types (T!) only in what the typed
 * tensors inherit from ndarray's interfaces, which carry no annotations.
 *
 * Each snippet marks the lines where a diagnostic is expected with a comment naming it; the test
 * compares those lines with the lines the compiler reports.
 */
class NullnessFromKotlinTest {
    @TempDir lateinit var dir: Path

    private class Diagnostic(val severity: CompilerMessageSeverity, val line: Int, val message: String) {
        override fun toString() = "$severity at line $line: $message"
    }

    private class Compilation(val exitCode: ExitCode, val diagnostics: List<Diagnostic>) {
        fun lines(severity: CompilerMessageSeverity, text: String): Set<Int> =
            diagnostics.filter { it.severity == severity && it.message.contains(text) }.map { it.line }.toSet()

        override fun toString() = "exit $exitCode\n" + diagnostics.joinToString("\n")
    }

    private fun compile(source: String): Compilation {
        val file = dir.resolve("Snippet.kt")
        Files.writeString(file, source)
        val diagnostics = mutableListOf<Diagnostic>()
        val collector = object : MessageCollector {
            override fun clear() = diagnostics.clear()

            override fun hasErrors() = diagnostics.any { it.severity.isError }

            override fun report(
                severity: CompilerMessageSeverity,
                message: String,
                location: CompilerMessageSourceLocation?,
            ) {
                if (severity.isError || severity.isWarning) {
                    diagnostics += Diagnostic(severity, location?.line ?: -1, message)
                }
            }
        }
        val arguments = K2JVMCompilerArguments().apply {
            freeArgs = listOf(file.toString())
            destination = dir.resolve("classes").toString()
            classpath = System.getProperty(CLASSPATH_PROPERTY)
                ?: error("set $CLASSPATH_PROPERTY to the class path a Kotlin user compiles against")
            noStdlib = true
            noReflect = true
            jvmTarget = "17"
            moduleName = "snippet"
        }
        val exitCode = K2JVMCompiler().exec(collector, Services.EMPTY, arguments)
        return Compilation(exitCode, diagnostics)
    }

    /** The 1-based numbers of the lines of [source] that end with `// expect: <what>`. */
    private fun expected(source: String, what: String): Set<Int> =
        source.lines().withIndex().filter { it.value.trimEnd().endsWith("// expect: $what") }
            .map { it.index + 1 }.toSet()

    @Test
    fun annotatedResultsAreNotNullAndUnannotatedNdarrayOnesArePlatformTypes() {
        val source = """
            import io.eagerflow.EagerSession
            import io.eagerflow.Operand
            import io.eagerflow.OperationBuilder
            import io.eagerflow.op.Ops
            import io.eagerflow.types.TFloat32
            import org.tensorflow.ndarray.FloatNdArray
            import org.tensorflow.ndarray.index.Indices

            fun use() {
                val s: EagerSession = EagerSession.create()
                val builder: OperationBuilder = s.opBuilder("AddV2", null) // a nullable parameter
                builder?.build() // expect: unnecessary safe call
                val tf = Ops.create(s)
                tf?.math // expect: unnecessary safe call
                val x: Operand<TFloat32> = tf.constant(1f)
                x.asTensor()?.getFloat() // expect: unnecessary safe call
                x.op().name()?.length // expect: unnecessary safe call
                val t: TFloat32 = x.asTensor()
                // Inherited from FloatNdArray, which has no annotations: a platform type, so
                // neither a safe call nor a nullable variable draws a warning.
                t.slice(Indices.all())?.size()
                val maybe: FloatNdArray? = t.slice(Indices.all())
                maybe?.size()
                s.close()
            }
        """.trimIndent()
        val result = compile(source)
        assertEquals(ExitCode.OK, result.exitCode, result.toString())
        assertEquals(expected(source, "unnecessary safe call"), result.lines(CompilerMessageSeverity.WARNING, "afe call"), result.toString())
        assertEquals(emptySet<Int>(), result.lines(CompilerMessageSeverity.ERROR, ""), result.toString())
    }

    @Test
    fun nullsWhereTheApiTakesNoneDoNotCompile() {
        val source = """
            import io.eagerflow.EagerSession
            import io.eagerflow.Operand
            import io.eagerflow.op.Ops
            import io.eagerflow.types.TFloat32
            import io.eagerflow.types.TType

            fun nulls(s: EagerSession, tf: Ops, x: Operand<TFloat32>, maybe: FloatArray?) {
                s.opBuilder(null, "name") // expect: error
                Ops.create(null) // expect: error
                tf.math.add(x, null) // expect: error
                tf.constant(maybe) // expect: error
                s.newScope().keep<Operand<TFloat32>>(null) // expect: error
                val none: Array<Operand<out TType>?> = arrayOf(null)
                s.release(*none) // expect: error
                s.opBuilder("AddV2", null).addInput(x.asOutput()).build() // the nullable name
                val y: Float = x.asTensor().getFloat(0L)
            }
        """.trimIndent()
        val result = compile(source)
        assertEquals(ExitCode.COMPILATION_ERROR, result.exitCode, result.toString())
        assertEquals(expected(source, "error"), result.lines(CompilerMessageSeverity.ERROR, ""), result.toString())
    }

    private companion object {
        const val CLASSPATH_PROPERTY = "eagerflow.kotlin.snippetClasspath"
    }
}
