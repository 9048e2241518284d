//! `MatrixDiagV2`/`V3` and `MatrixDiagPartV2`/`V3`: a band of diagonals
//! `k = [lower, upper]` (a scalar `k` is one diagonal) written into matrices
//! of a given size, or read out of them, with `padding_value` where a
//! diagonal is shorter than the longest. Diagonals are stored from `upper`
//! down to `lower`; V3's `align` says which end of a short one is padded
//! (its first half for superdiagonals, its second for subdiagonals; V2
//! aligns both to the left).

use crate::alloc;
use crate::bail;
use crate::dtype::{DataType, Element};
use crate::error::Result;
use crate::ops::attrs::Attrs;
use crate::ops::shape::check_scalar;
use crate::ops::{KernelOutputs, OpContext, int_values, outputs};
use crate::tensor::{Tensor, num_elements};
use crate::with_dtype;

/// Whether superdiagonals and subdiagonals are aligned left.
#[derive(Clone, Copy)]
struct Align {
    left_super: bool,
    left_sub: bool,
}

impl Align {
    const LEFT_LEFT: Align = Align {
        left_super: true,
        left_sub: true,
    };

    /// V3's `align` attribute (default `RIGHT_LEFT`).
    fn from_attrs(attrs: &Attrs) -> Result<Align> {
        let (left_super, left_sub) = match attrs.string("align")?.unwrap_or("RIGHT_LEFT") {
            "LEFT_RIGHT" => (true, false),
            "RIGHT_LEFT" => (false, true),
            "LEFT_LEFT" => (true, true),
            "RIGHT_RIGHT" => (false, false),
            other => bail!(
                "attribute 'align' must be LEFT_RIGHT, RIGHT_LEFT, LEFT_LEFT or RIGHT_RIGHT, \
                 not '{other}'"
            ),
        };
        Ok(Align {
            left_super,
            left_sub,
        })
    }

    /// Where diagonal `d`, of length `len`, starts in a row of `max_len`.
    fn offset(self, d: i64, len: i64, max_len: i64) -> i64 {
        if (d >= 0 && !self.left_super) || (d <= 0 && !self.left_sub) {
            max_len - len
        } else {
            0
        }
    }
}

/// The length of diagonal `d` of an `m x n` matrix (0 or less if it has none).
fn diag_len(m: i64, n: i64, d: i64) -> i64 {
    (m + d.min(0)).min(n - d.max(0))
}

/// Input `i`, `k`: a scalar or a vector of one or two INT32 values, as the
/// band `(lower, upper)`.
fn band(ctx: &OpContext<'_>, i: usize) -> Result<(i64, i64)> {
    let t = ctx.input(i);
    ctx.expect_dtype(i, &[DataType::Int32])?;
    if t.rank() > 1 || t.num_elements() == 0 || t.num_elements() > 2 {
        bail!(
            "input 'k' must be a scalar or a vector of one or two elements but has shape {:?}",
            t.shape()
        );
    }
    let k = int_values(ctx, i)?;
    let (lower, upper) = (k[0], k[k.len() - 1]);
    if lower > upper {
        bail!("k[0] = {lower} must not be larger than k[1] = {upper}");
    }
    Ok((lower, upper))
}

/// Input `i`, an INT32 scalar.
fn int_scalar(ctx: &OpContext<'_>, i: usize) -> Result<i64> {
    ctx.expect_dtype(i, &[DataType::Int32])?;
    check_scalar(ctx.arg_name(i), ctx.input(i).shape())?;
    Ok(int_values(ctx, i)?.first().copied().unwrap_or(0))
}

pub(super) fn matrix_diag_v2(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    matrix_diag(ctx, Align::LEFT_LEFT)
}

pub(super) fn matrix_diag_v3(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    matrix_diag(ctx, Align::from_attrs(ctx.attrs)?)
}

fn matrix_diag(ctx: &OpContext<'_>, align: Align) -> Result<KernelOutputs> {
    let diagonal = ctx.input(0);
    let (lower, upper) = band(ctx, 1)?;
    let rows = int_scalar(ctx, 2)?;
    let cols = int_scalar(ctx, 3)?;
    ctx.same_dtype(0, 4)?;
    check_scalar(ctx.arg_name(4), ctx.input(4).shape())?;
    let shape = diagonal.shape();
    let Some(&max_len) = shape.last() else {
        bail!("input 'diagonal' must have rank 1 or more but is a scalar");
    };
    let num_diags = upper - lower + 1;
    let batch_rank = if lower == upper {
        shape.len() - 1
    } else {
        match shape.len().checked_sub(2) {
            Some(r) if shape[r] as i64 == num_diags => r,
            _ => bail!(
                "input 'diagonal' has shape {shape:?}, but k = [{lower}, {upper}] needs \
                 [..., {num_diags}, max_diag_len]"
            ),
        }
    };
    let max_len = max_len as i64;
    let min_rows = max_len - upper.min(0);
    let min_cols = max_len + lower.max(0);
    let (rows, cols) = match (rows, cols) {
        (-1, -1) => (min_rows.max(min_cols), min_rows.max(min_cols)),
        (-1, c) => (min_rows, c),
        (r, -1) => (r, min_cols),
        rc => rc,
    };
    if rows < min_rows || cols < min_cols || (rows != min_rows && cols != min_cols) {
        bail!(
            "num_rows {rows} and num_cols {cols} do not fit k = [{lower}, {upper}] and \
             diagonals of length {max_len} (at least {min_rows} rows and {min_cols} columns, \
             one of them exactly)"
        );
    }
    let mut out_shape = alloc::with_room(batch_rank + 2)?;
    out_shape.extend_from_slice(&shape[..batch_rank]);
    out_shape.push(rows as usize);
    out_shape.push(cols as usize);
    num_elements(&out_shape)?;
    let out = with_dtype!(diagonal.dtype(), T => {
        let pad = ctx.input(4).scalar_value::<T>()?;
        let ds = diagonal.as_slice::<T>()?;
        let per_batch = (num_diags.max(1) * max_len) as usize;
        let n = num_elements(&out_shape)?;
        let mut out = ctx.alloc::<T>(n)?;
        let batches = num_elements(&shape[..batch_rank])?;
        if n > 0 {
            for b in 0..batches {
                for m in 0..rows {
                    for c in 0..cols {
                        let d = c - m;
                        let v = if d < lower || d > upper {
                            pad
                        } else {
                            let off = align.offset(d, diag_len(rows, cols, d), max_len);
                            let j = m.min(c) + off;
                            let at = (b * per_batch) as i64 + (upper - d) * max_len + j;
                            usize::try_from(at).ok().and_then(|a| ds.get(a)).copied().unwrap_or(pad)
                        };
                        out.data.push(v);
                    }
                }
            }
        }
        out.into_tensor(out_shape)?
    });
    Ok(outputs([out]))
}

pub(super) fn matrix_diag_part_v2(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    matrix_diag_part(ctx, Align::LEFT_LEFT)
}

pub(super) fn matrix_diag_part_v3(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    matrix_diag_part(ctx, Align::from_attrs(ctx.attrs)?)
}

fn matrix_diag_part(ctx: &OpContext<'_>, align: Align) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let shape = x.shape();
    let (rows, cols) = super::matrix::matrix_dims(ctx.arg_name(0), shape)?;
    let (lower, upper) = band(ctx, 1)?;
    ctx.same_dtype(0, 2)?;
    check_scalar(ctx.arg_name(2), ctx.input(2).shape())?;
    let (rows, cols) = (rows as i64, cols as i64);
    for (name, k) in [("k[0]", lower), ("k[1]", upper)] {
        if !((-rows < k && k < cols) || k == 0) {
            bail!(
                "{name} = {k} is out of bounds for {rows}x{cols} matrices: it must be in ({}, {cols})",
                -rows
            );
        }
    }
    // The longest diagonal of the band.
    let max_len = (rows + upper.min(0)).min(cols - lower.max(0)).max(0);
    let batch = &shape[..shape.len() - 2];
    let mut out_shape = alloc::with_room(batch.len() + 2)?;
    out_shape.extend_from_slice(batch);
    if lower != upper {
        out_shape.push((upper - lower + 1) as usize);
    }
    out_shape.push(max_len as usize);
    let out = with_dtype!(x.dtype(), T => diag_part::<T>(ctx, x, out_shape, (lower, upper), max_len, align)?);
    Ok(outputs([out]))
}

fn diag_part<T: Element>(
    ctx: &OpContext<'_>,
    x: &Tensor,
    out_shape: Vec<usize>,
    (lower, upper): (i64, i64),
    max_len: i64,
    align: Align,
) -> Result<Tensor> {
    let pad = ctx.input(2).scalar_value::<T>()?;
    let shape = x.shape();
    let (rows, cols) = (shape[shape.len() - 2] as i64, shape[shape.len() - 1] as i64);
    let n = num_elements(&out_shape)?;
    let mut out = ctx.alloc::<T>(n)?;
    let xs = x.as_slice::<T>()?;
    let per = (rows * cols) as usize;
    let batches = num_elements(&shape[..shape.len() - 2])?;
    if n > 0 {
        for b in 0..batches {
            for d in (lower..=upper).rev() {
                let len = diag_len(rows, cols, d);
                let off = align.offset(d, len, max_len);
                for j in 0..max_len {
                    let pos = j - off;
                    let v = if pos >= 0 && pos < len {
                        let (m, c) = (pos + (-d).max(0), pos + d.max(0));
                        xs.get(b * per + (m * cols + c) as usize)
                            .copied()
                            .unwrap_or(pad)
                    } else {
                        pad
                    };
                    out.data.push(v);
                }
            }
        }
    }
    out.into_tensor(out_shape)
}
