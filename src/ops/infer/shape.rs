//! Shape ops: `Reshape` when its shape argument exists already (a constant);
//! a computed one is known when `Reshape` runs.

use super::{InferCtx, InferFn, Meta};
use crate::error::Result;
use crate::ops::shape::reshaped;

pub(super) fn for_op(op: &str) -> Option<InferFn> {
    match op {
        "Reshape" => Some(reshape),
        _ => None,
    }
}

fn reshape(ctx: &InferCtx<'_>) -> Result<Meta> {
    let x = ctx.input(0);
    let (Some(shape), Some(sizes)) = (x.shape(), ctx.input(1).value()) else {
        return Ok(Meta::new(x.dtype(), None));
    };
    let out = reshaped(ctx.account, shape, sizes, ctx.arg_name(1))?;
    Ok(Meta::new(x.dtype(), Some(out)))
}
