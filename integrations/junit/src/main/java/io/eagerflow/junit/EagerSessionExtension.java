package io.eagerflow.junit;

import io.eagerflow.EagerSession;
import io.eagerflow.EagerSession.ResourceCleanupStrategy;
import io.eagerflow.internal.LeakAudit;
import io.eagerflow.op.Ops;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Sessions for tests, and a check that tests leave no native memory behind.
 *
 * <p><b>Injection.</b> A parameter of type {@link EagerSession} or {@link Ops} of a test method,
 * {@code @BeforeEach} or {@code @AfterEach} method gets the test's session (one per test, the same
 * in all three; for an {@link EagerTest} one per invocation), built as {@link WithEagerSession} or
 * the invocation says; in a {@code @BeforeAll} or {@code @AfterAll} method it gets the class's
 * session, built as the class's {@link WithEagerSession} says. The extension closes each session it
 * built after the last method that may use it ({@code @AfterEach}, {@code @AfterAll}).
 *
 * <p><b>Leak check.</b> A test fails, naming each thing and the place that created it, when it
 * leaves behind an {@link EagerSession} it built and did not close, or a standalone tensor ({@code
 * TFloat32.scalarOf(...)} and the like) it did not close: still open when the test ends, or freed
 * by the library once unreachable. In {@link WithEagerSession#strict() strict} mode it also fails
 * when an op output of its sessions was freed by the cleanup strategy or when its session closed
 * rather than by {@link EagerSession#release} or an {@code EagerScope}. What a {@code @BeforeAll}
 * method creates is checked after {@code @AfterAll}. A test that already failed is not also failed
 * for leaks. While a checked test runs, every session and standalone tensor records its creation
 * site (a stack capture each). The check counts what any thread creates, so tests that use the
 * extension take the {@link #NATIVE_MEMORY} resource lock: under parallel execution they do not run
 * at the same time as each other, and tests that create sessions or tensors without the extension
 * should take it too.
 *
 * <p>Register it with {@code @ExtendWith(EagerSessionExtension.class)}, or through {@link
 * WithEagerSession} or {@link EagerTest}, which do.
 */
public final class EagerSessionExtension
    implements ParameterResolver,
        BeforeAllCallback,
        AfterAllCallback,
        BeforeEachCallback,
        AfterEachCallback,
        TestTemplateInvocationContextProvider {

  /** The resource lock ({@code @ResourceLock}) that tests checked for leaks hold. */
  public static final String NATIVE_MEMORY = "io.eagerflow.native-memory";

  private static final Namespace NAMESPACE = Namespace.create(EagerSessionExtension.class);
  private static final String CLASS_SCOPE = "class";
  private static final String TEST_SCOPE = "test";
  private static final String INVOCATION = "invocation";
  private static final Config DEFAULT =
      new Config(ResourceCleanupStrategy.IN_BACKGROUND, false, false);

  /**
   * How a session is built and how strictly its test is checked. (Classes, not records: Gradle
   * 4.4.1 reads the compile classpath with an ASM too old for records.)
   */
  private static final class Config {
    private final ResourceCleanupStrategy strategy;
    private final boolean async;
    private final boolean strict;

    Config(ResourceCleanupStrategy strategy, boolean async, boolean strict) {
      this.strategy = strategy;
      this.async = async;
      this.strict = strict;
    }

    ResourceCleanupStrategy strategy() {
      return strategy;
    }

    boolean async() {
      return async;
    }

    boolean strict() {
      return strict;
    }

    static Config of(WithEagerSession a) {
      return new Config(a.strategy(), a.async(), a.strict());
    }

    EagerSession build() {
      return EagerSession.options()
          .resourceCleanupStrategy(strategy)
          .async(async)
          .trackLeaks(strict)
          .build();
    }
  }

  /** The session of a test or a class (built on first use) and the audit of what it creates. */
  private static final class Scope {
    final LeakAudit audit = LeakAudit.open();
    EagerSession session;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    store(context).put(CLASS_SCOPE, new Scope());
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    store(context).put(TEST_SCOPE, new Scope());
  }

  @Override
  public void afterEach(ExtensionContext context) {
    finish(context, store(context).remove(TEST_SCOPE, Scope.class), testConfig(context));
  }

  @Override
  public void afterAll(ExtensionContext context) {
    finish(context, store(context).remove(CLASS_SCOPE, Scope.class), classConfig(context));
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == EagerSession.class || type == Ops.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    if (parameter.getDeclaringExecutable() instanceof Constructor) {
      throw new ParameterResolutionException(
          "EagerSessionExtension injects "
              + parameter.getParameter().getType().getSimpleName()
              + " into test methods and @BeforeEach/@AfterEach/@BeforeAll/@AfterAll methods, not"
              + " into the constructor of "
              + parameter.getDeclaringExecutable().getDeclaringClass().getName()
              + ": a session lives as long as a test or a class");
    }
    EagerSession session = session(context);
    return parameter.getParameter().getType() == Ops.class ? Ops.create(session) : session;
  }

  /** The session of the test running in {@code context}, or of its class; built on first use. */
  private EagerSession session(ExtensionContext context) {
    boolean test = context.getTestMethod().isPresent();
    String key = test ? TEST_SCOPE : CLASS_SCOPE;
    ExtensionContext.Store store = store(context);
    Scope scope = store.get(key, Scope.class);
    if (scope == null) { // registered on a method only, say: audit from now on
      scope = new Scope();
      store.put(key, scope);
    }
    if (scope.session == null) {
      scope.session = (test ? testConfig(context) : classConfig(context)).build();
    }
    return scope.session;
  }

  /** Closes the scope's session, then fails if the test or class left something behind. */
  private static void finish(ExtensionContext context, Scope scope, Config config) {
    if (scope == null) {
      return;
    }
    try {
      if (scope.session != null) {
        scope.session.close();
      }
    } finally {
      scope.audit.close();
    }
    if (context.getExecutionException().isPresent()) {
      return; // its own failure says more than what it left open on the way
    }
    List<LeakAudit.Leak> leaks = new ArrayList<>();
    for (LeakAudit.Leak leak : scope.audit.leaks()) {
      if (config.strict() || leak.kind() != LeakAudit.Kind.OUTPUT) {
        leaks.add(leak);
      }
    }
    if (!leaks.isEmpty()) {
      throw LeakReport.failure(context.getDisplayName(), leaks, config.strict());
    }
  }

  private static ExtensionContext.Store store(ExtensionContext context) {
    return context.getStore(NAMESPACE);
  }

  private static Config testConfig(ExtensionContext context) {
    Config invocation = store(context).get(INVOCATION, Config.class);
    if (invocation != null) {
      return invocation;
    }
    Optional<WithEagerSession> onMethod =
        context
            .getTestMethod()
            .flatMap(m -> AnnotationSupport.findAnnotation(m, WithEagerSession.class));
    return onMethod.map(Config::of).orElseGet(() -> classConfig(context));
  }

  /** The {@link WithEagerSession} of the test class, else of an enclosing class, else defaults. */
  private static Config classConfig(ExtensionContext context) {
    for (Optional<ExtensionContext> c = Optional.of(context);
        c.isPresent();
        c = c.get().getParent()) {
      Optional<WithEagerSession> a =
          c.get()
              .getTestClass()
              .flatMap(k -> AnnotationSupport.findAnnotation(k, WithEagerSession.class));
      if (a.isPresent()) {
        return Config.of(a.get());
      }
    }
    return DEFAULT;
  }

  // ---- @EagerTest ----------------------------------------------------------------------------

  @Override
  public boolean supportsTestTemplate(ExtensionContext context) {
    return context
        .getTestMethod()
        .map(m -> AnnotationSupport.isAnnotated(m, EagerTest.class))
        .orElse(false);
  }

  @Override
  public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(
      ExtensionContext context) {
    Method method = context.getRequiredTestMethod();
    EagerTest test = AnnotationSupport.findAnnotation(method, EagerTest.class).orElseThrow();
    if (test.strategies().length == 0 || test.async().length == 0) {
      throw new ExtensionConfigurationException(
          "@EagerTest on "
              + method
              + " has no "
              + (test.strategies().length == 0 ? "strategies" : "async modes")
              + ": name at least one, or leave the attribute out for its default");
    }
    List<TestTemplateInvocationContext> invocations = new ArrayList<>();
    for (ResourceCleanupStrategy strategy : test.strategies()) {
      for (boolean async : test.async()) {
        invocations.add(
            new Invocation(
                test.name(), context.getDisplayName(), new Config(strategy, async, test.strict())));
      }
    }
    return invocations.stream();
  }

  /** One run of an {@link EagerTest}: its name, and its config handed to the test's context. */
  private static final class Invocation implements TestTemplateInvocationContext {
    private final String pattern;
    private final String displayName;
    private final Config config;

    Invocation(String pattern, String displayName, Config config) {
      this.pattern = pattern;
      this.displayName = displayName;
      this.config = config;
    }

    @Override
    public String getDisplayName(int index) {
      return pattern
          .replace(EagerTest.DISPLAY_NAME_PLACEHOLDER, displayName)
          .replace(EagerTest.INDEX_PLACEHOLDER, String.valueOf(index))
          .replace(EagerTest.STRATEGY_PLACEHOLDER, config.strategy().name())
          .replace(EagerTest.MODE_PLACEHOLDER, config.async() ? "async" : "sync");
    }

    @Override
    public List<Extension> getAdditionalExtensions() {
      // Runs after the extension's own beforeEach and before any session is built.
      BeforeEachCallback handOver = context -> store(context).put(INVOCATION, config);
      return List.of(handOver);
    }
  }
}
