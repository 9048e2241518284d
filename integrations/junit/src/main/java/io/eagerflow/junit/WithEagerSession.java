package io.eagerflow.junit;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Registers {@link EagerSessionExtension} and says how it builds the sessions it injects into
 * {@code @Test} methods and lifecycle methods of the annotated class (or into the annotated method,
 * which overrides its class). An {@link EagerTest} invocation uses its own strategy, mode and
 * strictness instead.
 *
 * <pre>{@code
 * @WithEagerSession(strategy = ResourceCleanupStrategy.ON_SAFE_POINTS, strict = true)
 * class MyModelTest {
 *   @Test
 *   void adds(Ops tf, EagerSession session) { ... }
 * }
 * }</pre>
 */
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(EagerSessionExtension.class)
@ResourceLock(EagerSessionExtension.NATIVE_MEMORY)
public @interface WithEagerSession {
  /** The injected session's cleanup strategy. */
  ResourceCleanupStrategy strategy() default ResourceCleanupStrategy.IN_BACKGROUND;

  /** Whether the injected session is asynchronous ({@code EagerSession.Options.async}). */
  boolean async() default false;

  /**
   * Also fails a test when an op output of its sessions was freed by the cleanup strategy or when
   * its session closed, rather than by {@code EagerSession.release} or an {@code EagerScope}, and
   * names where each was created. The injected session then tracks leaks ({@code
   * EagerSession.Options.trackLeaks}), which costs a stack capture per op; sessions the test builds
   * itself are checked if they track leaks.
   */
  boolean strict() default false;
}
