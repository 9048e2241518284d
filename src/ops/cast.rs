//! `Cast`: converts a tensor to the dtype in attribute `DstT`.
//!
//! Conversions are Rust's `as`, which never panics and matches TensorFlow's
//! `static_cast` wherever C++ defines it: float to integer truncates toward
//! zero, NaN gives 0 and out-of-range values saturate (undefined in C++);
//! integer narrowing wraps (INT32 300 to UINT8 44); to BOOL is `!= 0` (NaN is
//! true); from BOOL is 0 or 1. Casting to the same dtype shares the buffer.
//!
//! `Truncate=true` makes DOUBLE to FLOAT drop the low mantissa bits instead
//! of rounding to nearest, as TensorFlow does; it changes no other cast.

use super::broadcast::unary_map;
use super::{KernelOutputs, outputs};
use super::{OpContext, OpDef, Registry};
use crate::dtype::DataType;
use crate::error::Result;

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
            impl CastFrom<$s> for bool { fn cast_from(v: $s) -> bool { v != (0 as $s) } }
            impl CastFrom<bool> for $s { fn cast_from(v: bool) -> $s { u8::from(v) as $s } }
        )*
    };
}

cast_numeric!(f32, f64, i32, i64, u8);

impl CastFrom<bool> for bool {
    fn cast_from(v: bool) -> bool {
        v
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
    let out = crate::with_dtype!(src, S => crate::with_dtype!(dst, D => unary_map(ctx, x, <D as CastFrom<S>>::cast_from)?));
    Ok(outputs([out]))
}
