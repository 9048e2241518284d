package io.eagerflow.codegen;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A template: Java source with {@code ${variable}} placeholders and line directives. A line whose
 * text starts with {@code //#} is a directive and is never copied:
 *
 * <ul>
 *   <li>{@code //#if flag}, {@code //#if !flag}, {@code //#else}, {@code //#end}: the lines between
 *       are kept when the current element type has (has not) the flag;
 *   <li>{@code //#each} ... {@code //#end}: the lines between are repeated once per element type of
 *       the table, with that type's variables and flags.
 * </ul>
 *
 * A placeholder with no value is an error, so a misspelt name cannot slip into the output.
 */
final class Template {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z]+)}");

  private final String name;
  private final List<String> lines;

  Template(String name, String text) {
    this.name = name;
    this.lines = text.lines().toList();
  }

  /**
   * The template with {@code type}'s variables and flags (or none, if null) filled in; {@code
   * //#each} blocks repeat over {@code all}.
   */
  String render(List<ElementType> all, ElementType type) {
    StringBuilder out = new StringBuilder();
    int end = block(all, 0, type, true, out);
    if (end != lines.size()) {
      throw error(end, "unmatched " + lines.get(end).trim());
    }
    return out.toString();
  }

  /**
   * Renders lines from {@code from} up to the first unmatched {@code //#else} or {@code //#end},
   * whose index it returns, appending them to {@code out} if {@code keep}.
   */
  private int block(
      List<ElementType> all, int from, ElementType type, boolean keep, StringBuilder out) {
    int i = from;
    while (i < lines.size()) {
      String line = lines.get(i);
      String directive = line.trim();
      if (!directive.startsWith("//#")) {
        if (keep) {
          out.append(substitute(i, line, type)).append('\n');
        }
        i++;
      } else if (directive.equals("//#else") || directive.equals("//#end")) {
        return i;
      } else if (directive.startsWith("//#if ")) {
        if (type == null) {
          throw error(i, "//#if outside //#each in a template without an element type");
        }
        String flag = directive.substring("//#if ".length()).trim();
        boolean negated = flag.startsWith("!");
        if (!ElementType.FLAGS.contains(negated ? flag.substring(1) : flag)) {
          throw error(i, "unknown flag " + flag);
        }
        boolean holds = type.flags().contains(negated ? flag.substring(1) : flag) != negated;
        int next = block(all, i + 1, type, keep && holds, out);
        if (next < lines.size() && lines.get(next).trim().equals("//#else")) {
          next = block(all, next + 1, type, keep && !holds, out);
        }
        i = closing(next, "//#if") + 1;
      } else if (directive.equals("//#each")) {
        int next = i + 1;
        for (ElementType each : all) {
          next = block(all, i + 1, each, keep, out);
        }
        i = closing(next, "//#each") + 1;
      } else {
        throw error(i, "unknown directive " + directive);
      }
    }
    return i;
  }

  private int closing(int i, String opener) {
    if (i >= lines.size() || !lines.get(i).trim().equals("//#end")) {
      throw error(Math.min(i, lines.size() - 1), opener + " without //#end");
    }
    return i;
  }

  private String substitute(int index, String line, ElementType type) {
    Map<String, String> values = type == null ? Map.of() : type.variables();
    Matcher m = PLACEHOLDER.matcher(line);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = values.get(m.group(1));
      if (value == null) {
        throw error(index, "no value for ${" + m.group(1) + "}");
      }
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    return out.toString();
  }

  private IllegalArgumentException error(int index, String message) {
    return new IllegalArgumentException(name + ":" + (index + 1) + ": " + message);
  }
}
