//! Reductions over segments of the first dimensions of `data`:
//! `SegmentSum`, `SegmentMean`, `SegmentMax` and `SegmentMin` (sorted
//! segment ids, one per row; a segment with no rows is 0, as in TensorFlow),
//! `UnsortedSegmentSum` and `UnsortedSegmentMax` (ids of any order shaped
//! like a prefix of `data`'s shape; negative ids are dropped, an empty
//! segment is 0 for the sum and the dtype's lowest finite value for the
//! maximum, as in TensorFlow),
//! and `Bincount`, which counts (or sums weights of) each value in `[0, size)`.
//!
//! The output's shape comes from values (the last id, `num_segments`,
//! `size`), so these ops are known when they run. Integer sums wrap; `Max`
//! and `Min` propagate NaN, as the reductions do; the mean of an integer
//! segment truncates.

use crate::alloc;
use crate::bail;
use crate::dtype::DataType;
use crate::error::Result;
use crate::ops::reduce::{Num, Ordered};
use crate::ops::{KernelOutputs, OpContext, OpDef, Registry, int_values, outputs};
use crate::tensor::{Tensor, num_elements};
use crate::with_numeric_dtype;

pub(super) fn register(r: &mut Registry) {
    const SORTED: &[&str] = &["data", "segment_ids"];
    const UNSORTED: &[&str] = &["data", "segment_ids", "num_segments"];
    const OUT: &[&str] = &["output"];
    r.add([
        OpDef::new("SegmentSum", SORTED, OUT, segment_sum),
        OpDef::new("SegmentMean", SORTED, OUT, segment_mean),
        OpDef::new("SegmentMax", SORTED, OUT, segment_max),
        OpDef::new("SegmentMin", SORTED, OUT, segment_min),
        OpDef::new("UnsortedSegmentSum", UNSORTED, OUT, unsorted_segment_sum),
        OpDef::new("UnsortedSegmentMax", UNSORTED, OUT, unsorted_segment_max),
        OpDef::new("Bincount", &["arr", "size", "weights"], &["bins"], bincount),
    ]);
}

#[derive(Clone, Copy, PartialEq)]
enum Reduce {
    Sum,
    Mean,
    Max,
    Min,
}

impl Reduce {
    fn combine<T: Num>(self, acc: T, x: T) -> T {
        match self {
            Reduce::Sum | Reduce::Mean => acc.add(x),
            Reduce::Max if x > acc || x.nan() => x,
            Reduce::Min if x < acc || x.nan() => x,
            // NaN stays: no comparison with it is true.
            Reduce::Max | Reduce::Min => acc,
        }
    }
}

fn segment_sum(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    sorted(ctx, Reduce::Sum)
}

fn segment_mean(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    sorted(ctx, Reduce::Mean)
}

fn segment_max(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    sorted(ctx, Reduce::Max)
}

fn segment_min(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    sorted(ctx, Reduce::Min)
}

/// `data`'s shape with its first `k` dimensions replaced by `rows`, and the
/// elements per row.
fn rows_shape(data: &[usize], k: usize, rows: usize) -> Result<(Vec<usize>, usize)> {
    let tail = data.get(k..).unwrap_or(&[]);
    let mut shape = alloc::with_room(tail.len() + 1)?;
    shape.push(rows);
    shape.extend_from_slice(tail);
    num_elements(&shape)?;
    Ok((shape, num_elements(tail)?))
}

fn sorted(ctx: &OpContext<'_>, how: Reduce) -> Result<KernelOutputs> {
    let data = ctx.input(0);
    let ids_t = ctx.input(1);
    if ids_t.rank() != 1 {
        bail!(
            "input 'segment_ids' must be a vector but has shape {:?}",
            ids_t.shape()
        );
    }
    let Some(&rows) = data.shape().first() else {
        bail!("input 'data' must have rank 1 or more but is a scalar");
    };
    if ids_t.num_elements() != rows {
        bail!(
            "input 'segment_ids' has {} elements but must have one per row of 'data' (shape {:?})",
            ids_t.num_elements(),
            data.shape()
        );
    }
    let ids = int_values(ctx, 1)?;
    if let Some(&first) = ids.first()
        && first < 0
    {
        bail!("segment_ids[0] = {first} must be non-negative");
    }
    for (i, pair) in ids.windows(2).enumerate() {
        if pair[1] < pair[0] {
            bail!(
                "segment_ids are not increasing: segment_ids[{}] = {} follows {}",
                i + 1,
                pair[1],
                pair[0]
            );
        }
    }
    let segments = match ids.last() {
        Some(&last) => usize::try_from(last)
            .ok()
            .and_then(|l| l.checked_add(1))
            .ok_or_else(|| crate::error::Error::invalid("segment id too large"))?,
        None => 0,
    };
    let (shape, inner) = rows_shape(data.shape(), 1, segments)?;
    let out = with_numeric_dtype!(data.dtype(), T => {
        sorted_into::<T>(ctx, data, &ids, shape, inner, how)?
    }, bool => return Err(ctx.unsupported_dtype(0)));
    Ok(outputs([out]))
}

fn sorted_into<T: Num>(
    ctx: &OpContext<'_>,
    data: &Tensor,
    ids: &[i64],
    shape: Vec<usize>,
    inner: usize,
    how: Reduce,
) -> Result<Tensor> {
    let n = num_elements(&shape)?;
    let mut out = ctx.alloc::<T>(n)?;
    alloc::fill_within(&mut out.data, n, T::ZERO);
    let xs = data.as_slice::<T>()?;
    if inner > 0 {
        let mut count = 0usize;
        for (i, (row, &id)) in xs.chunks(inner).zip(ids).enumerate() {
            let at = id as usize * inner;
            let Some(dst) = out.data.get_mut(at..at + inner) else {
                bail!("internal: segment out of bounds");
            };
            let starts = i == 0 || ids[i - 1] != id;
            if starts {
                dst.copy_from_slice(row);
                count = 1;
            } else {
                for (d, &x) in dst.iter_mut().zip(row) {
                    *d = how.combine(*d, x);
                }
                count += 1;
            }
            let ends = ids.get(i + 1) != Some(&id);
            if ends && how == Reduce::Mean {
                for d in dst.iter_mut() {
                    *d = d.div_count(count);
                }
            }
        }
    }
    out.into_tensor(shape)
}

fn unsorted_segment_sum(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    unsorted(ctx, Reduce::Sum)
}

fn unsorted_segment_max(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    unsorted(ctx, Reduce::Max)
}

fn unsorted(ctx: &OpContext<'_>, how: Reduce) -> Result<KernelOutputs> {
    let data = ctx.input(0);
    let ids_t = ctx.input(1);
    let num_t = ctx.input(2);
    if num_t.rank() != 0 {
        bail!(
            "input 'num_segments' must be a scalar but has shape {:?}",
            num_t.shape()
        );
    }
    let num = int_values(ctx, 2)?.first().copied().unwrap_or(0);
    let Ok(segments) = usize::try_from(num) else {
        bail!("input 'num_segments' = {num} must be non-negative");
    };
    if !data.shape().starts_with(ids_t.shape()) {
        bail!(
            "the shape of 'data', {:?}, must start with the shape of 'segment_ids', {:?}",
            data.shape(),
            ids_t.shape()
        );
    }
    let (shape, inner) = rows_shape(data.shape(), ids_t.rank(), segments)?;
    let ids = int_values(ctx, 1)?;
    if let Some((i, &id)) = ids.iter().enumerate().find(|&(_, &id)| id >= num) {
        bail!("segment_ids[{i}] = {id} is out of range [0, {num})");
    }
    let out = with_numeric_dtype!(data.dtype(), T => {
        let n = num_elements(&shape)?;
        let mut out = ctx.alloc::<T>(n)?;
        let empty = if how == Reduce::Max { T::LOWEST } else { T::ZERO };
        alloc::fill_within(&mut out.data, n, empty);
        let xs = data.as_slice::<T>()?;
        if inner > 0 {
            // For the maximum, which segments some row went to: an empty one's
            // is the lowest finite value, as in TensorFlow, not the fold's -inf.
            let mut reached = if how == Reduce::Max {
                alloc::filled(segments, false)?
            } else {
                Vec::new()
            };
            for (row, &id) in xs.chunks(inner).zip(ids.iter()) {
                // Negative ids are dropped.
                let Ok(id) = usize::try_from(id) else { continue };
                let at = id * inner;
                let Some(dst) = out.data.get_mut(at..at + inner) else {
                    bail!("internal: segment out of bounds");
                };
                for (d, &x) in dst.iter_mut().zip(row) {
                    *d = how.combine(*d, x);
                }
                if let Some(r) = reached.get_mut(id) {
                    *r = true;
                }
            }
            if how == Reduce::Max {
                let empty = out.data.chunks_mut(inner).zip(&reached).filter(|(_, r)| !**r);
                for (segment, _) in empty {
                    segment.fill(T::LOWEST_FINITE);
                }
            }
        }
        out.into_tensor(shape)?
    }, bool => return Err(ctx.unsupported_dtype(0)));
    Ok(outputs([out]))
}

fn bincount(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    ctx.expect_dtype(0, &[DataType::Int32])?;
    ctx.expect_dtype(1, &[DataType::Int32])?;
    let dtype = ctx.expect_dtype(
        2,
        &[
            DataType::Int32,
            DataType::Int64,
            DataType::Float,
            DataType::Double,
        ],
    )?;
    let (arr, size_t, weights) = (ctx.input(0), ctx.input(1), ctx.input(2));
    if size_t.rank() != 0 {
        bail!(
            "input 'size' must be a scalar but has shape {:?}",
            size_t.shape()
        );
    }
    let size = size_t.scalar_value::<i32>()?;
    let Ok(bins) = usize::try_from(size) else {
        bail!("input 'size' = {size} must be non-negative");
    };
    let weighted = weights.num_elements() > 0;
    if weighted && weights.shape() != arr.shape() {
        bail!(
            "inputs 'arr' and 'weights' must have the same shape (or 'weights' be empty), \
             but have {:?} and {:?}",
            arr.shape(),
            weights.shape()
        );
    }
    let values = arr.as_slice::<i32>()?;
    if let Some(&v) = values.iter().find(|&&v| v < 0) {
        bail!("input 'arr' must be non-negative, but holds {v}");
    }
    let out = with_numeric_dtype!(dtype, T => {
        let mut out = ctx.alloc::<T>(bins)?;
        alloc::fill_within(&mut out.data, bins, T::ZERO);
        let ws = weights.as_slice::<T>()?;
        for (i, &v) in values.iter().enumerate() {
            // Values past the last bin are not counted.
            if let Some(bin) = out.data.get_mut(v as usize) {
                let w = if weighted { ws.get(i).copied().unwrap_or(T::ZERO) } else { T::ONE };
                *bin = bin.add(w);
            }
        }
        out.into_tensor(Vec::from([bins]))?
    }, bool => return Err(ctx.unsupported_dtype(2)));
    Ok(outputs([out]))
}
