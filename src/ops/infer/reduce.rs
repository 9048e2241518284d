//! Reductions over a set of axes (`Sum`, `Prod`, `Max`, `Min`, `Mean`,
//! `All`, `Any`): the axis argument's shape at once, its values when it is
//! ready (range, duplicates, `keep_dims`), then the dtype. `ArgMax`,
//! `ArgMin` and `Cumsum` are known when they run.

use super::{InferCtx, Meta};
use crate::error::Result;
use crate::ops::reduce::axes::{axis_mask, check_axis_shape, check_reduced_dtype, reduced_shape};

pub(in crate::ops) fn numeric(ctx: &InferCtx<'_>) -> Result<Meta> {
    reduction(ctx, false)
}

pub(in crate::ops) fn logical(ctx: &InferCtx<'_>) -> Result<Meta> {
    reduction(ctx, true)
}

fn reduction(ctx: &InferCtx<'_>, logical: bool) -> Result<Meta> {
    let x = ctx.input(0);
    let unknown = Meta::new(x.dtype(), None);
    let keep_dims = ctx.attrs.bool("keep_dims", false)?;
    let (Some(axis), Some(shape)) = (ctx.named_shape(1), ctx.named_shape(0)) else {
        return Ok(unknown);
    };
    check_axis_shape(axis, shape)?;
    let Some(axis_t) = ctx.input(1).value() else {
        return Ok(unknown);
    };
    let mask = axis_mask(ctx.account, (axis.0, axis_t), shape)?;
    let out = reduced_shape(shape.1, &mask, keep_dims);
    let Some((name, d)) = ctx.named_dtype(0) else {
        return Ok(Meta::new(None, Some(out)));
    };
    check_reduced_dtype(logical, name, d)?;
    Ok(Meta::new(Some(d), Some(out)))
}
