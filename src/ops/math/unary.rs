//! Unary arithmetic: `Neg`, `Abs`, `Sign`, `Square` and `Round` on numeric
//! dtypes, and the functions defined on FLOAT and DOUBLE only (`Log`,
//! `Log1p`, `Exp`, `Expm1`, `Sqrt`, `Rsqrt`, `Reciprocal`, `Sin`, `Cos`,
//! `Tan`, `Tanh`, `Sigmoid`, `Floor`, `Ceil`).

use super::FLOATS;
use crate::dtype::DataType;
use crate::error::Result;
use crate::ops::broadcast::unary_map;
use crate::ops::{KernelOutputs, OpContext, outputs};

/// A unary op defined only on FLOAT and DOUBLE: `$f` is applied with `$T`
/// bound to the element type.
macro_rules! float_unary {
    ($name:ident, $T:ident, $f:expr) => {
        pub(super) fn $name(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
            let x = ctx.input(0);
            let out = match ctx.expect_dtype(0, FLOATS)? {
                DataType::Float => {
                    type $T = f32;
                    unary_map(ctx, x, $f)?
                }
                _ => {
                    type $T = f64;
                    unary_map(ctx, x, $f)?
                }
            };
            Ok(outputs([out]))
        }
    };
}

float_unary!(log, T, |a: T| a.ln());

float_unary!(log1p, T, |a: T| a.ln_1p());

float_unary!(exp, T, |a: T| a.exp());

float_unary!(expm1, T, |a: T| a.exp_m1());

float_unary!(sqrt, T, |a: T| a.sqrt());

float_unary!(rsqrt, T, |a: T| 1.0 / a.sqrt());

float_unary!(reciprocal, T, |a: T| 1.0 / a);

float_unary!(sin, T, |a: T| a.sin());

float_unary!(cos, T, |a: T| a.cos());

float_unary!(tan, T, |a: T| a.tan());

float_unary!(tanh, T, |a: T| a.tanh());

float_unary!(floor, T, |a: T| a.floor());

float_unary!(ceil, T, |a: T| a.ceil());

// Both branches keep `exp` from overflowing to give 0/inf = NaN.
float_unary!(sigmoid, T, |a: T| if a >= 0.0 {
    1.0 / (1.0 + (-a).exp())
} else {
    let e = a.exp();
    e / (1.0 + e)
});

/// TensorFlow registers `Neg`, `Abs` and `Sign` for signed types only, so
/// UINT8 is rejected like BOOL.
pub(super) fn neg(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let out = by_dtype!(x.dtype(), T,
        float => unary_map(ctx, x, |a: T| -a)?,
        signed => unary_map(ctx, x, |a: T| a.wrapping_neg())?,
        unsigned => return Err(ctx.unsupported_dtype(0)),
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(outputs([out]))
}

pub(super) fn abs(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let out = by_dtype!(x.dtype(), T,
        float => unary_map(ctx, x, |a: T| a.abs())?,
        signed => unary_map(ctx, x, |a: T| a.wrapping_abs())?,
        unsigned => return Err(ctx.unsupported_dtype(0)),
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(outputs([out]))
}

/// -1, 0 or 1; NaN stays NaN and -0.0 gives 0.0.
pub(super) fn sign(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let out = by_dtype!(x.dtype(), T,
        float => unary_map(ctx, x, |a: T| {
            if a > 0.0 { 1.0 } else if a < 0.0 { -1.0 } else if a.is_nan() { a } else { 0.0 }
        })?,
        signed => unary_map(ctx, x, |a: T| a.signum())?,
        unsigned => return Err(ctx.unsupported_dtype(0)),
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(outputs([out]))
}

pub(super) fn square(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let out = by_dtype!(x.dtype(), T,
        float => unary_map(ctx, x, |a: T| a * a)?,
        int => unary_map(ctx, x, |a: T| a.wrapping_mul(a))?,
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(outputs([out]))
}

/// Half to even (banker's rounding), as TensorFlow's `Round`. On INT32 and
/// INT64 it is the identity and shares the input's buffer.
pub(super) fn round(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let out = by_dtype!(x.dtype(), T,
        float => unary_map(ctx, x, |a: T| a.round_ties_even())?,
        signed => x.clone(),
        unsigned => return Err(ctx.unsupported_dtype(0)),
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(outputs([out]))
}
