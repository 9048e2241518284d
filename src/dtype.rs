//! Element types, with TensorFlow's numeric codes so Java and Rust agree.

use std::fmt;

use crate::error::{Error, Result};

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
}

impl DataType {
    pub const ALL: [DataType; 6] = [
        DataType::Float,
        DataType::Double,
        DataType::Int32,
        DataType::UInt8,
        DataType::Int64,
        DataType::Bool,
    ];

    pub fn from_code(code: i32) -> Result<DataType> {
        DataType::ALL
            .into_iter()
            .find(|d| d.code() == code)
            .ok_or_else(|| Error::invalid(format!("unknown data type code {code}")))
    }

    pub fn code(self) -> i32 {
        self as i32
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            DataType::Float | DataType::Int32 => 4,
            DataType::Double | DataType::Int64 => 8,
            DataType::UInt8 | DataType::Bool => 1,
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
        }
    }

    pub fn is_floating(self) -> bool {
        matches!(self, DataType::Float | DataType::Double)
    }

    pub fn is_integer(self) -> bool {
        matches!(self, DataType::Int32 | DataType::Int64 | DataType::UInt8)
    }

    pub fn is_numeric(self) -> bool {
        self != DataType::Bool
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
}

macro_rules! element {
    ($t:ty, $dt:ident, $variant:ident) => {
        impl Element for $t {
            const DTYPE: DataType = DataType::$dt;
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

element!(f32, Float, F32);
element!(f64, Double, F64);
element!(i32, Int32, I32);
element!(u8, UInt8, U8);
element!(i64, Int64, I64);
element!(bool, Bool, Bool);

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
        }
    };
}

/// Like [`with_dtype!`] but only for numeric types; `$fallback` runs for BOOL.
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
            $crate::dtype::DataType::Bool => $fallback,
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for d in DataType::ALL {
            assert_eq!(DataType::from_code(d.code()).ok(), Some(d));
        }
        assert!(DataType::from_code(7).is_err());
    }
}
