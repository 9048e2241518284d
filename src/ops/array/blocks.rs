//! `SpaceToDepth` and `DepthToSpace`: moving `block_size x block_size`
//! blocks of an NHWC image between its height and width and its channels,
//! each the other's inverse. As TensorFlow's CPU kernels, only NHWC is
//! supported.

use crate::alloc;
use crate::bail;
use crate::dtype::Element;
use crate::error::Result;
use crate::ops::attrs::Attrs;
use crate::ops::{KernelOutputs, OpContext, outputs};
use crate::tensor::{Tensor, num_elements};
use crate::with_dtype;

/// The `block_size` attribute (at least 2), after checking `data_format`.
fn block_size(attrs: &Attrs) -> Result<usize> {
    match attrs.string("data_format")? {
        None | Some("NHWC") => {}
        Some(other) => bail!("only the NHWC data_format is supported on the CPU, not '{other}'"),
    }
    let b = attrs.required_int("block_size")?;
    match usize::try_from(b) {
        Ok(b) if b >= 2 => Ok(b),
        _ => bail!("attribute 'block_size' must be at least 2 but is {b}"),
    }
}

/// The four dimensions of an NHWC `input`.
fn nhwc(shape: &[usize]) -> Result<[usize; 4]> {
    match *shape {
        [n, h, w, c] => Ok([n, h, w, c]),
        _ => bail!("input 'input' must have rank 4 (NHWC) but has shape {shape:?}"),
    }
}

/// `SpaceToDepth`'s output shape and block size. Shared with build-time
/// inference.
pub(in crate::ops) fn space_to_depth_shape(
    attrs: &Attrs,
    shape: &[usize],
) -> Result<(Vec<usize>, usize)> {
    let b = block_size(attrs)?;
    let [n, h, w, c] = nhwc(shape)?;
    if h % b != 0 || w % b != 0 {
        bail!("the height {h} and width {w} of the input must be divisible by block_size {b}");
    }
    let out = Vec::from([n, h / b, w / b, c.saturating_mul(b * b)]);
    num_elements(&out)?;
    Ok((out, b))
}

/// `DepthToSpace`'s output shape and block size. Shared with build-time
/// inference.
pub(in crate::ops) fn depth_to_space_shape(
    attrs: &Attrs,
    shape: &[usize],
) -> Result<(Vec<usize>, usize)> {
    let b = block_size(attrs)?;
    let [n, h, w, c] = nhwc(shape)?;
    let bb = b.saturating_mul(b);
    if c % bb != 0 {
        bail!("the input's depth {c} must be divisible by block_size squared ({bb})");
    }
    let out = Vec::from([n, h.saturating_mul(b), w.saturating_mul(b), c / bb]);
    num_elements(&out)?;
    Ok((out, b))
}

pub(super) fn space_to_depth(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let (shape, b) = space_to_depth_shape(ctx.attrs, x.shape())?;
    let out = with_dtype!(x.dtype(), T => rearrange::<T>(ctx, x, shape, b, true)?);
    Ok(outputs([out]))
}

pub(super) fn depth_to_space(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let (shape, b) = depth_to_space_shape(ctx.attrs, x.shape())?;
    let out = with_dtype!(x.dtype(), T => rearrange::<T>(ctx, x, shape, b, false)?);
    Ok(outputs([out]))
}

/// Element `[n, i, j, (di * b + dj) * c + k]` of the deep form is element
/// `[n, i * b + di, j * b + dj, k]` of the wide one (`c` its channels);
/// `to_depth` makes the deep form from the wide one, otherwise the reverse.
/// Either way the output is written in order.
fn rearrange<T: Element>(
    ctx: &OpContext<'_>,
    x: &Tensor,
    out_shape: Vec<usize>,
    b: usize,
    to_depth: bool,
) -> Result<Tensor> {
    let total = num_elements(&out_shape)?;
    let mut out = ctx.alloc::<T>(total)?;
    let xs = x.as_slice::<T>()?;
    let (deep, wide) = if to_depth {
        (out_shape.as_slice(), x.shape())
    } else {
        (x.shape(), out_shape.as_slice())
    };
    let [n, h, w, dc] = nhwc(deep)?;
    let [_, wh, ww, c] = nhwc(wide)?;
    let wide_at = |bn: usize, y: usize, xx: usize, k: usize| ((bn * wh + y) * ww + xx) * c + k;
    let deep_at = |bn: usize, i: usize, j: usize, d: usize| ((bn * h + i) * w + j) * dc + d;
    if total > 0 {
        if to_depth {
            for bn in 0..n {
                for i in 0..h {
                    for j in 0..w {
                        for d in 0..dc {
                            let (blk, k) = (d / c, d % c);
                            let at = wide_at(bn, i * b + blk / b, j * b + blk % b, k);
                            out.data.push(xs.get(at).copied().unwrap_or_default());
                        }
                    }
                }
            }
        } else {
            for bn in 0..n {
                for y in 0..wh {
                    for xx in 0..ww {
                        for k in 0..c {
                            let d = ((y % b) * b + xx % b) * c + k;
                            let at = deep_at(bn, y / b, xx / b, d);
                            out.data.push(xs.get(at).copied().unwrap_or_default());
                        }
                    }
                }
            }
        }
    }
    out.into_tensor(alloc::copied(&out_shape)?)
}
