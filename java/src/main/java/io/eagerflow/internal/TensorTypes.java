package io.eagerflow.internal;

import io.eagerflow.DataType;
import io.eagerflow.types.TType;
import java.util.function.Function;

/**
 * Maps element types to tensor classes and wraps native tensors in them. Each tensor class
 * registers itself from its static initializer; this class makes sure they all have run.
 */
public final class TensorTypes {
  private static final int CODES = 11;

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static final Function<NativeTensor, ? extends TType>[] FACTORIES =
      new Function[CODES];

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static final Class<? extends TType>[] CLASSES = new Class[CODES];

  private static final String[] CLASS_NAMES = {
    "TFloat32", "TFloat64", "TInt32", "TInt64", "TUint8", "TBool"
  };

  private static volatile Function<TType, NativeTensor> unwrapper;

  /** {@code DataType.values()} clones its array on every call; ops like cast look types up. */
  private static final DataType[] DATA_TYPES = DataType.values();

  static {
    ClassLoader loader = TensorTypes.class.getClassLoader();
    for (String name : CLASS_NAMES) {
      try {
        Class.forName("io.eagerflow.types." + name, true, loader);
      } catch (ClassNotFoundException e) {
        throw new ExceptionInInitializerError(e);
      }
    }
  }

  private TensorTypes() {}

  /** Called by each tensor class's static initializer. */
  public static synchronized <T extends TType> void register(
      DataType dataType, Class<T> type, Function<NativeTensor, T> factory) {
    FACTORIES[dataType.code()] = factory;
    CLASSES[dataType.code()] = type;
  }

  /** Called once by the tensor classes' shared base. */
  public static void registerUnwrapper(Function<TType, NativeTensor> f) {
    unwrapper = f;
  }

  /**
   * The native tensor behind {@code tensor}.
   *
   * @throws IllegalArgumentException if it is not one of the library's tensor classes
   */
  public static NativeTensor unwrap(TType tensor) {
    NativeTensor t = unwrapper.apply(tensor);
    if (t == null) {
      throw new IllegalArgumentException(tensor.getClass() + " is not an eagerflow tensor");
    }
    return t;
  }

  /** Wraps {@code tensor} in the class of its element type. */
  @SuppressWarnings("unchecked")
  public static <T extends TType> T wrap(NativeTensor tensor) {
    return (T) FACTORIES[tensor.dataType().code()].apply(tensor);
  }

  /** The tensor class of {@code dataType}, such as {@code TFloat32.class} for FLOAT. */
  @SuppressWarnings("unchecked")
  public static <T extends TType> Class<T> classOf(DataType dataType) {
    return (Class<T>) CLASSES[dataType.code()];
  }

  /**
   * The element type of tensor class {@code type}.
   *
   * @throws IllegalArgumentException if {@code type} is not a concrete tensor class
   */
  public static DataType dataTypeOf(Class<? extends TType> type) {
    for (DataType d : DATA_TYPES) {
      if (CLASSES[d.code()] == type) {
        return d;
      }
    }
    throw new IllegalArgumentException(
        type + " is not a tensor class (use TFloat32, TFloat64, TInt32, TInt64, TUint8 or TBool)");
  }
}
