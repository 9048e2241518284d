//! Ops on the innermost two dimensions (a batch of matrices):
//! `MatrixBandPart`, which zeroes what lies outside a band around the
//! diagonal, and the first versions of `MatrixDiag` (a batch of vectors made
//! diagonal matrices) and `MatrixDiagPart` (the main diagonals of a batch of
//! matrices, of length `min(rows, columns)`).

use crate::alloc;
use crate::bail;
use crate::dtype::Element;
use crate::error::Result;
use crate::ops::shape::check_scalar;
use crate::ops::{KernelOutputs, OpContext, int_values, outputs};
use crate::tensor::{Tensor, num_elements};
use crate::with_dtype;

/// The rows and columns of the innermost matrices of `shape` (named `arg`),
/// which must have rank 2 or more. Shared with build-time inference.
pub(in crate::ops) fn matrix_dims(arg: &str, shape: &[usize]) -> Result<(usize, usize)> {
    match *shape {
        [.., rows, cols] => Ok((rows, cols)),
        _ => bail!("input '{arg}' must have rank 2 or more but has shape {shape:?}"),
    }
}

pub(super) fn band_part(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let (rows, cols) = matrix_dims(ctx.arg_name(0), x.shape())?;
    ctx.same_dtype(1, 2)?;
    let mut bounds = [0i64; 2];
    for (k, (i, limit, what)) in [(1, rows, "rows"), (2, cols, "columns")]
        .into_iter()
        .enumerate()
    {
        check_scalar(ctx.arg_name(i), ctx.input(i).shape())?;
        let v = int_values(ctx, i)?.first().copied().unwrap_or(-1);
        if v > limit as i64 {
            bail!(
                "input '{}' = {v} must be negative or at most the number of {what} ({limit})",
                ctx.arg_name(i)
            );
        }
        bounds[k] = v;
    }
    let [lower, upper] = bounds;
    let out = with_dtype!(x.dtype(), T => {
        let keep = |r: usize, c: usize| {
            let (r, c) = (r as i64, c as i64);
            (lower < 0 || r - c <= lower) && (upper < 0 || c - r <= upper)
        };
        let xs = x.as_slice::<T>()?;
        let mut out = ctx.alloc::<T>(xs.len())?;
        let per = rows.saturating_mul(cols).max(1);
        out.data.extend(xs.iter().enumerate().map(|(i, &v)| {
            let at = i % per;
            if keep(at / cols.max(1), at % cols.max(1)) { v } else { T::default() }
        }));
        out.into_tensor(alloc::copied(x.shape())?)?
    });
    Ok(outputs([out]))
}

/// `MatrixDiag`'s output shape: `diagonal`'s with its last dimension
/// repeated. Shared with build-time inference.
pub(in crate::ops) fn diag_shape(shape: &[usize]) -> Result<Vec<usize>> {
    let Some(&n) = shape.last() else {
        bail!("input 'diagonal' must have rank 1 or more but is a scalar");
    };
    if shape.len() >= alloc::MAX_RANK {
        bail!(
            "input 'diagonal' has rank {}: the output's would pass the maximum of {}",
            shape.len(),
            alloc::MAX_RANK
        );
    }
    let mut out = alloc::with_room(shape.len() + 1)?;
    out.extend_from_slice(shape);
    out.push(n);
    num_elements(&out)?;
    Ok(out)
}

/// `MatrixDiagPart`'s output shape: the batch dimensions and the length of
/// the main diagonal. Shared with build-time inference.
pub(in crate::ops) fn diag_part_shape(shape: &[usize]) -> Result<Vec<usize>> {
    let (rows, cols) = matrix_dims("input", shape)?;
    let mut out = alloc::with_room(shape.len() - 1)?;
    out.extend_from_slice(&shape[..shape.len() - 2]);
    out.push(rows.min(cols));
    Ok(out)
}

pub(super) fn matrix_diag(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let d = ctx.input(0);
    let shape = diag_shape(d.shape())?;
    let out = with_dtype!(d.dtype(), T => diag::<T>(ctx, d, shape)?);
    Ok(outputs([out]))
}

fn diag<T: Element>(ctx: &OpContext<'_>, d: &Tensor, shape: Vec<usize>) -> Result<Tensor> {
    let n = num_elements(&shape)?;
    let mut out = ctx.alloc::<T>(n)?;
    let len = d.shape().last().copied().unwrap_or(0);
    if len > 0 {
        for row in d.as_slice::<T>()?.chunks(len) {
            for (r, &v) in row.iter().enumerate() {
                out.data.extend(std::iter::repeat_n(T::default(), r));
                out.data.push(v);
                out.data
                    .extend(std::iter::repeat_n(T::default(), len - r - 1));
            }
        }
    }
    out.into_tensor(shape)
}

pub(super) fn matrix_diag_part(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let shape = diag_part_shape(x.shape())?;
    let (rows, cols) = matrix_dims("input", x.shape())?;
    let out = with_dtype!(x.dtype(), T => {
        let n = num_elements(&shape)?;
        let mut out = ctx.alloc::<T>(n)?;
        let per = rows * cols;
        if per > 0 {
            for m in x.as_slice::<T>()?.chunks(per) {
                out.data.extend((0..rows.min(cols)).filter_map(|i| m.get(i * cols + i).copied()));
            }
        }
        out.into_tensor(shape)?
    });
    Ok(outputs([out]))
}
