//! The array ops of issue 24 (src/ops/array): padding, reversal, rolling,
//! Where, the coordinate gathers and scatters, Unique, the matrix ops,
//! LinSpace and SpaceToDepth/DepthToSpace, against values worked out
//! by hand from TensorFlow's documentation, with their edge cases (empty
//! and rank-0 tensors, NaN, integer extremes) and every error class.

mod matrix;
mod nd;
mod remap;

use eagerflow::{Element, Tensor};

/// Checks a tensor's dtype, shape and values.
pub fn expect<T: Element>(t: &Tensor, shape: &[usize], data: &[T]) {
    assert_eq!(t.dtype(), T::DTYPE, "dtype of {t:?}");
    assert_eq!(t.shape(), shape, "shape of {t:?}");
    assert_eq!(t.as_slice::<T>().unwrap(), data, "values of {t:?}");
}

/// Checks that an error message mentions every part.
pub fn has(msg: &str, parts: &[&str]) {
    for p in parts {
        assert!(msg.contains(p), "{msg:?} should mention {p:?}");
    }
}
