//! Matrix products: `MatMul` and `BatchMatMulV2` (also as `BatchMatMul` and
//! `BatchMatMulV3`). `Transpose` is with the shape ops (`shape::transpose`).
//!
//! FLOAT and DOUBLE products run on `faer` (packed, cache-blocked AVX2/AVX-512
//! kernels chosen at run time, on every core for large products); INT32 and
//! INT64 use a plain loop with wrapping arithmetic, as TensorFlow's do.

use super::{KernelOutputs, outputs};
use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};

use super::broadcast::broadcast_shapes;
use super::infer::linalg as infer;
use super::parallel::{par_chunks, threads, worth_threads};
use super::reduce::Num;
use super::{OpContext, OpDef, Registry};
use crate::alloc;
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::tensor::{Tensor, num_elements};

pub(super) fn register(r: &mut Registry) {
    r.add([
        OpDef::new("MatMul", &["a", "b"], &["product"], mat_mul)
            .attrs(&["transpose_a", "transpose_b"])
            .infer(infer::mat_mul)
            .halves(),
        OpDef::new("BatchMatMulV2", &["x", "y"], &["output"], batch_mat_mul)
            .attrs(&["adj_x", "adj_y"])
            // V1 requires equal batch dimensions; broadcasting them is a superset.
            .aliases(&["BatchMatMul"])
            .infer(infer::batch_mat_mul)
            .halves(),
        OpDef::new("BatchMatMulV3", &["x", "y"], &["output"], batch_mat_mul_v3)
            .attrs(&["adj_x", "adj_y", "Ta", "Tb", "Tout"])
            .infer(infer::batch_mat_mul_v3),
    ]);
}

// ---------------------------------------------------------------------------
// Products.

/// Products of at least this many multiply-adds use every core; below it the
/// hand-off to other threads costs more than it saves.
pub(super) const PAR_MIN_MACS: usize = 1 << 21;

/// One matrix product `op(a) · op(b)` of `m×k` by `k×n`, each operand stored
/// row-major and transposed first when its flag says so.
#[derive(Clone, Copy)]
pub(super) struct Product<'a, T> {
    pub a: &'a [T],
    pub ta: bool,
    pub b: &'a [T],
    pub tb: bool,
    pub m: usize,
    pub k: usize,
    pub n: usize,
}

/// The element types of the matrix products (`Einsum` contracts through it too).
pub(super) trait MatElem: Num {
    /// Writes every element of `out` (`m×n`, row-major).
    fn gemm(p: Product<'_, Self>, out: &mut [Self], parallel: bool);
}

macro_rules! faer_gemm {
    ($t:ty) => {
        impl MatElem for $t {
            fn gemm(p: Product<'_, $t>, out: &mut [$t], parallel: bool) {
                let Product {
                    a,
                    ta,
                    b,
                    tb,
                    m,
                    k,
                    n,
                } = p;
                let a = if ta {
                    MatRef::from_row_major_slice(a, k, m).transpose()
                } else {
                    MatRef::from_row_major_slice(a, m, k)
                };
                let b = if tb {
                    MatRef::from_row_major_slice(b, n, k).transpose()
                } else {
                    MatRef::from_row_major_slice(b, k, n)
                };
                let par = if parallel {
                    Par::rayon(threads())
                } else {
                    Par::Seq
                };
                // `Replace` never reads `out`, which may be a recycled buffer.
                let dst = MatMut::from_row_major_slice_mut(out, m, n);
                matmul(dst, Accum::Replace, a, b, 1.0, par);
            }
        }
    };
}
faer_gemm!(f32);
faer_gemm!(f64);

macro_rules! int_gemm {
    ($t:ty) => {
        impl MatElem for $t {
            fn gemm(p: Product<'_, $t>, out: &mut [$t], parallel: bool) {
                int_product(p, out, parallel)
            }
        }
    };
}
int_gemm!(i32);
int_gemm!(i64);

/// Integer products: rows of the output, each an axpy over rows of `b` (or a
/// dot product with rows of `b` when `b` is transposed).
fn int_product<T: Num>(p: Product<'_, T>, out: &mut [T], parallel: bool) {
    let Product {
        a,
        ta,
        b,
        tb,
        m,
        k,
        n,
    } = p;
    if n == 0 {
        return;
    }
    let rows = |start: usize, dst: &mut [T]| {
        for (r, row) in dst.chunks_exact_mut(n).enumerate() {
            let i = start / n + r;
            let a_at = |q: usize| if ta { a[q * m + i] } else { a[i * k + q] };
            row.fill(T::ZERO);
            if tb {
                for (bj, o) in b.chunks_exact(k.max(1)).zip(row.iter_mut()) {
                    *o = (0..k).fold(T::ZERO, |s, q| s.add(a_at(q).mul(bj[q])));
                }
            } else {
                for (q, bq) in b.chunks_exact(n).enumerate().take(k) {
                    let aq = a_at(q);
                    for (o, &v) in row.iter_mut().zip(bq) {
                        *o = o.add(aq.mul(v));
                    }
                }
            }
        }
    };
    par_chunks(out, n, if parallel { threads() } else { 1 }, rows);
}

/// `(rows, cols)` of a stored matrix after the optional transpose.
fn op_dims(shape: &[usize], transposed: bool) -> (usize, usize) {
    let (r, c) = match shape {
        [.., r, c] => (*r, *c),
        _ => (0, 0),
    };
    if transposed { (c, r) } else { (r, c) }
}

fn mat_mul(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (a, b) = (ctx.input(0), ctx.input(1));
    for i in 0..2 {
        check_matrix(ctx.arg_name(i), ctx.input(i).shape())?;
    }
    let dtype = ctx.same_dtype(0, 1)?;
    let (ta, tb) = transposes(ctx.attrs)?;
    let dims = mat_mul_dims(a.shape(), ta, b.shape(), tb)?;
    let out = dispatch(ctx, dtype, a, ta, b, tb, &[], dims)?;
    Ok(outputs([out]))
}

// `MatMul`'s checks, shared with build-time inference (`infer`).

/// Checks that the input named `arg` is a matrix.
pub(super) fn check_matrix(arg: &str, shape: &[usize]) -> Result<()> {
    if shape.len() != 2 {
        return Err(Error::invalid(format!(
            "input '{arg}' must be a matrix (rank 2) but has shape {shape:?}"
        )));
    }
    Ok(())
}

/// `MatMul`'s `transpose_a` and `transpose_b`.
pub(super) fn transposes(attrs: &crate::ops::Attrs) -> Result<(bool, bool)> {
    Ok((
        attrs.bool("transpose_a", false)?,
        attrs.bool("transpose_b", false)?,
    ))
}

/// `(m, k, n)` of `a · b` (each transposed as told), or the error naming
/// both shapes when the inner dimensions differ.
pub(super) fn mat_mul_dims(
    a: &[usize],
    ta: bool,
    b: &[usize],
    tb: bool,
) -> Result<(usize, usize, usize)> {
    let (m, k) = op_dims(a, ta);
    let (k2, n) = op_dims(b, tb);
    if k != k2 {
        return Err(Error::invalid(format!(
            "inner dimensions differ: 'a' has shape {a:?}{} and 'b' has shape {b:?}{} ({k} vs {k2})",
            if ta { " (transposed)" } else { "" },
            if tb { " (transposed)" } else { "" },
        )));
    }
    Ok((m, k, n))
}

fn batch_mat_mul(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (x, y) = (ctx.input(0), ctx.input(1));
    for i in 0..2 {
        check_batch_operand(ctx.arg_name(i), ctx.input(i).shape())?;
    }
    let dtype = ctx.same_dtype(0, 1)?;
    let (adj_x, adj_y) = adjoints(ctx.attrs)?;
    let (batch, mkn) = batch_mat_mul_dims(x.shape(), adj_x, y.shape(), adj_y)?;
    let out = dispatch(ctx, dtype, x, adj_x, y, adj_y, &batch, mkn)?;
    Ok(outputs([out]))
}

// `BatchMatMulV2`'s checks, shared with build-time inference (`infer`).

/// Checks that the input named `arg` is a batch of matrices (rank >= 2).
pub(super) fn check_batch_operand(arg: &str, shape: &[usize]) -> Result<()> {
    if shape.len() < 2 {
        return Err(Error::invalid(format!(
            "input '{arg}' must have rank >= 2 but has shape {shape:?}"
        )));
    }
    Ok(())
}

/// `BatchMatMulV2`'s `adj_x` and `adj_y`.
pub(super) fn adjoints(attrs: &crate::ops::Attrs) -> Result<(bool, bool)> {
    Ok((attrs.bool("adj_x", false)?, attrs.bool("adj_y", false)?))
}

/// The broadcast batch dimensions and `(m, k, n)` of `x · y` (each of rank
/// >= 2, adjoint as told), or the error naming both shapes.
pub(super) fn batch_mat_mul_dims(
    x: &[usize],
    adj_x: bool,
    y: &[usize],
    adj_y: bool,
) -> Result<(Vec<usize>, (usize, usize, usize))> {
    let (m, k) = op_dims(x, adj_x);
    let (k2, n) = op_dims(y, adj_y);
    if k != k2 {
        return Err(Error::invalid(format!(
            "inner dimensions differ: 'x' has shape {x:?}{} and 'y' has shape {y:?}{} ({k} vs {k2})",
            if adj_x { " (adjoint)" } else { "" },
            if adj_y { " (adjoint)" } else { "" },
        )));
    }
    let (xb, yb) = (&x[..x.len() - 2], &y[..y.len() - 2]);
    let batch = broadcast_shapes(xb, yb).ok_or_else(|| {
        Error::invalid(format!(
            "batch dimensions do not broadcast: 'x' has shape {x:?} and 'y' has shape {y:?}"
        ))
    })?;
    Ok((batch, (m, k, n)))
}

/// `BatchMatMulV3`'s check that `Tout` (if set) is the dtype `d` of input 'x'.
pub(super) fn check_tout(attrs: &crate::ops::Attrs, d: DataType) -> Result<()> {
    match attrs.dtype("Tout")? {
        Some(out) if out != d => Err(Error::invalid(format!(
            "attribute 'Tout' is {out} but only the inputs' dtype {d} is supported"
        ))),
        _ => Ok(()),
    }
}

fn batch_mat_mul_v3(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    check_tout(ctx.attrs, ctx.input(0).dtype())?;
    batch_mat_mul(ctx)
}

#[allow(clippy::too_many_arguments)]
fn dispatch(
    ctx: &OpContext<'_>,
    dtype: DataType,
    x: &Tensor,
    tx: bool,
    y: &Tensor,
    ty: bool,
    batch: &[usize],
    mkn: (usize, usize, usize),
) -> Result<Tensor> {
    match dtype {
        DataType::Float => batched::<f32>(ctx, x, tx, y, ty, batch, mkn),
        DataType::Double => batched::<f64>(ctx, x, tx, y, ty, batch, mkn),
        DataType::Int32 => batched::<i32>(ctx, x, tx, y, ty, batch, mkn),
        DataType::Int64 => batched::<i64>(ctx, x, tx, y, ty, batch, mkn),
        _ => Err(ctx.unsupported_dtype(0)),
    }
}

/// For each batch dimension of the output, how many matrices one step moves
/// through an operand whose batch dimensions are `dims` (right-aligned; 0
/// where the operand is broadcast).
fn batch_strides(dims: &[usize], out: &[usize]) -> Vec<usize> {
    // One entry per axis: at most alloc::MAX_RANK.
    #[allow(clippy::disallowed_macros, clippy::disallowed_methods)]
    let mut strides = vec![0; out.len()];
    let mut step = 1;
    for (s, &d) in strides.iter_mut().rev().zip(dims.iter().rev()) {
        *s = if d == 1 { 0 } else { step };
        step *= d;
    }
    strides
}

fn batched<T: MatElem>(
    ctx: &OpContext<'_>,
    x: &Tensor,
    tx: bool,
    y: &Tensor,
    ty: bool,
    batch: &[usize],
    (m, k, n): (usize, usize, usize),
) -> Result<Tensor> {
    let (xs, ys) = (x.as_slice::<T>()?, y.as_slice::<T>()?);
    let mut out_shape = alloc::copied(batch)?;
    out_shape.extend([m, n]);
    let total = num_elements(&out_shape)?;
    let mut out = ctx.alloc_initialized::<T>(total)?;
    if total == 0 {
        return out.into_tensor(out_shape);
    }
    let (xsz, ysz, osz) = (m * k, k * n, m * n);
    let xst = batch_strides(&x.shape()[..x.rank() - 2], batch);
    let yst = batch_strides(&y.shape()[..y.rank() - 2], batch);
    // The operands of output matrix `i`: one division per matrix, not per element.
    let operands = |mut i: usize| {
        let (mut xo, mut yo) = (0, 0);
        for ((&d, &sx), &sy) in batch.iter().zip(&xst).zip(&yst).rev() {
            let c = i % d;
            i /= d;
            xo += c * sx;
            yo += c * sy;
        }
        let a = xs.get(xo * xsz..(xo + 1) * xsz).unwrap_or(&[]);
        let b = ys.get(yo * ysz..(yo + 1) * ysz).unwrap_or(&[]);
        Product {
            a,
            ta: tx,
            b,
            tb: ty,
            m,
            k,
            n,
        }
    };
    let macs = m.saturating_mul(n).saturating_mul(k);
    let matrices = total / osz;
    let one = |start: usize, dst: &mut [T], parallel: bool| {
        for (j, o) in dst.chunks_exact_mut(osz).enumerate() {
            let p = operands(start / osz + j);
            if p.a.len() == xsz && p.b.len() == ysz {
                T::gemm(p, o, parallel);
            }
        }
    };
    if macs >= PAR_MIN_MACS && threads() > 1 {
        one(0, &mut out.data, true);
    } else if matrices > 1 && worth_threads(macs.saturating_add(256).saturating_mul(matrices)) {
        // Many small products (each with a fixed cost of a few hundred
        // element visits): whole matrices to each thread.
        par_chunks(&mut out.data, osz, threads(), |s, d| one(s, d, false));
    } else {
        one(0, &mut out.data, false);
    }
    out.into_tensor(out_shape)
}
