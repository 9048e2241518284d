package io.eagerflow.op;

import io.eagerflow.Operand;
import io.eagerflow.OperationBuilder;
import io.eagerflow.types.TInt32;
import io.eagerflow.types.TNumber;
import io.eagerflow.types.TType;
import java.util.Objects;

/**
 * Linear algebra, reached as {@code tf.linalg}: matrix products, transposes, band parts and
 * diagonals, decompositions (Cholesky, QR, SVD) and solvers. Every decomposition works on the
 * innermost two dimensions, {@code [..., M, N]}, one matrix of the batch at a time. The errors are
 * those listed on {@link Ops}. Immutable and thread-safe.
 */
public final class LinalgOps {
  private static final OpType MAT_MUL = new OpType("MatMul");
  private static final OpType BATCH_MAT_MUL = new OpType("BatchMatMulV2");
  private static final OpType TRANSPOSE = new OpType("Transpose");
  private static final OpType BAND_PART = new OpType("MatrixBandPart");
  private static final OpType DIAG_V2 = new OpType("MatrixDiagV2");
  private static final OpType DIAG_V3 = new OpType("MatrixDiagV3");
  private static final OpType DIAG_PART_V2 = new OpType("MatrixDiagPartV2");
  private static final OpType DIAG_PART_V3 = new OpType("MatrixDiagPartV3");
  private static final OpType CHOLESKY = new OpType("Cholesky");
  private static final OpType DET = new OpType("MatrixDeterminant");
  private static final OpType INV = new OpType("MatrixInverse");
  private static final OpType SOLVE = new OpType("MatrixSolve");
  private static final OpType TRIANGULAR_SOLVE = new OpType("MatrixTriangularSolve");
  private static final OpType QR = new OpType("Qr");
  private static final OpType SVD = new OpType("Svd");
  private static final OpType EINSUM = new OpType("Einsum");

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

  /**
   * {@code input}'s innermost matrices with every element outside a band around the diagonal set to
   * zero [{@code MatrixBandPart}]: element {@code (m, n)} is kept if {@code numLower < 0 || m - n
   * <= numLower} and {@code numUpper < 0 || n - m <= numUpper}. {@code bandPart(x, 0, -1)} is the
   * upper triangle, {@code bandPart(x, 0, 0)} the diagonal.
   *
   * @param input a tensor of rank 2 or more
   * @param numLower a scalar: subdiagonals to keep, negative for all
   * @param numUpper a scalar of {@code numLower}'s dtype: superdiagonals to keep, negative for all
   * @return the band, of {@code input}'s shape
   * @throws IllegalArgumentException if a bound is larger than the matrices
   */
  public <T extends TType, U extends TNumber> Operand<T> bandPart(
      Operand<T> input, Operand<U> numLower, Operand<U> numUpper) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(numLower, "numLower");
    Objects.requireNonNull(numUpper, "numUpper");
    return runner.run(BAND_PART, input, numLower, numUpper);
  }

  /**
   * Matrices with the diagonals {@code k} of {@code diagonal} on them and {@code paddingValue}
   * elsewhere [{@code MatrixDiagV2}]: {@code k} is one diagonal (0 the main one, positive above it)
   * or a band {@code [lower, upper]}, whose diagonals {@code diagonal}'s second-to-last dimension
   * holds from {@code upper} down; short diagonals are aligned left.
   *
   * @param diagonal {@code [..., maxDiagLen]}, or {@code [..., upper - lower + 1, maxDiagLen]}
   * @param k a scalar or a vector of two
   * @param numRows the matrices' rows, or -1 for the fewest that fit
   * @param numCols the matrices' columns, or -1 for the fewest that fit
   * @param paddingValue a scalar of {@code diagonal}'s dtype
   * @return the matrices
   * @throws IllegalArgumentException if the sizes do not fit the band
   */
  public <T extends TType> Operand<T> matrixDiag(
      Operand<T> diagonal,
      Operand<TInt32> k,
      Operand<TInt32> numRows,
      Operand<TInt32> numCols,
      Operand<T> paddingValue) {
    return diag(DIAG_V2, OpOption.NONE, diagonal, k, numRows, numCols, paddingValue);
  }

  /**
   * {@link #matrixDiag} with a choice of alignment [{@code MatrixDiagV3}].
   *
   * @param diagonal {@code [..., maxDiagLen]}, or {@code [..., upper - lower + 1, maxDiagLen]}
   * @param k a scalar or a vector of two
   * @param numRows the matrices' rows, or -1 for the fewest that fit
   * @param numCols the matrices' columns, or -1 for the fewest that fit
   * @param paddingValue a scalar of {@code diagonal}'s dtype
   * @param options {@link MatrixDiagV3#align} (default {@code "RIGHT_LEFT"})
   * @return the matrices
   */
  public <T extends TType> Operand<T> matrixDiagV3(
      Operand<T> diagonal,
      Operand<TInt32> k,
      Operand<TInt32> numRows,
      Operand<TInt32> numCols,
      Operand<T> paddingValue,
      MatrixDiagV3.Options... options) {
    return diag(DIAG_V3, options, diagonal, k, numRows, numCols, paddingValue);
  }

  private <T extends TType> Operand<T> diag(
      OpType op,
      OpOption[] options,
      Operand<T> diagonal,
      Operand<TInt32> k,
      Operand<TInt32> numRows,
      Operand<TInt32> numCols,
      Operand<T> paddingValue) {
    Objects.requireNonNull(diagonal, "diagonal");
    Objects.requireNonNull(k, "k");
    Objects.requireNonNull(numRows, "numRows");
    Objects.requireNonNull(numCols, "numCols");
    Objects.requireNonNull(paddingValue, "paddingValue");
    return runner.run(op, options, diagonal, k, numRows, numCols, paddingValue);
  }

  /**
   * The diagonals {@code k} of {@code input}'s innermost matrices [{@code MatrixDiagPartV2}]: one
   * diagonal, or the band {@code [lower, upper]} from {@code upper} down, short ones aligned left
   * and filled with {@code paddingValue}.
   *
   * @param input a tensor of rank 2 or more
   * @param k a scalar or a vector of two, each in {@code (-rows, columns)}
   * @param paddingValue a scalar of {@code input}'s dtype
   * @return {@code [..., maxDiagLen]}, or {@code [..., upper - lower + 1, maxDiagLen]}
   */
  public <T extends TType> Operand<T> matrixDiagPart(
      Operand<T> input, Operand<TInt32> k, Operand<T> paddingValue) {
    return diagPart(DIAG_PART_V2, OpOption.NONE, input, k, paddingValue);
  }

  /**
   * {@link #matrixDiagPart} with a choice of alignment [{@code MatrixDiagPartV3}].
   *
   * @param input a tensor of rank 2 or more
   * @param k a scalar or a vector of two, each in {@code (-rows, columns)}
   * @param paddingValue a scalar of {@code input}'s dtype
   * @param options {@link MatrixDiagPartV3#align} (default {@code "RIGHT_LEFT"})
   * @return {@code [..., maxDiagLen]}, or {@code [..., upper - lower + 1, maxDiagLen]}
   */
  public <T extends TType> Operand<T> matrixDiagPartV3(
      Operand<T> input,
      Operand<TInt32> k,
      Operand<T> paddingValue,
      MatrixDiagPartV3.Options... options) {
    return diagPart(DIAG_PART_V3, options, input, k, paddingValue);
  }

  private <T extends TType> Operand<T> diagPart(
      OpType op, OpOption[] options, Operand<T> input, Operand<TInt32> k, Operand<T> paddingValue) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(k, "k");
    Objects.requireNonNull(paddingValue, "paddingValue");
    return runner.run(op, options, input, k, paddingValue);
  }

  /**
   * The Cholesky factor of each symmetric positive definite matrix [{@code Cholesky}]: lower
   * triangular {@code L} with {@code L L^T} equal to the matrix. Only the lower triangle is read.
   *
   * @param input {@code [..., M, M]}, {@link io.eagerflow.types.TFloat32} or {@link
   *     io.eagerflow.types.TFloat64}
   * @return {@code L}, of {@code input}'s shape, zero above the diagonal
   * @throws IllegalArgumentException if the matrices are not square, or one is not positive
   *     definite
   */
  public <T extends TType> Operand<T> cholesky(Operand<T> input) {
    Objects.requireNonNull(input, "input");
    return runner.run(CHOLESKY, input);
  }

  /**
   * The determinant of each matrix [{@code MatrixDeterminant}]; 1 for an empty matrix.
   *
   * @param input {@code [..., M, M]}, {@link io.eagerflow.types.TFloat32} or {@link
   *     io.eagerflow.types.TFloat64}
   * @return {@code [...]}
   * @throws IllegalArgumentException if the matrices are not square
   */
  public <T extends TType> Operand<T> det(Operand<T> input) {
    Objects.requireNonNull(input, "input");
    return runner.run(DET, input);
  }

  /**
   * The inverse of each matrix [{@code MatrixInverse}], by LU factorization with partial pivoting.
   *
   * @param input {@code [..., M, M]}, {@link io.eagerflow.types.TFloat32}, {@link
   *     io.eagerflow.types.TFloat64} or {@link io.eagerflow.types.TFloat16}
   * @param options {@link Inv#adjoint}
   * @return the inverses, of {@code input}'s shape
   * @throws IllegalArgumentException if the matrices are not square, or one is singular ("Input is
   *     not invertible.")
   */
  public <T extends TType> Operand<T> inv(Operand<T> input, Inv.Options... options) {
    Objects.requireNonNull(input, "input");
    return runner.run(INV, options, input);
  }

  /**
   * The solution {@code X} of {@code matrix X = rhs} for each matrix of the batch [{@code
   * MatrixSolve}].
   *
   * @param matrix {@code [..., M, M]}, {@link io.eagerflow.types.TFloat32} or {@link
   *     io.eagerflow.types.TFloat64}
   * @param rhs {@code [..., M, K]} with {@code matrix}'s batch dimensions and dtype
   * @param options {@link Solve#adjoint}
   * @return {@code [..., M, K]}
   * @throws IllegalArgumentException if the shapes do not fit or a matrix is singular
   */
  public <T extends TType> Operand<T> solve(
      Operand<T> matrix, Operand<T> rhs, Solve.Options... options) {
    Objects.requireNonNull(matrix, "matrix");
    Objects.requireNonNull(rhs, "rhs");
    return runner.run(SOLVE, options, matrix, rhs);
  }

  /**
   * The solution {@code X} of {@code matrix X = rhs} for triangular matrices [{@code
   * MatrixTriangularSolve}]: only the lower (or, with {@code TriangularSolve.lower(false)}, upper)
   * triangle is read. The batch dimensions broadcast.
   *
   * @param matrix {@code [..., M, M]}, {@link io.eagerflow.types.TFloat32} or {@link
   *     io.eagerflow.types.TFloat64}
   * @param rhs {@code [..., M, K]} of {@code matrix}'s dtype
   * @param options {@link TriangularSolve#lower}, {@link TriangularSolve#adjoint}
   * @return {@code [..., M, K]}, the batch dimensions broadcast
   * @throws IllegalArgumentException if the shapes do not fit
   */
  public <T extends TType> Operand<T> triangularSolve(
      Operand<T> matrix, Operand<T> rhs, TriangularSolve.Options... options) {
    Objects.requireNonNull(matrix, "matrix");
    Objects.requireNonNull(rhs, "rhs");
    return runner.run(TRIANGULAR_SOLVE, options, matrix, rhs);
  }

  /**
   * The QR decomposition of each matrix [{@code Qr}], by Householder reflections.
   *
   * <pre>{@code Qr<TFloat64> f = tf.linalg.qr(a); // f.q() times f.r() is a}</pre>
   *
   * @param input {@code [..., M, N]}, {@link io.eagerflow.types.TFloat32}, {@link
   *     io.eagerflow.types.TFloat64} or {@link io.eagerflow.types.TFloat16}
   * @param options {@link Qr#fullMatrices}
   * @return {@code q} and {@code r}
   * @throws IllegalArgumentException if {@code input} has rank below 2
   */
  public <T extends TType> Qr<T> qr(Operand<T> input, Qr.Options... options) {
    Objects.requireNonNull(input, "input");
    OpOption.checkAll(options);
    OperationBuilder b = runner.builder(QR, input);
    OpOption.applyAll(b, options);
    return new Qr<>(b.build());
  }

  /**
   * The singular value decomposition of each matrix [{@code Svd}].
   *
   * @param input {@code [..., M, N]}, {@link io.eagerflow.types.TFloat32} or {@link
   *     io.eagerflow.types.TFloat64}
   * @param options {@link Svd#computeUv}, {@link Svd#fullMatrices}
   * @return {@code s}, {@code u} and {@code v}
   * @throws IllegalArgumentException if {@code input} has rank below 2
   */
  public <T extends TType> Svd<T> svd(Operand<T> input, Svd.Options... options) {
    Objects.requireNonNull(input, "input");
    OpOption.checkAll(options);
    OperationBuilder b = runner.builder(SVD, input);
    OpOption.applyAll(b, options);
    return new Svd<>(b.build());
  }

  /**
   * Sums of products over the labels of an Einstein summation {@code equation} [{@code Einsum}],
   * for one or two operands: {@code "ij,jk->ik"} is a matrix product, {@code "bij,bkj->bik"} a
   * batch product with the second operand transposed, {@code "ii->"} a trace, {@code "ii->i"} a
   * diagonal, {@code "ij->j"} a sum, {@code "i,j->ij"} an outer product. Labels are ASCII letters;
   * a label repeated in one operand takes its diagonal, one absent from the output is summed, one
   * repeated in the output places values on a diagonal (zeros elsewhere). An ellipsis {@code ...}
   * stands for dimensions that broadcast between the operands and must then appear in the output.
   * As TensorFlow's op (not its Python {@code tf.einsum}), the output subscript is required: there
   * is no implicit form.
   *
   * <pre>{@code tf.linalg.einsum(List.of(a, b), "...ij,...jk->...ik")}</pre>
   *
   * @param inputs one or two tensors of one dtype: {@link io.eagerflow.types.TFloat32}, {@link
   *     io.eagerflow.types.TFloat64}, {@link io.eagerflow.types.TInt32}, {@link
   *     io.eagerflow.types.TInt64}, {@link io.eagerflow.types.TFloat16} or {@link
   *     io.eagerflow.types.TBfloat16}
   * @param equation the subscripts, {@code "in0,in1->out"} or {@code "in0->out"}
   * @return the result, of the shape the output subscript gives
   * @throws IllegalArgumentException if the equation is malformed, names a different number of
   *     operands, does not fit an operand's rank, gives one label two sizes, or the dimensions of
   *     the ellipses do not broadcast
   * @throws NullPointerException if {@code inputs}, one of its elements or {@code equation} is null
   */
  public <T extends TType> Operand<T> einsum(Iterable<Operand<T>> inputs, String equation) {
    Objects.requireNonNull(inputs, "inputs");
    Objects.requireNonNull(equation, "equation");
    OperationBuilder b = runner.builder(EINSUM).addInputList(Runner.outputs(inputs, "inputs"));
    b.setAttr("equation", equation);
    return b.build().output(0);
  }
}
