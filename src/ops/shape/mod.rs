//! Shape ops, one file per family, the way TensorFlow groups its array
//! kernels: `views` (Identity, Reshape, ExpandDims, Squeeze, Shape, Size,
//! Rank: no copy), `fills` (Const, Fill, ZerosLike, OnesLike, Range),
//! `selection` (Slice, StridedSlice, Split, Unpack, GatherV2, most of them
//! through the strided copy in `strided`), `joining` (ConcatV2, Pack, Tile,
//! BroadcastTo), `one_hot` and `transpose`. This file registers them and
//! holds the argument helpers they share.
//!
//! Every size that comes from a user is checked before anything is allocated,
//! and loops over outer dimensions run only when the output is non-empty, so
//! their trip counts are bounded by the output's (accounted) size.

mod fills;
mod joining;
#[cfg(test)]
mod limit_tests;
mod one_hot;
mod selection;
mod strided;
mod transpose;
mod views;

use super::{OpContext, OpDef, Registry, infer, int_values};
use crate::bail;
use crate::error::{Error, Result};
use crate::scratch::Scratch;
use crate::tensor::{self, Tensor};

use fills::{constant, fill, ones_like, range, zeros_like};
use joining::{broadcast_to, concat, pack, tile};
/// `Reshape`'s output shape, for build-time inference.
pub(super) use joining::{concat_shape, list_dtype, pack_same_shape, packed_shape};
use one_hot::one_hot;
use selection::{gather, slice, split, strided_slice, unpack};
use transpose::transpose;
pub(super) use transpose::{check_perm_shape, permutation};
pub(super) use views::{check_expand_axis, expanded, reshaped, squeezed};
use views::{expand_dims, identity, rank, reshape, shape, size, squeeze};

pub(super) use crate::alloc::MAX_RANK;

pub(super) fn register(r: &mut Registry) {
    const OUT: &[&str] = &["output"];
    let same = infer::elementwise::same_as_input;
    r.add([
        // A STRING constant is a constant too.
        OpDef::new("Const", &[], OUT, constant)
            .attrs(&["value", "dtype"])
            .strings(),
        OpDef::new("Identity", &["input"], OUT, identity).infer(same),
        OpDef::new("StopGradient", &["input"], OUT, identity).infer(same),
        OpDef::new("Reshape", &["tensor", "shape"], OUT, reshape).infer(infer::shape::reshape),
        OpDef::new("Shape", &["input"], OUT, shape).attrs(&["out_type"]),
        OpDef::new("Size", &["input"], OUT, size).attrs(&["out_type"]),
        OpDef::new("Rank", &["input"], OUT, rank),
        OpDef::new("Fill", &["dims", "value"], OUT, fill),
        OpDef::new("ZerosLike", &["x"], &["y"], zeros_like).infer(same),
        OpDef::new("OnesLike", &["x"], &["y"], ones_like).infer(same),
        OpDef::new("ExpandDims", &["input", "axis"], OUT, expand_dims)
            .infer(infer::shape::expand_dims),
        OpDef::new("Squeeze", &["input"], OUT, squeeze)
            .attrs(&["squeeze_dims"])
            .infer(infer::shape::squeeze),
        OpDef::new("Slice", &["input", "begin", "size"], OUT, slice),
        OpDef::new(
            "StridedSlice",
            &["input", "begin", "end", "strides"],
            OUT,
            strided_slice,
        )
        .attrs(&[
            "begin_mask",
            "end_mask",
            "ellipsis_mask",
            "new_axis_mask",
            "shrink_axis_mask",
        ]),
        OpDef::new("ConcatV2", &["values[]", "axis"], OUT, concat).infer(infer::lists::concat),
        OpDef::new("Pack", &["values[]"], OUT, pack)
            .attrs(&["axis"])
            .infer(infer::lists::pack),
        OpDef::new("Unpack", &["value"], &["output[]"], unpack).attrs(&["num", "axis"]),
        OpDef::new("Split", &["split_dim", "value"], &["output[]"], split).attrs(&["num_split"]),
        OpDef::new("GatherV2", &["params", "indices", "axis"], OUT, gather).attrs(&["batch_dims"]),
        OpDef::new("Tile", &["input", "multiples"], OUT, tile),
        OpDef::new("BroadcastTo", &["input", "shape"], OUT, broadcast_to),
        OpDef::new(
            "OneHot",
            &["indices", "depth", "on_value", "off_value"],
            OUT,
            one_hot,
        )
        .attrs(&["axis"]),
        OpDef::new("Range", &["start", "limit", "delta"], OUT, range),
        OpDef::new("Transpose", &["x", "perm"], &["y"], transpose).infer(infer::shape::transpose),
    ]);
}

// ---------------------------------------------------------------------------
// Argument helpers

fn internal(what: &str) -> Error {
    Error::invalid(format!("internal: {what}"))
}

fn check_rank(rank: usize, what: &str) -> Result<()> {
    if rank > MAX_RANK {
        bail!("{what} would have rank {rank}, more than the maximum of {MAX_RANK}");
    }
    Ok(())
}

/// Input `i` as an integer scalar (rank 0, INT32 or INT64).
fn int_scalar(ctx: &OpContext<'_>, i: usize) -> Result<i64> {
    require_scalar(ctx, i)?;
    int_scalar_of(ctx.account(), ctx.input(i), ctx.arg_name(i))
}

/// The value of `t`, an integer scalar named `arg` (see [`check_scalar`]).
pub(super) fn int_scalar_of(
    account: &std::sync::Arc<crate::memory::MemoryAccount>,
    t: &Tensor,
    arg: &str,
) -> Result<i64> {
    super::int_values_of(account, t, arg)?
        .first()
        .copied()
        .ok_or_else(|| internal("scalar without a value"))
}

/// Input `i` as an integer vector (rank 1, INT32 or INT64).
fn int_vector(ctx: &OpContext<'_>, i: usize) -> Result<Scratch<i64>> {
    let t = ctx.input(i);
    if t.rank() != 1 {
        bail!(
            "input '{}' must be a vector but has shape {:?}",
            ctx.arg_name(i),
            t.shape()
        );
    }
    int_values(ctx, i)
}

/// Input `i` as the dimensions of a shape: a vector of non-negative values.
fn shape_arg(ctx: &OpContext<'_>, i: usize) -> Result<Vec<usize>> {
    let values = int_vector(ctx, i)?;
    check_rank(values.len(), "the output")?;
    let name = ctx.arg_name(i);
    let dims = values
        .iter()
        .enumerate()
        .map(|(d, &v)| {
            usize::try_from(v)
                .map_err(|_| Error::invalid(format!("{name}[{d}] = {v} must be non-negative")))
        })
        .collect::<Result<Vec<_>>>()?;
    tensor::num_elements(&dims)?;
    Ok(dims)
}

fn require_scalar<'a>(ctx: &OpContext<'a>, i: usize) -> Result<&'a Tensor> {
    let t = ctx.input(i);
    check_scalar(ctx.arg_name(i), t.shape())?;
    Ok(t)
}

/// Checks that the input named `arg`, of shape `shape`, is a scalar; shared
/// with build-time inference.
pub(super) fn check_scalar(arg: &str, shape: &[usize]) -> Result<()> {
    if !shape.is_empty() {
        bail!("input '{arg}' must be a scalar but has shape {shape:?}");
    }
    Ok(())
}

/// `count` elements starting at `offset`, or an internal error (never a panic).
fn chunk<T>(src: &[T], offset: usize, count: usize) -> Result<&[T]> {
    offset
        .checked_add(count)
        .and_then(|end| src.get(offset..end))
        .ok_or_else(|| internal("copy out of bounds"))
}
