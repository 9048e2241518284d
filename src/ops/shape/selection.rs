//! Copies of parts of a tensor: `Slice`, `StridedSlice`, `Split` and
//! `Unpack` (all through the strided copy of `strided`), and `GatherV2`.

use super::strided::{Axis, select};
use super::{check_rank, chunk, int_scalar, int_vector, internal};
use crate::alloc::{self, MAX_OUTPUTS};
use crate::bail;
use crate::dtype::{DataType, Element};
use crate::error::Result;
use crate::ops::{KernelOutputs, OpContext, normalize_axis, outputs};
use crate::tensor::{self, Tensor};
use crate::with_dtype;

pub(super) fn slice(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let input = ctx.input(0);
    ctx.same_dtype(1, 2)?;
    let begin = int_vector(ctx, 1)?;
    let size = int_vector(ctx, 2)?;
    let shape = input.shape();
    if begin.len() != shape.len() || size.len() != shape.len() {
        bail!(
            "begin and size must have one entry per dimension of input shape {shape:?}, \
             but have {} and {}",
            begin.len(),
            size.len()
        );
    }
    let mut axes = alloc::with_room(shape.len())?;
    for (d, ((&b, &s), &dim)) in begin.iter().zip(&size).zip(shape).enumerate() {
        let (b, s, dim) = (i128::from(b), i128::from(s), dim as i128);
        if b < 0 || b > dim {
            bail!("begin[{d}] = {b} is not in [0, {dim}] for input shape {shape:?}");
        }
        let s = if s == -1 { dim - b } else { s };
        if s < 0 || b + s > dim {
            bail!(
                "size[{d}] = {s} is not in [0, {}] for input shape {shape:?} and begin[{d}] = {b}",
                dim - b
            );
        }
        // Both fit: 0 <= b, s <= dim.
        axes.push(Axis {
            start: b as usize,
            count: s as usize,
            step: 1,
        });
    }
    let out_shape = axes.iter().map(|a| a.count).collect();
    Ok(outputs([select(ctx, input, &axes, out_shape)?]))
}

/// One entry of a StridedSlice spec before the ellipsis is expanded.
enum SparseEntry {
    Ellipsis,
    NewAxis,
    Range {
        begin: i64,
        end: i64,
        stride: i64,
        begin_masked: bool,
        end_masked: bool,
        shrink: bool,
        /// Position in the spec, for messages.
        index: usize,
    },
}

/// Where each output dimension of a StridedSlice comes from.
enum FinalDim {
    Input(usize),
    NewAxis,
}

pub(super) fn strided_slice(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let input = ctx.input(0);
    ctx.same_dtype(1, 2)?;
    ctx.same_dtype(1, 3)?;
    // Past the masks' 64 bits every spec entry names an input dimension, so a
    // longer spec is wrong; refusing it first bounds the spec built below.
    let entries = ctx.input(1).num_elements();
    if entries > input.rank() + 65 {
        bail!(
            "begin has {entries} entries, more than an input of shape {:?} can take",
            input.shape()
        );
    }
    let begin = int_vector(ctx, 1)?;
    let end = int_vector(ctx, 2)?;
    let strides = int_vector(ctx, 3)?;
    if begin.len() != end.len() || begin.len() != strides.len() {
        bail!(
            "begin, end and strides must have the same length, but have {}, {} and {}",
            begin.len(),
            end.len(),
            strides.len()
        );
    }
    let mask = |name: &str| ctx.attrs.int(name, 0).map(|m| m as u64);
    let bit = |m: u64, i: usize| i < 64 && (m >> i) & 1 == 1;
    let (begin_mask, end_mask) = (mask("begin_mask")?, mask("end_mask")?);
    let (ellipsis_mask, new_axis_mask) = (mask("ellipsis_mask")?, mask("new_axis_mask")?);
    let shrink_mask = mask("shrink_axis_mask")?;
    if ellipsis_mask.count_ones() > 1 {
        bail!("multiple ellipses in slice spec not allowed (ellipsis_mask {ellipsis_mask:#b})");
    }

    // Step 1: the sparse spec, with an implicit ellipsis at the end if none is given.
    let mut sparse = alloc::with_room(begin.len() + 1)?;
    let mut ellipsis_at = None;
    let mut new_axes_after_ellipsis = 0usize;
    for i in 0..begin.len() {
        if ellipsis_at.is_some() && bit(new_axis_mask, i) {
            new_axes_after_ellipsis += 1;
        }
        if bit(ellipsis_mask, i) {
            ellipsis_at = Some(i);
            sparse.push(SparseEntry::Ellipsis);
        } else if bit(new_axis_mask, i) {
            sparse.push(SparseEntry::NewAxis);
        } else {
            sparse.push(SparseEntry::Range {
                begin: begin[i],
                end: end[i],
                stride: strides[i],
                begin_masked: bit(begin_mask, i),
                end_masked: bit(end_mask, i),
                shrink: bit(shrink_mask, i),
                index: i,
            });
        }
    }
    if ellipsis_at.is_none() {
        sparse.push(SparseEntry::Ellipsis);
    }

    // Step 2: one axis per input dimension; the ellipsis takes whole the
    // dimensions that the entries after it do not name.
    let shape = input.shape();
    let rank = shape.len();
    let mut axes: Vec<Axis> = alloc::with_room(rank)?;
    let mut final_dims = alloc::with_room(sparse.len() + rank)?;
    let n_sparse = sparse.len();
    for (i, entry) in sparse.iter().enumerate() {
        match *entry {
            SparseEntry::Ellipsis => {
                let after = n_sparse - i - 1;
                let next = (rank + new_axes_after_ellipsis + 1)
                    .saturating_sub(after + 1)
                    .min(rank);
                while axes.len() < next {
                    final_dims.push(FinalDim::Input(axes.len()));
                    axes.push(Axis::whole(shape[axes.len()]));
                }
            }
            SparseEntry::NewAxis => final_dims.push(FinalDim::NewAxis),
            SparseEntry::Range {
                begin,
                end,
                stride,
                begin_masked,
                end_masked,
                shrink,
                index,
            } => {
                let d = axes.len();
                let Some(&dim) = shape.get(d) else {
                    bail!(
                        "slice spec entry {index} indexes dimension {d}, \
                         but the input has shape {shape:?}"
                    );
                };
                if stride == 0 {
                    bail!("strides[{index}] must be non-zero");
                }
                let axis = if shrink {
                    if stride < 0 {
                        bail!("strides[{index}] = {stride}: a shrunk axis needs a positive stride");
                    }
                    let dim_i = dim as i128;
                    let b = i128::from(begin);
                    let at = if b < 0 { dim_i + b } else { b };
                    if at < 0 || at >= dim_i {
                        bail!(
                            "index {begin} (spec entry {index}) is out of bounds for dimension \
                             {d} of shape {shape:?}"
                        );
                    }
                    Axis {
                        start: at as usize,
                        count: 1,
                        step: 1,
                    }
                } else {
                    final_dims.push(FinalDim::Input(d));
                    range_axis(dim, begin, end, stride, begin_masked, end_masked)
                };
                axes.push(axis);
            }
        }
    }
    if axes.len() != rank {
        return Err(internal("slice spec does not cover the input"));
    }
    let out_shape: Vec<usize> = final_dims
        .iter()
        .map(|f| match f {
            FinalDim::Input(d) => axes.get(*d).map_or(1, |a| a.count),
            FinalDim::NewAxis => 1,
        })
        .collect();
    check_rank(out_shape.len(), "the output")?;
    Ok(outputs([select(ctx, input, &axes, out_shape)?]))
}

/// TF's canonical form of `begin:end:stride` over a dimension of size `dim`:
/// negative indices count from the end, out-of-range ones are clamped.
fn range_axis(
    dim: usize,
    begin: i64,
    end: i64,
    stride: i64,
    begin_masked: bool,
    end_masked: bool,
) -> Axis {
    let (dim, s) = (dim as i128, i128::from(stride));
    // The first and one-past-last valid positions in the stride's direction.
    // Unmasked indices are clamped to [lo, hi]; masked ones start at the
    // first position in the stride's direction and end one past the last.
    let (lo, hi) = if s > 0 { (0, dim) } else { (-1, dim - 1) };
    let (first, past) = if s > 0 { (lo, hi) } else { (hi, lo) };
    let canonical = |x: i64, masked: bool, default: i128| {
        if masked {
            return default;
        }
        let x = i128::from(x);
        let x = if x < 0 { dim + x } else { x };
        x.clamp(lo, hi)
    };
    let b = canonical(begin, begin_masked, first);
    let e = canonical(end, end_masked, past);
    let interval = e - b;
    let count = if interval == 0 || (interval < 0) != (s < 0) {
        0
    } else {
        interval / s + i128::from(interval % s != 0)
    };
    if count == 0 {
        return Axis {
            start: 0,
            count: 0,
            step: 1,
        };
    }
    // count > 0: b is a valid index and count <= dim.
    Axis {
        start: b as usize,
        count: count as usize,
        step: stride,
    }
}

/// Checks an attribute-given output count against [`MAX_OUTPUTS`].
fn check_outputs(n: usize) -> Result<()> {
    alloc::within("the number of outputs", n, MAX_OUTPUTS)?;
    Ok(())
}

pub(super) fn unpack(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let value = ctx.input(0);
    let num = ctx.attrs.required_int("num")?;
    let shape = value.shape();
    let axis = normalize_axis(ctx.attrs.int("axis", 0)?, shape.len(), "axis")?;
    let dim = shape[axis];
    if usize::try_from(num).ok() != Some(dim) {
        bail!("attribute 'num' is {num} but dimension {axis} of value's shape {shape:?} is {dim}");
    }
    check_outputs(dim)?;
    let mut out_shape = alloc::copied(shape)?;
    out_shape.remove(axis);
    let mut axes: Vec<Axis> = shape.iter().map(|&d| Axis::whole(d)).collect();
    let mut outputs = alloc::with_room(dim)?;
    for i in 0..dim {
        axes[axis] = Axis {
            start: i,
            count: 1,
            step: 1,
        };
        outputs.push(select(ctx, value, &axes, out_shape.clone())?);
    }
    Ok(KernelOutputs::from_vec(outputs))
}

pub(super) fn split(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    ctx.expect_dtype(0, &[DataType::Int32])?;
    let split_dim = int_scalar(ctx, 0)?;
    let value = ctx.input(1);
    let num = ctx.attrs.required_int("num_split")?;
    let shape = value.shape();
    let axis = normalize_axis(split_dim, shape.len(), "split_dim")?;
    let dim = shape[axis];
    let pieces = match usize::try_from(num) {
        Ok(n) if n >= 1 => n,
        _ => bail!("attribute 'num_split' must be at least 1 but is {num}"),
    };
    if !dim.is_multiple_of(pieces) {
        bail!(
            "num_split {pieces} does not evenly divide dimension {axis} of value's shape \
             {shape:?} (size {dim})"
        );
    }
    check_outputs(pieces)?;
    let piece = dim / pieces;
    let mut out_shape = alloc::copied(shape)?;
    out_shape[axis] = piece;
    let mut axes: Vec<Axis> = shape.iter().map(|&d| Axis::whole(d)).collect();
    let mut outputs = alloc::with_room(pieces)?;
    for k in 0..pieces {
        axes[axis] = Axis {
            start: k * piece,
            count: piece,
            step: 1,
        };
        outputs.push(select(ctx, value, &axes, out_shape.clone())?);
    }
    Ok(KernelOutputs::from_vec(outputs))
}

pub(super) fn gather(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let params = ctx.input(0);
    let indices = ctx.input(1);
    ctx.expect_dtype(1, &[DataType::Int32, DataType::Int64])?;
    let axis = int_scalar(ctx, 2)?;
    let (pshape, ishape) = (params.shape(), indices.shape());
    let axis = normalize_axis(axis, pshape.len(), "axis")?;
    let irank = ishape.len() as i64;
    let batch = ctx.attrs.int("batch_dims", 0)?;
    if batch < -irank || batch > irank {
        bail!(
            "batch_dims {batch} is out of range for indices of shape {ishape:?} \
             (valid: [{}, {irank}])",
            -irank
        );
    }
    let batch = if batch < 0 { batch + irank } else { batch } as usize;
    if batch > 0 {
        if batch >= pshape.len() {
            bail!("batch_dims {batch} must be less than the rank of params {pshape:?}");
        }
        if axis < batch {
            bail!("batch_dims {batch} must not exceed axis {axis}");
        }
        if pshape[..batch] != ishape[..batch] {
            bail!(
                "the first {batch} dimensions of params {pshape:?} and indices {ishape:?} \
                 must be equal (batch_dims)"
            );
        }
    }
    let mut out_shape = alloc::copied(&pshape[..axis])?;
    out_shape.extend_from_slice(&ishape[batch..]);
    out_shape.extend_from_slice(&pshape[axis + 1..]);
    check_rank(out_shape.len(), "the output")?;
    let g = Gather {
        batch: tensor::num_elements(&pshape[..batch])?,
        outer: tensor::num_elements(&pshape[batch..axis])?,
        dim: pshape[axis],
        inner: tensor::num_elements(&pshape[axis + 1..])?,
        per_batch: tensor::num_elements(&ishape[batch..])?,
    };
    let out = match indices.dtype() {
        DataType::Int32 => with_dtype!(params.dtype(), T => {
            g.run::<T, i32>(ctx, params.as_slice()?, indices.as_slice()?, ishape, out_shape)
        }),
        _ => with_dtype!(params.dtype(), T => {
            g.run::<T, i64>(ctx, params.as_slice()?, indices.as_slice()?, ishape, out_shape)
        }),
    }?;
    Ok(outputs([out]))
}

/// Formats a flat position of a tensor of `shape` as `[i, j, ...]`.
fn coords(mut flat: usize, shape: &[usize]) -> String {
    // One entry per axis: at most alloc::MAX_RANK.
    #[allow(clippy::disallowed_macros, clippy::disallowed_methods)]
    let mut c = vec![0usize; shape.len()];
    for (slot, &d) in c.iter_mut().zip(shape).rev() {
        if d > 0 {
            *slot = flat % d;
            flat /= d;
        }
    }
    let parts: Vec<String> = c.iter().map(|v| v.to_string()).collect();
    format!("[{}]", parts.join(", "))
}

/// GatherV2's params viewed as `[batch, outer, dim, inner]` and its indices
/// as `[batch, per_batch]`.
struct Gather {
    batch: usize,
    outer: usize,
    dim: usize,
    inner: usize,
    per_batch: usize,
}

impl Gather {
    fn run<T: Element, I: Element + Into<i64>>(
        &self,
        ctx: &OpContext<'_>,
        src: &[T],
        idx: &[I],
        ishape: &[usize],
        shape: Vec<usize>,
    ) -> Result<Tensor> {
        // TF's CPU kernel rejects out-of-range indices (no zero fill).
        for (flat, &i) in idx.iter().enumerate() {
            let v: i64 = i.into();
            if usize::try_from(v).map_or(true, |v| v >= self.dim) {
                bail!(
                    "indices{} = {v} is not in [0, {})",
                    coords(flat, ishape),
                    self.dim
                );
            }
        }
        let n = tensor::num_elements(&shape)?;
        let mut out = ctx.alloc::<T>(n)?;
        // Non-empty output: every factor is >= 1 and params is non-empty, so
        // the offsets below stay within `src`.
        if n > 0 {
            for b in 0..self.batch {
                let ids = chunk(idx, b * self.per_batch, self.per_batch)?;
                for o in 0..self.outer {
                    let base = (b * self.outer + o) * self.dim;
                    for &i in ids {
                        let row = usize::try_from(i.into()).map_err(|_| internal("index"))?;
                        out.data.extend_from_slice(chunk(
                            src,
                            (base + row) * self.inner,
                            self.inner,
                        )?);
                    }
                }
            }
        }
        out.into_tensor(shape)
    }
}
