//! Cumulative reductions along one axis: `Cumsum`, a running sum with the
//! addition of `AddN` (IEEE for floats, wrapping for integers), and
//! `Cumprod`, a running product (wrapping for integers).

use super::Num;
use crate::alloc;
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::ops::math::add_n::Accumulate;
use crate::ops::{KernelOutputs, OpContext, int_values, normalize_axis, outputs};
use crate::tensor::{Tensor, num_elements};

/// Cumulative sum along a scalar `axis`; `exclusive` shifts by one (the first
/// element is 0) and `reverse` sums from the end.
pub(super) fn cumsum(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (axis, exclusive, reverse) = scan_args(ctx)?;
    let x = ctx.input(0);
    let out = crate::with_numeric_dtype!(x.dtype(), T => scan::<T>(ctx, x, axis, (exclusive, reverse), T::default(), T::accumulate)?,
        bool => return Err(ctx.unsupported_dtype(0)));
    Ok(outputs([out]))
}

/// Cumulative product, as [`cumsum`] (an exclusive product starts at 1).
pub(super) fn cumprod(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (axis, exclusive, reverse) = scan_args(ctx)?;
    let x = ctx.input(0);
    let out = crate::with_numeric_dtype!(x.dtype(), T => scan::<T>(ctx, x, axis, (exclusive, reverse), T::ONE, T::mul)?,
        bool => return Err(ctx.unsupported_dtype(0)));
    Ok(outputs([out]))
}

/// The axis and the `exclusive` and `reverse` attributes of a scan.
fn scan_args(ctx: &OpContext<'_>) -> Result<(usize, bool, bool)> {
    let x = ctx.input(0);
    let axis_t = ctx.input(1);
    if axis_t.rank() != 0 {
        return Err(Error::invalid(format!(
            "input 'axis' must be a scalar but has shape {:?}",
            axis_t.shape()
        )));
    }
    let axis = match int_values(ctx, 1)?.first() {
        Some(&a) => normalize_axis(a, x.rank(), "axis")?,
        None => return Err(Error::invalid("input 'axis' is empty")),
    };
    let exclusive = ctx.attrs.bool("exclusive", false)?;
    let reverse = ctx.attrs.bool("reverse", false)?;
    Ok((axis, exclusive, reverse))
}

/// The running `combine` of `x` along `axis` from `identity`; `exclusive`
/// shifts by one, `reverse` runs from the end.
fn scan<T: Element>(
    ctx: &OpContext<'_>,
    x: &Tensor,
    axis: usize,
    (exclusive, reverse): (bool, bool),
    identity: T,
    combine: fn(T, T) -> T,
) -> Result<Tensor> {
    let xs = x.as_slice::<T>()?;
    let shape = x.shape();
    let len = shape.get(axis).copied().unwrap_or(1);
    let inner = num_elements(shape.get(axis + 1..).unwrap_or(&[]))?;
    let mut out = ctx.alloc_initialized::<T>(xs.len())?;
    // The tensor is `outer` blocks of `len * inner`; each (block, inner
    // offset) pair is one independent running sum with stride `inner`.
    let block = len.saturating_mul(inner);
    if block > 0 {
        for (src, dst) in xs.chunks(block).zip(out.data.chunks_mut(block)) {
            for i in 0..inner {
                let lane = (0..len).map(|k| k * inner + i);
                let mut acc = identity;
                let mut step = |j: usize| {
                    if let (Some(&v), Some(o)) = (src.get(j), dst.get_mut(j)) {
                        if exclusive {
                            *o = acc;
                            acc = combine(acc, v);
                        } else {
                            acc = combine(acc, v);
                            *o = acc;
                        }
                    }
                };
                if reverse {
                    lane.rev().for_each(&mut step);
                } else {
                    lane.for_each(&mut step);
                }
            }
        }
    }
    out.into_tensor(alloc::copied(shape)?)
}
