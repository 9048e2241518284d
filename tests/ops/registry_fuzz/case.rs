//! The cases the registry fuzz generates: the tensor, attribute, arity and
//! handle specs, the naming conventions attributes follow, and the proptest
//! strategies that produce them.

use proptest::prelude::*;

use eagerflow::DataType;

use super::OP_NAMES;

/// Attribute names real ops use, offered to every op.
pub const ATTR_NAMES: &[&str] = &[
    "keep_dims",
    "transpose_a",
    "transpose_b",
    "adj_x",
    "adj_y",
    "axis",
    "DstT",
    "SrcT",
    "Truncate",
    "T",
    "num",
    "N",
    "exclusive",
    "reverse",
    "output_type",
    "out_type",
    "seed",
    "seed2",
    "dtype",
    "squeeze_dims",
    "begin_mask",
    "end_mask",
    "ellipsis_mask",
    "new_axis_mask",
    "shrink_axis_mask",
    "num_split",
    "depth",
    "batch_dims",
    "incompatible_shape_error",
    "value",
    "shape",
    "strides",
    "padding",
    "ksize",
    "data_format",
    "dilations",
    "sorted",
    "alpha",
    "bogus_attr",
];

const STRINGS: &[&str] = &["", "SAME", "VALID", "EXPLICIT", "NHWC", "NCHW", "x"];

/// How a tensor's shape and dtype relate to the first input's, so that
/// binary and ternary ops often get compatible operands.
#[derive(Clone, Copy, Debug)]
pub enum Like {
    /// The first input's shape and dtype.
    First,
    /// The first input's shape, its own dtype.
    FirstShape,
    /// A scalar of its own dtype.
    Scalar,
    /// INT32 (INT64 if its dtype is) of rank 0 or 1 with small values: the
    /// axes, sizes and shapes many ops take as inputs.
    Index,
    /// Its own shape and dtype.
    Own,
}

#[derive(Clone, Debug)]
pub struct TensorSpec {
    pub dtype: DataType,
    pub shape: Vec<usize>,
    pub like: Like,
    /// Element `i` is `table[picks[i % len]]` for the dtype's table below.
    pub picks: Vec<u8>,
}

#[derive(Clone, Debug)]
pub enum AttrSpec {
    Int(i64),
    Ints(Vec<i64>),
    Float(f32),
    Floats(Vec<f32>),
    Bool(bool),
    Bools(Vec<bool>),
    Type(DataType),
    Shape(Option<Vec<i64>>),
    Str(&'static str),
    Tensor(TensorSpec),
}

/// Where an attribute's name comes from.
#[derive(Clone, Copy, Debug)]
pub enum AttrName {
    /// One the op declares (skipped for ops that declare none).
    Declared(usize),
    /// One of `ATTR_NAMES`, most of them unknown to any given op.
    Pool(usize),
}

/// Values of the kinds TensorFlow's naming conventions suggest (see
/// [`conventional_kind`]), used for most attributes so that ops get past
/// their attribute checks; the rest get `spec`, of any kind.
#[derive(Clone, Debug)]
pub struct Conventional {
    pub int: i64,
    pub ints: Vec<i64>,
    pub float: f32,
    pub flag: bool,
    pub dtype: DataType,
    pub string: &'static str,
    pub shape: Option<Vec<i64>>,
}

#[derive(Clone, Debug)]
pub struct AttrPick {
    pub name: AttrName,
    pub conform: bool,
    pub conventional: Conventional,
    pub spec: AttrSpec,
}

#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Int,
    Ints,
    Float,
    Bool,
    Type,
    Str,
    Shape,
}

/// The kind TensorFlow's attribute names conventionally have, if known.
pub fn conventional_kind(name: &str) -> Option<Kind> {
    const BOOLS: &[&str] = &[
        "keep_dims",
        "exclusive",
        "reverse",
        "sorted",
        "Truncate",
        "incompatible_shape_error",
        "use_cudnn_on_gpu",
        "validate_shape",
        "align_corners",
        "half_pixel_centers",
    ];
    const INTS: &[&str] = &[
        "squeeze_dims",
        "strides",
        "ksize",
        "dilations",
        "explicit_paddings",
    ];
    const INT: &[&str] = &[
        "axis",
        "num",
        "N",
        "depth",
        "seed",
        "seed2",
        "num_split",
        "batch_dims",
    ];
    let capital_t = name.starts_with('T')
        && name
            .chars()
            .nth(1)
            .is_none_or(|c| c.is_ascii_uppercase() || c.is_ascii_lowercase());
    if BOOLS.contains(&name) || name.starts_with("transpose_") || name.starts_with("adj_") {
        Some(Kind::Bool)
    } else if INTS.contains(&name) {
        Some(Kind::Ints)
    } else if INT.contains(&name) || name.ends_with("_mask") {
        Some(Kind::Int)
    } else if name == "dtype" || name.ends_with("type") || name.ends_with('T') || capital_t {
        Some(Kind::Type)
    } else if name == "padding" || name == "data_format" {
        Some(Kind::Str)
    } else if name == "shape" {
        Some(Kind::Shape)
    } else if name == "alpha" || name == "epsilon" {
        Some(Kind::Float)
    } else {
        None
    }
}

/// Whether the inputs follow the op's declared signature.
#[derive(Clone, Debug)]
pub enum Arity {
    /// Each declared argument gets one tensor, or a list of `lens[i] % 4`;
    /// `explicit` sends list lengths even when every argument is single.
    Signature { lens: Vec<u8>, explicit: bool },
    /// The generated tensors as they are, with arbitrary list lengths.
    Random { lens: Option<Vec<i32>> },
}

/// Handles that are not live tensors, which the session must refuse.
#[derive(Clone, Copy, Debug)]
pub enum Bogus {
    None,
    /// The first input is replaced by a freed handle.
    Stale,
    /// The first input is replaced by an arbitrary number.
    Forged(u64),
    /// The op index is out of range.
    Index(usize),
}

#[derive(Clone, Debug)]
pub struct Case {
    pub op: usize,
    pub tensors: Vec<TensorSpec>,
    pub arity: Arity,
    pub attrs: Vec<AttrPick>,
    pub bogus: Bogus,
}

fn dtype() -> impl Strategy<Value = DataType> {
    prop::sample::select(DataType::ALL.to_vec())
}

fn tensor_spec() -> impl Strategy<Value = TensorSpec> {
    let like = prop_oneof![
        2 => Just(Like::First),
        2 => Just(Like::FirstShape),
        1 => Just(Like::Scalar),
        2 => Just(Like::Index),
        3 => Just(Like::Own),
    ];
    (
        dtype(),
        prop::collection::vec(0usize..=5, 0..=4),
        like,
        prop::collection::vec(any::<u8>(), 1..6),
    )
        .prop_map(|(dtype, shape, like, picks)| TensorSpec {
            dtype,
            shape,
            like,
            picks,
        })
}

/// Mostly small integers (valid axes, sizes, counts), sometimes extremes.
fn int_value() -> impl Strategy<Value = i64> {
    prop_oneof![
        6 => -3i64..8,
        2 => prop::sample::select(vec![
            i64::MAX,
            i64::MIN,
            i64::from(i32::MAX),
            i64::from(i32::MIN),
            1 << 31,
            1 << 40,
            -(1 << 40),
            1 << 62,
        ]),
        1 => any::<i64>(),
    ]
}

fn float_value() -> impl Strategy<Value = f32> {
    prop_oneof![
        3 => -2.0f32..2.0,
        1 => prop::sample::select(vec![0.0, -0.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1e30]),
    ]
}

fn attr_spec() -> impl Strategy<Value = AttrSpec> {
    prop_oneof![
        4 => int_value().prop_map(AttrSpec::Int),
        2 => prop::collection::vec(int_value(), 0..6).prop_map(AttrSpec::Ints),
        1 => float_value().prop_map(AttrSpec::Float),
        1 => prop::collection::vec(float_value(), 0..4).prop_map(AttrSpec::Floats),
        3 => any::<bool>().prop_map(AttrSpec::Bool),
        1 => prop::collection::vec(any::<bool>(), 0..4).prop_map(AttrSpec::Bools),
        3 => dtype().prop_map(AttrSpec::Type),
        1 => prop::option::of(prop::collection::vec(int_value(), 0..5)).prop_map(AttrSpec::Shape),
        1 => prop::sample::select(STRINGS.to_vec()).prop_map(AttrSpec::Str),
        1 => tensor_spec().prop_map(AttrSpec::Tensor),
    ]
}

fn attr_pick() -> impl Strategy<Value = AttrPick> {
    let name = prop_oneof![
        5 => any::<usize>().prop_map(AttrName::Declared),
        1 => any::<usize>().prop_map(AttrName::Pool),
    ];
    let conventional = (
        int_value(),
        prop::collection::vec(int_value(), 0..5),
        float_value(),
        any::<bool>(),
        dtype(),
        prop::sample::select(STRINGS.to_vec()),
        prop::option::of(prop::collection::vec(int_value(), 0..5)),
    )
        .prop_map(
            |(int, ints, float, flag, dtype, string, shape)| Conventional {
                int,
                ints,
                float,
                flag,
                dtype,
                string,
                shape,
            },
        );
    (name, prop::bool::weighted(0.8), conventional, attr_spec()).prop_map(
        |(name, conform, conventional, spec)| AttrPick {
            name,
            conform,
            conventional,
            spec,
        },
    )
}

fn arity() -> impl Strategy<Value = Arity> {
    prop_oneof![
        4 => (prop::collection::vec(any::<u8>(), 4), any::<bool>())
            .prop_map(|(lens, explicit)| Arity::Signature { lens, explicit }),
        1 => prop::option::of(prop::collection::vec(-2i32..6, 0..5))
            .prop_map(|lens| Arity::Random { lens }),
    ]
}

fn bogus() -> impl Strategy<Value = Bogus> {
    prop_oneof![
        40 => Just(Bogus::None),
        1 => Just(Bogus::Stale),
        1 => any::<u64>().prop_map(Bogus::Forged),
        1 => prop::sample::select(vec![usize::MAX, 1 << 20, 100_000]).prop_map(Bogus::Index),
    ]
}

pub fn case() -> impl Strategy<Value = Case> {
    (
        0..OP_NAMES.len(),
        prop_oneof![
            1 => prop::collection::vec(tensor_spec(), 0),
            6 => prop::collection::vec(tensor_spec(), 1..=4),
        ],
        arity(),
        prop::collection::vec(attr_pick(), 0..4),
        bogus(),
    )
        .prop_map(|(op, tensors, arity, attrs, bogus)| Case {
            op,
            tensors,
            arity,
            attrs,
            bogus,
        })
}
