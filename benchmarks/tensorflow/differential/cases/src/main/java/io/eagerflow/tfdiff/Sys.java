package io.eagerflow.tfdiff;

import java.util.List;

/** One system's eager runtime, as the runner drives it: everything API-specific is behind this. */
public interface Sys extends AutoCloseable {
  /** A constant holding {@code v}. */
  Object constant(Values v);

  /** Runs op {@code type} through {@code opBuilder} by name; returns its outputs. */
  List<Object> run(String type, List<Object> inputs, List<Case.Attr> attrs);

  /** An output's dtype, shape and bytes. */
  Values read(Object output);

  /** A fresh session (the runner renews it every few hundred cases to bound memory). */
  void renew();

  @Override
  void close();
}
