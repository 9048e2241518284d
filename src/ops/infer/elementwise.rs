//! Element-wise ops: binary arithmetic and comparisons (NumPy broadcasting),
//! logical ops, and ops that keep their input's dtype and shape (unary
//! math, activations, `Identity`) or its shape only (`Cast`).

use super::{InferCtx, Meta};
use crate::alloc;
use crate::dtype::DataType;
use crate::error::Result;
use crate::ops::broadcast::broadcast_named;
use crate::ops::{expect_dtype, same_dtype, unsupported_dtype};

const FLOATS: &[DataType] = &[DataType::Float, DataType::Double];

/// The dtype of `x` and `y` if both are known and equal (the output's when
/// the op succeeds), or the mismatch error.
fn operand_dtype(ctx: &InferCtx<'_>) -> Result<Option<DataType>> {
    match (ctx.named_dtype(0), ctx.named_dtype(1)) {
        (Some(x), Some(y)) => same_dtype(x, y).map(Some),
        _ => Ok(None),
    }
}

/// The broadcast shape of `x` and `y` if both are known, or the error.
fn operand_shape(ctx: &InferCtx<'_>) -> Result<Option<Vec<usize>>> {
    match (ctx.named_shape(0), ctx.named_shape(1)) {
        (Some(x), Some(y)) => broadcast_named(x, y).map(Some),
        _ => Ok(None),
    }
}

/// `binary_operands`, then the dtype checks of the kernel's dispatch.
fn binary(
    ctx: &InferCtx<'_>,
    out: Option<DataType>,
    check: fn(DataType) -> Result<()>,
) -> Result<Meta> {
    let Some(dtype) = operand_dtype(ctx)? else {
        return Ok(Meta::new(out, operand_shape(ctx).ok().flatten()));
    };
    let Some(shape) = operand_shape(ctx)? else {
        return Ok(Meta::new(out.or(Some(dtype)), None));
    };
    check(dtype)?;
    Ok(Meta::new(out.or(Some(dtype)), Some(shape)))
}

pub(in crate::ops) fn arithmetic(ctx: &InferCtx<'_>) -> Result<Meta> {
    binary(ctx, None, |d| match d {
        DataType::Bool => Err(unsupported_dtype("x", d)),
        _ => Ok(()),
    })
}

pub(in crate::ops) fn div_no_nan(ctx: &InferCtx<'_>) -> Result<Meta> {
    binary(ctx, None, |d| expect_dtype("x", d, FLOATS).map(drop))
}

pub(in crate::ops) fn ordering(ctx: &InferCtx<'_>) -> Result<Meta> {
    binary(ctx, Some(DataType::Bool), |d| match d {
        DataType::Bool => Err(unsupported_dtype("x", d)),
        _ => Ok(()),
    })
}

/// `Equal`/`NotEqual`: shapes that do not broadcast give a scalar under
/// `incompatible_shape_error=false`.
pub(in crate::ops) fn equality(ctx: &InferCtx<'_>) -> Result<Meta> {
    let bool_meta = |shape| Ok(Meta::new(Some(DataType::Bool), shape));
    if operand_dtype(ctx)?.is_none() {
        return bool_meta(None);
    }
    let (Some(x), Some(y)) = (ctx.named_shape(0), ctx.named_shape(1)) else {
        return bool_meta(None);
    };
    match broadcast_named(x, y) {
        Ok(shape) => bool_meta(Some(shape)),
        Err(e) => {
            if ctx.attrs.bool("incompatible_shape_error", true)? {
                Err(e)
            } else {
                bool_meta(Some(Vec::new()))
            }
        }
    }
}

pub(in crate::ops) fn logical(ctx: &InferCtx<'_>) -> Result<Meta> {
    for i in 0..2 {
        match ctx.named_dtype(i) {
            Some((name, d)) => {
                expect_dtype(name, d, &[DataType::Bool])?;
            }
            None => return Ok(Meta::new(Some(DataType::Bool), None)),
        }
    }
    Ok(Meta::new(Some(DataType::Bool), operand_shape(ctx)?))
}

/// Ops whose output has the input's dtype and shape (dtype support is
/// checked when they run).
pub(in crate::ops) fn same_as_input(ctx: &InferCtx<'_>) -> Result<Meta> {
    let x = ctx.input(0);
    Ok(Meta::new(
        x.dtype(),
        x.shape().map(alloc::copied).transpose()?,
    ))
}

pub(in crate::ops) fn cast(ctx: &InferCtx<'_>) -> Result<Meta> {
    let dst = ctx.attrs.required_dtype("DstT")?;
    Ok(Meta::new(
        Some(dst),
        ctx.input(0).shape().map(alloc::copied).transpose()?,
    ))
}
