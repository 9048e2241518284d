//! Shape ops: `Reshape`, `ExpandDims` and `Transpose` when their shape, axis
//! or permutation argument exists already (a constant; a computed one is
//! known when the op runs, though its shape is checked at once), and
//! `Squeeze`, whose axes are attributes.

use super::{InferCtx, Meta};
use crate::error::Result;
use crate::ops::shape::{
    check_expand_axis, check_perm_shape, expanded, permutation, reshaped, squeezed,
};

pub(in crate::ops) fn reshape(ctx: &InferCtx<'_>) -> Result<Meta> {
    let x = ctx.input(0);
    let (Some(shape), Some(sizes)) = (x.shape(), ctx.input(1).value()) else {
        return Ok(Meta::new(x.dtype(), None));
    };
    let out = reshaped(ctx.account, shape, sizes, ctx.arg_name(1))?;
    Ok(Meta::new(x.dtype(), Some(out)))
}

pub(in crate::ops) fn expand_dims(ctx: &InferCtx<'_>) -> Result<Meta> {
    let x = ctx.input(0);
    let unknown = Meta::new(x.dtype(), None);
    let Some(axis) = ctx.input(1).shape() else {
        return Ok(unknown);
    };
    check_expand_axis(axis)?;
    let (Some(shape), Some(axis_t)) = (x.shape(), ctx.input(1).value()) else {
        return Ok(unknown);
    };
    let out = expanded(ctx.account, shape, axis_t, ctx.arg_name(1))?;
    Ok(Meta::new(x.dtype(), Some(out)))
}

pub(in crate::ops) fn squeeze(ctx: &InferCtx<'_>) -> Result<Meta> {
    let x = ctx.input(0);
    let Some(shape) = x.shape() else {
        return Ok(Meta::new(x.dtype(), None));
    };
    Ok(Meta::new(x.dtype(), Some(squeezed(shape, ctx.attrs)?)))
}

pub(in crate::ops) fn transpose(ctx: &InferCtx<'_>) -> Result<Meta> {
    let x = ctx.input(0);
    let unknown = Meta::new(x.dtype(), None);
    let (Some(p), Some(shape)) = (ctx.input(1).shape(), x.shape()) else {
        return Ok(unknown);
    };
    check_perm_shape(p, shape)?;
    let Some(p) = ctx.input(1).value() else {
        return Ok(unknown);
    };
    let perm = permutation(ctx.account, shape, p, ctx.arg_name(1))?;
    Ok(Meta::new(
        x.dtype(),
        Some(perm.iter().map(|&a| shape[a]).collect()),
    ))
}
