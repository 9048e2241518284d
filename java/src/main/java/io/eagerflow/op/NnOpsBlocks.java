package io.eagerflow.op;

import io.eagerflow.Operand;
import io.eagerflow.OperationBuilder;
import io.eagerflow.types.TType;
import java.util.Objects;

/**
 * The layout ops of {@link NnOps} ({@code tf.nn}), {@code spaceToDepth} and {@code depthToSpace},
 * kept in a file of their own beside the network ops. Public methods of this package-private class
 * are public methods of {@code NnOps}, with the errors listed on {@link Ops}.
 */
abstract class NnOpsBlocks {
  private static final OpType SPACE_TO_DEPTH = new OpType("SpaceToDepth");
  private static final OpType DEPTH_TO_SPACE = new OpType("DepthToSpace");

  private final Runner runner;

  NnOpsBlocks(Runner runner) {
    this.runner = runner;
  }

  private <T extends TType> Operand<T> blocks(
      OpType op, Operand<T> input, Long blockSize, OpOption[] options) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(blockSize, "blockSize");
    OpOption.checkAll(options);
    OperationBuilder b = runner.builder(op, input).setAttr("block_size", blockSize.longValue());
    OpOption.applyAll(b, options);
    return b.build().output(0);
  }

  /**
   * Each {@code blockSize x blockSize} block of an NHWC image moved into the channels [{@code
   * SpaceToDepth}]: {@code [n, h, w, c]} becomes {@code [n, h / b, w / b, c * b * b]}.
   *
   * @param input an NHWC tensor whose height and width {@code blockSize} divides
   * @param blockSize the block's side, at least 2
   * @param options {@link SpaceToDepth#dataFormat}
   * @return the deeper tensor
   * @throws IllegalArgumentException if the sizes do not divide or the format is not NHWC
   */
  public <T extends TType> Operand<T> spaceToDepth(
      Operand<T> input, Long blockSize, SpaceToDepth.Options... options) {
    return blocks(SPACE_TO_DEPTH, input, blockSize, options);
  }

  /**
   * The inverse of {@link #spaceToDepth} [{@code DepthToSpace}]: {@code [n, h, w, c]} becomes
   * {@code [n, h * b, w * b, c / (b * b)]}.
   *
   * @param input an NHWC tensor whose depth {@code blockSize * blockSize} divides
   * @param blockSize the block's side, at least 2
   * @param options {@link DepthToSpace#dataFormat}
   * @return the wider tensor
   * @throws IllegalArgumentException if the sizes do not divide or the format is not NHWC
   */
  public <T extends TType> Operand<T> depthToSpace(
      Operand<T> input, Long blockSize, DepthToSpace.Options... options) {
    return blocks(DEPTH_TO_SPACE, input, blockSize, options);
  }
}
