//! Comparisons and logic: `Equal`, `NotEqual`, `Less`, `LessEqual`,
//! `Greater`, `GreaterEqual` (BOOL output, NumPy broadcasting), `LogicalAnd`,
//! `LogicalOr`, `LogicalNot`, and `SelectV2`.
//!
//! Floats compare as IEEE 754 does: NaN is unequal to everything, itself
//! included, and every ordering with NaN is false.

use super::broadcast::{binary_map, broadcast_inputs, broadcast_shapes, unary_map};
use super::infer::{InferFn, elementwise as infer};
use super::math::ternary::{broadcast3, ternary_map};
use super::{Kernel, OpContext, OpDef, Registry};
use super::{KernelOutputs, outputs};
use crate::dtype::DataType;
use crate::error::Result;
use crate::tensor::Tensor;

/// An element-wise comparison or logical op of `x` and `y`.
const fn binary(name: &'static str, kernel: Kernel, infer: InferFn) -> OpDef {
    OpDef::new(name, &["x", "y"], &["z"], kernel).infer(infer)
}

/// An ordering of `x` and `y`, HALF and BFLOAT16 compared in FLOAT (exact).
const fn binary_halves(name: &'static str, kernel: Kernel, infer: InferFn) -> OpDef {
    binary(name, kernel, infer).halves()
}

pub(super) fn register(r: &mut Registry) {
    const EQUALITY: &[&str] = &["incompatible_shape_error"];
    r.add([
        // STRING operands compare too (`strings::equal`).
        binary("Equal", equal, infer::equality)
            .attrs(EQUALITY)
            .strings(),
        binary("NotEqual", not_equal, infer::equality)
            .attrs(EQUALITY)
            .strings(),
        binary_halves("Less", less, infer::ordering),
        binary_halves("LessEqual", less_equal, infer::ordering),
        binary_halves("Greater", greater, infer::ordering),
        binary_halves("GreaterEqual", greater_equal, infer::ordering),
        binary("LogicalAnd", logical_and, infer::logical),
        binary("LogicalOr", logical_or, infer::logical),
        OpDef::new("LogicalNot", &["x"], &["y"], logical_not).infer(infer::same_as_input),
        OpDef::new("SelectV2", &["condition", "t", "e"], &["output"], select_v2)
            .infer(super::infer::ternary::select_v2),
    ]);
}

/// Checks that `x` and `y` broadcast, naming both shapes if not; equal
/// shapes (the common, small-op case) are accepted without building one.
fn check_shapes(ctx: &OpContext<'_>) -> Result<()> {
    if ctx.input(0).shape() != ctx.input(1).shape() {
        broadcast_inputs(ctx, 0, 1)?;
    }
    Ok(())
}

/// `Equal` (`want_equal`) or `NotEqual` on any dtype. With
/// `incompatible_shape_error=false`, shapes that do not broadcast give a
/// scalar (false for `Equal`, true for `NotEqual`) instead of an error, as in
/// TensorFlow. Mismatched dtypes are an error either way.
fn equality(ctx: &OpContext<'_>, want_equal: bool) -> Result<KernelOutputs> {
    ctx.same_dtype(0, 1)?;
    let (x, y) = (ctx.input(0), ctx.input(1));
    if x.shape() != y.shape()
        && broadcast_shapes(x.shape(), y.shape()).is_none()
        && !ctx.attrs.bool("incompatible_shape_error", true)?
    {
        return Ok(outputs([Tensor::scalar(ctx.account(), !want_equal)?]));
    }
    check_shapes(ctx)?;
    if x.dtype() == DataType::String {
        let out = super::strings::equality(ctx, x, y, want_equal)?;
        return Ok(outputs([out]));
    }
    let out = crate::with_dtype!(x.dtype(), T => binary_map(ctx, x, y, |a: T, b: T| (a == b) == want_equal)?);
    Ok(outputs([out]))
}

fn equal(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    equality(ctx, true)
}

fn not_equal(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    equality(ctx, false)
}

/// An ordering comparison (`$op`) on numeric dtypes; BOOL is rejected as in TensorFlow.
macro_rules! ordering {
    ($name:ident, $op:tt) => {
        fn $name(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
            let dtype = ctx.same_dtype(0, 1)?;
            check_shapes(ctx)?;
            let (x, y) = (ctx.input(0), ctx.input(1));
            let out = crate::with_numeric_dtype!(dtype, T => binary_map(ctx, x, y, |a: T, b: T| a $op b)?,
                bool => return Err(ctx.unsupported_dtype(0)));
            Ok(outputs([out]))
        }
    };
}

ordering!(less, <);
ordering!(less_equal, <=);
ordering!(greater, >);
ordering!(greater_equal, >=);

fn logical(ctx: &OpContext<'_>, f: fn(bool, bool) -> bool) -> Result<KernelOutputs> {
    ctx.expect_dtype(0, &[DataType::Bool])?;
    ctx.expect_dtype(1, &[DataType::Bool])?;
    check_shapes(ctx)?;
    Ok(outputs([binary_map(ctx, ctx.input(0), ctx.input(1), f)?]))
}

fn logical_and(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    logical(ctx, |a, b| a && b)
}

fn logical_or(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    logical(ctx, |a, b| a || b)
}

fn logical_not(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    ctx.expect_dtype(0, &[DataType::Bool])?;
    Ok(outputs([unary_map(ctx, ctx.input(0), |a: bool| !a)?]))
}

/// `condition ? t : e` element-wise, all three broadcast together (NumPy
/// rules, as TensorFlow's `SelectV2`); `t` and `e` may have any one dtype.
fn select_v2(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    ctx.expect_dtype(0, &[DataType::Bool])?;
    let dtype = ctx.same_dtype(1, 2)?;
    let shape = broadcast3(ctx)?;
    let inputs = (ctx.input(0), ctx.input(1), ctx.input(2));
    let out = crate::with_dtype!(dtype, T => ternary_map(ctx, inputs, shape, |c: bool, a: T, b: T| if c { a } else { b })?);
    Ok(outputs([out]))
}
