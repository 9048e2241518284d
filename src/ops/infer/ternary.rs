//! Three broadcast operands: `SelectV2` (BOOL condition, `t` and `e` of one
//! dtype, all three broadcast) and `ClipByValue` (bounds that broadcast to
//! the clipped input's shape).

use super::{InferCtx, Meta};
use crate::alloc;
use crate::dtype::DataType;
use crate::error::Result;
use crate::ops::math::ternary::{broadcast3_named, check_bound};
use crate::ops::{expect_dtype, same_dtype, unsupported_dtype};

pub(in crate::ops) fn select_v2(ctx: &InferCtx<'_>) -> Result<Meta> {
    let Some((cn, c)) = ctx.named_dtype(0) else {
        return Ok(Meta::UNKNOWN);
    };
    expect_dtype(cn, c, &[DataType::Bool])?;
    let (Some(t), Some(e)) = (ctx.named_dtype(1), ctx.named_dtype(2)) else {
        return Ok(Meta::UNKNOWN);
    };
    let dtype = same_dtype(t, e)?;
    let (Some(a), Some(b), Some(c)) = (ctx.named_shape(0), ctx.named_shape(1), ctx.named_shape(2))
    else {
        return Ok(Meta::new(Some(dtype), None));
    };
    Ok(Meta::new(Some(dtype), Some(broadcast3_named([a, b, c])?)))
}

pub(in crate::ops) fn clip_by_value(ctx: &InferCtx<'_>) -> Result<Meta> {
    let (Some(t), Some(lo), Some(hi)) =
        (ctx.named_dtype(0), ctx.named_dtype(1), ctx.named_dtype(2))
    else {
        return Ok(Meta::UNKNOWN);
    };
    let dtype = same_dtype(t, lo)?;
    same_dtype(t, hi)?;
    let (Some(t), Some(lo), Some(hi)) =
        (ctx.named_shape(0), ctx.named_shape(1), ctx.named_shape(2))
    else {
        return Ok(Meta::new(Some(dtype), None));
    };
    check_bound(t, lo)?;
    check_bound(t, hi)?;
    if dtype == DataType::Bool {
        return Err(unsupported_dtype(t.0, dtype));
    }
    Ok(Meta::new(Some(dtype), Some(alloc::copied(t.1)?)))
}
