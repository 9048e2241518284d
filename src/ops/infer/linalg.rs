//! Matrix products: `MatMul` and `BatchMatMulV2` (also as `BatchMatMul`, and
//! `BatchMatMulV3`): rank, dtype, transposes or adjoints, inner dimensions,
//! and broadcast batch dimensions.

use super::{InferCtx, Meta};
use crate::error::Result;
use crate::ops::linalg::{
    adjoints, batch_mat_mul_dims, check_batch_operand, check_matrix, check_tout, mat_mul_dims,
    transposes,
};
use crate::ops::same_dtype;

/// The inputs' dtype when both are known and equal (what the output has if
/// the op succeeds), else nothing.
fn common_dtype(ctx: &InferCtx<'_>) -> Option<crate::dtype::DataType> {
    match (ctx.named_dtype(0), ctx.named_dtype(1)) {
        (Some(a), Some(b)) if a.1 == b.1 => Some(a.1),
        _ => None,
    }
}

pub(in crate::ops) fn mat_mul(ctx: &InferCtx<'_>) -> Result<Meta> {
    let dtype = common_dtype(ctx);
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
    Ok(Meta::new(Some(dtype), Some(Vec::from([m, n]))))
}

pub(in crate::ops) fn batch_mat_mul(ctx: &InferCtx<'_>) -> Result<Meta> {
    let dtype = common_dtype(ctx);
    let (Some((xn, x)), Some((yn, y))) = (ctx.named_shape(0), ctx.named_shape(1)) else {
        return Ok(Meta::new(dtype, None));
    };
    check_batch_operand(xn, x)?;
    check_batch_operand(yn, y)?;
    let (Some(a), Some(b)) = (ctx.named_dtype(0), ctx.named_dtype(1)) else {
        return Ok(Meta::new(None, None));
    };
    let dtype = same_dtype(a, b)?;
    let (adj_x, adj_y) = adjoints(ctx.attrs)?;
    let (mut out, (m, _, n)) = batch_mat_mul_dims(x, adj_x, y, adj_y)?;
    out.extend([m, n]);
    Ok(Meta::new(Some(dtype), Some(out)))
}

pub(in crate::ops) fn batch_mat_mul_v3(ctx: &InferCtx<'_>) -> Result<Meta> {
    match ctx.input(0).dtype() {
        Some(d) => check_tout(ctx.attrs, d)?,
        // `Tout` is checked against 'x' first; unknown until 'x' is.
        None if ctx.attrs.dtype("Tout")?.is_some() => return Ok(Meta::UNKNOWN),
        None => {}
    }
    batch_mat_mul(ctx)
}
