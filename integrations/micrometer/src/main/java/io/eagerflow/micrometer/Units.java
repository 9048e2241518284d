package io.eagerflow.micrometer;

/** Base units Micrometer's {@code BaseUnits} does not name. */
final class Units {
  static final String TENSORS = "tensors";
  static final String REQUESTS = "requests";
  static final String EXHAUSTIONS = "exhaustions";

  private Units() {}
}
