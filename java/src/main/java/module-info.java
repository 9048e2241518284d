/**
 * eagerflow: an eager tensor runtime with TensorFlow Java's eager API.
 *
 * <p>Only {@code io.eagerflow}, {@code io.eagerflow.op}, {@code io.eagerflow.types} and {@code
 * io.eagerflow.exceptions} are API. {@code io.eagerflow.internal} holds the JNI boundary and the
 * session machinery; it is exported only to the project's own add-on modules that need it (the
 * JUnit extension's leak audit), so on the module path no other module can call it. The module
 * calls {@code System.load}: on JDK 22 and later run with {@code
 * --enable-native-access=io.eagerflow}.
 */
// "module not found": the add-on modules named by qualified exports are built after this one.
@SuppressWarnings("module")
module io.eagerflow {
  // GC notifications and the DisableExplicitGC flag (com.sun.management), for GC pacing.
  requires jdk.management;
  // JDK Flight Recorder events (io.eagerflow.*, see docs/observability.md).
  requires jdk.jfr;
  // Tensors are NdArrays and shapes are ndarray Shapes: users of this module read that one too.
  requires transitive org.tensorflow.ndarray;
  // @NullMarked and @Nullable in the API: read by compilers (Kotlin, nullness checkers), not needed
  // at run time.
  requires static org.jspecify;

  exports io.eagerflow;
  exports io.eagerflow.op;
  exports io.eagerflow.types;
  exports io.eagerflow.exceptions;
  // Qualified: eagerflow-junit reads LeakAudit; never opened, never exported to everyone.
  exports io.eagerflow.internal to
      io.eagerflow.junit;
}
