//! `ResizeBilinear` (to FLOAT) and `ResizeNearestNeighbor` (keeping the
//! dtype) of NHWC images, with TensorFlow's coordinate conventions.
//!
//! The scale from output to input is `in / out`, or with `align_corners`
//! (corner pixel centers mapped onto each other) `(in - 1) / (out - 1)`.
//! Output index `i` samples input coordinate `i * scale`, or with
//! `half_pixel_centers` `(i + 0.5) * scale - 0.5` (bilinear) and `(i +
//! 0.5) * scale` (nearest). Coordinates are computed in f32, as
//! TensorFlow's CPU kernels do, so the sampled pixels and weights match.

use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::ops::parallel::{par_chunks, threads, worth_threads};
use crate::ops::{Attrs, KernelOutputs, OpContext, outputs};
use crate::tensor::Tensor;

/// The image dtypes these ops take.
pub(in crate::ops) const IMAGE_DTYPES: &[DataType] = &[
    DataType::Float,
    DataType::Double,
    DataType::Int32,
    DataType::Int64,
    DataType::UInt8,
];

/// `align_corners` and `half_pixel_centers`, which exclude each other.
pub(in crate::ops) fn resize_attrs(attrs: &Attrs) -> Result<(bool, bool)> {
    let align = attrs.bool("align_corners", false)?;
    let half = attrs.bool("half_pixel_centers", false)?;
    if align && half {
        return Err(Error::invalid(
            "attributes 'half_pixel_centers' and 'align_corners' cannot both be true",
        ));
    }
    Ok((align, half))
}

/// Checks 'images' (shape `images`) and 'size' (shape `size_shape`,
/// values `size` when known); returns the output shape when the size is
/// known. Shared with build-time inference.
pub(in crate::ops) fn resize_shape(
    images: &[usize],
    size_shape: &[usize],
    size: Option<&[i32]>,
) -> Result<Option<Vec<usize>>> {
    let &[n, h, w, c] = images else {
        return Err(Error::invalid(format!(
            "'images' must be 4-dimensional but has shape {images:?}"
        )));
    };
    if size_shape != [2] {
        return Err(Error::invalid(format!(
            "'size' must be a vector of 2 elements (new height, new width) but has shape {size_shape:?}"
        )));
    }
    let Some(size) = size else {
        return Ok(None);
    };
    let &[oh, ow] = size else {
        return Ok(None);
    };
    if oh <= 0 || ow <= 0 {
        return Err(Error::invalid(format!(
            "'size' must be positive but is [{oh}, {ow}]"
        )));
    }
    if c == 0 {
        return Err(Error::invalid(format!(
            "'images' must have at least one channel but has shape {images:?}"
        )));
    }
    if h == 0 || w == 0 {
        return Err(Error::invalid(format!(
            "'images' must not be empty in height or width but has shape {images:?}"
        )));
    }
    Ok(Some(Vec::from([n, oh as usize, ow as usize, c])))
}

/// The scale from output to input coordinates along one axis.
fn scale(input: usize, output: usize, align: bool) -> f32 {
    if align && output > 1 {
        (input as f32 - 1.0) / (output as f32 - 1.0)
    } else {
        input as f32 / output as f32
    }
}

/// The common part of both kernels: dtype, attributes, shapes.
fn prepare(ctx: &OpContext<'_>) -> Result<(bool, bool, Vec<usize>)> {
    ctx.expect_dtype(0, IMAGE_DTYPES)?;
    ctx.expect_dtype(1, &[DataType::Int32])?;
    let (align, half) = resize_attrs(ctx.attrs)?;
    let size = ctx.input(1);
    let shape = resize_shape(
        ctx.input(0).shape(),
        size.shape(),
        Some(size.as_slice::<i32>()?),
    )?
    .ok_or_else(|| Error::invalid("'size' must hold 2 values"))?;
    Ok((align, half, shape))
}

/// Reads an element as f32, as TensorFlow's bilinear kernel does.
trait AsF32: Element {
    fn f(self) -> f32;
}
macro_rules! as_f32 {
    ($($t:ty),*) => {$(impl AsF32 for $t { #[inline] fn f(self) -> f32 { self as f32 } })*};
}
as_f32!(f32, f64, i32, i64, u8);

pub(super) fn resize_bilinear(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (align, half, shape) = prepare(ctx)?;
    let x = ctx.input(0);
    let out = match x.dtype() {
        DataType::Float => bilinear::<f32>(ctx, x, align, half, shape)?,
        DataType::Double => bilinear::<f64>(ctx, x, align, half, shape)?,
        DataType::Int32 => bilinear::<i32>(ctx, x, align, half, shape)?,
        DataType::Int64 => bilinear::<i64>(ctx, x, align, half, shape)?,
        DataType::UInt8 => bilinear::<u8>(ctx, x, align, half, shape)?,
        _ => return Err(ctx.unsupported_dtype(0)),
    };
    Ok(outputs([out]))
}

/// One axis' interpolation: lower and upper source index and the weight of
/// the upper.
fn weights(out: usize, input: usize, align: bool, half: bool) -> Result<Vec<(usize, usize, f32)>> {
    let s = scale(input, out, align);
    let mut v = crate::alloc::with_room(out)?;
    v.extend((0..out).map(|i| {
        let at = if half {
            (i as f32 + 0.5) * s - 0.5
        } else {
            i as f32 * s
        };
        let lo = at.floor();
        let lower = (lo.max(0.0) as usize).min(input - 1);
        let upper = (at.ceil().max(0.0) as usize).min(input - 1);
        (lower, upper, at - lo)
    }));
    Ok(v)
}

fn bilinear<T: AsF32>(
    ctx: &OpContext<'_>,
    x: &Tensor,
    align: bool,
    half: bool,
    shape: Vec<usize>,
) -> Result<Tensor> {
    let xs = x.as_slice::<T>()?;
    let &[_, h, w, c] = x.shape() else {
        return Err(Error::invalid("'images' must be 4-dimensional"));
    };
    let (oh, ow) = (shape[1], shape[2]);
    let ys = weights(oh, h, align, half)?;
    let xw = weights(ow, w, align, half)?;
    let n = crate::tensor::num_elements(&shape)?;
    let mut out = ctx.alloc_initialized::<f32>(n)?;
    let parts = if worth_threads(n.saturating_mul(8)) {
        threads()
    } else {
        1
    };
    par_chunks(&mut out.data, c, parts, |start, dst| {
        for (i, o) in dst.chunks_exact_mut(c).enumerate() {
            let pos = start / c + i;
            let (b, oy, ox) = (pos / (oh * ow), (pos / ow) % oh, pos % ow);
            let (top, bottom, dy) = ys[oy];
            let (left, right, dx) = xw[ox];
            let at = |yy: usize, xx: usize| ((b * h + yy) * w + xx) * c;
            let (tl, tr, bl, br) = (
                at(top, left),
                at(top, right),
                at(bottom, left),
                at(bottom, right),
            );
            for (ch, o) in o.iter_mut().enumerate() {
                let p = |s: usize| xs[s + ch].f();
                let t = p(tl) + (p(tr) - p(tl)) * dx;
                let bo = p(bl) + (p(br) - p(bl)) * dx;
                *o = t + (bo - t) * dy;
            }
        }
    });
    out.into_tensor(shape)
}

pub(super) fn resize_nearest(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (align, half, shape) = prepare(ctx)?;
    let x = ctx.input(0);
    let out = match x.dtype() {
        DataType::Float => nearest::<f32>(ctx, x, align, half, shape)?,
        DataType::Double => nearest::<f64>(ctx, x, align, half, shape)?,
        DataType::Int32 => nearest::<i32>(ctx, x, align, half, shape)?,
        DataType::Int64 => nearest::<i64>(ctx, x, align, half, shape)?,
        DataType::UInt8 => nearest::<u8>(ctx, x, align, half, shape)?,
        _ => return Err(ctx.unsupported_dtype(0)),
    };
    Ok(outputs([out]))
}

/// One axis' nearest source index for each output index.
fn nearest_index(out: usize, input: usize, align: bool, half: bool) -> Result<Vec<usize>> {
    let s = scale(input, out, align);
    let mut v = crate::alloc::with_room(out)?;
    v.extend((0..out).map(|i| {
        let at = if half {
            (i as f32 + 0.5) * s
        } else {
            i as f32 * s
        };
        let j = if align { at.round() } else { at.floor() };
        (j.max(0.0) as usize).min(input - 1)
    }));
    Ok(v)
}

fn nearest<T: Element>(
    ctx: &OpContext<'_>,
    x: &Tensor,
    align: bool,
    half: bool,
    shape: Vec<usize>,
) -> Result<Tensor> {
    let xs = x.as_slice::<T>()?;
    let &[_, h, w, c] = x.shape() else {
        return Err(Error::invalid("'images' must be 4-dimensional"));
    };
    let (oh, ow) = (shape[1], shape[2]);
    let ys = nearest_index(oh, h, align, half)?;
    let xi = nearest_index(ow, w, align, half)?;
    let n = crate::tensor::num_elements(&shape)?;
    let mut out = ctx.alloc_initialized::<T>(n)?;
    let parts = if worth_threads(n) { threads() } else { 1 };
    par_chunks(&mut out.data, c, parts, |start, dst| {
        for (i, o) in dst.chunks_exact_mut(c).enumerate() {
            let pos = start / c + i;
            let (b, oy, ox) = (pos / (oh * ow), (pos / ow) % oh, pos % ow);
            let s = ((b * h + ys[oy]) * w + xi[ox]) * c;
            o.copy_from_slice(&xs[s..s + c]);
        }
    });
    out.into_tensor(shape)
}
