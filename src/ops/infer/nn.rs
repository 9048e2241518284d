//! Neural-network ops: `Softmax` and `LogSoftmax` (rank, float dtype) and
//! `BiasAdd` (ranks, `data_format`, channel size, dtype). Each keeps its
//! input's dtype and shape.

use super::{InferCtx, Meta};
use crate::alloc;
use crate::error::Result;
use crate::ops::nn::{FLOATS, bias_channel, check_logits};
use crate::ops::{expect_dtype, same_dtype};

/// What the first input is, which the output is if the op succeeds.
fn like_input(ctx: &InferCtx<'_>) -> Result<Meta> {
    let x = ctx.input(0);
    Ok(Meta::new(
        x.dtype(),
        x.shape().map(alloc::copied).transpose()?,
    ))
}

pub(in crate::ops) fn softmax(ctx: &InferCtx<'_>) -> Result<Meta> {
    let Some(shape) = ctx.input(0).shape() else {
        return like_input(ctx);
    };
    check_logits(shape)?;
    if let Some((name, d)) = ctx.named_dtype(0) {
        expect_dtype(name, d, FLOATS)?;
    }
    like_input(ctx)
}

pub(in crate::ops) fn bias_add(ctx: &InferCtx<'_>) -> Result<Meta> {
    let (Some(value), Some(bias)) = (ctx.input(0).shape(), ctx.input(1).shape()) else {
        return like_input(ctx);
    };
    bias_channel(value, bias, ctx.attrs)?;
    if let (Some(v), Some(b)) = (ctx.named_dtype(0), ctx.named_dtype(1)) {
        same_dtype(v, b)?;
    }
    like_input(ctx)
}
