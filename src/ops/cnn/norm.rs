//! `FusedBatchNormV3` in inference mode (`is_training=false`) and `LRN`
//! (local response normalization across channels). FLOAT, as TensorFlow's
//! CPU kernels (which also take half types).
//!
//! `FusedBatchNormV3` with `is_training=false` computes `y = (x - mean) *
//! scale / sqrt(variance + epsilon) + offset` per channel and passes the
//! given mean and variance through as `batch_mean`, `batch_variance` and
//! the first two reserve spaces; the third reserve space is a scalar 0, as
//! TensorFlow's CPU kernel makes it. NCHW is accepted (TensorFlow's CPU
//! kernel transposes it). Training mode (the attribute's default) is not
//! implemented: it is refused as unsupported.

use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::ops::parallel::{par_chunks, threads, worth_threads};
use crate::ops::{Attrs, KernelOutputs, OpContext, outputs};
use crate::tensor::Tensor;

/// The argument names of `FusedBatchNormV3`'s inputs.
const BN_ARGS: [&str; 5] = ["x", "scale", "offset", "mean", "variance"];

/// `FusedBatchNormV3`'s checks, in TensorFlow's order, for its inputs'
/// dtypes and shapes; returns whether the data format is NHWC and the
/// epsilon. Shared with build-time inference.
pub(in crate::ops) fn batch_norm_checks(
    dtypes: [DataType; 5],
    shapes: [&[usize]; 5],
    attrs: &Attrs,
) -> Result<(bool, f32)> {
    crate::ops::expect_dtype("x", dtypes[0], &[DataType::Float])?;
    for (name, &d) in BN_ARGS.iter().zip(&dtypes).skip(1) {
        crate::ops::expect_dtype(name, d, &[DataType::Float])?;
    }
    let epsilon = attrs.float("epsilon", 1e-4)?;
    attrs.float("exponential_avg_factor", 1.0)?;
    let nhwc = match attrs.string("data_format")? {
        None | Some("NHWC") => true,
        Some("NCHW") => false,
        Some(other) => {
            return Err(Error::invalid(format!(
                "attribute 'data_format' must be \"NHWC\" or \"NCHW\" but is \"{}\"",
                crate::alloc::quoted(other.as_bytes())
            )));
        }
    };
    if attrs.bool("is_training", true)? {
        return Err(Error::Unsupported(
            "FusedBatchNormV3: only inference (attribute 'is_training' false) is implemented"
                .into(),
        ));
    }
    let x = shapes[0];
    if x.len() != 4 {
        return Err(Error::invalid(format!(
            "'x' must be 4-dimensional but has shape {x:?}"
        )));
    }
    let channels = if nhwc { x[3] } else { x[1] };
    for (name, s) in BN_ARGS.iter().zip(shapes).skip(1) {
        if s.len() != 1 {
            return Err(Error::invalid(format!(
                "'{name}' must be a vector but has shape {s:?}"
            )));
        }
        if s[0] != channels {
            return Err(Error::invalid(format!(
                "'{name}' (shape {s:?}) must have as many elements as 'x' (shape {x:?}) has channels, {channels}"
            )));
        }
    }
    Ok((nhwc, epsilon))
}

pub(super) fn fused_batch_norm(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let ins: [&Tensor; 5] = std::array::from_fn(|i| ctx.input(i));
    let (nhwc, eps) = batch_norm_checks(ins.map(|t| t.dtype()), ins.map(|t| t.shape()), ctx.attrs)?;
    let x = ins[0].as_slice::<f32>()?;
    let [scale, offset, mean, var] = [1, 2, 3, 4].map(|i| ins[i].as_slice::<f32>().unwrap_or(&[]));
    let shape = ins[0].shape();
    let c = if nhwc { shape[3] } else { shape[1] };
    // Per channel: y = x * a + b.
    let mut a = crate::alloc::with_room::<f32>(c)?;
    let mut b = crate::alloc::with_room::<f32>(c)?;
    for i in 0..c {
        let inv = 1.0 / (var[i] + eps).sqrt();
        a.push(scale[i] * inv);
        b.push(offset[i] - mean[i] * scale[i] * inv);
    }
    let mut y = ctx.alloc_initialized::<f32>(x.len())?;
    let inner = if nhwc { 1 } else { shape[2] * shape[3] };
    if !x.is_empty() && c > 0 {
        let unit = c * inner;
        let parts = if worth_threads(x.len()) { threads() } else { 1 };
        par_chunks(&mut y.data, unit, parts, |start, dst| {
            let src = &x[start..start + dst.len()];
            if inner == 1 {
                for ((o, v), (a, b)) in dst.iter_mut().zip(src).zip(a.iter().zip(&b).cycle()) {
                    *o = v * a + b;
                }
            } else {
                let runs = dst.chunks_mut(inner).zip(src.chunks(inner));
                for ((o, s), (a, b)) in runs.zip(a.iter().zip(&b).cycle()) {
                    for (o, v) in o.iter_mut().zip(s) {
                        *o = v * a + b;
                    }
                }
            }
        });
    }
    let copy = |t: &Tensor| t.deep_copy(ctx.account());
    Ok(outputs([
        y.into_tensor(crate::alloc::copied(shape)?)?,
        copy(ins[3])?,
        copy(ins[4])?,
        copy(ins[3])?,
        copy(ins[4])?,
        Tensor::scalar(ctx.account(), 0f32)?,
    ]))
}

/// `LRN`'s checks: a FLOAT 4-D input, a non-negative `depth_radius`; returns
/// (depth_radius, bias, alpha, beta). Shared with build-time inference.
pub(in crate::ops) fn lrn_checks(
    dtype: DataType,
    shape: &[usize],
    attrs: &Attrs,
) -> Result<(usize, f32, f32, f32)> {
    crate::ops::expect_dtype("input", dtype, &[DataType::Float])?;
    let radius = attrs.int("depth_radius", 5)?;
    let (bias, alpha, beta) = (
        attrs.float("bias", 1.0)?,
        attrs.float("alpha", 1.0)?,
        attrs.float("beta", 0.5)?,
    );
    if shape.len() != 4 {
        return Err(Error::invalid(format!(
            "'input' must be 4-dimensional but has shape {shape:?}"
        )));
    }
    let radius = usize::try_from(radius)
        .ok()
        .filter(|&r| r <= i32::MAX as usize)
        .ok_or_else(|| {
            Error::invalid(format!(
                "attribute 'depth_radius' must be in [0, {}] but is {radius}",
                i32::MAX
            ))
        })?;
    Ok((radius, bias, alpha, beta))
}

pub(super) fn lrn(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let (r, bias, alpha, beta) = lrn_checks(x.dtype(), x.shape(), ctx.attrs)?;
    let xs = x.as_slice::<f32>()?;
    let c = x.shape()[3];
    let mut out = ctx.alloc_initialized::<f32>(xs.len())?;
    if c > 0 {
        let work = xs.len().saturating_mul(16);
        let parts = if worth_threads(work) { threads() } else { 1 };
        par_chunks(&mut out.data, c, parts, |start, dst| {
            for (o, row) in dst.chunks_exact_mut(c).zip(xs[start..].chunks_exact(c)) {
                for (j, o) in o.iter_mut().enumerate() {
                    let lo = j.saturating_sub(r);
                    let hi = j.saturating_add(r).min(c - 1);
                    // f64 for the window's sum: no order-dependent rounding.
                    let sq: f64 = row[lo..=hi]
                        .iter()
                        .map(|&v| f64::from(v) * f64::from(v))
                        .sum();
                    let denom = (f64::from(bias) + f64::from(alpha) * sq).powf(f64::from(beta));
                    *o = (f64::from(row[j]) / denom) as f32;
                }
            }
        });
    }
    Ok(outputs(
        [out.into_tensor(crate::alloc::copied(x.shape())?)?],
    ))
}
