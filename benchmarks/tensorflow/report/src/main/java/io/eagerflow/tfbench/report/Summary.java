package io.eagerflow.tfbench.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The median and range of one measurement's values over the runs. */
record Summary(int n, double median, double min, double max) {
  static Summary of(List<Double> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("no values");
    }
    List<Double> v = new ArrayList<>(values);
    Collections.sort(v);
    int n = v.size();
    double median = n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    return new Summary(n, median, v.get(0), v.get(n - 1));
  }
}
