//! Copies that assemble one tensor from several, or from repeats of one:
//! `ConcatV2`, `Pack`, `Tile`, and `BroadcastTo` (a tiling of its input).

use std::sync::Arc;

use super::{check_rank, chunk, int_scalar, int_vector, internal, shape_arg};
use crate::alloc;
use crate::bail;
use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::ops::{KernelOutputs, OpContext, normalize_axis, outputs};
use crate::tensor::{self, Tensor};
use crate::with_dtype;

/// The first tensor of a non-empty list whose tensors share one dtype.
fn list_head(values: &[Arc<Tensor>]) -> Result<&Tensor> {
    list_dtype(values.iter().map(|v| Some(v.dtype())))?;
    values
        .first()
        .map(|t| &**t)
        .ok_or_else(|| internal("an empty list passed the check"))
}

// The list checks of `ConcatV2` and `Pack`, shared with build-time inference.

/// The dtype of a list whose items have `dtypes` (`None` for an unknown
/// one): an error if it is empty or two dtypes differ; `Ok(None)` if an
/// unknown dtype comes before either is decided.
pub(in crate::ops) fn list_dtype(
    mut dtypes: impl Iterator<Item = Option<DataType>>,
) -> Result<Option<DataType>> {
    let Some(first) = dtypes.next() else {
        bail!("values must hold at least one tensor");
    };
    let Some(first) = first else {
        return Ok(None);
    };
    for (i, d) in dtypes.enumerate() {
        match d {
            None => return Ok(None),
            Some(d) if d != first => {
                bail!(
                    "values[{}] has dtype {d} but values[0] has dtype {first}",
                    i + 1
                )
            }
            Some(_) => {}
        }
    }
    Ok(Some(first))
}

/// The axis and output shape of `ConcatV2` of tensors of `shapes` (`None`
/// for an unknown one) along `axis`; `Ok(None)` if an unknown shape comes
/// before the result is decided.
pub(in crate::ops) fn concat_shape<'s>(
    mut shapes: impl Iterator<Item = Option<&'s [usize]>>,
    axis: i64,
) -> Result<Option<(usize, Vec<usize>)>> {
    let Some(first) = shapes.next().flatten() else {
        return Ok(None);
    };
    let rank = first.len();
    if rank == 0 {
        bail!("cannot concatenate scalars (values[0] has shape []); use Pack");
    }
    let axis = normalize_axis(axis, rank, "axis")?;
    let mut out_shape = alloc::copied(first)?;
    for (i, v) in std::iter::once(Some(first)).chain(shapes).enumerate() {
        let Some(v) = v else {
            return Ok(None);
        };
        let matches = v.len() == rank
            && v.iter()
                .zip(first)
                .enumerate()
                .all(|(d, (a, b))| d == axis || a == b);
        if !matches {
            bail!(
                "values[{i}] has shape {v:?}, which does not match values[0]'s shape {first:?} \
                 outside dimension {axis}"
            );
        }
        if i > 0 {
            out_shape[axis] = out_shape[axis]
                .checked_add(v[axis])
                .ok_or_else(|| internal("concatenated size overflow"))?;
        }
    }
    Ok(Some((axis, out_shape)))
}

/// Checks that `values[i]`, of shape `s`, has `Pack`'s common shape `first`.
pub(in crate::ops) fn pack_same_shape(i: usize, first: &[usize], s: &[usize]) -> Result<()> {
    if s != first {
        bail!("values[{i}] has shape {s:?} but values[0] has shape {first:?}; all must match");
    }
    Ok(())
}

/// The axis (attribute `axis`) and output shape of `Pack` of `n` tensors
/// of shape `first`.
pub(in crate::ops) fn packed_shape(
    first: &[usize],
    n: usize,
    attrs: &crate::ops::Attrs,
) -> Result<(usize, Vec<usize>)> {
    let rank = first.len();
    check_rank(rank + 1, "the output")?;
    let axis = normalize_axis(attrs.int("axis", 0)?, rank + 1, "axis")?;
    let mut out_shape = alloc::copied(first)?;
    out_shape.insert(axis, n);
    Ok((axis, out_shape))
}

pub(super) fn concat(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let values = ctx.list(0);
    let first = list_head(values)?;
    let axis = int_scalar(ctx, 1)?;
    let (axis, out_shape) = concat_shape(values.iter().map(|v| Some(v.shape())), axis)?
        .ok_or_else(|| internal("a shape of the list is unknown"))?;
    if values.len() == 1 {
        return Ok(outputs([first.clone()]));
    }
    let outer = tensor::num_elements(&first.shape()[..axis])?;
    let inner = tensor::num_elements(&first.shape()[axis + 1..])?;
    let blocks = values
        .iter()
        .map(|v| v.shape()[axis].checked_mul(inner))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| internal("block size overflow"))?;
    Ok(outputs([interleave(
        ctx, values, &blocks, outer, out_shape,
    )?]))
}

/// For each of `outer` steps, block `i` of each input `i` in turn: the copy
/// behind ConcatV2 and Pack.
fn interleave(
    ctx: &OpContext<'_>,
    values: &[Arc<Tensor>],
    blocks: &[usize],
    outer: usize,
    shape: Vec<usize>,
) -> Result<Tensor> {
    let dtype = values.first().map_or(DataType::Float, |v| v.dtype());
    with_dtype!(dtype, T => {
        let parts = values
            .iter()
            .map(|v| v.as_slice::<T>())
            .collect::<Result<Vec<_>>>()?;
        let n = tensor::num_elements(&shape)?;
        let mut out = ctx.alloc::<T>(n)?;
        // outer * sum(blocks) == n, so a non-empty output bounds the loop.
        if n > 0 {
            for o in 0..outer {
                for (src, &b) in parts.iter().zip(blocks) {
                    out.data.extend_from_slice(chunk(src, o * b, b)?);
                }
            }
        }
        out.into_tensor(shape)
    })
}

pub(super) fn pack(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let values = ctx.list(0);
    let first = list_head(values)?;
    for (i, v) in values.iter().enumerate() {
        pack_same_shape(i, first.shape(), v.shape())?;
    }
    let (axis, out_shape) = packed_shape(first.shape(), values.len(), ctx.attrs)?;
    let outer = tensor::num_elements(&first.shape()[..axis])?;
    let block = tensor::num_elements(&first.shape()[axis..])?;
    let blocks = alloc::filled(values.len(), block)?;
    Ok(outputs([interleave(
        ctx, values, &blocks, outer, out_shape,
    )?]))
}

pub(super) fn tile(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let input = ctx.input(0);
    let multiples = int_vector(ctx, 1)?;
    let shape = input.shape();
    if multiples.len() != shape.len() {
        bail!(
            "multiples has {} entries but input has shape {shape:?}; one per dimension is needed",
            multiples.len()
        );
    }
    let mut reps = alloc::with_room(shape.len())?;
    let mut out_shape = alloc::with_room(shape.len())?;
    for (d, (&m, &s)) in multiples.iter().zip(shape).enumerate() {
        let m = usize::try_from(m)
            .map_err(|_| Error::invalid(format!("multiples[{d}] = {m} must be non-negative")))?;
        out_shape.push(s.checked_mul(m).ok_or_else(|| {
            Error::invalid(format!(
                "tiling shape {shape:?} by {multiples:?} has too many elements"
            ))
        })?);
        reps.push(m);
    }
    if reps.iter().all(|&m| m == 1) {
        return Ok(outputs([input.clone()]));
    }
    Ok(outputs([tile_copy(ctx, input, shape, &reps, out_shape)?]))
}

/// `input` (viewed as `shape`) repeated `reps[d]` times along each axis `d`.
fn tile_copy(
    ctx: &OpContext<'_>,
    input: &Tensor,
    shape: &[usize],
    reps: &[usize],
    out_shape: Vec<usize>,
) -> Result<Tensor> {
    with_dtype!(input.dtype(), T => tile_typed::<T>(ctx, input.as_slice()?, shape, reps, out_shape))
}

fn tile_typed<T: Element>(
    ctx: &OpContext<'_>,
    src: &[T],
    shape: &[usize],
    reps: &[usize],
    out_shape: Vec<usize>,
) -> Result<Tensor> {
    let n = tensor::num_elements(&out_shape)?;
    let mut out = ctx.alloc::<T>(n)?;
    if n == 0 {
        return out.into_tensor(out_shape);
    }
    let (Some((&row, dims)), Some((&row_reps, dim_reps))) = (shape.split_last(), reps.split_last())
    else {
        // A scalar: nothing to repeat.
        out.data.extend_from_slice(src);
        return out.into_tensor(out_shape);
    };
    // Walk the input's rows in order, writing each row `row_reps` times.
    // When an axis has gone through its whole extent once, the block written
    // since it started is its first copy: append the other copies of it.
    let mut idx = alloc::filled(dims.len(), 0usize)?;
    let mut starts = alloc::filled(dims.len(), 0usize)?;
    let mut offset = 0usize;
    'rows: loop {
        let r = chunk(src, offset, row)?;
        for _ in 0..row_reps {
            out.data.extend_from_slice(r);
        }
        offset += row;
        let mut d = dims.len();
        loop {
            if d == 0 {
                break 'rows;
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < dims[d] {
                break;
            }
            idx[d] = 0;
            let block = starts[d]..out.data.len();
            for _ in 1..dim_reps[d] {
                out.data.extend_from_within(block.clone());
            }
        }
        let len = out.data.len();
        for s in &mut starts[d + 1..] {
            *s = len;
        }
    }
    out.into_tensor(out_shape)
}

pub(super) fn broadcast_to(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let input = ctx.input(0);
    let target = shape_arg(ctx, 1)?;
    let shape = input.shape();
    if target == shape {
        return Ok(outputs([input.clone()]));
    }
    let cannot = || {
        Error::invalid(format!(
            "cannot broadcast a tensor of shape {shape:?} to shape {target:?}"
        ))
    };
    let lead = target.len().checked_sub(shape.len()).ok_or_else(cannot)?;
    // The input's shape padded with leading ones, and how often to repeat each axis.
    let mut padded = alloc::filled(lead, 1usize)?;
    padded.extend_from_slice(shape);
    let reps = padded
        .iter()
        .zip(&target)
        .map(|(&s, &t)| match s {
            _ if s == t => Ok(1),
            1 => Ok(t),
            _ => Err(cannot()),
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(outputs([tile_copy(ctx, input, &padded, &reps, target)?]))
}
