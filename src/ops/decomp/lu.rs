//! `MatrixDeterminant`, `MatrixInverse` and `MatrixSolve`: LU factorization
//! with partial pivoting (faer's), one matrix of the batch at a time, as
//! TensorFlow's CPU kernels factor with Eigen's `PartialPivLU`.

use std::mem::MaybeUninit;

use faer::linalg::lu::partial_pivoting::{factor, inverse as lu_inverse, solve as lu_solve};
use faer::perm::PermRef;
use faer::{MatMut, MatRef, Par};

use super::{
    Real, batch_then, float_dtype, load, matrices, square, stack, stack_room, store, work,
};
use crate::alloc;
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::ops::parallel::threads;
use crate::ops::{KernelOutputs, OpContext, outputs};
use crate::scratch::Scratch;
use crate::tensor::{Tensor, num_elements};

/// Matrices from this size on are factored on every core.
const PAR_MIN_DIM: usize = 256;

pub(super) fn par(n: usize) -> Par {
    if n >= PAR_MIN_DIM && threads() > 1 {
        Par::rayon(threads())
    } else {
        Par::Seq
    }
}

/// One `n x n` matrix's LU factorization and what it is used for.
struct Lu {
    n: usize,
    a: Scratch<f64>,
    perm: Vec<usize>,
    perm_inv: Vec<usize>,
    room: Vec<MaybeUninit<u8>>,
}

impl Lu {
    /// Room to factor `n x n` matrices and then solve for `rhs_cols`
    /// right-hand sides (or invert, when `invert`).
    fn new(ctx: &OpContext<'_>, n: usize, rhs_cols: usize, invert: bool) -> Result<Lu> {
        let par = par(n);
        let mut req = factor::lu_in_place_scratch::<usize, f64>(n, n, par, Default::default()).or(
            lu_solve::solve_in_place_scratch::<usize, f64>(n, rhs_cols, par),
        );
        if invert {
            req = req.or(lu_inverse::inverse_scratch::<usize, f64>(n, par));
        }
        Ok(Lu {
            n,
            a: work(ctx, n * n)?,
            perm: alloc::filled(n, 0)?,
            perm_inv: alloc::filled(n, 0)?,
            room: stack_room(req)?,
        })
    }

    /// Factors `self.a` in place; then calls `then` with the factors (L and
    /// U share one matrix), the row permutation and the workspace. Returns
    /// the number of row transpositions and whether a pivot is zero.
    fn factor_then<R>(
        &mut self,
        then: impl FnOnce(MatRef<'_, f64>, PermRef<'_, usize>, &mut faer::dyn_stack::MemStack) -> R,
    ) -> (usize, bool, R) {
        let n = self.n;
        let a = MatMut::from_row_major_slice_mut(&mut self.a[..n * n], n, n);
        let (info, perm) = factor::lu_in_place(
            a,
            &mut self.perm,
            &mut self.perm_inv,
            par(n),
            stack(&mut self.room),
            Default::default(),
        );
        let lu = MatRef::from_row_major_slice(&self.a[..n * n], n, n);
        let singular = (0..n).any(|i| lu[(i, i)] == 0.0);
        let r = then(lu, perm, stack(&mut self.room));
        (info.transposition_count, singular, r)
    }
}

/// The error for a matrix with a zero pivot: TensorFlow's message, then
/// which matrix of which input.
fn not_invertible(what: &str, index: usize, arg: &str, shape: &[usize]) -> Error {
    Error::invalid(format!(
        "{what} is not invertible: matrix {index} of input '{arg}' (shape {shape:?}) has a zero pivot in its LU factorization"
    ))
}

pub(super) fn determinant(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let d = float_dtype(ctx, 0)?;
    let (batch, n) = square(ctx.arg_name(0), x.shape())?;
    let shape = alloc::copied(batch)?;
    let out = match d {
        DataType::Float => det::<f32>(ctx, x, shape, n),
        _ => det::<f64>(ctx, x, shape, n),
    }?;
    Ok(outputs([out]))
}

/// The determinant from the LU factors (before the permutation's sign) as
/// TensorFlow computes it: the sign
/// and the log of the absolute value, then `sign * exp(log)`; a log that is
/// not finite (a zero pivot, NaN) gives 0, or NaN for +inf.
fn det_of(lu: MatRef<'_, f64>) -> f64 {
    let mut sign = 1.0;
    let mut log = 0.0;
    for i in 0..lu.nrows() {
        let u = lu[(i, i)];
        log += u.abs().ln();
        sign *= u.signum();
    }
    if log.is_finite() {
        sign * log.exp()
    } else if log > 0.0 {
        f64::NAN
    } else {
        0.0
    }
}

fn det<T: Real>(ctx: &OpContext<'_>, x: &Tensor, shape: Vec<usize>, n: usize) -> Result<Tensor> {
    let xs = x.as_slice::<T>()?;
    let count = num_elements(&shape)?;
    let mut out = ctx.alloc_initialized::<T>(count)?;
    if n == 0 {
        // The determinant of an empty matrix is 1.
        out.data.fill(T::from64(1.0));
        return out.into_tensor(shape);
    }
    let mut lu = Lu::new(ctx, n, 0, false)?;
    for (o, m) in out.data.iter_mut().zip(xs.chunks_exact(n * n)) {
        load(m, n, n, false, &mut lu.a);
        let (t, _, d) = lu.factor_then(|f, _, _| det_of(f));
        // An odd permutation flips the sign (of a determinant that is not 0).
        *o = T::from64(if t % 2 == 1 && d != 0.0 { -d } else { d });
    }
    out.into_tensor(shape)
}

pub(super) fn inverse(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let d = float_dtype(ctx, 0)?;
    let (_, n) = square(ctx.arg_name(0), x.shape())?;
    let adjoint = ctx.attrs.bool("adjoint", false)?;
    let out = match d {
        DataType::Float => inv::<f32>(ctx, x, n, adjoint),
        _ => inv::<f64>(ctx, x, n, adjoint),
    }?;
    Ok(outputs([out]))
}

fn inv<T: Real>(ctx: &OpContext<'_>, x: &Tensor, n: usize, adjoint: bool) -> Result<Tensor> {
    let xs = x.as_slice::<T>()?;
    let shape = alloc::copied(x.shape())?;
    let mut out = ctx.alloc_initialized::<T>(xs.len())?;
    if n == 0 {
        return out.into_tensor(shape);
    }
    let mut lu = Lu::new(ctx, n, n, true)?;
    let mut result = work(ctx, n * n)?;
    for (i, (o, m)) in out
        .data
        .chunks_exact_mut(n * n)
        .zip(xs.chunks_exact(n * n))
        .enumerate()
    {
        load(m, n, n, adjoint, &mut lu.a);
        let dst = MatMut::from_row_major_slice_mut(&mut result[..n * n], n, n);
        let (_, singular, ()) = lu.factor_then(|f, perm, st| {
            lu_inverse::inverse(dst, f, f, perm, par(n), st);
        });
        if singular {
            return Err(not_invertible("Input", i, ctx.arg_name(0), x.shape()));
        }
        store(&result, o);
    }
    out.into_tensor(shape)
}

pub(super) fn solve(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (a, b) = (ctx.input(0), ctx.input(1));
    let d = float_dtype(ctx, 0)?;
    ctx.same_dtype(0, 1)?;
    let (n, k) = solve_dims((ctx.arg_name(0), a.shape()), (ctx.arg_name(1), b.shape()))?;
    let adjoint = ctx.attrs.bool("adjoint", false)?;
    let out = match d {
        DataType::Float => solve_all::<f32>(ctx, a, b, n, k, adjoint),
        _ => solve_all::<f64>(ctx, a, b, n, k, adjoint),
    }?;
    Ok(outputs([out]))
}

/// `MatrixSolve`'s checks (shared with `infer`): `matrix` is `[..., M, M]`,
/// `rhs` is `[..., M, K]` with the same batch dimensions. Returns `(M, K)`.
pub(super) fn solve_dims(
    (an, a): (&str, &[usize]),
    (bn, b): (&str, &[usize]),
) -> Result<(usize, usize)> {
    let (ab, n) = square(an, a)?;
    let (bb, rows, k) = matrices(bn, b)?;
    if ab != bb {
        return Err(Error::invalid(format!(
            "inputs '{an}' and '{bn}' must have the same batch dimensions, but have shapes {a:?} and {b:?}"
        )));
    }
    if rows != n {
        return Err(Error::invalid(format!(
            "input '{bn}' must have as many rows as '{an}' has: shapes {a:?} and {b:?} ({rows} vs {n})"
        )));
    }
    Ok((n, k))
}

fn solve_all<T: Real>(
    ctx: &OpContext<'_>,
    a: &Tensor,
    b: &Tensor,
    n: usize,
    k: usize,
    adjoint: bool,
) -> Result<Tensor> {
    let (xs, ys) = (a.as_slice::<T>()?, b.as_slice::<T>()?);
    let shape = batch_then(&b.shape()[..b.rank() - 2], &[n, k])?;
    let mut out = ctx.alloc_initialized::<T>(ys.len())?;
    if n == 0 || k == 0 {
        return out.into_tensor(shape);
    }
    let mut lu = Lu::new(ctx, n, k, false)?;
    let mut rhs = work(ctx, n * k)?;
    for (i, ((o, m), r)) in out
        .data
        .chunks_exact_mut(n * k)
        .zip(xs.chunks_exact(n * n))
        .zip(ys.chunks_exact(n * k))
        .enumerate()
    {
        load(m, n, n, adjoint, &mut lu.a);
        load(r, n, k, false, &mut rhs);
        let dst = MatMut::from_row_major_slice_mut(&mut rhs[..n * k], n, k);
        let (_, singular, ()) = lu.factor_then(|f, perm, st| {
            lu_solve::solve_in_place(f, f, perm, dst, par(n), st);
        });
        if singular {
            return Err(not_invertible(
                "Input matrix",
                i,
                ctx.arg_name(0),
                a.shape(),
            ));
        }
        store(&rhs, o);
    }
    out.into_tensor(shape)
}
