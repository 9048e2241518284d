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
//! `Div` is an alias of `RealDiv`, so one kernel serves both names: floats
//! divide exactly; integers divide truncating toward zero, which is what
//! TensorFlow's `Div` does on integers (TensorFlow's own `RealDiv` has no
//! integer CPU kernel). `FloorDiv` and `FloorMod` round toward negative
//! infinity, so `FloorMod`'s result takes the divisor's sign.

use super::KernelOutputs;
use ndarray::IxDyn;

use super::broadcast::{
    PARALLEL_MIN_ELEMENTS, binary_map, broadcast_inputs, broadcast_shapes, fill_indexed, unary_map,
};
use super::{OpContext, OpDef, Registry};
use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::tensor::{Tensor, num_elements};

const FLOATS: &[DataType] = &[DataType::Float, DataType::Double];

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
            DataType::Bool => $b,
        }
    };
}

/// Checks a binary op's operands: equal dtypes and broadcastable shapes,
/// with errors that name both. Returns the dtype and the output size.
fn binary_operands(ctx: &OpContext<'_>) -> Result<(DataType, usize)> {
    let dtype = ctx.same_dtype(0, 1)?;
    let (x, y) = (ctx.input(0), ctx.input(1));
    // Equal shapes (the common, small-op case) need no shape vector.
    if x.shape() == y.shape() {
        return Ok((dtype, x.num_elements()));
    }
    let shape = broadcast_inputs(ctx, 0, 1)?;
    Ok((dtype, num_elements(&shape)?))
}

/// Integer divisors must be non-zero wherever they are used; with a
/// non-empty output every element of `y` is used.
fn check_divisor<T: Element>(ctx: &OpContext<'_>, out_len: usize) -> Result<()> {
    let ys = ctx.input(1).as_slice::<T>()?;
    if out_len > 0 && ys.contains(&T::default()) {
        return Err(Error::invalid(format!(
            "integer division by zero: input '{}' contains 0",
            ctx.arg_name(1)
        )));
    }
    Ok(())
}

/// Integer division that cannot panic: `MIN / -1` wraps to `MIN` (and
/// `MIN % -1` is 0); a zero divisor, which [`check_divisor`] rules out
/// beforehand, gives 0 rather than a panic.
trait IntDiv: Copy {
    fn div_or_zero(self, b: Self) -> Self;
    fn rem_or_zero(self, b: Self) -> Self;
}

macro_rules! int_div {
    ($($t:ty),*) => {
        $(impl IntDiv for $t {
            fn div_or_zero(self, b: Self) -> Self {
                if b == 0 { 0 } else { self.wrapping_div(b) }
            }
            fn rem_or_zero(self, b: Self) -> Self {
                if b == 0 { 0 } else { self.wrapping_rem(b) }
            }
        })*
    };
}

int_div!(i32, i64, u8);

fn add(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (dtype, _) = binary_operands(ctx)?;
    let (x, y) = (ctx.input(0), ctx.input(1));
    let out = by_dtype!(dtype, T,
        float => binary_map(ctx, x, y, |a: T, b: T| a + b)?,
        int => binary_map(ctx, x, y, |a: T, b: T| a.wrapping_add(b))?,
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(smallvec::smallvec![out])
}

fn sub(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (dtype, _) = binary_operands(ctx)?;
    let (x, y) = (ctx.input(0), ctx.input(1));
    let out = by_dtype!(dtype, T,
        float => binary_map(ctx, x, y, |a: T, b: T| a - b)?,
        int => binary_map(ctx, x, y, |a: T, b: T| a.wrapping_sub(b))?,
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(smallvec::smallvec![out])
}

fn mul(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (dtype, _) = binary_operands(ctx)?;
    let (x, y) = (ctx.input(0), ctx.input(1));
    let out = by_dtype!(dtype, T,
        float => binary_map(ctx, x, y, |a: T, b: T| a * b)?,
        int => binary_map(ctx, x, y, |a: T, b: T| a.wrapping_mul(b))?,
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(smallvec::smallvec![out])
}

/// `RealDiv` and its alias `Div`: see the module comment. `MIN / -1` wraps to
/// `MIN`.
fn real_div(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (dtype, n) = binary_operands(ctx)?;
    let (x, y) = (ctx.input(0), ctx.input(1));
    let out = by_dtype!(dtype, T,
        float => binary_map(ctx, x, y, |a: T, b: T| a / b)?,
        int => {
            check_divisor::<T>(ctx, n)?;
            binary_map(ctx, x, y, |a: T, b: T| a.div_or_zero(b))?
        },
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(smallvec::smallvec![out])
}

fn floor_div(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (dtype, n) = binary_operands(ctx)?;
    let (x, y) = (ctx.input(0), ctx.input(1));
    let out = by_dtype!(dtype, T,
        float => binary_map(ctx, x, y, |a: T, b: T| (a / b).floor())?,
        signed => {
            check_divisor::<T>(ctx, n)?;
            binary_map(ctx, x, y, |a: T, b: T| {
                let q = a.div_or_zero(b);
                // An inexact negative quotient was truncated up; floor is one less.
                if a.rem_or_zero(b) != 0 && ((a < 0) != (b < 0)) {
                    q.wrapping_sub(1)
                } else {
                    q
                }
            })?
        },
        unsigned => {
            check_divisor::<T>(ctx, n)?;
            binary_map(ctx, x, y, |a: T, b: T| a.div_or_zero(b))?
        },
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(smallvec::smallvec![out])
}

fn floor_mod(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (dtype, n) = binary_operands(ctx)?;
    let (x, y) = (ctx.input(0), ctx.input(1));
    let out = by_dtype!(dtype, T,
        float => binary_map(ctx, x, y, |a: T, b: T| {
            // `%` is C's fmod (sign of the dividend); move it to the divisor's sign.
            let r = a % b;
            if r != 0.0 && ((r < 0.0) != (b < 0.0)) { r + b } else { r }
        })?,
        signed => {
            check_divisor::<T>(ctx, n)?;
            binary_map(ctx, x, y, |a: T, b: T| {
                let r = a.rem_or_zero(b);
                if r != 0 && ((r < 0) != (b < 0)) { r.wrapping_add(b) } else { r }
            })?
        },
        unsigned => {
            check_divisor::<T>(ctx, n)?;
            binary_map(ctx, x, y, |a: T, b: T| a.rem_or_zero(b))?
        },
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(smallvec::smallvec![out])
}

/// `base^exp` modulo 2^64 by repeated squaring (i64 exponents exceed `u32`).
fn wrapping_pow_i64(mut base: i64, mut exp: u64) -> i64 {
    let mut acc: i64 = 1;
    while exp > 0 {
        if exp & 1 == 1 {
            acc = acc.wrapping_mul(base);
        }
        base = base.wrapping_mul(base);
        exp >>= 1;
    }
    acc
}

fn pow(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (dtype, n) = binary_operands(ctx)?;
    let (x, y) = (ctx.input(0), ctx.input(1));
    let negative_exponent = || {
        Error::invalid(format!(
            "integers to negative integer powers are not allowed (input '{}')",
            ctx.arg_name(1)
        ))
    };
    let out = match dtype {
        DataType::Float => binary_map(ctx, x, y, |a: f32, b: f32| a.powf(b))?,
        DataType::Double => binary_map(ctx, x, y, |a: f64, b: f64| a.powf(b))?,
        DataType::Int32 => {
            if n > 0 && y.as_slice::<i32>()?.iter().any(|&e| e < 0) {
                return Err(negative_exponent());
            }
            binary_map(ctx, x, y, |a: i32, b: i32| {
                a.wrapping_pow(u32::try_from(b).unwrap_or(0))
            })?
        }
        DataType::Int64 => {
            if n > 0 && y.as_slice::<i64>()?.iter().any(|&e| e < 0) {
                return Err(negative_exponent());
            }
            binary_map(ctx, x, y, |a: i64, b: i64| {
                wrapping_pow_i64(a, u64::try_from(b).unwrap_or(0))
            })?
        }
        DataType::UInt8 => binary_map(ctx, x, y, |a: u8, b: u8| a.wrapping_pow(u32::from(b)))?,
        DataType::Bool => return Err(ctx.unsupported_dtype(0)),
    };
    Ok(smallvec::smallvec![out])
}

/// NaN wins, as in TensorFlow (Eigen's `PropagateNaN`).
fn maximum(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (dtype, _) = binary_operands(ctx)?;
    let (x, y) = (ctx.input(0), ctx.input(1));
    let out = by_dtype!(dtype, T,
        float => binary_map(ctx, x, y, |a: T, b: T| if a.is_nan() || a > b { a } else { b })?,
        int => binary_map(ctx, x, y, |a: T, b: T| a.max(b))?,
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(smallvec::smallvec![out])
}

/// NaN wins, as in TensorFlow (Eigen's `PropagateNaN`).
fn minimum(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (dtype, _) = binary_operands(ctx)?;
    let (x, y) = (ctx.input(0), ctx.input(1));
    let out = by_dtype!(dtype, T,
        float => binary_map(ctx, x, y, |a: T, b: T| if a.is_nan() || a < b { a } else { b })?,
        int => binary_map(ctx, x, y, |a: T, b: T| a.min(b))?,
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(smallvec::smallvec![out])
}

fn squared_difference(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (dtype, _) = binary_operands(ctx)?;
    let (x, y) = (ctx.input(0), ctx.input(1));
    let out = by_dtype!(dtype, T,
        float => binary_map(ctx, x, y, |a: T, b: T| (a - b) * (a - b))?,
        int => binary_map(ctx, x, y, |a: T, b: T| {
            let d = a.wrapping_sub(b);
            d.wrapping_mul(d)
        })?,
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(smallvec::smallvec![out])
}

/// `x / y`, or 0 where `y == 0` (even for `x` NaN or infinite). Floats only,
/// as in TensorFlow.
fn div_no_nan(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (dtype, _) = binary_operands(ctx)?;
    ctx.expect_dtype(0, FLOATS)?;
    let (x, y) = (ctx.input(0), ctx.input(1));
    let out = by_dtype!(dtype, T,
        float => binary_map(ctx, x, y, |a: T, b: T| if b == 0.0 { 0.0 } else { a / b })?,
        int => return Err(ctx.unsupported_dtype(0)),
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(smallvec::smallvec![out])
}

/// A unary op defined only on FLOAT and DOUBLE: `$f` is applied with `$T`
/// bound to the element type.
macro_rules! float_unary {
    ($name:ident, $T:ident, $f:expr) => {
        fn $name(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
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
            Ok(smallvec::smallvec![out])
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
fn neg(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let out = by_dtype!(x.dtype(), T,
        float => unary_map(ctx, x, |a: T| -a)?,
        signed => unary_map(ctx, x, |a: T| a.wrapping_neg())?,
        unsigned => return Err(ctx.unsupported_dtype(0)),
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(smallvec::smallvec![out])
}

fn abs(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let out = by_dtype!(x.dtype(), T,
        float => unary_map(ctx, x, |a: T| a.abs())?,
        signed => unary_map(ctx, x, |a: T| a.wrapping_abs())?,
        unsigned => return Err(ctx.unsupported_dtype(0)),
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(smallvec::smallvec![out])
}

/// -1, 0 or 1; NaN stays NaN and -0.0 gives 0.0.
fn sign(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let out = by_dtype!(x.dtype(), T,
        float => unary_map(ctx, x, |a: T| {
            if a > 0.0 { 1.0 } else if a < 0.0 { -1.0 } else if a.is_nan() { a } else { 0.0 }
        })?,
        signed => unary_map(ctx, x, |a: T| a.signum())?,
        unsigned => return Err(ctx.unsupported_dtype(0)),
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(smallvec::smallvec![out])
}

fn square(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let out = by_dtype!(x.dtype(), T,
        float => unary_map(ctx, x, |a: T| a * a)?,
        int => unary_map(ctx, x, |a: T| a.wrapping_mul(a))?,
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(smallvec::smallvec![out])
}

/// Half to even (banker's rounding), as TensorFlow's `Round`. On INT32 and
/// INT64 it is the identity and shares the input's buffer.
fn round(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let out = by_dtype!(x.dtype(), T,
        float => unary_map(ctx, x, |a: T| a.round_ties_even())?,
        signed => x.clone(),
        unsigned => return Err(ctx.unsupported_dtype(0)),
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(smallvec::smallvec![out])
}

/// The broadcast shape of three inputs, or an error naming all three shapes.
pub(super) fn broadcast3(ctx: &OpContext<'_>) -> Result<Vec<usize>> {
    let (a, b, c) = (ctx.input(0), ctx.input(1), ctx.input(2));
    broadcast_shapes(a.shape(), b.shape())
        .and_then(|ab| broadcast_shapes(&ab, c.shape()))
        .ok_or_else(|| {
            Error::invalid(format!(
                "incompatible shapes: '{}' has shape {:?}, '{}' has shape {:?} and '{}' has shape {:?}",
                ctx.arg_name(0),
                a.shape(),
                ctx.arg_name(1),
                b.shape(),
                ctx.arg_name(2),
                c.shape()
            ))
        })
}

/// Applies `f` element-wise to `a`, `b` and `c` broadcast to `shape` (which
/// the caller has checked with [`broadcast3`]). Inputs that are full-size or
/// single-element take the indexed path, on two threads when large; other
/// broadcasts walk `ndarray` views in row-major order on this thread.
pub(super) fn ternary_map<A: Element, B: Element, C: Element, O: Element>(
    ctx: &OpContext<'_>,
    (a, b, c): (&Tensor, &Tensor, &Tensor),
    shape: Vec<usize>,
    f: impl Fn(A, B, C) -> O + Sync,
) -> Result<Tensor> {
    let n = num_elements(&shape)?;
    let (xs, ys, zs) = (a.as_slice::<A>()?, b.as_slice::<B>()?, c.as_slice::<C>()?);
    let direct = |t: &Tensor| t.num_elements() == 1 || t.shape() == shape.as_slice();
    if direct(a) && direct(b) && direct(c) {
        // A single element is read at index 0; a full-size input at `i`.
        let at = |len: usize, i: usize| if len == 1 { 0 } else { i };
        let (la, lb, lc) = (xs.len(), ys.len(), zs.len());
        let g = |i: usize| -> O {
            match (xs.get(at(la, i)), ys.get(at(lb, i)), zs.get(at(lc, i))) {
                (Some(&x), Some(&y), Some(&z)) => f(x, y, z),
                _ => O::default(),
            }
        };
        if n < PARALLEL_MIN_ELEMENTS {
            let mut out = ctx.alloc::<O>(n)?;
            out.data.extend((0..n).map(g));
            return out.into_tensor(shape);
        }
        let mut out = ctx.alloc_initialized::<O>(n)?;
        fill_indexed(&mut out.data, g);
        return out.into_tensor(shape);
    }
    let cannot = || Error::invalid(format!("cannot broadcast to {shape:?}"));
    let dim = IxDyn(&shape);
    let av = a.view::<A>()?;
    let bv = b.view::<B>()?;
    let cv = c.view::<C>()?;
    let av = av.broadcast(dim.clone()).ok_or_else(cannot)?;
    let bv = bv.broadcast(dim.clone()).ok_or_else(cannot)?;
    let cv = cv.broadcast(dim).ok_or_else(cannot)?;
    let mut out = ctx.alloc::<O>(n)?;
    // `iter` walks each view in logical row-major order.
    out.data.extend(
        av.iter()
            .zip(bv.iter())
            .zip(cv.iter())
            .map(|((&x, &y), &z)| f(x, y, z)),
    );
    out.into_tensor(shape)
}

/// `min(max(t, lo), hi)` in TensorFlow's order: `max(min(t, hi), lo)`, so
/// `lo` wins when `lo > hi`, and NaN in `t` stays NaN. TensorFlow's kernel
/// takes bounds that are scalars or of `t`'s shape; any bounds that broadcast
/// to `t`'s shape are accepted here (as `tf.clip_by_value` in Python does).
fn clip_by_value(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let dtype = ctx.same_dtype(0, 1)?;
    ctx.same_dtype(0, 2)?;
    let t = ctx.input(0);
    for i in [1, 2] {
        let bound = ctx.input(i).shape();
        if broadcast_shapes(t.shape(), bound).as_deref() != Some(t.shape()) {
            return Err(Error::invalid(format!(
                "'{}' has shape {bound:?}, which does not broadcast to the shape {:?} of '{}'",
                ctx.arg_name(i),
                t.shape(),
                ctx.arg_name(0)
            )));
        }
    }
    let inputs = (t, ctx.input(1), ctx.input(2));
    let shape = t.shape().to_vec();
    let out = by_dtype!(dtype, T,
        float => ternary_map(ctx, inputs, shape, |v: T, lo: T, hi: T| {
            let v = if hi < v { hi } else { v };
            if v < lo { lo } else { v }
        })?,
        int => ternary_map(ctx, inputs, shape, |v: T, lo: T, hi: T| v.min(hi).max(lo))?,
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(smallvec::smallvec![out])
}

/// Addition as the numeric kernels do it: IEEE for floats, wrapping for ints.
pub(in crate::ops) trait Accumulate: Element {
    fn accumulate(self, other: Self) -> Self;
}

macro_rules! accumulate {
    ($($t:ty: $f:expr),*) => {
        $(impl Accumulate for $t {
            fn accumulate(self, other: Self) -> Self {
                $f(self, other)
            }
        })*
    };
}

accumulate!(
    f32: |a: f32, b: f32| a + b,
    f64: |a: f64, b: f64| a + b,
    i32: i32::wrapping_add,
    i64: i64::wrapping_add,
    u8: u8::wrapping_add
);

/// The element-wise sum of one or more tensors of one dtype and shape (no
/// broadcasting, as in TensorFlow). A single input is returned as is.
fn add_n(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let inputs = ctx.list(0);
    let first = match inputs.first() {
        Some(t) => t,
        None => return Err(Error::invalid("needs at least one input in 'inputs'")),
    };
    for (i, t) in inputs.iter().enumerate().skip(1) {
        if t.dtype() != first.dtype() {
            return Err(Error::invalid(format!(
                "all inputs must have the same dtype, but inputs[0] is {} and inputs[{i}] is {}",
                first.dtype(),
                t.dtype()
            )));
        }
        if t.shape() != first.shape() {
            return Err(Error::invalid(format!(
                "all inputs must have the same shape, but inputs[0] has shape {:?} and inputs[{i}] has shape {:?}",
                first.shape(),
                t.shape()
            )));
        }
    }
    if first.dtype() == DataType::Bool {
        return Err(ctx.unsupported_dtype(0));
    }
    if inputs.len() == 1 {
        return Ok(smallvec::smallvec![first.as_ref().clone()]);
    }
    let out = crate::with_numeric_dtype!(first.dtype(), T => sum_all::<T>(ctx, inputs, first.shape())?,
        bool => return Err(ctx.unsupported_dtype(0)));
    Ok(smallvec::smallvec![out])
}

fn sum_all<T: Accumulate>(
    ctx: &OpContext<'_>,
    inputs: &[std::sync::Arc<Tensor>],
    shape: &[usize],
) -> Result<Tensor> {
    let slices = inputs
        .iter()
        .map(|t| t.as_slice::<T>())
        .collect::<Result<Vec<_>>>()?;
    let n = num_elements(shape)?;
    let mut out = ctx.alloc_initialized::<T>(n)?;
    // Each slice has `n` elements (shapes were checked equal).
    fill_indexed(&mut out.data, |i| {
        let mut values = slices.iter().filter_map(|s| s.get(i).copied());
        let first = values.next().unwrap_or_default();
        values.fold(first, T::accumulate)
    });
    out.into_tensor(shape.to_vec())
}
