package io.eagerflow.op;

import io.eagerflow.Operand;
import io.eagerflow.types.TNumber;
import io.eagerflow.types.TType;
import java.util.Objects;

/**
 * Linear algebra, reached as {@code tf.linalg}: matrix products and transposes. The errors are
 * those listed on {@link Ops}. Immutable and thread-safe.
 */
public final class LinalgOps {
  private static final OpType MAT_MUL = new OpType("MatMul");
  private static final OpType BATCH_MAT_MUL = new OpType("BatchMatMulV2");
  private static final OpType TRANSPOSE = new OpType("Transpose");

  private final Runner runner;

  LinalgOps(Runner runner) {
    this.runner = runner;
  }

  /**
   * The matrix product {@code a b} [{@code MatMul}]: {@code [m, k] x [k, n] -> [m, n]}, after
   * transposing {@code a} or {@code b} if asked.
   *
   * <pre>{@code tf.linalg.matMul(a, b, MatMul.transposeB(true)) // a times b's transpose}</pre>
   *
   * @param a a matrix
   * @param b a matrix of {@code a}'s dtype
   * @param options {@link MatMul#transposeA}, {@link MatMul#transposeB}
   * @return the product
   * @throws IllegalArgumentException if an operand is not a matrix or the inner dimensions differ
   */
  public <T extends TType> Operand<T> matMul(
      Operand<T> a, Operand<T> b, MatMul.Options... options) {
    Objects.requireNonNull(a, "a");
    Objects.requireNonNull(b, "b");
    return runner.run(MAT_MUL, options, a, b);
  }

  /**
   * Matrix products over batches [{@code BatchMatMulV2}]: {@code [..., m, k] x [..., k, n] -> [...,
   * m, n]}, where the leading (batch) dimensions broadcast.
   *
   * @param x a tensor of rank 2 or more
   * @param y a tensor of rank 2 or more, of {@code x}'s dtype
   * @param options {@link BatchMatMul#adjX}, {@link BatchMatMul#adjY}
   * @return the products
   * @throws IllegalArgumentException if the inner dimensions differ or the batches do not broadcast
   */
  public <T extends TType> Operand<T> batchMatMul(
      Operand<T> x, Operand<T> y, BatchMatMul.Options... options) {
    Objects.requireNonNull(x, "x");
    Objects.requireNonNull(y, "y");
    return runner.run(BATCH_MAT_MUL, options, x, y);
  }

  /**
   * {@code x} with its dimensions permuted [{@code Transpose}]: dimension {@code i} of the result
   * is dimension {@code perm[i]} of {@code x}.
   *
   * @param x the tensor
   * @param perm a permutation of {@code 0 .. rank - 1}
   * @return the transposed tensor
   * @throws IllegalArgumentException if {@code perm} is not a permutation of {@code x}'s dimensions
   */
  public <T extends TType> Operand<T> transpose(Operand<T> x, Operand<? extends TNumber> perm) {
    Objects.requireNonNull(x, "x");
    Objects.requireNonNull(perm, "perm");
    return runner.run(TRANSPOSE, x, perm);
  }
}
