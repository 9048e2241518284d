//! Indexing by coordinates: `GatherNd` reads the slices of `params` that the
//! rows of `indices` point at; `ScatterNd` adds `updates` into zeros of a
//! given shape at them, `TensorScatterUpdate` writes and `TensorScatterAdd`
//! adds them into a copy of `tensor`. The innermost dimension of `indices`
//! (its depth `k`) indexes the first `k` dimensions of the target; the rest
//! of the target is the slice each row selects.
//!
//! As TensorFlow's CPU kernels do, an index outside the target is an error,
//! naming the row and the target's shape; duplicates add up (`ScatterNd`,
//! `TensorScatterAdd`) or the last one wins (`TensorScatterUpdate`).

use std::sync::Arc;

use crate::alloc;
use crate::bail;
use crate::dtype::{DataType, Element};
use crate::error::Result;
use crate::memory::MemoryAccount;
use crate::ops::math::add_n::Accumulate;
use crate::ops::{KernelOutputs, OpContext, int_values_of, outputs};
use crate::scratch::Scratch;
use crate::tensor::{Tensor, num_elements};
use crate::{with_dtype, with_numeric_dtype};

/// The depth `k` of an `indices` shape (its innermost dimension), checked
/// against a target of rank `rank` (`what` names the target).
fn depth(indices: &[usize], rank: usize, what: &str) -> Result<usize> {
    let Some(&k) = indices.last() else {
        bail!("input 'indices' must be at least a vector but is a scalar");
    };
    if k > rank {
        bail!(
            "input 'indices' has shape {indices:?}: its innermost dimension ({k}) must be at \
             most the rank of {what} ({rank})"
        );
    }
    Ok(k)
}

/// `GatherNd`'s output shape: `indices.shape[:-1] + params.shape[k:]`.
/// Shared with build-time inference.
pub(in crate::ops) fn gather_nd_shape(params: &[usize], indices: &[usize]) -> Result<Vec<usize>> {
    let k = depth(indices, params.len(), "params")?;
    let batch = &indices[..indices.len() - 1];
    let mut out = alloc::with_room(batch.len() + params.len() - k)?;
    out.extend_from_slice(batch);
    out.extend_from_slice(&params[k..]);
    check_rank(out.len())?;
    // As TensorFlow: any index row into an empty params is refused, even
    // one selecting an empty slice.
    num_elements(&out)?;
    let rows = num_elements(batch)?;
    if rows > 0 && num_elements(params)? == 0 {
        bail!("requested {rows} slices, but params is empty (shape {params:?})");
    }
    Ok(out)
}

/// Checks that `updates` has shape `indices.shape[:-1] + target[k:]` for a
/// scatter into `target` (named `what`). Shared with build-time inference.
pub(in crate::ops) fn check_updates(
    indices: &[usize],
    updates: &[usize],
    target: &[usize],
    what: &str,
) -> Result<()> {
    let k = depth(indices, target.len(), what)?;
    let batch = &indices[..indices.len() - 1];
    let tail = &target[k..];
    let fits = updates.len() == batch.len() + tail.len()
        && updates[..batch.len()] == *batch
        && updates[batch.len()..] == *tail;
    if !fits {
        let mut expected = alloc::with_room(batch.len() + tail.len())?;
        expected.extend_from_slice(batch);
        expected.extend_from_slice(tail);
        bail!(
            "input 'updates' has shape {updates:?} but must have shape {expected:?} \
             (indices.shape[:-1] + {what}.shape[{k}:], with indices of shape {indices:?} and \
             {what} of shape {target:?})"
        );
    }
    Ok(())
}

/// The element offset in `target` (a row-major shape named `what`) of the
/// slice each row of `indices` selects; an index outside `target` is an
/// error naming the row.
fn slice_offsets(
    account: &Arc<MemoryAccount>,
    indices: &Tensor,
    target: &[usize],
    what: &str,
) -> Result<Scratch<i64>> {
    let ishape = indices.shape();
    let k = depth(ishape, target.len(), what)?;
    let batch = &ishape[..ishape.len() - 1];
    let rows = num_elements(batch)?;
    let mut offsets = Scratch::with_capacity(account, rows)?;
    if k == 0 {
        offsets.extend_within(std::iter::repeat_n(0, rows));
        return Ok(offsets);
    }
    let values = int_values_of(account, indices, "indices")?;
    // Elements per step of each of the first `k` dimensions.
    let mut strides = alloc::filled(k, 0usize)?;
    let mut stride = num_elements(&target[k..])?;
    for d in (0..k).rev() {
        strides[d] = stride;
        stride = stride.saturating_mul(target[d]);
    }
    for (r, row) in values.chunks(k).enumerate() {
        let mut offset = 0usize;
        for (d, &i) in row.iter().enumerate() {
            match usize::try_from(i) {
                Ok(i) if i < target[d] => offset += i * strides[d],
                _ => bail!(
                    "indices{} = {row:?} does not index into {what} of shape {target:?}",
                    position(r, batch)
                ),
            }
        }
        offsets.extend_within([offset as i64]);
    }
    Ok(offsets)
}

fn check_rank(rank: usize) -> Result<()> {
    if rank > alloc::MAX_RANK {
        bail!(
            "the output would have rank {rank}, more than the maximum of {}",
            alloc::MAX_RANK
        );
    }
    Ok(())
}

/// Row `r` of a batch of shape `batch` as `[i, j, ...]`, for messages.
fn position(mut r: usize, batch: &[usize]) -> String {
    let mut at: Vec<String> = Vec::new();
    for &dim in batch.iter().rev() {
        let dim = dim.max(1);
        at.push((r % dim).to_string());
        r /= dim;
    }
    at.reverse();
    format!("[{}]", at.join(", "))
}

pub(super) fn gather_nd(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let params = ctx.input(0);
    let indices = ctx.input(1);
    let out_shape = gather_nd_shape(params.shape(), indices.shape())?;
    let out = with_dtype!(params.dtype(), T => gather::<T>(ctx, params, indices, out_shape)?);
    Ok(outputs([out]))
}

fn gather<T: Element>(
    ctx: &OpContext<'_>,
    params: &Tensor,
    indices: &Tensor,
    out_shape: Vec<usize>,
) -> Result<Tensor> {
    let n = num_elements(&out_shape)?;
    let mut out = ctx.alloc::<T>(n)?;
    if n > 0 {
        let offsets = slice_offsets(ctx.account(), indices, params.shape(), "params")?;
        let k = indices.shape().last().copied().unwrap_or(0);
        let slice = num_elements(&params.shape()[k..])?;
        let ps = params.as_slice::<T>()?;
        for &o in offsets.iter() {
            let o = o as usize;
            match ps.get(o..o + slice) {
                Some(part) => out.data.extend_from_slice(part),
                None => bail!("internal: GatherNd slice out of bounds"),
            }
        }
    }
    out.into_tensor(out_shape)
}

/// Refuses indices and updates for an empty target, as TensorFlow does.
fn check_nonempty_target(indices: &Tensor, target: &[usize], what: &str) -> Result<()> {
    if indices.num_elements() > 0 && num_elements(target)? == 0 {
        bail!("indices and updates given for {what} of shape {target:?}, which is empty");
    }
    Ok(())
}

/// The output shape `ScatterNd`'s `shape` input holds (named `arg`).
/// Shared with build-time inference.
pub(in crate::ops) fn scatter_shape(
    account: &Arc<MemoryAccount>,
    shape: &Tensor,
    arg: &str,
) -> Result<Vec<usize>> {
    if shape.rank() != 1 {
        bail!(
            "input '{arg}' must be a vector but has shape {:?}",
            shape.shape()
        );
    }
    let values = int_values_of(account, shape, arg)?;
    check_rank(values.len())?;
    let mut dims = alloc::with_room(values.len())?;
    for (d, &v) in values.iter().enumerate() {
        match usize::try_from(v) {
            Ok(v) => dims.push(v),
            Err(_) => bail!("{arg}[{d}] = {v} must be non-negative"),
        }
    }
    num_elements(&dims)?;
    Ok(dims)
}

pub(super) fn scatter_nd(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (indices, updates) = (ctx.input(0), ctx.input(1));
    ctx.same_dtype(0, 2)?;
    let target = scatter_shape(ctx.account(), ctx.input(2), "shape")?;
    check_updates(indices.shape(), updates.shape(), &target, "shape")?;
    check_nonempty_target(indices, &target, "shape")?;
    let out = with_numeric_dtype!(updates.dtype(), T => {
        let n = num_elements(&target)?;
        let mut out = ctx.alloc::<T>(n)?;
        alloc::fill_within(&mut out.data, n, T::default());
        scatter::<T>(ctx, &mut out.data, &target, indices, updates, T::accumulate)?;
        out.into_tensor(target)?
    }, bool => return Err(ctx.unsupported_dtype(1)));
    Ok(outputs([out]))
}

/// Writes each slice of `updates` into `out` (of shape `target`) at its
/// row's offset with `combine(old, update)`.
fn scatter<T: Element>(
    ctx: &OpContext<'_>,
    out: &mut [T],
    target: &[usize],
    indices: &Tensor,
    updates: &Tensor,
    combine: fn(T, T) -> T,
) -> Result<()> {
    let what = ctx.arg_name(if ctx.op() == "ScatterNd" { 2 } else { 0 });
    let k = indices.shape().last().copied().unwrap_or(0);
    let slice = num_elements(target.get(k..).unwrap_or(&[]))?;
    if slice == 0 {
        return Ok(());
    }
    let offsets = slice_offsets(ctx.account(), indices, target, what)?;
    let us = updates.as_slice::<T>()?;
    for (&o, part) in offsets.iter().zip(us.chunks(slice)) {
        let o = o as usize;
        let Some(dst) = out.get_mut(o..o + slice) else {
            bail!("internal: scatter slice out of bounds");
        };
        for (d, &u) in dst.iter_mut().zip(part) {
            *d = combine(*d, u);
        }
    }
    Ok(())
}

/// `TensorScatterUpdate` and `TensorScatterAdd`'s shared checks.
fn tensor_scatter_operands(ctx: &OpContext<'_>) -> Result<DataType> {
    let dtype = ctx.same_dtype(0, 2)?;
    let (tensor, indices, updates) = (ctx.input(0), ctx.input(1), ctx.input(2));
    check_updates(indices.shape(), updates.shape(), tensor.shape(), "tensor")?;
    check_nonempty_target(indices, tensor.shape(), "tensor")?;
    // The index dtype, before any value is read.
    int_dtype(ctx, 1)?;
    Ok(dtype)
}

fn int_dtype(ctx: &OpContext<'_>, i: usize) -> Result<DataType> {
    ctx.expect_dtype(i, &[DataType::Int32, DataType::Int64])
}

fn copy_of<T: Element>(ctx: &OpContext<'_>, t: &Tensor) -> Result<crate::tensor::Allocation<T>> {
    let xs = t.as_slice::<T>()?;
    let mut out = ctx.alloc::<T>(xs.len())?;
    out.data.extend_from_slice(xs);
    Ok(out)
}

pub(super) fn tensor_scatter_update(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let dtype = tensor_scatter_operands(ctx)?;
    let tensor = ctx.input(0);
    let out = with_dtype!(dtype, T => {
        let mut out = copy_of::<T>(ctx, tensor)?;
        scatter::<T>(ctx, &mut out.data, tensor.shape(), ctx.input(1), ctx.input(2), |_, u| u)?;
        out.into_tensor(alloc::copied(tensor.shape())?)?
    });
    Ok(outputs([out]))
}

pub(super) fn tensor_scatter_add(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let dtype = tensor_scatter_operands(ctx)?;
    let tensor = ctx.input(0);
    let out = with_numeric_dtype!(dtype, T => {
        let mut out = copy_of::<T>(ctx, tensor)?;
        scatter::<T>(ctx, &mut out.data, tensor.shape(), ctx.input(1), ctx.input(2), T::accumulate)?;
        out.into_tensor(alloc::copied(tensor.shape())?)?
    }, bool => return Err(ctx.unsupported_dtype(0)));
    Ok(outputs([out]))
}
