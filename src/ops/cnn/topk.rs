//! `TopKV2` (the `k` largest entries of each last-axis row, with their
//! indices) and `InTopKV2` (whether each target class is among the `k`
//! highest predictions).
//!
//! Ties: TensorFlow's order, the lower index first. NaN, which TensorFlow's
//! comparisons leave unordered, sorts above every number here. With
//! `sorted=false` TensorFlow leaves the order unspecified; this kernel
//! sorts anyway.

use std::cmp::Ordering;

use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::ops::{KernelOutputs, OpContext, int_values, outputs};
use crate::tensor::Tensor;

/// The dtypes `TopKV2` takes.
pub(in crate::ops) const TOPK_DTYPES: &[DataType] = &[
    DataType::Float,
    DataType::Double,
    DataType::Int32,
    DataType::Int64,
    DataType::UInt8,
];

/// `TopKV2`'s checks of 'k' (the value `k`, of shape `k_shape`) and of an
/// 'input' of shape `input`; shared with build-time inference.
pub(in crate::ops) fn topk_k(k_shape: &[usize], k: Option<i64>) -> Result<Option<usize>> {
    if !k_shape.is_empty() {
        return Err(Error::invalid(format!(
            "'k' must be a scalar but has shape {k_shape:?}"
        )));
    }
    match k {
        Some(k) if k < 0 => Err(Error::invalid(format!("'k' must be >= 0 but is {k}"))),
        Some(k) => Ok(Some(k as usize)),
        None => Ok(None),
    }
}

/// The output shape of `TopKV2` for 'input' of shape `input`.
pub(in crate::ops) fn topk_shape(input: &[usize], k: usize) -> Result<Vec<usize>> {
    let Some(&n) = input.last() else {
        return Err(Error::invalid(format!(
            "'input' must have rank >= 1 but has shape {input:?}"
        )));
    };
    if n < k {
        return Err(Error::invalid(format!(
            "'input' (shape {input:?}) must have at least k = {k} entries in its last dimension but has {n}"
        )));
    }
    let mut out = crate::alloc::copied(input)?;
    if let Some(last) = out.last_mut() {
        *last = k;
    }
    Ok(out)
}

/// `TopKV2`'s `index_type`: INT32 (the default) or INT64.
pub(in crate::ops) fn index_type(attrs: &crate::ops::Attrs) -> Result<DataType> {
    match attrs.dtype("index_type")? {
        None | Some(DataType::Int32) => Ok(DataType::Int32),
        Some(DataType::Int64) => Ok(DataType::Int64),
        Some(d) => Err(Error::invalid(format!(
            "attribute 'index_type' must be INT32 or INT64 but is {d}"
        ))),
    }
}

pub(super) fn top_k(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    ctx.expect_dtype(0, TOPK_DTYPES)?;
    ctx.expect_dtype(1, &[DataType::Int32, DataType::Int64])?;
    ctx.attrs.bool("sorted", true)?;
    let itype = index_type(ctx.attrs)?;
    let kv = int_values(ctx, 1)?;
    let k = topk_k(ctx.input(1).shape(), kv.first().copied())?.unwrap_or(0);
    let shape = topk_shape(x.shape(), k)?;
    if itype == DataType::Int32 && x.shape().last().is_some_and(|&n| n > i32::MAX as usize) {
        return Err(Error::invalid(format!(
            "'input' (shape {:?}) has more entries in its last dimension than INT32 indices reach; set 'index_type' to INT64",
            x.shape()
        )));
    }
    match x.dtype() {
        DataType::Float => top_k_typed::<f32>(ctx, x, k, shape, itype),
        DataType::Double => top_k_typed::<f64>(ctx, x, k, shape, itype),
        DataType::Int32 => top_k_typed::<i32>(ctx, x, k, shape, itype),
        DataType::Int64 => top_k_typed::<i64>(ctx, x, k, shape, itype),
        DataType::UInt8 => top_k_typed::<u8>(ctx, x, k, shape, itype),
        _ => Err(ctx.unsupported_dtype(0)),
    }
}

/// Descending order, NaN first, ties by lower index.
fn before<T: PartialOrd>(row: &[T], a: usize, b: usize) -> Ordering {
    let (x, y) = (&row[a], &row[b]);
    #[allow(clippy::eq_op)]
    let (xn, yn) = (x != x, y != y);
    match (xn, yn) {
        (true, true) => a.cmp(&b),
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ => match y.partial_cmp(x) {
            Some(Ordering::Equal) | None => a.cmp(&b),
            Some(o) => o,
        },
    }
}

fn top_k_typed<T: Element + PartialOrd>(
    ctx: &OpContext<'_>,
    x: &Tensor,
    k: usize,
    shape: Vec<usize>,
    itype: DataType,
) -> Result<KernelOutputs> {
    let xs = x.as_slice::<T>()?;
    let n = x.shape().last().copied().unwrap_or(0);
    let rows = xs.len().checked_div(n).unwrap_or(0);
    let total = crate::tensor::num_elements(&shape)?;
    let mut values = ctx.alloc::<T>(total)?;
    let mut order: Vec<usize> = crate::alloc::with_room(n)?;
    let mut picked: Vec<usize> = crate::alloc::with_room(total)?;
    if k > 0 {
        for row in xs.chunks_exact(n).take(rows) {
            order.clear();
            order.extend(0..n);
            let cmp = |&a: &usize, &b: &usize| before(row, a, b);
            if k < n {
                order.select_nth_unstable_by(k - 1, cmp);
            }
            let top = &mut order[..k];
            top.sort_unstable_by(cmp);
            values.data.extend(top.iter().map(|&i| row[i]));
            picked.extend_from_slice(top);
        }
    }
    let indices = match itype {
        DataType::Int64 => {
            let mut t = ctx.alloc::<i64>(total)?;
            t.data.extend(picked.iter().map(|&i| i as i64));
            t.into_tensor(crate::alloc::copied(&shape)?)?
        }
        _ => {
            let mut t = ctx.alloc::<i32>(total)?;
            t.data.extend(picked.iter().map(|&i| i as i32));
            t.into_tensor(crate::alloc::copied(&shape)?)?
        }
    };
    Ok(outputs([values.into_tensor(shape)?, indices]))
}

/// `InTopKV2`'s shape checks for 'predictions', 'targets' and 'k'; returns
/// the batch size. Shared with build-time inference.
pub(in crate::ops) fn in_top_k_shapes(p: &[usize], t: &[usize], k: &[usize]) -> Result<usize> {
    if p.len() != 2 {
        return Err(Error::invalid(format!(
            "'predictions' must be a matrix [batch, classes] but has shape {p:?}"
        )));
    }
    if t.len() != 1 {
        return Err(Error::invalid(format!(
            "'targets' must be a vector but has shape {t:?}"
        )));
    }
    if p[0] != t[0] {
        return Err(Error::invalid(format!(
            "'predictions' (shape {p:?}) and 'targets' (shape {t:?}) must have the same batch size"
        )));
    }
    if !k.is_empty() {
        return Err(Error::invalid(format!(
            "'k' must be a scalar but has shape {k:?}"
        )));
    }
    Ok(p[0])
}

/// `InTopKV2`'s dtype checks: FLOAT predictions, INT32 or INT64 targets and
/// k of the same dtype.
pub(in crate::ops) fn in_top_k_dtypes(p: DataType, t: DataType, k: DataType) -> Result<()> {
    crate::ops::expect_dtype("predictions", p, &[DataType::Float])?;
    crate::ops::expect_dtype("targets", t, &[DataType::Int32, DataType::Int64])?;
    crate::ops::same_dtype(("targets", t), ("k", k))?;
    Ok(())
}

pub(super) fn in_top_k(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (p, t, k) = (ctx.input(0), ctx.input(1), ctx.input(2));
    in_top_k_dtypes(p.dtype(), t.dtype(), k.dtype())?;
    let batch = in_top_k_shapes(p.shape(), t.shape(), k.shape())?;
    let classes = p.shape()[1];
    let ps = p.as_slice::<f32>()?;
    let targets = int_values(ctx, 1)?;
    let k = int_values(ctx, 2)?.first().copied().unwrap_or(0);
    let mut out = ctx.alloc::<bool>(batch)?;
    for (b, &target) in targets.iter().enumerate().take(batch) {
        let row = ps.get(b * classes..(b + 1) * classes).unwrap_or(&[]);
        let hit = match usize::try_from(target).ok().and_then(|i| row.get(i)) {
            // An unknown class, or a prediction that cannot be ranked: false.
            Some(&v) if v.is_finite() => {
                let above = row.iter().filter(|&&o| o > v).count();
                (above as i64) < k
            }
            _ => false,
        };
        out.data.push(hit);
    }
    Ok(outputs([out.into_tensor(Vec::from([batch]))?]))
}
