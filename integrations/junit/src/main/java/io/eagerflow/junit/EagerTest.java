package io.eagerflow.junit;

import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A test template run once per combination of {@link #strategies()} and {@link #async()}, each
 * invocation with its own session built that way and injected, like {@code @RepeatedTest} and
 * {@code @ParameterizedTest} run theirs. Parameters of type {@code EagerSession} and {@code Ops}
 * are resolved by {@link EagerSessionExtension}, which also checks each invocation for leaks.
 *
 * <pre>{@code
 * @EagerTest(async = {false, true})
 * void addsUnderEveryStrategy(Ops tf) {
 *   assertEquals(3f, tf.math.add(tf.constant(1f), tf.constant(2f)).asTensor().getFloat());
 * }
 * }</pre>
 *
 * <p>That runs six times, named {@code [1] IN_BACKGROUND, sync} to {@code [6] ON_SESSION_CLOSE,
 * async}.
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(EagerSessionExtension.class)
@ResourceLock(EagerSessionExtension.NATIVE_MEMORY)
public @interface EagerTest {
  /** The placeholder for the method's display name in {@link #name()}. */
  String DISPLAY_NAME_PLACEHOLDER = "{displayName}";

  /** The placeholder for the invocation's number, from 1, in {@link #name()}. */
  String INDEX_PLACEHOLDER = "{index}";

  /** The placeholder for the invocation's cleanup strategy in {@link #name()}. */
  String STRATEGY_PLACEHOLDER = "{strategy}";

  /** The placeholder for {@code sync} or {@code async} in {@link #name()}. */
  String MODE_PLACEHOLDER = "{mode}";

  /** The default {@link #name()}: {@code [1] IN_BACKGROUND, sync}. */
  String DEFAULT_DISPLAY_NAME = "[{index}] {strategy}, {mode}";

  /** The cleanup strategies to run the test with; by default all three. */
  ResourceCleanupStrategy[] strategies() default {
    ResourceCleanupStrategy.IN_BACKGROUND,
    ResourceCleanupStrategy.ON_SAFE_POINTS,
    ResourceCleanupStrategy.ON_SESSION_CLOSE
  };

  /**
   * The execution modes to run each strategy with: {@code false} synchronous, {@code true}
   * asynchronous ({@code EagerSession.Options.async}); by default synchronous only.
   */
  boolean[] async() default {false};

  /** As {@link WithEagerSession#strict()}, for every invocation. */
  boolean strict() default false;

  /**
   * Each invocation's display name, with the placeholders {@value #DISPLAY_NAME_PLACEHOLDER},
   * {@value #INDEX_PLACEHOLDER}, {@value #STRATEGY_PLACEHOLDER} and {@value #MODE_PLACEHOLDER}.
   */
  String name() default DEFAULT_DISPLAY_NAME;
}
