package io.eagerflow.tfbench;

/** The seed loop on this module's system: see {@link SeedLoop} for the arguments. */
public final class SeedLoopMain {
  private SeedLoopMain() {}

  public static void main(String[] args) {
    SeedLoop.main(Kernels.SYSTEM, args, Kernels::seedLoop);
  }
}
