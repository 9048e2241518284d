//! The ops of convolutional networks, and the rest of TensorFlow Java's
//! `tf.nn` group that the older `nn` module lacks: convolutions (`conv`,
//! `depthwise`), pooling (`pool`), with the window geometry they share
//! (`window`), normalization (`norm`), top-k (`topk`), three activations
//! (`activations`), image resizing (`image`, `tf.image`), and their
//! build-time inference (`infer`, kept beside them rather than in
//! `ops::infer`).
//!
//! `TopKV2` and `FusedBatchNormV3` have several outputs, so they run when
//! built even in an asynchronous session (only single-output ops are
//! queued) and have no inference.

mod activations;
mod conv;
mod depthwise;
mod image;
mod infer;
mod norm;
mod pool;
mod topk;
mod window;

use super::{OpDef, Registry};

const CONV_ATTRS: &[&str] = &[
    "strides",
    "use_cudnn_on_gpu",
    "padding",
    "explicit_paddings",
    "data_format",
    "dilations",
];

pub(super) fn register(r: &mut Registry) {
    r.add([
        OpDef::new("Conv2D", &["input", "filter"], &["output"], conv::conv2d)
            .attrs(CONV_ATTRS)
            .infer(infer::conv2d),
        OpDef::new("MaxPool", &["input"], &["output"], pool::max_pool)
            .attrs(&[
                "ksize",
                "strides",
                "padding",
                "explicit_paddings",
                "data_format",
            ])
            .infer(infer::max_pool),
        OpDef::new(
            "MaxPoolV2",
            &["input", "ksize", "strides"],
            &["output"],
            pool::max_pool_v2,
        )
        .attrs(&["padding", "data_format"])
        .infer(infer::max_pool_v2),
        OpDef::new("AvgPool", &["value"], &["output"], pool::avg_pool)
            .attrs(&["ksize", "strides", "padding", "data_format"])
            .infer(infer::avg_pool),
        OpDef::new(
            "TopKV2",
            &["input", "k"],
            &["values", "indices"],
            topk::top_k,
        )
        .attrs(&["sorted", "Tk", "index_type"]),
        OpDef::new(
            "InTopKV2",
            &["predictions", "targets", "k"],
            &["precision"],
            topk::in_top_k,
        )
        .infer(infer::in_top_k),
        OpDef::new(
            "LeakyRelu",
            &["features"],
            &["activations"],
            activations::leaky_relu,
        )
        .attrs(&["alpha"])
        .infer(activations::infer_leaky_relu),
        OpDef::new(
            "Softplus",
            &["features"],
            &["activations"],
            activations::softplus,
        )
        .infer(activations::infer_float),
        OpDef::new(
            "Softsign",
            &["features"],
            &["activations"],
            activations::softsign,
        )
        .infer(activations::infer_float),
        OpDef::new(
            "DepthwiseConv2dNative",
            &["input", "filter"],
            &["output"],
            depthwise::depthwise,
        )
        .attrs(&[
            "strides",
            "padding",
            "explicit_paddings",
            "data_format",
            "dilations",
        ])
        .infer(infer::depthwise),
        OpDef::new(
            "FusedBatchNormV3",
            &["x", "scale", "offset", "mean", "variance"],
            &[
                "y",
                "batch_mean",
                "batch_variance",
                "reserve_space_1",
                "reserve_space_2",
                "reserve_space_3",
            ],
            norm::fused_batch_norm,
        )
        .attrs(&[
            "U",
            "epsilon",
            "exponential_avg_factor",
            "data_format",
            "is_training",
        ]),
        OpDef::new("LRN", &["input"], &["output"], norm::lrn)
            .attrs(&["depth_radius", "bias", "alpha", "beta"])
            .infer(infer::lrn),
        OpDef::new(
            "ResizeBilinear",
            &["images", "size"],
            &["resized_images"],
            image::resize_bilinear,
        )
        .attrs(&["align_corners", "half_pixel_centers"])
        .infer(infer::resize_bilinear),
        OpDef::new(
            "ResizeNearestNeighbor",
            &["images", "size"],
            &["resized_images"],
            image::resize_nearest,
        )
        .attrs(&["align_corners", "half_pixel_centers"])
        .infer(infer::resize_nearest),
    ]);
}
