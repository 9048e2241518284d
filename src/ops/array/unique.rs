//! `Unique` and `UniqueV2`: the distinct elements of a vector (or the
//! distinct slices along one axis) in order of first appearance, and for
//! each element (slice) the index of its value in that list. As in
//! TensorFlow, `0.0` and `-0.0` are one value and every NaN is a value of
//! its own.

use std::collections::HashMap;

use crate::alloc;
use crate::bail;
use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::ops::{KernelOutputs, OpContext, int_values, normalize_axis, outputs};
use crate::tensor::{Tensor, num_elements};
use crate::with_dtype;

/// An element's identity for hashing: equal values give equal keys, and
/// `None` (NaN) equals nothing.
trait Key: Element {
    fn key(self) -> Option<u64>;
}

impl Key for f32 {
    fn key(self) -> Option<u64> {
        if self.is_nan() {
            None
        } else if self == 0.0 {
            Some(0)
        } else {
            Some(u64::from(self.to_bits()))
        }
    }
}

impl Key for f64 {
    fn key(self) -> Option<u64> {
        if self.is_nan() {
            None
        } else if self == 0.0 {
            Some(0)
        } else {
            Some(self.to_bits())
        }
    }
}

macro_rules! int_key {
    ($($t:ty),*) => {
        $(impl Key for $t {
            fn key(self) -> Option<u64> {
                Some(self as u64)
            }
        })*
    };
}

int_key!(i32, i64, u8, u16);

/// The 2-byte floats by their value as f32: -0.0 equals 0.0, each NaN is its own.
macro_rules! half_key {
    ($($t:ty),*) => {
        $(impl Key for $t {
            fn key(self) -> Option<u64> {
                self.to_f32().key()
            }
        })*
    };
}

half_key!(crate::dtype::f16, crate::dtype::bf16);

impl Key for bool {
    fn key(self) -> Option<u64> {
        Some(u64::from(self))
    }
}

/// The `out_idx` attribute: INT32 (the default) or INT64.
fn index_dtype(ctx: &OpContext<'_>) -> Result<DataType> {
    let d = ctx.attrs.dtype("out_idx")?.unwrap_or(DataType::Int32);
    if !matches!(d, DataType::Int32 | DataType::Int64) {
        bail!("attribute 'out_idx' must be INT32 or INT64 but is {d}");
    }
    Ok(d)
}

pub(super) fn unique(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    if x.rank() != 1 {
        bail!("input 'x' must be a vector but has shape {:?}", x.shape());
    }
    let idx = index_dtype(ctx)?;
    with_dtype!(x.dtype(), T => unique_along::<T>(ctx, x, 0, idx))
}

pub(super) fn unique_v2(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let axis_t = ctx.input(1);
    if axis_t.rank() != 1 || axis_t.num_elements() > 1 {
        bail!(
            "input 'axis' must be a vector of at most one element but has shape {:?}",
            axis_t.shape()
        );
    }
    let axis = match int_values(ctx, 1)?.first() {
        Some(&a) => normalize_axis(a, x.rank(), "axis")?,
        None if x.rank() == 1 => 0,
        None => bail!(
            "with no axis, input 'x' must be a vector but has shape {:?}",
            x.shape()
        ),
    };
    let idx = index_dtype(ctx)?;
    with_dtype!(x.dtype(), T => unique_along::<T>(ctx, x, axis, idx))
}

fn unique_along<T: Key>(
    ctx: &OpContext<'_>,
    x: &Tensor,
    axis: usize,
    idx_dtype: DataType,
) -> Result<KernelOutputs> {
    let shape = x.shape();
    let len = shape[axis];
    let outer = num_elements(&shape[..axis])?;
    let inner = num_elements(&shape[axis + 1..])?;
    let xs = x.as_slice::<T>()?;
    // Slice `k` is the elements `[o, k, i]` for every `o` and `i`.
    let slice_keys = |k: usize| -> Result<Option<Vec<u64>>> {
        if outer == 0 || inner == 0 {
            // Empty slices are all alike.
            return Ok(Some(Vec::new()));
        }
        let mut keys = alloc::with_room(outer.saturating_mul(inner))?;
        for o in 0..outer {
            for i in 0..inner {
                let v = xs
                    .get((o * len + k) * inner + i)
                    .copied()
                    .unwrap_or_default();
                match v.key() {
                    Some(key) => keys.push(key),
                    None => return Ok(None),
                }
            }
        }
        Ok(Some(keys))
    };
    let too_large = |_| Error::invalid(format!("a table of {len} slices is too large"));
    let mut firsts: Vec<usize> = alloc::with_room(len)?;
    let mut idx: Vec<i64> = alloc::with_room(len)?;
    // Slice `k` is new: it becomes the next distinct value.
    let add = |firsts: &mut Vec<usize>, k: usize| {
        firsts.push(k);
        firsts.len() - 1
    };
    if outer.saturating_mul(inner) == 1 {
        // Single elements (a vector): no key vectors.
        let mut seen: HashMap<u64, usize> = HashMap::new();
        seen.try_reserve(len).map_err(too_large)?;
        for (k, &v) in xs.iter().enumerate().take(len) {
            let at = match v.key() {
                Some(key) => *seen.entry(key).or_insert_with(|| add(&mut firsts, k)),
                None => add(&mut firsts, k),
            };
            idx.push(at as i64);
        }
    } else {
        let mut seen: HashMap<Vec<u64>, usize> = HashMap::new();
        seen.try_reserve(len).map_err(too_large)?;
        for k in 0..len {
            let at = match slice_keys(k)? {
                Some(keys) => *seen.entry(keys).or_insert_with(|| add(&mut firsts, k)),
                None => add(&mut firsts, k),
            };
            idx.push(at as i64);
        }
    }
    let mut y_shape = alloc::copied(shape)?;
    y_shape[axis] = firsts.len();
    let n = num_elements(&y_shape)?;
    let mut y = ctx.alloc::<T>(n)?;
    for o in (0..outer).take_while(|_| n > 0) {
        for &k in &firsts {
            let start = (o * len + k) * inner;
            match xs.get(start..start + inner) {
                Some(part) => y.data.extend_from_slice(part),
                None => bail!("internal: Unique slice out of bounds"),
            }
        }
    }
    let y = y.into_tensor(y_shape)?;
    let idx = match idx_dtype {
        DataType::Int64 => ctx.collect(Vec::from([len]), idx.iter().copied())?,
        _ => {
            if len > i32::MAX as usize {
                bail!("{len} slices do not fit INT32 indices; set out_idx to INT64");
            }
            ctx.collect(Vec::from([len]), idx.iter().map(|&i| i as i32))?
        }
    };
    Ok(outputs([y, idx]))
}
