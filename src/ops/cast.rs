//! `Cast`: converts a tensor to the dtype in attribute `DstT`.
//!
//! Conversions are Rust's `as`, which never panics and matches TensorFlow's
//! `static_cast` wherever C++ defines it: float to integer truncates toward
//! zero, NaN gives 0 and out-of-range values saturate (undefined in C++);
//! integer narrowing wraps (INT32 300 to UINT8 44); to BOOL is `!= 0` (NaN is
//! true); from BOOL is 0 or 1. Casting to the same dtype shares the buffer.
//!
//! HALF and BFLOAT16 convert through FLOAT, as TensorFlow's (Eigen's) casts
//! do: to them a value is first made a FLOAT (`as`, so a DOUBLE or a large
//! integer is rounded twice, as in TensorFlow), then rounded to nearest even;
//! from them the exact FLOAT value is cast on. UINT16 is an integer like the
//! others.
//!
//! `Truncate=true` makes DOUBLE to FLOAT, and FLOAT or DOUBLE to HALF or
//! BFLOAT16, drop the low mantissa bits instead of rounding to nearest, as
//! TensorFlow does (it clears the bits the target lacks, then casts); it
//! changes no other cast.

use super::broadcast::unary_map;
use super::{KernelOutputs, outputs};
use super::{OpContext, OpDef, Registry};
use crate::dtype::{DataType, bf16, bf16_from_f32, f16, f16_from_f32};
use crate::error::Result;
use crate::tensor::Tensor;

pub(super) fn register(r: &mut Registry) {
    r.add([OpDef::new("Cast", &["x"], &["y"], cast)
        .attrs(&["DstT", "Truncate"])
        .infer(super::infer::elementwise::cast)]);
}

/// A conversion from `S`, defined for every pair of element types.
trait CastFrom<S>: Sized {
    fn cast_from(v: S) -> Self;
}

/// Numeric pairs: `as`.
macro_rules! cast_numeric {
    ($($s:ty),*) => {
        $(
            impl CastFrom<$s> for f32 { fn cast_from(v: $s) -> f32 { v as f32 } }
            impl CastFrom<$s> for f64 { fn cast_from(v: $s) -> f64 { v as f64 } }
            impl CastFrom<$s> for i32 { fn cast_from(v: $s) -> i32 { v as i32 } }
            impl CastFrom<$s> for i64 { fn cast_from(v: $s) -> i64 { v as i64 } }
            impl CastFrom<$s> for u8 { fn cast_from(v: $s) -> u8 { v as u8 } }
            impl CastFrom<$s> for u16 { fn cast_from(v: $s) -> u16 { v as u16 } }
            impl CastFrom<$s> for bool { fn cast_from(v: $s) -> bool { v != (0 as $s) } }
            impl CastFrom<bool> for $s { fn cast_from(v: bool) -> $s { u8::from(v) as $s } }
        )*
    };
}

cast_numeric!(f32, f64, i32, i64, u8, u16);

impl CastFrom<bool> for bool {
    fn cast_from(v: bool) -> bool {
        v
    }
}

/// A 2-byte float type: to and from every other type through FLOAT.
macro_rules! cast_half {
    ($h:ty, $from_f32:path) => {
        cast_half!(@each $h, $from_f32, f32, f64, i32, i64, u8, u16, bool);
    };
    (@each $h:ty, $from_f32:path, $($o:ty),*) => {
        $(
            impl CastFrom<$o> for $h {
                fn cast_from(v: $o) -> $h { $from_f32(<f32 as CastFrom<$o>>::cast_from(v)) }
            }
            impl CastFrom<$h> for $o {
                fn cast_from(v: $h) -> $o { <$o as CastFrom<f32>>::cast_from(v.to_f32()) }
            }
        )*
    };
}

cast_half!(f16, f16_from_f32);
cast_half!(bf16, bf16_from_f32);

impl CastFrom<f16> for f16 {
    fn cast_from(v: f16) -> f16 {
        v
    }
}

impl CastFrom<bf16> for bf16 {
    fn cast_from(v: bf16) -> bf16 {
        v
    }
}

impl CastFrom<bf16> for f16 {
    fn cast_from(v: bf16) -> f16 {
        f16_from_f32(v.to_f32())
    }
}

impl CastFrom<f16> for bf16 {
    fn cast_from(v: f16) -> bf16 {
        bf16_from_f32(v.to_f32())
    }
}

/// Clears the `bits` low mantissa bits of a FLOAT (NaN kept as it is), so
/// that a cast to a type with `23 - bits` mantissa bits truncates.
fn clear_low_bits(v: f32, bits: u32) -> f32 {
    if v.is_nan() {
        v
    } else {
        f32::from_bits(v.to_bits() & !((1u32 << bits) - 1))
    }
}

/// `Truncate=true` from FLOAT or DOUBLE to HALF or BFLOAT16.
fn truncate_to_half(ctx: &OpContext<'_>, x: &Tensor, dst: DataType) -> Result<Tensor> {
    let src = x.dtype();
    match (src, dst) {
        (DataType::Float, DataType::Half) => {
            unary_map(ctx, x, |v: f32| f16_from_f32(clear_low_bits(v, 13)))
        }
        (DataType::Double, DataType::Half) => unary_map(ctx, x, |v: f64| {
            f16_from_f32(clear_low_bits(truncate_f64(v), 13))
        }),
        (DataType::Float, _) => unary_map(ctx, x, |v: f32| bf16_from_f32(clear_low_bits(v, 16))),
        _ => unary_map(ctx, x, |v: f64| {
            bf16_from_f32(clear_low_bits(truncate_f64(v), 16))
        }),
    }
}

/// DOUBLE to FLOAT rounding toward zero: clearing the 29 mantissa bits that
/// FLOAT lacks leaves a value `as` converts exactly (or saturates / flushes
/// at the range ends). NaN is kept as NaN, which clearing bits could break.
fn truncate_f64(v: f64) -> f32 {
    if v.is_nan() {
        f32::NAN
    } else {
        f64::from_bits(v.to_bits() & !((1u64 << 29) - 1)) as f32
    }
}

fn cast(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let dst = ctx.attrs.required_dtype("DstT")?;
    let truncate = ctx.attrs.bool("Truncate", false)?;
    let x = ctx.input(0);
    let src = x.dtype();
    if src == dst {
        return Ok(outputs([x.clone()]));
    }
    if truncate && src == DataType::Double && dst == DataType::Float {
        return Ok(outputs([unary_map(ctx, x, truncate_f64)?]));
    }
    if truncate && matches!(src, DataType::Float | DataType::Double) && dst.is_half() {
        return Ok(outputs([truncate_to_half(ctx, x, dst)?]));
    }
    let out = crate::with_dtype!(src, S => crate::with_dtype!(dst, D => unary_map(ctx, x, <D as CastFrom<S>>::cast_from)?));
    Ok(outputs([out]))
}
