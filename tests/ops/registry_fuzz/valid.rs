//! Cases meant to reach the kernels: one data tensor, every other argument
//! what its declared name conventionally takes (an axis, a permutation, a
//! shape, a mask ...) or, now and then, something else related to the data;
//! only declared attributes, with conventional values; live handles. The
//! fuzz still knows no op by name: argument and attribute names are
//! TensorFlow's conventions, read from the registry's signatures.

use proptest::prelude::*;

use eagerflow::DataType;

use super::OP_NAMES;
use super::case::{Arity, AttrName, Bogus, Case, Like, TensorSpec, attr_pick, big_one_in, dtype};

/// What an input argument named `name` conventionally takes; `choice`
/// decides between the readings of an ambiguous name.
pub fn conventional_input(name: &str, choice: u8) -> Like {
    match name.trim_end_matches("[]") {
        "axis" | "dimension" | "split_dim" => Like::Axis,
        "perm" => Like::Perm,
        "shape" | "dims" => Like::ShapeOf,
        "multiples" => Like::Repeats,
        "begin" => Like::Begin,
        "size" => Like::Rest,
        "end" => Like::End,
        "strides" => Like::Repeats,
        "depth" => Like::Count,
        "condition" => Like::Mask,
        "indices" => Like::Indices,
        "bias" => Like::LastAxis,
        "clip_value_min" | "clip_value_max" | "on_value" | "off_value" => Like::ScalarLikeFirst,
        "start" | "limit" | "delta" => Like::ScalarLikeFirst,
        // Fill's `value` is a scalar, Split's and Unpack's a tensor.
        "value" if choice.is_multiple_of(2) => Like::ScalarLikeFirst,
        _ => Like::First,
    }
}

/// The data tensor: rank 1 to 4, sizes 1 to 5 (grown for large cases),
/// mostly floating point, which most ops take.
fn data() -> impl Strategy<Value = TensorSpec> {
    let dtype = prop_oneof![
        4 => Just(DataType::Float),
        2 => Just(DataType::Double),
        1 => Just(DataType::Int32),
        1 => Just(DataType::Int64),
        1 => Just(DataType::UInt8),
        1 => Just(DataType::Bool),
    ];
    (
        dtype,
        prop::collection::vec(1usize..=5, 1..=4),
        prop::collection::vec(any::<u8>(), 1..6),
    )
        .prop_map(|(dtype, shape, picks)| TensorSpec {
            dtype,
            shape,
            like: Like::Own,
            picks,
        })
}

/// Any other argument: mostly what its name says, sometimes another tensor
/// related to the data.
fn argument() -> impl Strategy<Value = TensorSpec> {
    let like = prop_oneof![
        12 => Just(Like::ByName),
        2 => Just(Like::First),
        1 => Just(Like::FirstShape),
        1 => Just(Like::Scalar),
        1 => Just(Like::Axis),
        1 => Just(Like::Axes),
        1 => Just(Like::Perm),
        1 => Just(Like::Count),
    ];
    (dtype(), like, prop::collection::vec(any::<u8>(), 1..6)).prop_map(|(dtype, like, picks)| {
        TensorSpec {
            dtype,
            shape: vec![2],
            like,
            picks,
        }
    })
}

/// Cases shaped to get past the kernels' checks; one in 16 is large.
pub fn valid_case() -> impl Strategy<Value = Case> {
    // Every declared attribute (ops declare at most five), with a value of
    // its conventional kind, so that required ones are always set.
    let attrs = prop::collection::vec(attr_pick(), 5).prop_map(|picks| {
        picks
            .into_iter()
            .enumerate()
            .map(|(i, mut p)| {
                p.name = AttrName::Declared(i);
                p.conform = true;
                p
            })
            .collect::<Vec<_>>()
    });
    (
        0..OP_NAMES.len(),
        data(),
        prop::collection::vec(argument(), 3),
        prop::collection::vec(any::<u8>(), 4),
        attrs,
        big_one_in(16),
    )
        .prop_map(|(op, data, rest, lens, attrs, big)| Case {
            op,
            tensors: std::iter::once(data).chain(rest).collect(),
            arity: Arity::PerArgument { lens },
            attrs,
            bogus: Bogus::None,
            big,
        })
}
