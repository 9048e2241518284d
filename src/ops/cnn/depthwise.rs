//! `DepthwiseConv2dNative`: each input channel convolved with its own
//! `depth_multiplier` filters, output channel `c * multiplier + m`.
//!
//! A direct loop: each output position accumulates its window's input rows
//! (`depth` values) against the filter's matching rows (`depth x
//! multiplier`), contiguous in both, so the inner loop vectorizes. Threads
//! take bands of output positions.
//!
//! As TensorFlow's CPU kernel: equal row and column strides, NHWC only
//! (NCHW is Unimplemented there, `Unsupported` here). Its CPU kernel
//! ignores `dilations`; this one refuses any but 1 rather than compute
//! something else than asked.

use super::conv::Conv2d;
use super::window;
use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::ops::parallel::{par_chunks, threads, worth_threads};
use crate::ops::{Attrs, KernelOutputs, OpContext, outputs};

/// `DepthwiseConv2dNative`'s attribute and shape checks, in TensorFlow's
/// order; the geometry in [`Conv2d`]'s terms (`patch_depth` is the input
/// depth, `out_depth` the input depth times the multiplier). Shared with
/// build-time inference.
pub(in crate::ops) fn depthwise_geometry(
    input: &[usize],
    filter: &[usize],
    attrs: &Attrs,
) -> Result<Conv2d> {
    let strides = window::four(attrs, "strides", None)?;
    let nhwc = window::nhwc(attrs)?;
    let (c, h, w) = if nhwc { (3, 1, 2) } else { (1, 2, 3) };
    if strides[h] != strides[w] {
        return Err(Error::invalid(format!(
            "attribute 'strides' is {strides:?}: the row and column strides must be equal"
        )));
    }
    if strides[0] != 1 || strides[c] != 1 {
        return Err(Error::invalid(format!(
            "attribute 'strides' is {strides:?}: strides in the batch and depth dimensions are not supported"
        )));
    }
    window::positive("strides", &strides)?;
    let padding = window::padding(attrs, true)?;
    let explicit = window::explicit_paddings(attrs, padding, nhwc)?;
    let dilations = window::four(attrs, "dilations", Some([1; 4]))?;
    if dilations != [1; 4] {
        return Err(Error::Unsupported(format!(
            "attribute 'dilations' is {dilations:?}: only [1, 1, 1, 1] is supported (TensorFlow's CPU kernel ignores it)"
        )));
    }
    let [n, in_c, in_h, in_w] = match *input {
        [a, b, c_, d] if nhwc => [a, d, b, c_],
        [a, b, c_, d] => [a, b, c_, d],
        _ => {
            return Err(Error::invalid(format!(
                "'input' must be 4-dimensional but has shape {input:?}"
            )));
        }
    };
    let &[k_h, k_w, f_c, mult] = filter else {
        return Err(Error::invalid(format!(
            "'filter' must be 4-dimensional but has shape {filter:?}"
        )));
    };
    if f_c != in_c {
        return Err(Error::invalid(format!(
            "'input' (shape {input:?}) and 'filter' (shape {filter:?}) must have the same depth: {in_c} vs {f_c}"
        )));
    }
    let out_depth = in_c.checked_mul(mult).ok_or_else(|| {
        Error::invalid(format!(
            "the output depth of 'filter' {filter:?} is too large"
        ))
    })?;
    let rows = window::output_dim("rows", in_h, k_h, 1, strides[h], padding, explicit[0])?;
    let cols = window::output_dim("cols", in_w, k_w, 1, strides[w], padding, explicit[1])?;
    Ok(Conv2d {
        nhwc,
        batch: n,
        in_rows: in_h,
        in_cols: in_w,
        in_depth: in_c,
        k_rows: k_h,
        k_cols: k_w,
        patch_depth: in_c,
        out_depth,
        stride: (strides[h] as usize, strides[w] as usize),
        dilation: (1, 1),
        rows,
        cols,
    })
}

/// What TensorFlow's CPU kernel refuses once there is work: NCHW.
pub(in crate::ops) fn depthwise_launch(g: &Conv2d) -> Result<()> {
    if !g.nhwc {
        return Err(Error::Unsupported(
            "DepthwiseConv2dNative: the CPU kernel supports only the NHWC data format, as TensorFlow's; the op was given NCHW"
                .into(),
        ));
    }
    Ok(())
}

pub(super) fn depthwise(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (x, f) = (ctx.input(0), ctx.input(1));
    let dtype = super::conv::conv_dtype(x.dtype(), f.dtype())?;
    let g = depthwise_geometry(x.shape(), f.shape(), ctx.attrs)?;
    let out = match dtype {
        DataType::Float => typed::<f32>(ctx, &g)?,
        _ => typed::<f64>(ctx, &g)?,
    };
    Ok(outputs([out]))
}

fn typed<T: Element + std::ops::Mul<Output = T> + std::ops::AddAssign>(
    ctx: &OpContext<'_>,
    g: &Conv2d,
) -> Result<crate::tensor::Tensor> {
    let shape = g.out_shape();
    let n = crate::tensor::num_elements(&shape)?;
    let mut out = ctx.alloc_initialized::<T>(n)?;
    if n == 0 {
        return out.into_tensor(shape);
    }
    depthwise_launch(g)?;
    let (xs, fs) = (ctx.input(0).as_slice::<T>()?, ctx.input(1).as_slice::<T>()?);
    let (c, od) = (g.in_depth, g.out_depth);
    let mult = od / c.max(1);
    let (oh, ow) = (g.rows.out, g.cols.out);
    let work = n.saturating_mul(g.k_rows.saturating_mul(g.k_cols));
    let parts = if worth_threads(work) { threads() } else { 1 };
    par_chunks(&mut out.data, od, parts, |start, dst| {
        for (i, o) in dst.chunks_exact_mut(od).enumerate() {
            let pos = start / od + i;
            let (b, oy, ox) = (pos / (oh * ow), (pos / ow) % oh, pos % ow);
            o.fill(T::default());
            let y0 = (oy * g.stride.0) as i64 - g.rows.pad as i64;
            let x0 = (ox * g.stride.1) as i64 - g.cols.pad as i64;
            for ky in 0..g.k_rows {
                let iy = y0 + ky as i64;
                if iy < 0 || iy >= g.in_rows as i64 {
                    continue;
                }
                for kx in 0..g.k_cols {
                    let ix = x0 + kx as i64;
                    if ix < 0 || ix >= g.in_cols as i64 {
                        continue;
                    }
                    let s = ((b * g.in_rows + iy as usize) * g.in_cols + ix as usize) * c;
                    let row = &xs[s..s + c];
                    let taps = &fs[(ky * g.k_cols + kx) * od..][..od];
                    if mult == 1 {
                        for ((o, &v), &w) in o.iter_mut().zip(row).zip(taps) {
                            *o += v * w;
                        }
                    } else {
                        for ((oc, &v), wc) in o
                            .chunks_exact_mut(mult)
                            .zip(row)
                            .zip(taps.chunks_exact(mult))
                        {
                            for (o, &w) in oc.iter_mut().zip(wc) {
                                *o += v * w;
                            }
                        }
                    }
                }
            }
        }
    });
    out.into_tensor(shape)
}
