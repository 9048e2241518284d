//! Array ops of TensorFlow's `array_ops`: padding (`Pad`, `PadV2`,
//! `MirrorPad`), reordering (`ReverseV2`, `Roll`), `Where`, indexing by
//! coordinates (`GatherNd`, `ScatterNd`, `TensorScatterUpdate`,
//! `TensorScatterAdd`), `Unique`, the batch-of-matrices ops
//! (`MatrixBandPart`, and `MatrixDiag` and `MatrixDiagPart` in versions 1 to
//! 3), `LinSpace`, and `SpaceToDepth`/`DepthToSpace`.
//!
//! Files: `remap` (every op whose output element `i` is an input element
//! chosen per dimension, or a fill value: padding, reversal, rolling),
//! `nonzero` (`Where`), `nd` (the coordinate ops), `unique`, `matrix` (band
//! part and the first versions of the diagonal ops), `diagonals` (their V2
//! and V3), `linspace` and `blocks` (space and depth). Sizes that come from
//! values (paddings, indices) are checked before anything is allocated, and
//! an empty output is made without reading them further.

mod blocks;
mod diagonals;
mod linspace;
mod matrix;
mod nd;
mod nonzero;
mod remap;
mod unique;

use super::infer::array as infer;
use super::{OpDef, Registry};

pub(super) use blocks::{depth_to_space_shape, space_to_depth_shape};
pub(super) use matrix::{diag_part_shape, diag_shape, matrix_dims};
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
        OpDef::new("Unique", &["x"], &["y", "idx"], unique::unique).attrs(&["out_idx"]),
        OpDef::new("UniqueV2", &["x", "axis"], &["y", "idx"], unique::unique_v2)
            .attrs(&["out_idx"]),
        OpDef::new(
            "MatrixBandPart",
            &["input", "num_lower", "num_upper"],
            &["band"],
            matrix::band_part,
        )
        .infer(infer::band_part),
        OpDef::new("MatrixDiag", &["diagonal"], OUT, matrix::matrix_diag).infer(infer::matrix_diag),
        OpDef::new(
            "MatrixDiagPart",
            &["input"],
            &["diagonal"],
            matrix::matrix_diag_part,
        )
        .infer(infer::matrix_diag_part),
        OpDef::new(
            "MatrixDiagV2",
            &["diagonal", "k", "num_rows", "num_cols", "padding_value"],
            OUT,
            diagonals::matrix_diag_v2,
        ),
        OpDef::new(
            "MatrixDiagV3",
            &["diagonal", "k", "num_rows", "num_cols", "padding_value"],
            OUT,
            diagonals::matrix_diag_v3,
        )
        .attrs(&["align"]),
        OpDef::new(
            "MatrixDiagPartV2",
            &["input", "k", "padding_value"],
            &["diagonal"],
            diagonals::matrix_diag_part_v2,
        ),
        OpDef::new(
            "MatrixDiagPartV3",
            &["input", "k", "padding_value"],
            &["diagonal"],
            diagonals::matrix_diag_part_v3,
        )
        .attrs(&["align"]),
        OpDef::new(
            "LinSpace",
            &["start", "stop", "num"],
            OUT,
            linspace::lin_space,
        ),
        OpDef::new("SpaceToDepth", &["input"], OUT, blocks::space_to_depth)
            .attrs(&["block_size", "data_format"])
            .infer(infer::space_to_depth),
        OpDef::new("DepthToSpace", &["input"], OUT, blocks::depth_to_space)
            .attrs(&["block_size", "data_format"])
            .infer(infer::depth_to_space),
    ]);
}
