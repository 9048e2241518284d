//! The ops of convolutional networks, and the rest of TensorFlow Java's
//! `tf.nn` group that the older `nn` module lacks: convolutions (`conv`),
//! pooling (`pool`), with the window geometry they share (`window`), top-k
//! (`topk`), three activations (`activations`), and their build-time
//! inference (`infer`, kept beside them rather than in `ops::infer`).
//!
//! `TopKV2` has two outputs, so it runs when built even in an asynchronous
//! session (only single-output ops are queued) and has no inference.

mod activations;
mod conv;
mod infer;
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
    ]);
}
