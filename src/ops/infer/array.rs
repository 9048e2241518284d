//! The array ops of `ops::array`: padding (whose shape is known when the
//! paddings exist already), `ReverseV2` and `Roll` (the input's dtype and
//! shape), `GatherNd` and the scatters (from shapes alone, except
//! `ScatterNd`'s output shape, which is a value). Index range checks need
//! values and are left to the run.

use super::{InferCtx, Meta};
use crate::alloc;
use crate::dtype::DataType;
use crate::error::Result;
use crate::ops::array::{
    check_constant_values, check_paddings_shape, check_updates, depth_to_space_shape,
    diag_part_shape, diag_shape, gather_nd_shape, matrix_dims, mirror_offset, padded,
    scatter_shape, space_to_depth_shape,
};
use crate::ops::{expect_dtype, same_dtype, unsupported_dtype};

const INDEX_TYPES: &[DataType] = &[DataType::Int32, DataType::Int64];

/// The padded shape when the input's shape and the paddings' values are
/// known; `mirror` as for [`padded`].
fn padding(ctx: &InferCtx<'_>, mirror: Option<usize>) -> Result<Meta> {
    let x = ctx.input(0);
    let unknown = Meta::new(x.dtype(), None);
    let (Some(shape), Some(p)) = (x.shape(), ctx.input(1).shape()) else {
        return Ok(unknown);
    };
    check_paddings_shape(ctx.arg_name(1), p, shape.len())?;
    let Some(p) = ctx.input(1).value() else {
        return Ok(unknown);
    };
    let (_, out) = padded(ctx.account, shape, p, ctx.arg_name(1), mirror)?;
    Ok(Meta::new(x.dtype(), Some(out)))
}

pub(in crate::ops) fn pad(ctx: &InferCtx<'_>) -> Result<Meta> {
    padding(ctx, None)
}

pub(in crate::ops) fn pad_v2(ctx: &InferCtx<'_>) -> Result<Meta> {
    let (Some(x), Some(c)) = (ctx.named_dtype(0), ctx.named_dtype(2)) else {
        return Ok(Meta::new(ctx.input(0).dtype(), None));
    };
    same_dtype(x, c)?;
    let Some(c) = ctx.input(2).shape() else {
        return Ok(Meta::new(Some(x.1), None));
    };
    check_constant_values(c)?;
    padding(ctx, None)
}

pub(in crate::ops) fn mirror_pad(ctx: &InferCtx<'_>) -> Result<Meta> {
    let offset = mirror_offset(ctx.attrs)?;
    padding(ctx, Some(offset))
}

/// The first input's dtype and shape (checks are left to the run).
pub(in crate::ops) fn same_as_first(ctx: &InferCtx<'_>) -> Result<Meta> {
    let x = ctx.input(0);
    Ok(Meta::new(
        x.dtype(),
        x.shape().map(alloc::copied).transpose()?,
    ))
}

pub(in crate::ops) fn gather_nd(ctx: &InferCtx<'_>) -> Result<Meta> {
    let dtype = ctx.input(0).dtype();
    let (Some(params), Some(indices)) = (ctx.input(0).shape(), ctx.input(1).shape()) else {
        return Ok(Meta::new(dtype, None));
    };
    Ok(Meta::new(dtype, Some(gather_nd_shape(params, indices)?)))
}

/// Refuses indices for an empty target, as the kernels do.
fn check_nonempty(indices: &[usize], target: &[usize], what: &str) -> Result<()> {
    let n = crate::tensor::num_elements(indices)?;
    if n > 0 && crate::tensor::num_elements(target)? == 0 {
        crate::bail!("indices and updates given for {what} of shape {target:?}, which is empty");
    }
    Ok(())
}

pub(in crate::ops) fn scatter_nd(ctx: &InferCtx<'_>) -> Result<Meta> {
    let dtype = ctx.input(1).dtype();
    let unknown = Meta::new(dtype, None);
    let (Some(i), Some(s)) = (ctx.named_dtype(0), ctx.named_dtype(2)) else {
        return Ok(unknown);
    };
    same_dtype(i, s)?;
    let Some(shape) = ctx.input(2).value() else {
        return Ok(unknown);
    };
    let target = scatter_shape(ctx.account, shape, ctx.arg_name(2))?;
    let (Some(indices), Some(updates)) = (ctx.input(0).shape(), ctx.input(1).shape()) else {
        return Ok(unknown);
    };
    check_updates(indices, updates, &target, "shape")?;
    check_nonempty(indices, &target, "shape")?;
    match dtype {
        Some(d) if !d.is_numeric() => Err(unsupported_dtype(ctx.arg_name(1), d)),
        _ => Ok(Meta::new(dtype, Some(target))),
    }
}

/// `TensorScatterUpdate`'s checks; `numeric` for `TensorScatterAdd`.
fn tensor_scatter_with(ctx: &InferCtx<'_>, numeric: bool) -> Result<Meta> {
    let (Some(t), Some(u)) = (ctx.named_dtype(0), ctx.named_dtype(2)) else {
        return Ok(Meta::new(ctx.input(0).dtype(), None));
    };
    let dtype = same_dtype(t, u)?;
    let (Some(tensor), Some(indices), Some(updates)) = (
        ctx.input(0).shape(),
        ctx.input(1).shape(),
        ctx.input(2).shape(),
    ) else {
        return Ok(Meta::new(Some(dtype), None));
    };
    check_updates(indices, updates, tensor, "tensor")?;
    check_nonempty(indices, tensor, "tensor")?;
    let Some(i) = ctx.named_dtype(1) else {
        return Ok(Meta::new(Some(dtype), None));
    };
    expect_dtype(i.0, i.1, INDEX_TYPES)?;
    if numeric && !dtype.is_numeric() {
        return Err(unsupported_dtype(ctx.arg_name(0), dtype));
    }
    Ok(Meta::new(Some(dtype), Some(alloc::copied(tensor)?)))
}

pub(in crate::ops) fn tensor_scatter(ctx: &InferCtx<'_>) -> Result<Meta> {
    tensor_scatter_with(ctx, false)
}

pub(in crate::ops) fn tensor_scatter_add(ctx: &InferCtx<'_>) -> Result<Meta> {
    tensor_scatter_with(ctx, true)
}

pub(in crate::ops) fn band_part(ctx: &InferCtx<'_>) -> Result<Meta> {
    let x = ctx.input(0);
    if let Some(shape) = x.shape() {
        matrix_dims(ctx.arg_name(0), shape)?;
    }
    same_as_first(ctx)
}

pub(in crate::ops) fn matrix_diag(ctx: &InferCtx<'_>) -> Result<Meta> {
    let x = ctx.input(0);
    Ok(Meta::new(x.dtype(), x.shape().map(diag_shape).transpose()?))
}

pub(in crate::ops) fn matrix_diag_part(ctx: &InferCtx<'_>) -> Result<Meta> {
    let x = ctx.input(0);
    Ok(Meta::new(
        x.dtype(),
        x.shape().map(diag_part_shape).transpose()?,
    ))
}

pub(in crate::ops) fn space_to_depth(ctx: &InferCtx<'_>) -> Result<Meta> {
    let x = ctx.input(0);
    let shape = x
        .shape()
        .map(|s| space_to_depth_shape(ctx.attrs, s))
        .transpose()?;
    Ok(Meta::new(x.dtype(), shape.map(|(s, _)| s)))
}

pub(in crate::ops) fn depth_to_space(ctx: &InferCtx<'_>) -> Result<Meta> {
    let x = ctx.input(0);
    let shape = x
        .shape()
        .map(|s| depth_to_space_shape(ctx.attrs, s))
        .transpose()?;
    Ok(Meta::new(x.dtype(), shape.map(|(s, _)| s)))
}
