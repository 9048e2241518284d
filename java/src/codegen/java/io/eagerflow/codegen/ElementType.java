package io.eagerflow.codegen;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One row of the element type table ({@code java/src/codegen/templates/element-types.table}, whose
 * comments say what each column means): the values of a template's {@code ${variables}} and the
 * flags its {@code //#if} lines test, for one element type.
 */
record ElementType(Map<String, String> variables, Set<String> flags) {
  /** Every flag a row may have; a template or table naming another is an error. */
  static final Set<String> FLAGS = Set.of("number", "nio", "bytes", "note", "constants", "rounded");

  private static final List<String> COLUMNS =
      List.of(
          "tensor",
          "primitive",
          "boxed",
          "name",
          "buffer",
          "dataType",
          "flags",
          "description",
          "zero",
          "note");

  /** The rows of {@code table} (named {@code name} in errors), in order. */
  static List<ElementType> parse(String name, String table) {
    List<String> header = null;
    List<ElementType> rows = new ArrayList<>();
    int lineNumber = 0;
    for (String line : table.lines().toList()) {
      lineNumber++;
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      List<String> cells = Arrays.stream(line.split("\\|", -1)).map(String::strip).toList();
      if (header == null) {
        if (!cells.equals(COLUMNS)) {
          throw new IllegalArgumentException(
              name + ":" + lineNumber + ": columns must be " + COLUMNS);
        }
        header = cells;
        continue;
      }
      if (cells.size() != header.size()) {
        throw new IllegalArgumentException(
            name + ":" + lineNumber + ": " + cells.size() + " cells, not " + header.size());
      }
      Map<String, String> variables = new HashMap<>();
      for (int i = 0; i < cells.size(); i++) {
        variables.put(header.get(i), cells.get(i));
      }
      Set<String> flags =
          Arrays.stream(variables.remove("flags").split("\\s+"))
              .filter(f -> !f.isEmpty())
              .collect(Collectors.toUnmodifiableSet());
      for (String flag : flags) {
        if (!FLAGS.contains(flag)) {
          throw new IllegalArgumentException(name + ":" + lineNumber + ": unknown flag " + flag);
        }
      }
      // Derived, so that no row can get it wrong.
      variables.put("family", flags.contains("number") ? "TNumber" : "TType");
      rows.add(new ElementType(Map.copyOf(variables), flags));
    }
    if (rows.isEmpty()) {
      throw new IllegalArgumentException(name + ": no element types");
    }
    return List.copyOf(rows);
  }
}
