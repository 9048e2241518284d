package io.eagerflow.tfdiff;

import java.util.ArrayList;
import java.util.List;

/**
 * One generated case, a line of the cases file: {@code id TAB op TAB attrs TAB inputs}, attrs as
 * {@code name=kind:value} joined by {@code ,} ({@code -} for none; kind {@code i} long, {@code b}
 * boolean, {@code t} dtype code), inputs as {@link Values} joined by {@code |}.
 */
public record Case(int id, String op, List<Attr> attrs, List<Values> inputs) {
  public record Attr(String name, char kind, String value) {
    @Override
    public String toString() {
      return name + "=" + kind + ":" + value;
    }
  }

  public String line() {
    List<String> a = new ArrayList<>();
    attrs.forEach(x -> a.add(x.toString()));
    List<String> in = new ArrayList<>();
    inputs.forEach(x -> in.add(x.toString()));
    return id + "\t" + op + "\t" + (a.isEmpty() ? "-" : String.join(",", a)) + "\t"
        + String.join("|", in);
  }

  public static Case parse(String line) {
    String[] f = line.split("\t", -1);
    List<Attr> attrs = new ArrayList<>();
    if (!f[2].equals("-")) {
      for (String a : f[2].split(",")) {
        int eq = a.indexOf('=');
        attrs.add(new Attr(a.substring(0, eq), a.charAt(eq + 1), a.substring(eq + 3)));
      }
    }
    List<Values> inputs = new ArrayList<>();
    if (!f[3].isEmpty()) {
      for (String v : f[3].split("\\|")) {
        inputs.add(Values.parse(v));
      }
    }
    return new Case(Integer.parseInt(f[0]), f[1], attrs, inputs);
  }
}
