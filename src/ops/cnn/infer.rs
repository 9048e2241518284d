//! Build-time inference (see `ops::infer`) for the ops of this family: each
//! makes its kernel's checks, through the same helpers, as far as what is
//! known allows.

use super::conv::{conv_dtype, conv2d_geometry};
use super::depthwise::{depthwise_geometry, depthwise_launch};
use super::image::{IMAGE_DTYPES, resize_attrs, resize_shape};
use super::norm::lrn_checks;
use super::pool::{
    AVG_DTYPES, Kind, MAX_DTYPES, attr_windows, pool_attrs, pool_geometry, v2_window_of,
};
use super::topk::{in_top_k_dtypes, in_top_k_shapes};
use crate::dtype::DataType;
use crate::error::Result;
use crate::ops::expect_dtype;
use crate::ops::infer::{InferCtx, Meta};

/// A known dtype and shape.
fn meta(dtype: Option<DataType>, shape: Option<Vec<usize>>) -> Meta {
    Meta {
        dtype,
        shape: shape.map(Vec::into_boxed_slice),
    }
}

pub(super) fn conv2d(ctx: &InferCtx<'_>) -> Result<Meta> {
    let (x, f) = (ctx.input(0), ctx.input(1));
    let dtype = match (x.dtype(), f.dtype()) {
        (Some(a), Some(b)) => Some(conv_dtype(a, b)?),
        _ => None,
    };
    let (Some(xs), Some(fs)) = (x.shape(), f.shape()) else {
        return Ok(meta(dtype, None));
    };
    let g = conv2d_geometry(xs, fs, ctx.attrs)?;
    let shape = g.out_shape();
    if !shape.contains(&0) && !xs.contains(&0) {
        g.check_launch(fs)?;
    }
    Ok(meta(dtype, Some(shape)))
}

pub(super) fn max_pool(ctx: &InferCtx<'_>) -> Result<Meta> {
    let x = ctx.input(0);
    if let Some(d) = x.dtype() {
        expect_dtype(ctx.arg_name(0), d, MAX_DTYPES)?;
    }
    let (padding, explicit) = pool_attrs(Kind::Max, ctx.attrs)?;
    let (k, s) = attr_windows(ctx.attrs)?;
    let Some(shape) = x.shape() else {
        return Ok(meta(x.dtype(), None));
    };
    let g = pool_geometry(ctx.arg_name(0), shape, k, s, padding, explicit)?;
    Ok(meta(x.dtype(), Some(g.out_shape())))
}

pub(super) fn max_pool_v2(ctx: &InferCtx<'_>) -> Result<Meta> {
    let x = ctx.input(0);
    if let Some(d) = x.dtype() {
        expect_dtype(ctx.arg_name(0), d, MAX_DTYPES)?;
    }
    let (padding, explicit) = pool_attrs(Kind::Max, ctx.attrs)?;
    // The window comes from values: known only when both are ready.
    let (Some(kt), Some(st), Some(shape)) = (ctx.input(1).value(), ctx.input(2).value(), x.shape())
    else {
        return Ok(meta(x.dtype(), None));
    };
    let k = v2_window_of(ctx.account, kt, ctx.arg_name(1))?;
    let s = v2_window_of(ctx.account, st, ctx.arg_name(2))?;
    let g = pool_geometry(ctx.arg_name(0), shape, &k, &s, padding, explicit)?;
    Ok(meta(x.dtype(), Some(g.out_shape())))
}

pub(super) fn avg_pool(ctx: &InferCtx<'_>) -> Result<Meta> {
    let x = ctx.input(0);
    if let Some(d) = x.dtype() {
        expect_dtype(ctx.arg_name(0), d, AVG_DTYPES)?;
    }
    let (padding, explicit) = pool_attrs(Kind::Avg, ctx.attrs)?;
    let (k, s) = attr_windows(ctx.attrs)?;
    let Some(shape) = x.shape() else {
        return Ok(meta(x.dtype(), None));
    };
    let g = pool_geometry(ctx.arg_name(0), shape, k, s, padding, explicit)?;
    Ok(meta(x.dtype(), Some(g.out_shape())))
}

pub(super) fn in_top_k(ctx: &InferCtx<'_>) -> Result<Meta> {
    let bool_ = Some(DataType::Bool);
    let (p, t, k) = (ctx.input(0), ctx.input(1), ctx.input(2));
    let (Some(pd), Some(td), Some(kd)) = (p.dtype(), t.dtype(), k.dtype()) else {
        return Ok(meta(bool_, None));
    };
    in_top_k_dtypes(pd, td, kd)?;
    let (Some(ps), Some(ts), Some(ks)) = (p.shape(), t.shape(), k.shape()) else {
        return Ok(meta(bool_, None));
    };
    let batch = in_top_k_shapes(ps, ts, ks)?;
    Ok(meta(bool_, Some(Vec::from([batch]))))
}

pub(super) fn depthwise(ctx: &InferCtx<'_>) -> Result<Meta> {
    let (x, f) = (ctx.input(0), ctx.input(1));
    let dtype = match (x.dtype(), f.dtype()) {
        (Some(a), Some(b)) => Some(conv_dtype(a, b)?),
        _ => None,
    };
    let (Some(xs), Some(fs)) = (x.shape(), f.shape()) else {
        return Ok(meta(dtype, None));
    };
    let g = depthwise_geometry(xs, fs, ctx.attrs)?;
    let shape = g.out_shape();
    if !shape.contains(&0) {
        depthwise_launch(&g)?;
    }
    Ok(meta(dtype, Some(shape)))
}

pub(super) fn lrn(ctx: &InferCtx<'_>) -> Result<Meta> {
    let x = ctx.input(0);
    let (Some(d), Some(s)) = (x.dtype(), x.shape()) else {
        return Ok(meta(x.dtype(), None));
    };
    lrn_checks(d, s, ctx.attrs)?;
    Ok(meta(Some(d), Some(crate::alloc::copied(s)?)))
}

/// The resize ops: the output's dtype is `out` (FLOAT for bilinear) or the
/// images' (`None`).
fn resize(ctx: &InferCtx<'_>, out: Option<DataType>) -> Result<Meta> {
    let (x, size) = (ctx.input(0), ctx.input(1));
    let dtype = out.or(x.dtype());
    let (Some(xd), Some(sd)) = (x.dtype(), size.dtype()) else {
        return Ok(meta(dtype, None));
    };
    expect_dtype(ctx.arg_name(0), xd, IMAGE_DTYPES)?;
    expect_dtype(ctx.arg_name(1), sd, &[DataType::Int32])?;
    resize_attrs(ctx.attrs)?;
    let (Some(xs), Some(ss)) = (x.shape(), size.shape()) else {
        return Ok(meta(dtype, None));
    };
    let values = match size.value() {
        Some(t) => Some(t.as_slice::<i32>()?),
        None => None,
    };
    Ok(meta(dtype, resize_shape(xs, ss, values)?))
}

pub(super) fn resize_bilinear(ctx: &InferCtx<'_>) -> Result<Meta> {
    resize(ctx, Some(DataType::Float))
}

pub(super) fn resize_nearest(ctx: &InferCtx<'_>) -> Result<Meta> {
    resize(ctx, None)
}
