//! Binary arithmetic with NumPy broadcasting: `AddV2` (also `Add`), `Sub`,
//! `Mul`, `RealDiv` (also `Div`), `FloorDiv`, `FloorMod`, `Pow`, `Maximum`,
//! `Minimum`, `SquaredDifference`, `DivNoNan`.
//!
//! `Div` is an alias of `RealDiv`, so one kernel serves both names: floats
//! divide exactly; integers divide truncating toward zero, which is what
//! TensorFlow's `Div` does on integers (TensorFlow's own `RealDiv` has no
//! integer CPU kernel). `FloorDiv` and `FloorMod` round toward negative
//! infinity, so `FloorMod`'s result takes the divisor's sign.

use super::FLOATS;
use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::ops::broadcast::{binary_map, broadcast_inputs};
use crate::ops::{KernelOutputs, OpContext, outputs};
use crate::tensor::num_elements;

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

int_div!(i32, i64, u8, u16);

pub(super) fn add(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (dtype, _) = binary_operands(ctx)?;
    let (x, y) = (ctx.input(0), ctx.input(1));
    let out = by_dtype!(dtype, T,
        float => binary_map(ctx, x, y, |a: T, b: T| a + b)?,
        int => binary_map(ctx, x, y, |a: T, b: T| a.wrapping_add(b))?,
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(outputs([out]))
}

pub(super) fn sub(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (dtype, _) = binary_operands(ctx)?;
    let (x, y) = (ctx.input(0), ctx.input(1));
    let out = by_dtype!(dtype, T,
        float => binary_map(ctx, x, y, |a: T, b: T| a - b)?,
        int => binary_map(ctx, x, y, |a: T, b: T| a.wrapping_sub(b))?,
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(outputs([out]))
}

pub(super) fn mul(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (dtype, _) = binary_operands(ctx)?;
    let (x, y) = (ctx.input(0), ctx.input(1));
    let out = by_dtype!(dtype, T,
        float => binary_map(ctx, x, y, |a: T, b: T| a * b)?,
        int => binary_map(ctx, x, y, |a: T, b: T| a.wrapping_mul(b))?,
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(outputs([out]))
}

/// `RealDiv` and its alias `Div`: see the module comment. `MIN / -1` wraps to
/// `MIN`.
pub(super) fn real_div(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
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
    Ok(outputs([out]))
}

pub(super) fn floor_div(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
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
    Ok(outputs([out]))
}

pub(super) fn floor_mod(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
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
    Ok(outputs([out]))
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

pub(super) fn pow(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
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
        DataType::UInt16 => binary_map(ctx, x, y, |a: u16, b: u16| a.wrapping_pow(u32::from(b)))?,
        DataType::Bool | DataType::String | DataType::Half | DataType::BFloat16 => {
            return Err(ctx.unsupported_dtype(0));
        }
    };
    Ok(outputs([out]))
}

/// NaN wins, as in TensorFlow (Eigen's `PropagateNaN`).
pub(super) fn maximum(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (dtype, _) = binary_operands(ctx)?;
    let (x, y) = (ctx.input(0), ctx.input(1));
    let out = by_dtype!(dtype, T,
        float => binary_map(ctx, x, y, |a: T, b: T| if a.is_nan() || a > b { a } else { b })?,
        int => binary_map(ctx, x, y, |a: T, b: T| a.max(b))?,
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(outputs([out]))
}

/// NaN wins, as in TensorFlow (Eigen's `PropagateNaN`).
pub(super) fn minimum(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (dtype, _) = binary_operands(ctx)?;
    let (x, y) = (ctx.input(0), ctx.input(1));
    let out = by_dtype!(dtype, T,
        float => binary_map(ctx, x, y, |a: T, b: T| if a.is_nan() || a < b { a } else { b })?,
        int => binary_map(ctx, x, y, |a: T, b: T| a.min(b))?,
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(outputs([out]))
}

pub(super) fn squared_difference(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
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
    Ok(outputs([out]))
}

/// `x / y`, or 0 where `y == 0` (even for `x` NaN or infinite). Floats only,
/// as in TensorFlow.
pub(super) fn div_no_nan(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (dtype, _) = binary_operands(ctx)?;
    ctx.expect_dtype(0, FLOATS)?;
    let (x, y) = (ctx.input(0), ctx.input(1));
    let out = by_dtype!(dtype, T,
        float => binary_map(ctx, x, y, |a: T, b: T| if b == 0.0 { 0.0 } else { a / b })?,
        int => return Err(ctx.unsupported_dtype(0)),
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(outputs([out]))
}
