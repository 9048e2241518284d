//! Element-wise arithmetic: binary ops with NumPy broadcasting, unary ops,
//! `ClipByValue` and `AddN`, with TensorFlow's CPU semantics. (`Cumsum`, which
//! shares `AddN`'s addition, is with the reductions in `reduce::cumulative`.)
//!
//! Dtype rules follow TensorFlow's CPU kernel registrations, restricted to
//! eagerflow's dtypes: BOOL is never arithmetic; `Neg`, `Abs`, `Sign` and
//! `Round` refuse UINT8; transcendental ops, `Floor`, `Ceil`, `Reciprocal`
//! and `DivNoNan` take FLOAT and DOUBLE only. Every other op here takes all
//! numeric dtypes, a superset where some TensorFlow versions lack a UINT8
//! kernel (`Square`, `Pow`, `SquaredDifference`). Integer arithmetic wraps (two's complement, as the C++
//! kernels do in practice) instead of panicking. Integer division or modulo
//! by zero and integer `Pow` with a negative exponent are errors, as in
//! TensorFlow; the check covers only divisors that reach a computed element,
//! so an empty output never fails.
//!
//! Files: `binary` (the two-operand ops), `unary`, `ternary` (`ClipByValue`
//! and the three-operand broadcasting it shares with `SelectV2`) and `add_n`.
//! This file registers them and holds the dtype dispatch they share.

use super::{OpDef, Registry};
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
            // Every `bool` body is an unsupported-dtype error, which STRING
            // meets as well (the registry refuses it before any kernel runs).
            DataType::Bool | DataType::String => $b,
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

pub(super) fn register(r: &mut Registry) {
    let binary: &[(&'static str, super::Kernel, &[&'static str])] = &[
        ("AddV2", add, &["Add"]),
        ("Sub", sub, &[]),
        ("Mul", mul, &[]),
        ("RealDiv", real_div, &["Div"]),
        ("FloorDiv", floor_div, &[]),
        ("FloorMod", floor_mod, &[]),
        ("Pow", pow, &[]),
        ("Maximum", maximum, &[]),
        ("Minimum", minimum, &[]),
        ("SquaredDifference", squared_difference, &[]),
        ("DivNoNan", div_no_nan, &[]),
    ];
    for &(name, kernel, aliases) in binary {
        r.add(
            OpDef {
                name,
                inputs: &["x", "y"],
                attrs: &[],
                kernel,
            },
            aliases,
        );
    }
    let unary: &[(&'static str, super::Kernel, &[&'static str])] = &[
        ("Neg", neg, &[]),
        ("Abs", abs, &[]),
        ("Sign", sign, &[]),
        ("Square", square, &[]),
        ("Log", log, &[]),
        ("Log1p", log1p, &[]),
        ("Exp", exp, &[]),
        ("Expm1", expm1, &[]),
        ("Sqrt", sqrt, &[]),
        ("Rsqrt", rsqrt, &[]),
        ("Reciprocal", reciprocal, &["Inv"]),
        ("Sin", sin, &[]),
        ("Cos", cos, &[]),
        ("Tan", tan, &[]),
        ("Tanh", tanh, &[]),
        ("Sigmoid", sigmoid, &[]),
        ("Floor", floor, &[]),
        ("Ceil", ceil, &[]),
        ("Round", round, &[]),
    ];
    for &(name, kernel, aliases) in unary {
        r.add(
            OpDef {
                name,
                inputs: &["x"],
                attrs: &[],
                kernel,
            },
            aliases,
        );
    }
    r.add(
        OpDef {
            name: "ClipByValue",
            inputs: &["t", "clip_value_min", "clip_value_max"],
            attrs: &[],
            kernel: clip_by_value,
        },
        &[],
    );
    r.add(
        OpDef {
            name: "AddN",
            inputs: &["inputs[]"],
            attrs: &[],
            kernel: add_n,
        },
        &[],
    );
}
