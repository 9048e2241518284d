//! Ops whose every output element is one input element picked per dimension
//! (or a fill value): `Pad`, `PadV2`, `MirrorPad` (REFLECT and SYMMETRIC),
//! `ReverseV2` and `Roll`. Each builds one map per output dimension, from
//! output index to input index, and [`remapped`] walks them in row-major
//! order.

use std::sync::Arc;

use crate::alloc;
use crate::bail;
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::memory::MemoryAccount;
use crate::ops::{KernelOutputs, OpContext, int_values, int_values_of, normalize_axis, outputs};
use crate::tensor::{Tensor, num_elements};
use crate::with_dtype;

/// In a dimension's map: this output index holds the fill value.
const FILL: usize = usize::MAX;

/// The elements added before and after one dimension.
pub(in crate::ops) type Padding = (usize, usize);

/// Checks the shape of a paddings argument named `arg` against an input of
/// rank `rank`: `[rank, 2]`. Shared with build-time inference.
pub(in crate::ops) fn check_paddings_shape(arg: &str, p: &[usize], rank: usize) -> Result<()> {
    if p.len() != 2 || p[1] != 2 {
        bail!("input '{arg}' must be a matrix with 2 columns but has shape {p:?}");
    }
    if p[0] != rank {
        bail!(
            "input '{arg}' has shape {p:?}, but its first dimension must be the input's rank, {rank}"
        );
    }
    Ok(())
}

/// The padding before and after each dimension of `shape` that `p` (the
/// paddings input named `arg`) holds, and the padded shape. `mirror` is
/// `MirrorPad`'s offset (1 for REFLECT, 0 for SYMMETRIC): a padding may not
/// be larger than the dimension less it. Shared with build-time inference.
pub(in crate::ops) fn padded(
    account: &Arc<MemoryAccount>,
    shape: &[usize],
    p: &Tensor,
    arg: &str,
    mirror: Option<usize>,
) -> Result<(Vec<Padding>, Vec<usize>)> {
    check_paddings_shape(arg, p.shape(), shape.len())?;
    let values = int_values_of(account, p, arg)?;
    let mut pads = alloc::with_room(shape.len())?;
    let mut out = alloc::with_room(shape.len())?;
    for (d, (&dim, pair)) in shape.iter().zip(values.chunks(2)).enumerate() {
        let (b, a) = match *pair {
            [b, a] => (b, a),
            _ => bail!("input '{arg}' has an odd number of values"),
        };
        let (Ok(before), Ok(after)) = (usize::try_from(b), usize::try_from(a)) else {
            bail!("{arg}[{d}] = [{b}, {a}]: paddings must be non-negative");
        };
        if let Some(offset) = mirror {
            let most = dim.saturating_sub(offset);
            if before > most || after > most {
                bail!(
                    "{arg}[{d}] = [{b}, {a}]: paddings must be no greater than the dimension \
                     size {dim} less {offset} in this mode"
                );
            }
        }
        let size = dim
            .checked_add(before)
            .and_then(|s| s.checked_add(after))
            .ok_or_else(|| Error::invalid(format!("{arg}[{d}] = [{b}, {a}] is too large")))?;
        pads.push((before, after));
        out.push(size);
    }
    num_elements(&out)?;
    Ok((pads, out))
}

/// A tensor of `out_shape` whose element at output index `o_d` in each
/// dimension `d` is `x`'s at `source(d, o_d)` in each, or `fill` where
/// `source` gives [`FILL`] for some dimension. The maps are built only for a
/// non-empty output, so their total length is bounded by its size times the
/// rank.
fn remapped<T: Element>(
    ctx: &OpContext<'_>,
    x: &Tensor,
    out_shape: Vec<usize>,
    fill: T,
    source: impl Fn(usize, usize) -> usize,
) -> Result<Tensor> {
    let n = num_elements(&out_shape)?;
    let mut out = ctx.alloc::<T>(n)?;
    if n > 0 {
        let rank = out_shape.len();
        let mut maps: Vec<Vec<usize>> = alloc::with_room(rank)?;
        for (d, &size) in out_shape.iter().enumerate() {
            maps.push(alloc::collect(size, (0..size).map(|o| source(d, o)))?);
        }
        let mut strides = alloc::filled(rank, 1usize)?;
        let mut blocks = alloc::filled(rank, 1usize)?;
        for d in (0..rank.saturating_sub(1)).rev() {
            strides[d] = strides[d + 1] * x.shape()[d + 1];
            blocks[d] = blocks[d + 1] * out_shape[d + 1];
        }
        let walk = Walk {
            xs: x.as_slice::<T>()?,
            maps: &maps,
            strides: &strides,
            blocks: &blocks,
            fill,
        };
        walk.run(&mut out.data, 0, 0);
    }
    out.into_tensor(out_shape)
}

struct Walk<'a, T> {
    xs: &'a [T],
    maps: &'a [Vec<usize>],
    /// Row-major strides of the input.
    strides: &'a [usize],
    /// Elements of the output per index of each dimension.
    blocks: &'a [usize],
    fill: T,
}

impl<T: Element> Walk<'_, T> {
    /// Appends the output block of dimension `d` whose input elements start
    /// at `base`; `out` has room for the whole output.
    fn run(&self, out: &mut Vec<T>, d: usize, base: usize) {
        let (Some(map), Some(&stride), Some(&block)) =
            (self.maps.get(d), self.strides.get(d), self.blocks.get(d))
        else {
            // Rank 0: the one element.
            out.push(self.xs.get(base).copied().unwrap_or(self.fill));
            return;
        };
        let innermost = d + 1 == self.maps.len();
        for &i in map {
            if i == FILL {
                out.extend(std::iter::repeat_n(self.fill, block));
            } else if innermost {
                out.push(self.xs.get(base + i).copied().unwrap_or(self.fill));
            } else {
                self.run(out, d + 1, base + i * stride);
            }
        }
    }
}

/// The input index for output index `o` of a dimension of size `dim` padded
/// by `before`, or [`FILL`].
fn constant_source(o: usize, before: usize, dim: usize) -> usize {
    match o.checked_sub(before) {
        Some(i) if i < dim => i,
        _ => FILL,
    }
}

pub(super) fn pad(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    with_dtype!(x.dtype(), T => Ok(outputs([pad_with::<T>(ctx, x, T::default())?])))
}

pub(super) fn pad_v2(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let c = ctx.input(2);
    ctx.same_dtype(0, 2)?;
    check_constant_values(c.shape())?;
    with_dtype!(x.dtype(), T => Ok(outputs([pad_with::<T>(ctx, x, c.scalar_value::<T>()?)?])))
}

/// `PadV2`'s fill value must be a scalar; shared with build-time inference.
pub(in crate::ops) fn check_constant_values(shape: &[usize]) -> Result<()> {
    if !shape.is_empty() {
        bail!("input 'constant_values' must be a scalar but has shape {shape:?}");
    }
    Ok(())
}

fn pad_with<T: Element>(ctx: &OpContext<'_>, x: &Tensor, value: T) -> Result<Tensor> {
    let (pads, out_shape) = padded(ctx.account(), x.shape(), ctx.input(1), "paddings", None)?;
    let shape = x.shape();
    remapped(ctx, x, out_shape, value, |d, o| {
        constant_source(o, pads[d].0, shape[d])
    })
}

/// `MirrorPad`'s `mode`: the offset of its reflection (1 for REFLECT, whose
/// mirror leaves out the edge, 0 for SYMMETRIC). Shared with inference.
pub(in crate::ops) fn mirror_offset(attrs: &crate::ops::Attrs) -> Result<usize> {
    match attrs.string("mode")? {
        Some("REFLECT") => Ok(1),
        Some("SYMMETRIC") => Ok(0),
        Some(other) => bail!("attribute 'mode' must be REFLECT or SYMMETRIC, not '{other}'"),
        None => bail!("attribute 'mode' is required (REFLECT or SYMMETRIC)"),
    }
}

pub(super) fn mirror_pad(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let offset = mirror_offset(ctx.attrs)?;
    let (pads, out_shape) = padded(
        ctx.account(),
        x.shape(),
        ctx.input(1),
        "paddings",
        Some(offset),
    )?;
    let shape = x.shape();
    // The checks above keep every reflected index inside the dimension.
    let source = |d: usize, o: usize| {
        let (before, dim) = (pads[d].0, shape[d]);
        if o < before {
            before - o - 1 + offset
        } else if o - before < dim {
            o - before
        } else {
            let past = o - before - dim;
            (dim - 1 - past).saturating_sub(offset)
        }
    };
    let out = with_dtype!(x.dtype(), T => remapped::<T>(ctx, x, out_shape, T::default(), source)?);
    Ok(outputs([out]))
}

/// Input `i`, an integer scalar or vector, as `i64` values.
fn scalar_or_vector(ctx: &OpContext<'_>, i: usize) -> Result<crate::scratch::Scratch<i64>> {
    let t = ctx.input(i);
    if t.rank() > 1 {
        bail!(
            "input '{}' must be a scalar or a vector but has shape {:?}",
            ctx.arg_name(i),
            t.shape()
        );
    }
    int_values(ctx, i)
}

pub(super) fn reverse(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let axis_t = ctx.input(1);
    if axis_t.rank() != 1 {
        bail!(
            "input 'axis' must be a vector but has shape {:?}",
            axis_t.shape()
        );
    }
    let shape = x.shape();
    let mut reversed = alloc::filled(shape.len(), false)?;
    for &a in int_values(ctx, 1)?.iter() {
        let d = normalize_axis(a, shape.len(), "axis")?;
        if std::mem::replace(&mut reversed[d], true) {
            bail!("axis {a} specified more than once");
        }
    }
    if !reversed.iter().zip(shape).any(|(&r, &dim)| r && dim > 1) {
        return Ok(outputs([x.clone()]));
    }
    let out = with_dtype!(x.dtype(), T => remapped::<T>(ctx, x, alloc::copied(shape)?, T::default(),
        |d, o| if reversed[d] { shape[d] - 1 - o } else { o })?);
    Ok(outputs([out]))
}

pub(super) fn roll(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let shape = x.shape();
    if shape.is_empty() {
        bail!("input 'input' must be 1-D or higher but is a scalar");
    }
    let shifts = scalar_or_vector(ctx, 1)?;
    let axes = scalar_or_vector(ctx, 2)?;
    if shifts.len() != axes.len() {
        bail!(
            "inputs 'shift' and 'axis' must have the same size, but have {} and {} elements",
            shifts.len(),
            axes.len()
        );
    }
    // The net shift of each dimension, in [0, dim).
    let mut net = alloc::filled(shape.len(), 0usize)?;
    for (&s, &a) in shifts.iter().zip(axes.iter()) {
        let d = normalize_axis(a, shape.len(), "axis")?;
        let dim = shape[d] as i128;
        if dim > 0 {
            let total = (net[d] as i128 + i128::from(s)).rem_euclid(dim);
            net[d] = total as usize;
        }
    }
    if net.iter().all(|&s| s == 0) {
        return Ok(outputs([x.clone()]));
    }
    // Output index `o` holds input index `o - shift`, modulo the dimension.
    let out = with_dtype!(x.dtype(), T => remapped::<T>(ctx, x, alloc::copied(shape)?, T::default(),
        |d, o| (o + shape[d] - net[d]) % shape[d])?);
    Ok(outputs([out]))
}
