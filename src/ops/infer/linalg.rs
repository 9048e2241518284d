//! `MatMul`: rank, dtype, `transpose_a`/`transpose_b` and inner dimensions.

use super::{InferCtx, InferFn, Meta};
use crate::error::Result;
use crate::ops::linalg::{check_matrix, mat_mul_dims, transposes};
use crate::ops::same_dtype;

pub(super) fn for_op(op: &str) -> Option<InferFn> {
    match op {
        "MatMul" => Some(mat_mul),
        _ => None,
    }
}

fn mat_mul(ctx: &InferCtx<'_>) -> Result<Meta> {
    let dtype = match (ctx.named_dtype(0), ctx.named_dtype(1)) {
        (Some(a), Some(b)) if a.1 == b.1 => Some(a.1),
        _ => None,
    };
    let (Some((an, a)), Some((bn, b))) = (ctx.named_shape(0), ctx.named_shape(1)) else {
        return Ok(Meta::new(dtype, None));
    };
    check_matrix(an, a)?;
    check_matrix(bn, b)?;
    let (Some(x), Some(y)) = (ctx.named_dtype(0), ctx.named_dtype(1)) else {
        return Ok(Meta::new(None, None));
    };
    let dtype = same_dtype(x, y)?;
    let (ta, tb) = transposes(ctx.attrs)?;
    let (m, _, n) = mat_mul_dims(a, ta, b, tb)?;
    Ok(Meta::new(Some(dtype), Some(vec![m, n])))
}
