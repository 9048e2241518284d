//! The activations TensorFlow Java reaches as `tf.nn.leakyRelu`,
//! `tf.math.softplus` and `tf.nn.softsign`; FLOAT and DOUBLE, as
//! TensorFlow's CPU kernels (which also take half types).
//!
//! `Softplus` is `ln(1 + e^x)` computed as TensorFlow does so that it
//! neither overflows nor loses small values: `x` itself above `-t`, `e^x`
//! below `t`, `ln_1p(e^x)` between, where `t = ln(epsilon) + 2` for the
//! dtype's machine epsilon.

use crate::dtype::DataType;
use crate::error::Result;
use crate::ops::broadcast::unary_map;
use crate::ops::infer::{InferCtx, Meta};
use crate::ops::{KernelOutputs, OpContext, expect_dtype, outputs};

const FLOATS: &[DataType] = &[DataType::Float, DataType::Double];

fn float_map(
    ctx: &OpContext<'_>,
    f32_fn: impl Fn(f32) -> f32 + Sync,
    f64_fn: impl Fn(f64) -> f64 + Sync,
) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let out = match ctx.expect_dtype(0, FLOATS)? {
        DataType::Float => unary_map(ctx, x, f32_fn)?,
        _ => unary_map(ctx, x, f64_fn)?,
    };
    Ok(outputs([out]))
}

/// Build-time inference: a float input's dtype and shape.
pub(super) fn infer_float(ctx: &InferCtx<'_>) -> Result<Meta> {
    let x = ctx.input(0);
    if let Some(d) = x.dtype() {
        expect_dtype(ctx.arg_name(0), d, FLOATS)?;
    }
    Ok(Meta {
        dtype: x.dtype(),
        shape: x
            .shape()
            .map(crate::alloc::copied)
            .transpose()?
            .map(Vec::into_boxed_slice),
    })
}

/// `LeakyRelu`'s inference: its `alpha` (a float), then the input's.
pub(super) fn infer_leaky_relu(ctx: &InferCtx<'_>) -> Result<Meta> {
    ctx.attrs.float("alpha", 0.2)?;
    infer_float(ctx)
}

pub(super) fn leaky_relu(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let alpha = ctx.attrs.float("alpha", 0.2)?;
    let a64 = f64::from(alpha);
    float_map(
        ctx,
        move |v| if v > 0.0 { v } else { v * alpha },
        move |v| if v > 0.0 { v } else { v * a64 },
    )
}

macro_rules! softplus_of {
    ($name:ident, $t:ty) => {
        fn $name(v: $t) -> $t {
            let t = <$t>::EPSILON.ln() + 2.0;
            if v > -t {
                v
            } else if v < t {
                v.exp()
            } else {
                v.exp().ln_1p()
            }
        }
    };
}
softplus_of!(softplus32, f32);
softplus_of!(softplus64, f64);

pub(super) fn softplus(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    float_map(ctx, softplus32, softplus64)
}

pub(super) fn softsign(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    float_map(ctx, |v| v / (1.0 + v.abs()), |v| v / (1.0 + v.abs()))
}
