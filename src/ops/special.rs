//! Element-wise math ops of TensorFlow's `math_ops` beyond `math`: the float
//! predicates `IsNan`, `IsInf` and `IsFinite` (BOOL outputs), the special
//! functions `Erf`, `Erfc` and `Lgamma` (musl's, through `libm`), and the
//! broadcasting `Atan2`, `TruncateDiv` and `TruncateMod`.
//!
//! Dtypes follow TensorFlow's CPU kernels on eagerflow's dtypes: the
//! predicates and functions and `Atan2` take FLOAT and DOUBLE; `TruncateDiv`
//! takes the integers (UINT8, INT32, INT64: TensorFlow has no float kernel);
//! `TruncateMod` takes INT32, INT64 (remainder with the dividend's sign) and
//! FLOAT, DOUBLE (C's `fmod`). An integer divisor of 0 that reaches a
//! computed element is an error, as for `Div`.

use crate::dtype::{DataType, Element};
use crate::error::Result;
use crate::ops::broadcast::{binary_map, broadcast_inputs, unary_map};
use crate::ops::infer::special as infer;
use crate::ops::{KernelOutputs, OpContext, OpDef, Registry, outputs};
use crate::tensor::num_elements;

const FLOATS: &[DataType] = &[DataType::Float, DataType::Double];

pub(super) const TRUNCATE_DIV_TYPES: &[DataType] =
    &[DataType::UInt8, DataType::Int32, DataType::Int64];

pub(super) const TRUNCATE_MOD_TYPES: &[DataType] = &[
    DataType::Int32,
    DataType::Int64,
    DataType::Float,
    DataType::Double,
];

pub(super) fn register(r: &mut Registry) {
    let predicate =
        |name, kernel| OpDef::new(name, &["x"], &["y"], kernel).infer(infer::float_predicate);
    let function =
        |name, kernel| OpDef::new(name, &["x"], &["y"], kernel).infer(infer::float_unary);
    r.add([
        predicate("IsNan", is_nan),
        predicate("IsInf", is_inf),
        predicate("IsFinite", is_finite),
        function("Erf", erf),
        function("Erfc", erfc),
        function("Lgamma", lgamma),
        OpDef::new("Atan2", &["y", "x"], &["z"], atan2).infer(infer::atan2),
        OpDef::new("TruncateDiv", &["x", "y"], &["z"], truncate_div).infer(infer::truncate_div),
        OpDef::new("TruncateMod", &["x", "y"], &["z"], truncate_mod).infer(infer::truncate_mod),
    ]);
}

/// Applies `f32`'s or `f64`'s form of a function to FLOAT or DOUBLE `x`.
fn float_map<A: Element, B: Element>(
    ctx: &OpContext<'_>,
    f: fn(f32) -> A,
    g: fn(f64) -> B,
) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let out = match ctx.expect_dtype(0, FLOATS)? {
        DataType::Float => unary_map(ctx, x, f)?,
        _ => unary_map(ctx, x, g)?,
    };
    Ok(outputs([out]))
}

fn is_nan(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    float_map(ctx, f32::is_nan, f64::is_nan)
}

fn is_inf(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    float_map(ctx, f32::is_infinite, f64::is_infinite)
}

fn is_finite(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    float_map(ctx, f32::is_finite, f64::is_finite)
}

fn erf(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    float_map(ctx, libm::erff, libm::erf)
}

fn erfc(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    float_map(ctx, libm::erfcf, libm::erfc)
}

fn lgamma(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    float_map(ctx, libm::lgammaf, libm::lgamma)
}

/// The checks of a broadcasting binary op, in the order build-time
/// inference repeats them: one dtype, shapes that broadcast, a supported
/// dtype. Returns it and the output's element count.
fn operands(ctx: &OpContext<'_>, allowed: &[DataType]) -> Result<(DataType, usize)> {
    ctx.same_dtype(0, 1)?;
    let shape = broadcast_inputs(ctx, 0, 1)?;
    Ok((ctx.expect_dtype(0, allowed)?, num_elements(&shape)?))
}

fn atan2(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (dtype, _) = operands(ctx, FLOATS)?;
    let (y, x) = (ctx.input(0), ctx.input(1));
    let out = match dtype {
        DataType::Float => binary_map(ctx, y, x, f32::atan2)?,
        _ => binary_map(ctx, y, x, f64::atan2)?,
    };
    Ok(outputs([out]))
}

/// Integer division and remainder toward zero that cannot panic: `MIN / -1`
/// wraps to `MIN` (remainder 0); a zero divisor, refused beforehand, gives 0.
trait Truncating: Element {
    fn div_toward_zero(self, b: Self) -> Self;
    fn rem_toward_zero(self, b: Self) -> Self;
}

macro_rules! truncating {
    ($($t:ty),*) => {
        $(impl Truncating for $t {
            fn div_toward_zero(self, b: Self) -> Self {
                if b == 0 { 0 } else { self.wrapping_div(b) }
            }
            fn rem_toward_zero(self, b: Self) -> Self {
                if b == 0 { 0 } else { self.wrapping_rem(b) }
            }
        })*
    };
}

truncating!(u8, i32, i64);

/// Refuses an integer divisor of 0 when the output has elements (then every
/// element of `y` is used).
fn check_divisor<T: Element>(ctx: &OpContext<'_>, n: usize) -> Result<()> {
    if n > 0 && ctx.input(1).as_slice::<T>()?.contains(&T::default()) {
        crate::bail!(
            "integer division by zero: input '{}' contains 0",
            ctx.arg_name(1)
        );
    }
    Ok(())
}

fn int_binary<T: Truncating>(
    ctx: &OpContext<'_>,
    n: usize,
    f: fn(T, T) -> T,
) -> Result<KernelOutputs> {
    check_divisor::<T>(ctx, n)?;
    Ok(outputs([binary_map(ctx, ctx.input(0), ctx.input(1), f)?]))
}

fn truncate_div(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    match operands(ctx, TRUNCATE_DIV_TYPES)? {
        (DataType::UInt8, n) => int_binary(ctx, n, u8::div_toward_zero),
        (DataType::Int32, n) => int_binary(ctx, n, i32::div_toward_zero),
        (_, n) => int_binary(ctx, n, i64::div_toward_zero),
    }
}

fn truncate_mod(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (x, y) = (ctx.input(0), ctx.input(1));
    match operands(ctx, TRUNCATE_MOD_TYPES)? {
        (DataType::Int32, n) => int_binary(ctx, n, i32::rem_toward_zero),
        (DataType::Int64, n) => int_binary(ctx, n, i64::rem_toward_zero),
        // Rust's `%` on floats is C's `fmod`.
        (DataType::Float, _) => Ok(outputs([binary_map(ctx, x, y, |a: f32, b: f32| a % b)?])),
        _ => Ok(outputs([binary_map(ctx, x, y, |a: f64, b: f64| a % b)?])),
    }
}
