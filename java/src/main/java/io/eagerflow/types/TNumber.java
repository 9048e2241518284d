package io.eagerflow.types;

/** A tensor of numbers: every tensor type except {@link TBool}. */
public interface TNumber extends TType {}
