package io.eagerflow.codegen;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One row of the per-type table: what the templates need to know of an element type. Every other
 * name (FloatNdArray, FloatDataBuffer, getFloat, FloatTensorBuffer, ...) is derived from {@code
 * name} by ndarray's own naming rule.
 *
 * @param tensor the public tensor interface, such as {@code TFloat32}
 * @param primitive the Java element type, such as {@code float}
 * @param boxed its wrapper class, such as {@code Float}
 * @param name the prefix of ndarray's type names ({@code FloatNdArray}) and accessors ({@code
 *     getFloat})
 * @param dataType the {@code io.eagerflow.DataType} constant
 * @param description what one element is, for the Javadoc
 * @param zero what a new tensor is filled with, for the Javadoc
 * @param flags the template's switches this type turns on: {@code number} (a {@code TNumber}),
 *     {@code nio} (a {@code java.nio} buffer of this type exists), {@code bytes} (a byte buffer,
 *     which ndarray lets reinterpret as other types), {@code note} (Ops documents a conversion)
 * @param note what Ops says of the scalar constant's conversion, or empty
 */
record ElementType(
    String tensor,
    String primitive,
    String boxed,
    String name,
    String dataType,
    String description,
    String zero,
    Set<String> flags,
    String note) {

  /** Every flag a row may have; a template naming another is an error. */
  static final Set<String> FLAGS = Set.of("number", "nio", "bytes", "note");

  /** The table. Its order is the order of the overloads in the generated Ops constants. */
  static final List<ElementType> ALL =
      List.of(
          new ElementType(
              "TFloat32", "float", "Float", "Float", "FLOAT", "32-bit floats", "zeros",
              Set.of("number", "nio"), ""),
          new ElementType(
              "TFloat64", "double", "Double", "Double", "DOUBLE", "64-bit doubles", "zeros",
              Set.of("number", "nio"), ""),
          new ElementType(
              "TInt32", "int", "Integer", "Int", "INT32", "32-bit signed integers", "zeros",
              Set.of("number", "nio"), ""),
          new ElementType(
              "TInt64", "long", "Long", "Long", "INT64", "64-bit signed integers", "zeros",
              Set.of("number", "nio"), ""),
          new ElementType(
              "TBool", "boolean", "Boolean", "Boolean", "BOOL", "booleans", "{@code false}",
              Set.of(), ""),
          new ElementType(
              "TUint8", "byte", "Byte", "Byte", "UINT8",
              "unsigned bytes, read and written as Java {@code byte}", "zeros",
              Set.of("number", "nio", "bytes", "note"),
              "UINT8: the byte's bits are read as unsigned, so {@code (byte) -1} is 255"));

  /** The template variables of this type. */
  Map<String, String> variables() {
    return Map.of(
        "tensor", tensor,
        "primitive", primitive,
        "boxed", boxed,
        "name", name,
        "dataType", dataType,
        "description", description,
        "zero", zero,
        "family", flags.contains("number") ? "TNumber" : "TType",
        "note", note);
  }
}
