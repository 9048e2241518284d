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

use super::{OpContext, Registry, int_values};
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

/// TensorFlow's limit on a tensor's rank (`TensorShape::MaxDimensions`).
pub(super) const MAX_RANK: usize = 254;

pub(super) fn register(r: &mut Registry) {
    r.define("Const", &[], &["value", "dtype"], constant);
    r.define("Identity", &["input"], &[], identity);
    r.define("StopGradient", &["input"], &[], identity);
    r.define("Reshape", &["tensor", "shape"], &[], reshape);
    r.define("Shape", &["input"], &["out_type"], shape);
    r.define("Size", &["input"], &["out_type"], size);
    r.define("Rank", &["input"], &[], rank);
    r.define("Fill", &["dims", "value"], &[], fill);
    r.define("ZerosLike", &["x"], &[], zeros_like);
    r.define("OnesLike", &["x"], &[], ones_like);
    r.define("ExpandDims", &["input", "axis"], &[], expand_dims);
    r.define("Squeeze", &["input"], &["squeeze_dims"], squeeze);
    r.define("Slice", &["input", "begin", "size"], &[], slice);
    r.define(
        "StridedSlice",
        &["input", "begin", "end", "strides"],
        &[
            "begin_mask",
            "end_mask",
            "ellipsis_mask",
            "new_axis_mask",
            "shrink_axis_mask",
        ],
        strided_slice,
    );
    r.define("ConcatV2", &["values[]", "axis"], &[], concat);
    r.define("Pack", &["values[]"], &["axis"], pack);
    r.define("Unpack", &["value"], &["num", "axis"], unpack);
    r.define("Split", &["split_dim", "value"], &["num_split"], split);
    r.define(
        "GatherV2",
        &["params", "indices", "axis"],
        &["batch_dims"],
        gather,
    );
    r.define("Tile", &["input", "multiples"], &[], tile);
    r.define("BroadcastTo", &["input", "shape"], &[], broadcast_to);
    r.define(
        "OneHot",
        &["indices", "depth", "on_value", "off_value"],
        &["axis"],
        one_hot,
    );
    r.define("Range", &["start", "limit", "delta"], &[], range);
    r.define("Transpose", &["x", "perm"], &[], transpose);
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
