//! Element types, with TensorFlow's numeric codes so Java and Rust agree.

use std::fmt;

use crate::error::{Error, Result};
pub use half::{bf16, f16};

/// A tensor's element type. The discriminants are TensorFlow's `DataType` codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum DataType {
    Float = 1,
    Double = 2,
    Int32 = 3,
    UInt8 = 4,
    Int64 = 9,
    Bool = 10,
    /// Byte strings of any length (TensorFlow's `DT_STRING`): no fixed size
    /// and no [`Element`] type; see [`crate::strings`].
    String = 7,
    /// IEEE half precision (TensorFlow's `DT_HALF`, Java's `TFloat16`).
    Half = 19,
    /// Brain float: FLOAT's 8-bit exponent with a 7-bit mantissa.
    BFloat16 = 14,
    UInt16 = 17,
}

impl DataType {
    /// The fixed-size element types, each with an [`Element`] type (every
    /// type but STRING).
    pub const ALL: [DataType; 9] = [
        DataType::Float,
        DataType::Double,
        DataType::Int32,
        DataType::UInt8,
        DataType::Int64,
        DataType::Bool,
        DataType::Half,
        DataType::BFloat16,
        DataType::UInt16,
    ];

    pub fn from_code(code: i32) -> Result<DataType> {
        DataType::ALL
            .into_iter()
            .chain([DataType::String])
            .find(|d| d.code() == code)
            .ok_or_else(|| Error::invalid(format!("unknown data type code {code}")))
    }

    pub fn code(self) -> i32 {
        self as i32
    }

    /// Bytes per element; 0 for STRING, whose elements have no fixed size
    /// (a string tensor counts the bytes it holds, see [`crate::strings`]).
    pub fn size(self) -> usize {
        match self {
            DataType::Float | DataType::Int32 => 4,
            DataType::Double | DataType::Int64 => 8,
            DataType::Half | DataType::BFloat16 | DataType::UInt16 => 2,
            DataType::UInt8 | DataType::Bool => 1,
            DataType::String => 0,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            DataType::Float => "FLOAT",
            DataType::Double => "DOUBLE",
            DataType::Int32 => "INT32",
            DataType::UInt8 => "UINT8",
            DataType::Int64 => "INT64",
            DataType::Bool => "BOOL",
            DataType::String => "STRING",
            DataType::Half => "HALF",
            DataType::BFloat16 => "BFLOAT16",
            DataType::UInt16 => "UINT16",
        }
    }

    pub fn is_floating(self) -> bool {
        matches!(
            self,
            DataType::Float | DataType::Double | DataType::Half | DataType::BFloat16
        )
    }

    /// HALF or BFLOAT16: stored in 2 bytes, computed in FLOAT (see
    /// [`crate::ops`]'s `OpDef::halves`).
    pub fn is_half(self) -> bool {
        matches!(self, DataType::Half | DataType::BFloat16)
    }

    pub fn is_integer(self) -> bool {
        matches!(
            self,
            DataType::Int32 | DataType::Int64 | DataType::UInt8 | DataType::UInt16
        )
    }

    pub fn is_numeric(self) -> bool {
        !matches!(self, DataType::Bool | DataType::String)
    }
}

impl fmt::Display for DataType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A Rust type that can be a tensor element.
pub trait Element: Copy + Default + PartialEq + Send + Sync + fmt::Debug + 'static {
    const DTYPE: DataType;
    /// Views a buffer as a slice of this type when the dtypes agree.
    fn slice(storage: &crate::tensor::Storage) -> Option<&[Self]>;
    /// Views a buffer as a mutable slice of this type when the dtypes agree.
    fn slice_mut(storage: &mut crate::tensor::Storage) -> Option<&mut [Self]>;
    /// Wraps a vector of this type as untyped storage.
    fn into_storage(v: Vec<Self>) -> crate::tensor::Storage;
    /// Unwraps storage of this type.
    fn from_storage(s: crate::tensor::Storage) -> Option<Vec<Self>>;
    /// The value that fills buffers under test (`pool::poison`): `pattern` in
    /// every byte of an integer, a signalling NaN with that payload for a
    /// float (no arithmetic produces one, only a copy), and the pattern's low
    /// bit for BOOL (a `bool` must stay 0 or 1).
    fn poison(pattern: u8) -> Self;
}

macro_rules! element {
    ($t:ty, $dt:ident, $variant:ident, $poison:expr) => {
        impl Element for $t {
            const DTYPE: DataType = DataType::$dt;
            fn poison(pattern: u8) -> Self {
                let f: fn(u8) -> $t = $poison;
                f(pattern)
            }
            fn slice(storage: &crate::tensor::Storage) -> Option<&[Self]> {
                match storage {
                    crate::tensor::Storage::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn slice_mut(storage: &mut crate::tensor::Storage) -> Option<&mut [Self]> {
                match storage {
                    crate::tensor::Storage::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn into_storage(v: Vec<Self>) -> crate::tensor::Storage {
                crate::tensor::Storage::$variant(v)
            }
            fn from_storage(s: crate::tensor::Storage) -> Option<Vec<Self>> {
                match s {
                    crate::tensor::Storage::$variant(v) => Some(v),
                    _ => None,
                }
            }
        }
    };
}

// Float poisons: exponent all ones, quiet bit clear, a non-zero payload.
element!(f32, Float, F32, |p| f32::from_bits(
    0x7f80_0000 | (u32::from_ne_bytes([p; 4]) & 0x003f_ffff) | 1
));
element!(f64, Double, F64, |p| f64::from_bits(
    0x7ff0_0000_0000_0000 | (u64::from_ne_bytes([p; 8]) & 0x0007_ffff_ffff_ffff) | 1
));
element!(i32, Int32, I32, |p| i32::from_ne_bytes([p; 4]));
element!(u8, UInt8, U8, |p| p);
element!(i64, Int64, I64, |p| i64::from_ne_bytes([p; 8]));
element!(bool, Bool, Bool, |p| p & 1 == 1);
element!(u16, UInt16, U16, |p| u16::from_ne_bytes([p; 2]));
element!(f16, Half, F16, |p| f16::from_bits(
    0x7c00 | (u16::from_ne_bytes([p; 2]) & 0x01ff) | 1
));
element!(bf16, BFloat16, BF16, |p| bf16::from_bits(
    0x7f80 | (u16::from_ne_bytes([p; 2]) & 0x003f) | 1
));

/// FLOAT to HALF, rounding to nearest even (IEEE's default, TensorFlow's
/// `Cast` and TensorFlow Java's `Float16Layout`); NaN stays NaN.
#[inline]
pub fn f16_from_f32(v: f32) -> f16 {
    f16::from_f32(v)
}

/// FLOAT to BFLOAT16 rounding to nearest even, as TensorFlow's kernels
/// (Eigen's `float_to_bfloat16_rtne`) do: every NaN becomes the quiet NaN
/// of its sign, where `half`'s conversion would keep the payload.
#[inline]
pub fn bf16_from_f32(v: f32) -> bf16 {
    let bits = v.to_bits();
    if v.is_nan() {
        return bf16::from_bits(((bits >> 16) as u16 & 0x8000) | 0x7fc0);
    }
    let lsb = (bits >> 16) & 1;
    bf16::from_bits((bits.wrapping_add(0x7fff + lsb) >> 16) as u16)
}

/// FLOAT to HALF as TensorFlow Java writes a Java `float` into a `TFloat16`
/// (its `Float16Layout`): rounded to nearest even, and every NaN (canonical
/// in Java's `floatToIntBits`) is `0x7e00`.
#[inline]
pub fn f16_from_java(v: f32) -> f16 {
    if v.is_nan() {
        f16::from_bits(0x7e00)
    } else {
        f16::from_f32(v)
    }
}

/// FLOAT to BFLOAT16 as TensorFlow Java writes a Java `float` into a
/// `TBfloat16` (its `Bfloat16Layout`): the low 16 bits are dropped, and
/// every NaN (Java's `floatToIntBits` makes it canonical) is `0x7fc0`.
#[inline]
pub fn bf16_from_java(v: f32) -> bf16 {
    if v.is_nan() {
        bf16::from_bits(0x7fc0)
    } else {
        bf16::from_bits((v.to_bits() >> 16) as u16)
    }
}

/// Calls `$body` with the type alias `$T` bound to the Rust type of `$dtype`.
#[macro_export]
macro_rules! with_dtype {
    ($dtype:expr, $T:ident => $body:expr) => {
        match $dtype {
            $crate::dtype::DataType::Float => {
                type $T = f32;
                $body
            }
            $crate::dtype::DataType::Double => {
                type $T = f64;
                $body
            }
            $crate::dtype::DataType::Int32 => {
                type $T = i32;
                $body
            }
            $crate::dtype::DataType::UInt8 => {
                type $T = u8;
                $body
            }
            $crate::dtype::DataType::Int64 => {
                type $T = i64;
                $body
            }
            $crate::dtype::DataType::Bool => {
                type $T = bool;
                $body
            }
            $crate::dtype::DataType::UInt16 => {
                type $T = u16;
                $body
            }
            $crate::dtype::DataType::Half => {
                type $T = $crate::dtype::f16;
                $body
            }
            $crate::dtype::DataType::BFloat16 => {
                type $T = $crate::dtype::bf16;
                $body
            }
            // The registry refuses STRING inputs to ops without string
            // kernels before they run; this is what a STRING type attribute
            // (`Cast`'s `DstT`, a random op's `dtype`) meets.
            $crate::dtype::DataType::String => {
                return Err($crate::error::Error::invalid(
                    "the STRING dtype is not supported by this op",
                )
                .into())
            }
        }
    };
}

/// Like [`with_dtype!`] but only for numeric types other than HALF and
/// BFLOAT16; `$fallback` runs for BOOL.
#[macro_export]
macro_rules! with_numeric_dtype {
    ($dtype:expr, $T:ident => $body:expr, bool => $fallback:expr) => {
        match $dtype {
            $crate::dtype::DataType::Float => {
                type $T = f32;
                $body
            }
            $crate::dtype::DataType::Double => {
                type $T = f64;
                $body
            }
            $crate::dtype::DataType::Int32 => {
                type $T = i32;
                $body
            }
            $crate::dtype::DataType::UInt8 => {
                type $T = u8;
                $body
            }
            $crate::dtype::DataType::Int64 => {
                type $T = i64;
                $body
            }
            $crate::dtype::DataType::UInt16 => {
                type $T = u16;
                $body
            }
            $crate::dtype::DataType::Bool => $fallback,
            // Ops that take HALF or BFLOAT16 compute them in FLOAT (the
            // registry converts, see `OpDef::halves`); this is what an op
            // without that meets.
            $crate::dtype::DataType::Half | $crate::dtype::DataType::BFloat16 => {
                return Err($crate::error::Error::invalid(
                    "the HALF and BFLOAT16 dtypes are not supported by this op",
                )
                .into())
            }
            $crate::dtype::DataType::String => {
                return Err($crate::error::Error::invalid(
                    "the STRING dtype is not supported by this op",
                )
                .into())
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_poisons_are_signalling_nans_that_arithmetic_quiets() {
        for p in [0xA5u8, 0x5A, 0, 0xFF] {
            let (f, d) = (f32::poison(p), f64::poison(p));
            assert!(f.is_nan() && d.is_nan());
            assert_eq!(f.to_bits() & (1 << 22), 0, "f32 poison must be signalling");
            assert_eq!(d.to_bits() & (1 << 51), 0, "f64 poison must be signalling");
            let g = std::hint::black_box(f) + 1.0;
            assert_ne!(g.to_bits(), f.to_bits());
        }
        assert_ne!(f32::poison(0xA5).to_bits(), f32::poison(0x5A).to_bits());
        assert_ne!(bool::poison(0xA5), bool::poison(0x5A));
    }

    #[test]
    fn codes_round_trip() {
        for d in DataType::ALL {
            assert_eq!(DataType::from_code(d.code()).ok(), Some(d));
        }
        assert_eq!(DataType::from_code(7).ok(), Some(DataType::String));
        assert!(DataType::from_code(5).is_err());
    }
}
