//! Build-time inference (see `ops::infer`) for the single-output ops of this
//! family, through the kernels' own checks.

use super::lu::solve_dims;
use super::tri::triangular_shape;
use super::{FLOATS, square};
use crate::dtype::DataType;
use crate::error::Result;
use crate::ops::infer::{InferCtx, Meta};
use crate::ops::{expect_dtype, same_dtype};

fn meta(dtype: Option<DataType>, shape: Option<Vec<usize>>) -> Meta {
    Meta {
        dtype,
        shape: shape.map(Vec::into_boxed_slice),
    }
}

/// Input 0's dtype, checked, if known.
fn float_of(ctx: &InferCtx<'_>) -> Result<Option<DataType>> {
    ctx.named_dtype(0)
        .map(|(n, d)| expect_dtype(n, d, FLOATS))
        .transpose()
}

/// `MatrixDeterminant`: the batch dimensions of square matrices.
pub(super) fn determinant(ctx: &InferCtx<'_>) -> Result<Meta> {
    let d = float_of(ctx)?;
    let Some((name, shape)) = ctx.named_shape(0) else {
        return Ok(meta(d, None));
    };
    let (batch, _) = square(name, shape)?;
    Ok(meta(d, Some(crate::alloc::copied(batch)?)))
}

/// `MatrixInverse` and `Cholesky`: square matrices, same shape out.
pub(super) fn square_same(ctx: &InferCtx<'_>) -> Result<Meta> {
    let d = float_of(ctx)?;
    let Some((name, shape)) = ctx.named_shape(0) else {
        return Ok(meta(d, None));
    };
    square(name, shape)?;
    Ok(meta(d, Some(crate::alloc::copied(shape)?)))
}

/// The checked dtype of two inputs, if known.
fn pair_dtype(ctx: &InferCtx<'_>) -> Result<Option<DataType>> {
    let d = float_of(ctx)?;
    if let (Some(a), Some(b)) = (ctx.named_dtype(0), ctx.named_dtype(1)) {
        same_dtype(a, b)?;
    }
    Ok(d)
}

pub(super) fn solve(ctx: &InferCtx<'_>) -> Result<Meta> {
    let d = pair_dtype(ctx)?;
    let (Some(a), Some(b)) = (ctx.named_shape(0), ctx.named_shape(1)) else {
        return Ok(meta(d, None));
    };
    solve_dims(a, b)?;
    Ok(meta(d, Some(crate::alloc::copied(b.1)?)))
}

pub(super) fn triangular_solve(ctx: &InferCtx<'_>) -> Result<Meta> {
    let d = pair_dtype(ctx)?;
    let (Some(a), Some(b)) = (ctx.named_shape(0), ctx.named_shape(1)) else {
        return Ok(meta(d, None));
    };
    Ok(meta(d, Some(triangular_shape(a, b)?)))
}
