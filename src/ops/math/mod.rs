//! Element-wise arithmetic: binary ops with NumPy broadcasting, unary ops,
//! `ClipByValue` and `AddN`, with TensorFlow's CPU semantics. (`Cumsum`, which
//! shares `AddN`'s addition, is with the reductions in `reduce::cumulative`.)
//!
//! Dtype rules follow TensorFlow's CPU kernel registrations, restricted to
//! eagerflow's dtypes: BOOL is never arithmetic; `Neg`, `Abs`, `Sign` and
//! `Round` refuse UINT8 and UINT16; HALF and BFLOAT16 go wherever FLOAT
//! goes, computed in FLOAT and rounded once per element (the registry
//! converts them, see `OpDef::halves`); transcendental ops, `Floor`, `Ceil`, `Reciprocal`
//! and `DivNoNan` take FLOAT and DOUBLE only. Every other op here takes all
//! numeric dtypes, a superset where some TensorFlow versions lack a UINT8
//! or UINT16 kernel (`Square`, `Pow`, `SquaredDifference`). Integer arithmetic wraps (two's complement, as the C++
//! kernels do in practice) instead of panicking. Integer division or modulo
//! by zero and integer `Pow` with a negative exponent are errors, as in
//! TensorFlow; the check covers only divisors that reach a computed element,
//! so an empty output never fails.
//!
//! Files: `binary` (the two-operand ops), `unary`, `ternary` (`ClipByValue`
//! and the three-operand broadcasting it shares with `SelectV2`) and `add_n`.
//! This file registers them and holds the dtype dispatch they share.

use super::infer::elementwise as infer;
use super::{Kernel, OpDef, Registry};
use crate::dtype::DataType;

const FLOATS: &[DataType] = &[DataType::Float, DataType::Double];

/// Dispatches on a dtype with `$T` bound to its element type (unused in arms
/// that only return an error, hence `allow(dead_code)`). The `int` form
/// runs one body for all integer types; the long form separates signed
/// integers from UINT8 (where `x < 0` would not even compile cleanly).
macro_rules! by_dtype {
    ($dtype:expr, $T:ident, float => $f:expr, int => $i:expr, bool => $b:expr $(,)?) => {
        by_dtype!($dtype, $T, float => $f, signed => $i, unsigned => $i, bool => $b)
    };
    ($dtype:expr, $T:ident, float => $f:expr, signed => $s:expr, unsigned => $u:expr,
     bool => $b:expr $(,)?) => {
        match $dtype {
            DataType::Float => {
                #[allow(dead_code)]
                type $T = f32;
                $f
            }
            DataType::Double => {
                #[allow(dead_code)]
                type $T = f64;
                $f
            }
            DataType::Int32 => {
                #[allow(dead_code)]
                type $T = i32;
                $s
            }
            DataType::Int64 => {
                #[allow(dead_code)]
                type $T = i64;
                $s
            }
            DataType::UInt8 => {
                #[allow(dead_code)]
                type $T = u8;
                $u
            }
            DataType::UInt16 => {
                #[allow(dead_code)]
                type $T = u16;
                $u
            }
            // Every `bool` body is an unsupported-dtype error, which STRING
            // meets as well (the registry refuses it before any kernel runs),
            // and HALF and BFLOAT16, which the registry hands these kernels
            // as FLOAT (`OpDef::halves`).
            DataType::Bool | DataType::String | DataType::Half | DataType::BFloat16 => $b,
        }
    };
}

// Declared after `by_dtype`, whose textual scope the kernel files need.
pub(super) mod add_n;
mod binary;
pub(super) mod ternary;
mod unary;

use add_n::add_n;
use binary::{
    add, div_no_nan, floor_div, floor_mod, maximum, minimum, mul, pow, real_div,
    squared_difference, sub,
};
use ternary::clip_by_value;
use unary::{
    abs, ceil, cos, exp, expm1, floor, log, log1p, neg, reciprocal, round, rsqrt, sigmoid, sign,
    sin, sqrt, square, tan, tanh,
};

/// An element-wise op of `x` and `y` (NumPy broadcasting).
const fn binary(name: &'static str, kernel: Kernel) -> OpDef {
    OpDef::new(name, &["x", "y"], &["z"], kernel).infer(infer::arithmetic)
}

/// An element-wise op of `x` whose output has its dtype and shape.
const fn unary(name: &'static str, kernel: Kernel) -> OpDef {
    OpDef::new(name, &["x"], &["y"], kernel).infer(infer::same_as_input)
}

pub(super) fn register(r: &mut Registry) {
    r.add(
        [
            binary("AddV2", add).aliases(&["Add"]),
            binary("Sub", sub),
            binary("Mul", mul),
            binary("RealDiv", real_div).aliases(&["Div"]),
            binary("FloorDiv", floor_div),
            binary("FloorMod", floor_mod),
            binary("Pow", pow),
            binary("Maximum", maximum),
            binary("Minimum", minimum),
            binary("SquaredDifference", squared_difference),
            binary("DivNoNan", div_no_nan).infer(infer::div_no_nan),
            unary("Neg", neg),
            unary("Abs", abs),
            unary("Sign", sign),
            unary("Square", square),
            unary("Log", log),
            unary("Log1p", log1p),
            unary("Exp", exp),
            unary("Expm1", expm1),
            unary("Sqrt", sqrt),
            unary("Rsqrt", rsqrt),
            unary("Reciprocal", reciprocal).aliases(&["Inv"]),
            unary("Sin", sin),
            unary("Cos", cos),
            unary("Tan", tan),
            unary("Tanh", tanh),
            unary("Sigmoid", sigmoid),
            unary("Floor", floor),
            unary("Ceil", ceil),
            unary("Round", round),
            OpDef::new(
                "ClipByValue",
                &["t", "clip_value_min", "clip_value_max"],
                &["output"],
                clip_by_value,
            )
            .infer(super::infer::ternary::clip_by_value),
            OpDef::new("AddN", &["inputs[]"], &["sum"], add_n).infer(super::infer::lists::add_n),
        ]
        .map(OpDef::halves),
    );
}
