//! The element-wise ops of `ops::special` and the segment reductions and
//! `Bincount` of `ops::segment`, whose output shape is a value (the number of
//! segments or bins) known only when it exists already.

use super::{InferCtx, Meta};
use crate::alloc;
use crate::dtype::DataType;
use crate::error::Result;
use crate::ops::broadcast::broadcast_named;
use crate::ops::special::{TRUNCATE_DIV_TYPES, TRUNCATE_MOD_TYPES};
use crate::ops::{expect_dtype, same_dtype};

const FLOATS: &[DataType] = &[DataType::Float, DataType::Double];

/// A FLOAT or DOUBLE `x`'s shape, with dtype `out` (or `x`'s).
fn float_shaped(ctx: &InferCtx<'_>, out: Option<DataType>) -> Result<Meta> {
    let x = ctx.input(0);
    if let Some((name, d)) = ctx.named_dtype(0) {
        expect_dtype(name, d, FLOATS)?;
    }
    Ok(Meta::new(
        out.or(x.dtype()),
        x.shape().map(alloc::copied).transpose()?,
    ))
}

pub(in crate::ops) fn float_predicate(ctx: &InferCtx<'_>) -> Result<Meta> {
    float_shaped(ctx, Some(DataType::Bool))
}

pub(in crate::ops) fn float_unary(ctx: &InferCtx<'_>) -> Result<Meta> {
    float_shaped(ctx, None)
}

/// A broadcasting binary op's checks in its kernel's order: one dtype,
/// shapes that broadcast, a dtype in `allowed`.
fn binary(ctx: &InferCtx<'_>, allowed: &[DataType]) -> Result<Meta> {
    let (Some(a), Some(b)) = (ctx.named_dtype(0), ctx.named_dtype(1)) else {
        return Ok(Meta::UNKNOWN);
    };
    let dtype = same_dtype(a, b)?;
    let (Some(x), Some(y)) = (ctx.named_shape(0), ctx.named_shape(1)) else {
        return Ok(Meta::new(Some(dtype), None));
    };
    let shape = broadcast_named(x, y)?;
    expect_dtype(a.0, dtype, allowed)?;
    Ok(Meta::new(Some(dtype), Some(shape)))
}

pub(in crate::ops) fn atan2(ctx: &InferCtx<'_>) -> Result<Meta> {
    binary(ctx, FLOATS)
}

pub(in crate::ops) fn truncate_div(ctx: &InferCtx<'_>) -> Result<Meta> {
    binary(ctx, TRUNCATE_DIV_TYPES)
}

pub(in crate::ops) fn truncate_mod(ctx: &InferCtx<'_>) -> Result<Meta> {
    binary(ctx, TRUNCATE_MOD_TYPES)
}
