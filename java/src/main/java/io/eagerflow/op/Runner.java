package io.eagerflow.op;

import io.eagerflow.DataType;
import io.eagerflow.EagerSession;
import io.eagerflow.Operand;
import io.eagerflow.Operation;
import io.eagerflow.OperationBuilder;
import io.eagerflow.Output;
import io.eagerflow.internal.OpInfo;
import io.eagerflow.internal.SessionAccess;
import io.eagerflow.internal.TensorTypes;
import io.eagerflow.types.TType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.tensorflow.ndarray.Shape;

/**
 * How the facade runs ops in one session. Attribute-free ops take {@link SessionAccess#run}, the
 * native fast path; ops with attributes or list inputs take a builder made straight from the
 * resolved {@link io.eagerflow.internal.OpInfo}, so no op pays for a name lookup or a generated
 * name.
 */
final class Runner {
  private static final SessionAccess ACCESS = SessionAccess.get();

  final EagerSession session;

  /** How ops are named: {@link Naming#isDefault()} unless made by withName or withSubScope. */
  final Naming naming;

  Runner(EagerSession session, Naming naming) {
    this.session = session;
    this.naming = naming;
  }

  /**
   * Runs attribute-free {@code op} on single inputs, on the fast path unless the op gets a name
   * asked for by {@link Ops#withName} or {@link Ops#withSubScope}.
   */
  <T extends TType> Output<T> run(OpType op, Operand<?>... inputs) {
    if (!naming.isDefault()) {
      return builder(op, inputs).build().output(0);
    }
    return ACCESS.run(session, op.info(), inputs);
  }

  /** Gives {@code out}'s op the next name of this runner's scope, if one was asked for. */
  private <T extends TType> Output<T> named(Output<T> out, String type) {
    if (!naming.isDefault()) {
      ACCESS.name(out, naming.next(type));
    }
    return out;
  }

  /**
   * Runs attribute-free {@code op} on {@code input} and a scalar of {@code type} holding {@code
   * value} that is made natively and never counted: no temporary constant.
   */
  <T extends TType> Output<T> runWithScalar(
      OpType op, Operand<?> input, DataType type, double value) {
    return named(ACCESS.runWithScalar(session, op.info(), input, type, value), op.info().type());
  }

  /**
   * Runs {@code op} on single inputs with optional attributes; without options it takes the fast
   * path.
   */
  <T extends TType> Output<T> run(OpType op, OpOption[] options, Operand<?>... inputs) {
    OpOption.checkAll(options);
    if (options.length == 0) {
      return run(op, inputs);
    }
    OperationBuilder b = builder(op, inputs);
    OpOption.applyAll(b, options);
    return b.build().output(0);
  }

  /**
   * Runs {@code op} with its type attribute {@code attr} set to the dtype of tensor class {@code
   * type}, and {@code options}: {@code Cast}'s {@code DstT}, a random op's {@code dtype}, {@code
   * ArgMax}'s {@code output_type} and the like.
   *
   * @throws IllegalArgumentException if {@code type} is not a concrete tensor class
   */
  <T extends TType> Output<T> runTyped(
      OpType op,
      String attr,
      Class<? extends TType> type,
      OpOption[] options,
      Operand<?>... inputs) {
    OpOption.checkAll(options);
    DataType d = TensorTypes.dataTypeOf(type);
    OperationBuilder b = builder(op, inputs).setAttr(attr, d);
    OpOption.applyAll(b, options);
    return b.build().output(0);
  }

  /**
   * Runs {@code op} on the one list input {@code values} ({@code name} in messages) with {@code
   * options}: {@code AddN}, {@code Pack}, {@code StringJoin}.
   */
  <T extends TType> Output<T> runList(
      OpType op, Iterable<? extends Operand<?>> values, String name, OpOption... options) {
    Objects.requireNonNull(values, name);
    OpOption.checkAll(options);
    OperationBuilder b = builder(op).addInputList(outputs(values, name));
    OpOption.applyAll(b, options);
    return b.build().output(0);
  }

  /** A reduction of {@code input} along {@code axis}: {@code Sum}, {@code Mean} and the like. */
  <T extends TType> Output<T> reduce(
      OpType op, Operand<T> input, Operand<?> axis, OpOption[] options) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(axis, "axis");
    return run(op, options, input, axis);
  }

  /** A builder for {@code op} with {@code inputs} added as single inputs. */
  OperationBuilder builder(OpType op, Operand<?>... inputs) {
    OpInfo info = op.info();
    OperationBuilder b =
        ACCESS.opBuilder(session, info, naming.isDefault() ? null : naming.next(info.type()));
    for (Operand<?> in : inputs) {
      b.addInput(in.asOutput());
    }
    return b;
  }

  /** A constant holding {@code data}, a primitive array of {@code shape.size()} elements. */
  <T extends TType> Output<T> constant(DataType type, Shape shape, Object data) {
    return named(ACCESS.constant(session, type, shape, data), "Const");
  }

  <T extends TType> Output<T> constantOf(TType tensor) {
    return named(ACCESS.constantOf(session, tensor), "Const");
  }

  /**
   * The outputs of {@code values}, for a list input.
   *
   * @throws NullPointerException naming {@code name} and the position of a null element
   */
  static Output<?>[] outputs(Iterable<? extends Operand<?>> values, String name) {
    List<Output<?>> list =
        values instanceof Collection<?> c ? new ArrayList<>(c.size()) : new ArrayList<>();
    for (Operand<?> v : values) {
      if (v == null) {
        throw new NullPointerException(name + "[" + list.size() + "]");
      }
      list.add(v.asOutput());
    }
    return list.toArray(new Output<?>[0]);
  }

  /** Every output of {@code op}, in order, as an unmodifiable list. */
  static <T extends TType> List<Operand<T>> outputs(Operation op) {
    int n = op.numOutputs();
    List<Operand<T>> list = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      list.add(op.output(i));
    }
    return Collections.unmodifiableList(list);
  }
}
