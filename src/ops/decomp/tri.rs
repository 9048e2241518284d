//! `Cholesky` (faer's blocked LLᵀ) and `MatrixTriangularSolve` (faer's
//! triangular solves), one matrix of the batch at a time.

use faer::linalg::cholesky::llt::factor::{
    LltRegularization, cholesky_in_place, cholesky_in_place_scratch,
};
use faer::linalg::triangular_solve::{
    solve_lower_triangular_in_place, solve_upper_triangular_in_place,
};
use faer::{MatMut, MatRef};

use super::lu::par;
use super::{
    Real, batch_then, float_dtype, load, matrices, square, stack, stack_room, store, work,
};
use crate::alloc;
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::ops::broadcast::broadcast_shapes;
use crate::ops::{KernelOutputs, OpContext, outputs};
use crate::tensor::{Tensor, num_elements};

pub(super) fn cholesky(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let d = float_dtype(ctx, 0)?;
    let (_, n) = square(ctx.arg_name(0), x.shape())?;
    let out = match d {
        DataType::Float => chol::<f32>(ctx, x, n),
        _ => chol::<f64>(ctx, x, n),
    }?;
    Ok(outputs([out]))
}

fn chol<T: Real>(ctx: &OpContext<'_>, x: &Tensor, n: usize) -> Result<Tensor> {
    let xs = x.as_slice::<T>()?;
    let shape = alloc::copied(x.shape())?;
    let mut out = ctx.alloc_initialized::<T>(xs.len())?;
    if n == 0 {
        return out.into_tensor(shape);
    }
    let mut a = work(ctx, n * n)?;
    let mut room = stack_room(cholesky_in_place_scratch::<f64>(
        n,
        par(n),
        Default::default(),
    ))?;
    for (i, (o, m)) in out
        .data
        .chunks_exact_mut(n * n)
        .zip(xs.chunks_exact(n * n))
        .enumerate()
    {
        // Only the lower triangle is read, as TensorFlow's kernel reads it;
        // the output's upper triangle is zero.
        for (r, (dst, src)) in a.chunks_exact_mut(n).zip(m.chunks_exact(n)).enumerate() {
            for (c, (d, &v)) in dst.iter_mut().zip(src).enumerate() {
                *d = if c <= r { v.to64() } else { 0.0 };
            }
        }
        let f = MatMut::from_row_major_slice_mut(&mut a[..n * n], n, n);
        let done = cholesky_in_place(
            f,
            LltRegularization::default(),
            par(n),
            stack(&mut room),
            Default::default(),
        );
        if let Err(e) = done {
            let faer::linalg::cholesky::llt::factor::LltError::NonPositivePivot { index } = e;
            return Err(Error::invalid(format!(
                "Cholesky decomposition was not successful. The input might not be valid: \
                 matrix {i} of input '{}' (shape {:?}) is not positive definite (pivot {index} is not positive)",
                ctx.arg_name(0),
                x.shape()
            )));
        }
        for (r, row) in a.chunks_exact_mut(n).enumerate() {
            row.iter_mut().skip(r + 1).for_each(|v| *v = 0.0);
        }
        store(&a, o);
    }
    out.into_tensor(shape)
}

pub(super) fn triangular_solve(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (a, b) = (ctx.input(0), ctx.input(1));
    let d = float_dtype(ctx, 0)?;
    ctx.same_dtype(0, 1)?;
    let shape = triangular_shape((ctx.arg_name(0), a.shape()), (ctx.arg_name(1), b.shape()))?;
    let lower = ctx.attrs.bool("lower", true)?;
    let adjoint = ctx.attrs.bool("adjoint", false)?;
    let out = match d {
        DataType::Float => tri_all::<f32>(ctx, a, b, shape, lower, adjoint),
        _ => tri_all::<f64>(ctx, a, b, shape, lower, adjoint),
    }?;
    Ok(outputs([out]))
}

/// `MatrixTriangularSolve`'s checks (shared with `infer`): `matrix` is
/// `[..., M, M]`, `rhs` `[..., M, K]`, their batch dimensions broadcast.
/// Returns the output's shape.
pub(super) fn triangular_shape(
    (an, a): (&str, &[usize]),
    (bn, b): (&str, &[usize]),
) -> Result<Vec<usize>> {
    let (ab, n) = square(an, a)?;
    let (bb, rows, k) = matrices(bn, b)?;
    let batch = broadcast_shapes(ab, bb).ok_or_else(|| {
        Error::invalid(format!(
            "batch dimensions do not broadcast: '{an}' has shape {a:?} and '{bn}' has shape {b:?}"
        ))
    })?;
    if rows != n {
        return Err(Error::invalid(format!(
            "input '{bn}' must have as many rows as '{an}' has: shapes {a:?} and {b:?} ({rows} vs {n})"
        )));
    }
    batch_then(&batch, &[n, k])
}

/// Index of the operand matrix (batch dimensions `dims`) that output matrix
/// `i` (batch dimensions `out`) reads, broadcasting size-1 dimensions.
fn operand_index(mut i: usize, dims: &[usize], out: &[usize]) -> usize {
    let (mut at, mut step) = (0, 1);
    for (k, &o) in out.iter().enumerate().rev() {
        let c = i % o.max(1);
        i /= o.max(1);
        let back = out.len() - 1 - k;
        if let Some(&d) = dims.len().checked_sub(back + 1).and_then(|j| dims.get(j)) {
            if d != 1 {
                at += c * step;
            }
            step *= d;
        }
    }
    at
}

fn tri_all<T: Real>(
    ctx: &OpContext<'_>,
    a: &Tensor,
    b: &Tensor,
    shape: Vec<usize>,
    lower: bool,
    adjoint: bool,
) -> Result<Tensor> {
    let (xs, ys) = (a.as_slice::<T>()?, b.as_slice::<T>()?);
    let total = num_elements(&shape)?;
    let mut out = ctx.alloc_initialized::<T>(total)?;
    let (batch, n, k) = matrices("output", &shape)?;
    if total == 0 {
        return out.into_tensor(shape);
    }
    let (ab, bb) = (&a.shape()[..a.rank() - 2], &b.shape()[..b.rank() - 2]);
    let mut m = work(ctx, n * n)?;
    let mut rhs = work(ctx, n * k)?;
    for (i, o) in out.data.chunks_exact_mut(n * k).enumerate() {
        let ai = operand_index(i, ab, batch);
        let bi = operand_index(i, bb, batch);
        let (Some(src), Some(r)) = (
            xs.get(ai * n * n..(ai + 1) * n * n),
            ys.get(bi * n * k..(bi + 1) * n * k),
        ) else {
            return Err(Error::invalid("operand index out of range"));
        };
        // Only the triangle `lower` names is read: the other is zeroed.
        for (row, (dst, s)) in m.chunks_exact_mut(n).zip(src.chunks_exact(n)).enumerate() {
            for (c, (d, &v)) in dst.iter_mut().zip(s).enumerate() {
                let kept = if lower { c <= row } else { c >= row };
                *d = if kept { v.to64() } else { 0.0 };
            }
        }
        load(r, n, k, false, &mut rhs);
        let mat = MatRef::from_row_major_slice(&m[..n * n], n, n);
        let dst = MatMut::from_row_major_slice_mut(&mut rhs[..n * k], n, k);
        // The adjoint of a lower triangle is an upper one and vice versa.
        match (lower, adjoint) {
            (true, false) => solve_lower_triangular_in_place(mat, dst, par(n)),
            (true, true) => solve_upper_triangular_in_place(mat.transpose(), dst, par(n)),
            (false, false) => solve_upper_triangular_in_place(mat, dst, par(n)),
            (false, true) => solve_lower_triangular_in_place(mat.transpose(), dst, par(n)),
        }
        store(&rhs, o);
    }
    out.into_tensor(shape)
}
