//! Tensors made from values rather than from an input's elements: `Const`,
//! `Fill`, `ZerosLike`, `OnesLike` and `Range`.

use super::{internal, require_scalar, shape_arg};
use crate::alloc;
use crate::bail;
use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::ops::{KernelOutputs, OpContext, outputs};
use crate::tensor::{self, Tensor};
use crate::with_dtype;

pub(super) fn constant(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let value = ctx
        .attrs
        .tensor("value")?
        .ok_or_else(|| Error::invalid("attribute 'value' is required"))?;
    if let Some(d) = ctx.attrs.dtype("dtype")?
        && d != value.dtype()
    {
        bail!(
            "attribute 'dtype' is {d} but 'value' is a {} tensor",
            value.dtype()
        );
    }
    // A copy, so that the session owns (and accounts) its constant however
    // long the attribute's tensor lives elsewhere.
    Ok(outputs([value.deep_copy(ctx.account())?]))
}

pub(super) fn fill(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let shape = shape_arg(ctx, 0)?;
    let value = require_scalar(ctx, 1)?;
    with_dtype!(value.dtype(), T => {
        Ok(outputs([filled::<T>(ctx, shape, value.scalar_value::<T>()?)?]))
    })
}

/// A tensor of `shape` whose elements are all `value`.
fn filled<T: Element>(ctx: &OpContext<'_>, shape: Vec<usize>, value: T) -> Result<Tensor> {
    let n = tensor::num_elements(&shape)?;
    let mut out = ctx.alloc::<T>(n)?;
    alloc::fill_within(&mut out.data, n, value);
    out.into_tensor(shape)
}

/// TF's `OnesLike` value for each element type.
trait One {
    const ONE: Self;
}

impl One for f32 {
    const ONE: f32 = 1.0;
}

impl One for f64 {
    const ONE: f64 = 1.0;
}

impl One for i32 {
    const ONE: i32 = 1;
}

impl One for i64 {
    const ONE: i64 = 1;
}

impl One for u8 {
    const ONE: u8 = 1;
}

impl One for bool {
    const ONE: bool = true;
}

impl One for u16 {
    const ONE: u16 = 1;
}

impl One for crate::dtype::f16 {
    const ONE: crate::dtype::f16 = crate::dtype::f16::ONE;
}

impl One for crate::dtype::bf16 {
    const ONE: crate::dtype::bf16 = crate::dtype::bf16::ONE;
}

pub(super) fn zeros_like(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    with_dtype!(x.dtype(), T => Ok(outputs([filled::<T>(ctx, alloc::copied(x.shape())?, T::default())?])))
}

pub(super) fn ones_like(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    with_dtype!(x.dtype(), T => Ok(outputs([filled::<T>(ctx, alloc::copied(x.shape())?, <T as One>::ONE)?])))
}

pub(super) fn range(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let dtype = ctx.same_dtype(0, 1)?;
    ctx.same_dtype(0, 2)?;
    for i in 0..3 {
        require_scalar(ctx, i)?;
    }
    let out = match dtype {
        DataType::Int32 => range_int::<i32>(ctx)?,
        DataType::Int64 => range_int::<i64>(ctx)?,
        DataType::Float => {
            let (s, l, d) = scalars::<f32>(ctx)?;
            range_float(ctx, (s, l, d), f64::from(((l - s) / d).abs().ceil()), |i| {
                s + i as f32 * d
            })?
        }
        DataType::Double => {
            let (s, l, d) = scalars::<f64>(ctx)?;
            range_float(ctx, (s, l, d), ((l - s) / d).abs().ceil(), |i| {
                s + i as f64 * d
            })?
        }
        _ => return Err(ctx.unsupported_dtype(0)),
    };
    Ok(outputs([out]))
}

fn scalars<T: Element>(ctx: &OpContext<'_>) -> Result<(T, T, T)> {
    Ok((
        ctx.input(0).scalar_value()?,
        ctx.input(1).scalar_value()?,
        ctx.input(2).scalar_value()?,
    ))
}

/// TF's checks: a non-zero delta that moves from start towards limit.
fn check_direction<T: Element + PartialOrd>(start: T, limit: T, delta: T) -> Result<()> {
    let zero = T::default();
    if delta == zero {
        bail!("delta must be non-zero");
    }
    // A NaN start or limit fails these comparisons; a NaN delta makes the
    // size NaN, which the caller rejects.
    if delta > zero {
        if start <= limit {
            return Ok(());
        }
        bail!("start {start:?} must not exceed limit {limit:?} when delta {delta:?} is positive");
    }
    if start >= limit {
        return Ok(());
    }
    bail!("start {start:?} must not be below limit {limit:?} when delta {delta:?} is negative")
}

fn range_int<T: Element + PartialOrd + Into<i64> + TryFrom<i64>>(
    ctx: &OpContext<'_>,
) -> Result<Tensor> {
    let (s, l, d) = scalars::<T>(ctx)?;
    check_direction(s, l, d)?;
    // i128: limit - start overflows T (and i64) for wide ranges.
    let (s, l, d) = (
        i128::from(s.into()),
        i128::from(l.into()),
        i128::from(d.into()),
    );
    let step = d.abs();
    let n = usize::try_from(((l - s).abs() + step - 1) / step)
        .map_err(|_| Error::invalid("the range has too many elements"))?;
    let mut out = ctx.alloc::<T>(n)?;
    for i in 0..n {
        // Every value lies between start and limit, so it fits T.
        let v = i64::try_from(s + i as i128 * d)
            .ok()
            .and_then(|v| T::try_from(v).ok())
            .ok_or_else(|| internal("range value"))?;
        out.data.push(v);
    }
    out.into_tensor(Vec::from([n]))
}

fn range_float<T: Element + PartialOrd>(
    ctx: &OpContext<'_>,
    (start, limit, delta): (T, T, T),
    size: f64,
    at: impl Fn(usize) -> T,
) -> Result<Tensor> {
    check_direction(start, limit, delta)?;
    // Also rejects NaN and infinite sizes.
    if size.is_nan() || size > i64::MAX as f64 {
        bail!("the range from {start:?} to {limit:?} by {delta:?} has too many elements ({size})");
    }
    let n = size as usize;
    let mut out = ctx.alloc::<T>(n)?;
    out.data.extend((0..n).map(at));
    out.into_tensor(Vec::from([n]))
}
