//! Ops given a list argument: `AddN` (dtypes and shapes of the list, in the
//! kernel's order), `Pack` (one dtype, one shape, the `axis` attribute) and
//! `ConcatV2` (one dtype, a scalar axis; its value, when ready, then the
//! shapes). `StringJoin` is known when it runs.

use super::{InferCtx, Meta};
use crate::alloc;
use crate::dtype::DataType;
use crate::error::Result;
use crate::ops::math::add_n::{add_n_head, add_n_same_dtype, add_n_same_shape};
use crate::ops::shape::{
    check_scalar, concat_shape, int_scalar_of, list_dtype, pack_same_shape, packed_shape,
};
use crate::ops::unsupported_dtype;

pub(in crate::ops) fn add_n(ctx: &InferCtx<'_>) -> Result<Meta> {
    let inputs = ctx.list(0);
    let first = add_n_head(inputs.first())?;
    let (dtype, shape) = (first.dtype(), first.shape());
    let unknown = Meta::new(dtype, shape.map(alloc::copied).transpose()?);
    for (i, t) in inputs.iter().enumerate().skip(1) {
        let (Some(first), Some(d)) = (dtype, t.dtype()) else {
            return Ok(unknown);
        };
        add_n_same_dtype(i, first, d)?;
        let (Some(first), Some(s)) = (shape, t.shape()) else {
            return Ok(unknown);
        };
        add_n_same_shape(i, first, s)?;
    }
    match dtype {
        Some(DataType::Bool) => Err(unsupported_dtype(ctx.arg_name(0), DataType::Bool)),
        _ => Ok(unknown),
    }
}

pub(in crate::ops) fn pack(ctx: &InferCtx<'_>) -> Result<Meta> {
    let values = ctx.list(0);
    let Some(dtype) = list_dtype(values.iter().map(|v| v.dtype()))? else {
        return Ok(Meta::UNKNOWN);
    };
    let Some(first) = values.first().and_then(|v| v.shape()) else {
        return Ok(Meta::new(Some(dtype), None));
    };
    for (i, v) in values.iter().enumerate() {
        let Some(s) = v.shape() else {
            return Ok(Meta::new(Some(dtype), None));
        };
        pack_same_shape(i, first, s)?;
    }
    let (_, out) = packed_shape(first, values.len(), ctx.attrs)?;
    Ok(Meta::new(Some(dtype), Some(out)))
}

pub(in crate::ops) fn concat(ctx: &InferCtx<'_>) -> Result<Meta> {
    let values = ctx.list(0);
    let Some(dtype) = list_dtype(values.iter().map(|v| v.dtype()))? else {
        return Ok(Meta::UNKNOWN);
    };
    let unknown = Meta::new(Some(dtype), None);
    let Some((name, axis)) = ctx.named_shape(1) else {
        return Ok(unknown);
    };
    check_scalar(name, axis)?;
    let Some(axis_t) = ctx.input(1).value() else {
        return Ok(unknown);
    };
    let axis = int_scalar_of(ctx.account, axis_t, name)?;
    match concat_shape(values.iter().map(|v| v.shape()), axis)? {
        Some((_, out)) => Ok(Meta::new(Some(dtype), Some(out))),
        None => Ok(unknown),
    }
}
