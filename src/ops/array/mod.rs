//! Array ops of TensorFlow's `array_ops`: padding (`Pad`, `PadV2`,
//! `MirrorPad`), reordering (`ReverseV2`, `Roll`), `Where`, and indexing by
//! coordinates (`GatherNd`, `ScatterNd`, `TensorScatterUpdate`,
//! `TensorScatterAdd`).
//!
//! Files: `remap` (every op whose output element `i` is an input element
//! chosen per dimension, or a fill value: padding, reversal, rolling),
//! `nonzero` (`Where`) and `nd` (the coordinate ops). Sizes that come from
//! values (paddings, indices) are checked before anything is allocated, and
//! an empty output is made without reading them further.

mod nd;
mod nonzero;
mod remap;

use super::infer::array as infer;
use super::{OpDef, Registry};

pub(super) use nd::{check_updates, gather_nd_shape, scatter_shape};
pub(super) use remap::{check_constant_values, check_paddings_shape, mirror_offset, padded};

pub(super) fn register(r: &mut Registry) {
    const OUT: &[&str] = &["output"];
    r.add([
        OpDef::new("Pad", &["input", "paddings"], OUT, remap::pad).infer(infer::pad),
        OpDef::new(
            "PadV2",
            &["input", "paddings", "constant_values"],
            OUT,
            remap::pad_v2,
        )
        .infer(infer::pad_v2),
        OpDef::new("MirrorPad", &["input", "paddings"], OUT, remap::mirror_pad)
            .attrs(&["mode"])
            .infer(infer::mirror_pad),
        OpDef::new("ReverseV2", &["tensor", "axis"], OUT, remap::reverse)
            .infer(infer::same_as_first),
        OpDef::new("Roll", &["input", "shift", "axis"], OUT, remap::roll)
            .infer(infer::same_as_first),
        OpDef::new("Where", &["input"], &["index"], nonzero::where_true),
        OpDef::new("GatherNd", &["params", "indices"], OUT, nd::gather_nd).infer(infer::gather_nd),
        OpDef::new(
            "ScatterNd",
            &["indices", "updates", "shape"],
            OUT,
            nd::scatter_nd,
        )
        .infer(infer::scatter_nd),
        OpDef::new(
            "TensorScatterUpdate",
            &["tensor", "indices", "updates"],
            OUT,
            nd::tensor_scatter_update,
        )
        .infer(infer::tensor_scatter),
        OpDef::new(
            "TensorScatterAdd",
            &["tensor", "indices", "updates"],
            OUT,
            nd::tensor_scatter_add,
        )
        .infer(infer::tensor_scatter_add),
    ]);
}
