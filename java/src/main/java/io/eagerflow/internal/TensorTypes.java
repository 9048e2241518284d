package io.eagerflow.internal;

import io.eagerflow.DataType;
import io.eagerflow.types.TType;
import java.util.Objects;
import java.util.function.Function;

/**
 * Maps element types to tensor classes and wraps native tensors in them. The tensor classes' shared
 * base registers them all, once, from its static initializer (see {@link Registration}); that
 * initializer touches no tensor class, and this class's touches none at all, so a first standalone
 * tensor on one thread and a first {@code asTensor()} on another cannot deadlock in class
 * initialization.
 */
public final class TensorTypes {
  private static final int CODES = 20;
  private static final String REGISTRAR = "io.eagerflow.types.TensorBase";

  // Written under TensorTypes.class before `complete` is set, never after.
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static final Function<NativeTensor, ? extends TType>[] FACTORIES = new Function[CODES];

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static final Class<? extends TType>[] CLASSES = new Class[CODES];

  private static Function<TType, NativeTensor> unwrapper;

  /** Whether every type and the unwrapper are registered; reading it publishes them. */
  private static volatile boolean complete;

  /** {@code DataType.values()} clones its array on every call; ops like cast look types up. */
  private static final DataType[] DATA_TYPES = DataType.values();

  private TensorTypes() {}

  /**
   * Registers the tensor class of {@code dataType}: called once per type by the tensor classes'
   * base.
   *
   * @throws IllegalStateException if the type is already registered (always, outside the library)
   */
  public static <T extends TType> void register(
      DataType dataType, Class<T> type, Function<NativeTensor, T> factory) {
    Objects.requireNonNull(dataType, "dataType");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(factory, "factory");
    Registration.initialize(REGISTRAR);
    synchronized (TensorTypes.class) {
      int code = dataType.code();
      if (FACTORIES[code] != null) {
        throw new IllegalStateException(
            "the tensor class of "
                + dataType
                + " is registered once, by the library; it cannot be replaced");
      }
      FACTORIES[code] = factory;
      CLASSES[code] = type;
      updateComplete();
    }
  }

  /**
   * Registers how to find the native tensor behind a {@link TType}: called once by the tensor
   * classes' base.
   *
   * @throws IllegalStateException if already registered (always, outside the library)
   */
  public static void registerUnwrapper(Function<TType, NativeTensor> f) {
    Objects.requireNonNull(f, "f");
    Registration.initialize(REGISTRAR);
    synchronized (TensorTypes.class) {
      if (unwrapper != null) {
        throw new IllegalStateException(
            "the tensor unwrapper is registered once, by the library; it cannot be replaced");
      }
      unwrapper = f;
      updateComplete();
    }
  }

  private static void updateComplete() {
    if (unwrapper == null) {
      return;
    }
    for (DataType d : DATA_TYPES) {
      if (FACTORIES[d.code()] == null) {
        return;
      }
    }
    complete = true;
  }

  /** Makes sure the tensor classes are registered; a volatile read once they are. */
  private static void ensureComplete() {
    if (!complete) {
      Registration.initialize(REGISTRAR);
      if (!complete) {
        throw new IllegalStateException("the tensor classes are not registered");
      }
    }
  }

  /**
   * The native tensor behind {@code tensor}.
   *
   * @throws IllegalArgumentException if it is not one of the library's tensor classes
   */
  public static NativeTensor unwrap(TType tensor) {
    ensureComplete();
    NativeTensor t = unwrapper.apply(tensor);
    if (t == null) {
      throw new IllegalArgumentException(tensor.getClass() + " is not an eagerflow tensor");
    }
    return t;
  }

  /** Wraps {@code tensor} in the class of its element type. */
  @SuppressWarnings("unchecked")
  public static <T extends TType> T wrap(NativeTensor tensor) {
    ensureComplete();
    return (T) FACTORIES[tensor.dataType().code()].apply(tensor);
  }

  /** The tensor class of {@code dataType}, such as {@code TFloat32.class} for FLOAT. */
  @SuppressWarnings("unchecked")
  public static <T extends TType> Class<T> classOf(DataType dataType) {
    ensureComplete();
    return (Class<T>) CLASSES[dataType.code()];
  }

  /**
   * The element type of tensor class {@code type}.
   *
   * @throws IllegalArgumentException if {@code type} is not a concrete tensor class
   */
  public static DataType dataTypeOf(Class<? extends TType> type) {
    ensureComplete();
    for (DataType d : DATA_TYPES) {
      if (CLASSES[d.code()] == type) {
        return d;
      }
    }
    throw new IllegalArgumentException(
        type
            + " is not a tensor class (use TFloat32, TFloat64, TInt32, TInt64, TUint8, TBool or"
            + " TString)");
  }
}
