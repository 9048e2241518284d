//! Property test over the whole op registry: any op name (every registered
//! name and alias, plus unknown ones), any small inputs, list lengths and
//! attributes must give `Ok` or `Err`, never a panic; an `Ok` must hand back
//! well-formed tensors, and freeing everything must leave no byte accounted.
//!
//! The test knows no op by name: it reads names and signatures from
//! `Registry::global()`, so ops added later are covered without changes.
//! Half the cases are shaped after the op's declared inputs (and offer its
//! declared attribute names) so that kernels get past arity checks; the rest
//! are arbitrary. Each case runs in a session limited to 1 MiB, so an input
//! value that asks for a huge output is refused by the accounting instead of
//! allocating it.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::LazyLock;

use proptest::prelude::*;

use eagerflow::{
    AttrValue, Attrs, DataType, Error, FreeReason, Registry, Session, SessionOptions, Tensor,
};

use crate::common::Env;

/// Per-case memory cap; inputs are at most 625 elements of 8 bytes.
const MAX_BYTES: u64 = 1 << 20;

/// Names no op answers to, to check that lookups fail cleanly.
const UNKNOWN_OPS: &[&str] = &["", "NoSuchOp", "addv2", "AddV2 ", "Add\0", "Ç", "MatMul3"];

/// Attribute names real ops use, offered to every op.
const ATTR_NAMES: &[&str] = &[
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

/// Every registered name and alias, sorted so that a case replays the same
/// way in any process, followed by the unknown names.
static OP_NAMES: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let mut names: Vec<&'static str> = Registry::global().names().collect();
    names.sort_unstable();
    names.extend(UNKNOWN_OPS);
    names
});

/// How a tensor's shape and dtype relate to the first input's, so that
/// binary and ternary ops often get compatible operands.
#[derive(Clone, Copy, Debug)]
enum Like {
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
struct TensorSpec {
    dtype: DataType,
    shape: Vec<usize>,
    like: Like,
    /// Element `i` is `table[picks[i % len]]` for the dtype's table below.
    picks: Vec<u8>,
}

#[derive(Clone, Debug)]
enum AttrSpec {
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
enum AttrName {
    /// One the op declares (skipped for ops that declare none).
    Declared(usize),
    /// One of `ATTR_NAMES`, most of them unknown to any given op.
    Pool(usize),
}

/// Values of the kinds TensorFlow's naming conventions suggest (see
/// [`conventional_kind`]), used for most attributes so that ops get past
/// their attribute checks; the rest get `spec`, of any kind.
#[derive(Clone, Debug)]
struct Conventional {
    int: i64,
    ints: Vec<i64>,
    float: f32,
    flag: bool,
    dtype: DataType,
    string: &'static str,
    shape: Option<Vec<i64>>,
}

#[derive(Clone, Debug)]
struct AttrPick {
    name: AttrName,
    conform: bool,
    conventional: Conventional,
    spec: AttrSpec,
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    Int,
    Ints,
    Float,
    Bool,
    Type,
    Str,
    Shape,
}

/// The kind TensorFlow's attribute names conventionally have, if known.
fn conventional_kind(name: &str) -> Option<Kind> {
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
enum Arity {
    /// Each declared argument gets one tensor, or a list of `lens[i] % 4`;
    /// `explicit` sends list lengths even when every argument is single.
    Signature { lens: Vec<u8>, explicit: bool },
    /// The generated tensors as they are, with arbitrary list lengths.
    Random { lens: Option<Vec<i32>> },
}

/// Handles that are not live tensors, which the session must refuse.
#[derive(Clone, Copy, Debug)]
enum Bogus {
    None,
    /// The first input is replaced by a freed handle.
    Stale,
    /// The first input is replaced by an arbitrary number.
    Forged(u64),
    /// The op index is out of range.
    Index(usize),
}

#[derive(Clone, Debug)]
struct Case {
    op: usize,
    tensors: Vec<TensorSpec>,
    arity: Arity,
    attrs: Vec<AttrPick>,
    bogus: Bogus,
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

fn case() -> impl Strategy<Value = Case> {
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

/// Interesting values per dtype; tensors cycle through picks of these.
/// `small` keeps integers to the first eight entries, all in -2..=5.
fn make_tensor(
    session: &Session,
    spec: &TensorSpec,
    shape: &[usize],
    dtype: DataType,
    small: bool,
) -> Tensor {
    let n: usize = shape.iter().product();
    let pick = |i: usize| usize::from(spec.picks[i % spec.picks.len()]);
    let account = session.account();
    let made = match dtype {
        DataType::Float => {
            const V: [f32; 12] = [
                0.0,
                1.0,
                -1.0,
                0.5,
                2.0,
                3.0,
                -0.0,
                f32::NAN,
                f32::INFINITY,
                f32::NEG_INFINITY,
                1e30,
                1e-40,
            ];
            let data: Vec<f32> = (0..n).map(|i| V[pick(i) % V.len()]).collect();
            Tensor::from_slice(account, shape, &data)
        }
        DataType::Double => {
            const V: [f64; 11] = [
                0.0,
                1.0,
                -1.0,
                0.5,
                2.0,
                4.0,
                -0.0,
                f64::NAN,
                f64::INFINITY,
                -1e300,
                5e-324,
            ];
            let data: Vec<f64> = (0..n).map(|i| V[pick(i) % V.len()]).collect();
            Tensor::from_slice(account, shape, &data)
        }
        DataType::Int32 => {
            const V: [i32; 14] = [
                0,
                1,
                2,
                3,
                -1,
                -2,
                4,
                5,
                0,
                1,
                i32::MAX,
                i32::MIN,
                1 << 20,
                -7,
            ];
            let lim = if small { 8 } else { V.len() };
            let data: Vec<i32> = (0..n).map(|i| V[pick(i) % lim]).collect();
            Tensor::from_slice(account, shape, &data)
        }
        DataType::Int64 => {
            const V: [i64; 13] = [0, 1, 2, 3, -1, -2, 4, 5, 1, i64::MAX, i64::MIN, 1 << 40, -9];
            let lim = if small { 8 } else { V.len() };
            let data: Vec<i64> = (0..n).map(|i| V[pick(i) % lim]).collect();
            Tensor::from_slice(account, shape, &data)
        }
        DataType::UInt8 => {
            const V: [u8; 9] = [0, 1, 2, 3, 4, 5, 128, 255, 1];
            let data: Vec<u8> = (0..n).map(|i| V[pick(i) % V.len()]).collect();
            Tensor::from_slice(account, shape, &data)
        }
        DataType::Bool => {
            let data: Vec<bool> = (0..n).map(|i| pick(i) % 2 == 1).collect();
            Tensor::from_slice(account, shape, &data)
        }
    };
    made.unwrap()
}

/// The shape and dtype a spec stands for, and whether its integers are
/// kept small; `first` is the first input's, if this is not the first.
fn resolve(
    spec: &TensorSpec,
    first: Option<&(Vec<usize>, DataType, bool)>,
) -> (Vec<usize>, DataType, bool) {
    match (spec.like, first) {
        (Like::First, Some(f)) => f.clone(),
        (Like::FirstShape, Some((shape, _, _))) => (shape.clone(), spec.dtype, false),
        (Like::Scalar, _) => (Vec::new(), spec.dtype, false),
        (Like::Index, _) => {
            let shape = match spec.shape.first() {
                Some(&n) if spec.shape.len() % 2 == 1 => vec![n],
                _ => Vec::new(),
            };
            let dtype = match spec.dtype {
                DataType::Int64 => DataType::Int64,
                _ => DataType::Int32,
            };
            (shape, dtype, true)
        }
        _ => (spec.shape.clone(), spec.dtype, false),
    }
}

/// The case's input tensors, stored in the session.
fn make_inputs(session: &Session, specs: &[TensorSpec]) -> Vec<u64> {
    let first = specs.first().map(|s| resolve(s, None));
    specs
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            let (shape, dtype, small) = match (i, &first) {
                (0, Some(f)) => f.clone(),
                _ => resolve(spec, first.as_ref()),
            };
            let t = make_tensor(session, spec, &shape, dtype, small);
            session.insert(t).unwrap()
        })
        .collect()
}

fn make_attrs(session: &Session, case: &Case, declared: &[&'static str]) -> Attrs {
    let mut attrs = Attrs::new();
    for pick in &case.attrs {
        let name = match pick.name {
            AttrName::Declared(i) if !declared.is_empty() => declared[i % declared.len()],
            AttrName::Declared(_) => continue,
            AttrName::Pool(i) => ATTR_NAMES[i % ATTR_NAMES.len()],
        };
        let c = &pick.conventional;
        let kind = conventional_kind(name).filter(|_| pick.conform);
        let value = match (kind, &pick.spec) {
            (Some(Kind::Int), _) => AttrValue::Int(c.int),
            (Some(Kind::Ints), _) => AttrValue::Ints(c.ints.clone()),
            (Some(Kind::Float), _) => AttrValue::Float(c.float),
            (Some(Kind::Bool), _) => AttrValue::Bool(c.flag),
            (Some(Kind::Type), _) => AttrValue::Type(c.dtype),
            (Some(Kind::Str), _) => AttrValue::Str(c.string.to_string()),
            (Some(Kind::Shape), _) => AttrValue::Shape(c.shape.clone()),
            (None, AttrSpec::Int(v)) => AttrValue::Int(*v),
            (None, AttrSpec::Ints(v)) => AttrValue::Ints(v.clone()),
            (None, AttrSpec::Float(v)) => AttrValue::Float(*v),
            (None, AttrSpec::Floats(v)) => AttrValue::Floats(v.clone()),
            (None, AttrSpec::Bool(v)) => AttrValue::Bool(*v),
            (None, AttrSpec::Bools(v)) => AttrValue::Bools(v.clone()),
            (None, AttrSpec::Type(v)) => AttrValue::Type(*v),
            (None, AttrSpec::Shape(v)) => AttrValue::Shape(v.clone()),
            (None, AttrSpec::Str(v)) => AttrValue::Str((*v).to_string()),
            (None, AttrSpec::Tensor(t)) => {
                AttrValue::Tensor(make_tensor(session, t, &t.shape, t.dtype, false))
            }
        };
        attrs.set(name, value);
    }
    attrs
}

/// The handles and list lengths to send: shaped after `declared` inputs, or
/// as generated. Shaped cases reuse tensors cyclically when the op wants more.
fn arrange(arity: &Arity, declared: &[&'static str], made: &[u64]) -> (Vec<u64>, Option<Vec<i32>>) {
    match arity {
        Arity::Random { lens } => (made.to_vec(), lens.clone()),
        Arity::Signature { lens, explicit } => {
            let mut handles = Vec::new();
            let mut list_lens = Vec::new();
            let mut any_list = false;
            for (i, arg) in declared.iter().enumerate() {
                let count = if arg.ends_with("[]") {
                    any_list = true;
                    let n = lens.get(i).map_or(2, |&l| usize::from(l % 4));
                    list_lens.push(n as i32);
                    n
                } else {
                    list_lens.push(-1);
                    1
                };
                for _ in 0..count {
                    if !made.is_empty() {
                        handles.push(made[handles.len() % made.len()]);
                    }
                }
            }
            let send = any_list || *explicit;
            (handles, send.then_some(list_lens))
        }
    }
}

/// Runs one case; `Err` describes a broken property.
fn check(case: &Case) -> Result<(), String> {
    let name = OP_NAMES[case.op];
    let registry = Registry::global();
    let index = match registry.lookup(name) {
        Ok(index) => index,
        Err(e) => {
            if !UNKNOWN_OPS.contains(&name) {
                return Err(format!("registered name {name:?} did not resolve: {e}"));
            }
            return Ok(());
        }
    };
    if UNKNOWN_OPS.contains(&name) {
        return Err(format!("unknown name {name:?} resolved to op {index}"));
    }
    let def = registry.def(index).map_err(|e| e.to_string())?;

    let env = Env::with_options(SessionOptions {
        max_bytes: Some(MAX_BYTES),
        ..SessionOptions::default()
    });
    let session = &env.s;
    let made = make_inputs(session, &case.tensors);
    let attrs = make_attrs(session, case, def.attrs);
    let (mut handles, lens) = arrange(&case.arity, def.inputs, &made);
    let mut index = index;
    match case.bogus {
        Bogus::None => {}
        Bogus::Stale => {
            let t = Tensor::scalar(session.account(), 1f32).unwrap();
            let h = session.insert(t).unwrap();
            session.free(h, FreeReason::Explicit);
            match handles.first_mut() {
                Some(first) => *first = h,
                None => handles.push(h),
            }
        }
        Bogus::Forged(h) => match handles.first_mut() {
            Some(first) => *first = h,
            None => handles.push(h),
        },
        Bogus::Index(i) => index = i,
    }

    let outcome = catch_unwind(AssertUnwindSafe(|| {
        session.execute(index, &handles, lens.as_deref(), &attrs)
    }));
    let result = match outcome {
        Ok(result) => result,
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("(no message)");
            return Err(format!("{name} panicked: {msg}"));
        }
    };
    match result {
        Ok(outputs) => {
            if matches!(case.bogus, Bogus::Index(_)) {
                return Err(format!("op index {index} out of range was accepted"));
            }
            for h in &outputs {
                let t = session
                    .tensor(*h)
                    .map_err(|e| format!("{name}: output handle does not resolve: {e}"))?;
                let want = t.shape().iter().try_fold(1usize, |a, &d| a.checked_mul(d));
                if want != Some(t.num_elements()) || t.storage().dtype() != t.dtype() {
                    return Err(format!(
                        "{name}: output {:?} has {} {} elements",
                        t.shape(),
                        t.num_elements(),
                        t.storage().dtype()
                    ));
                }
            }
            for h in outputs {
                session.free(h, FreeReason::Explicit);
            }
        }
        Err(Error::MemoryExhausted { .. }) => {}
        Err(e) => {
            let msg = e.to_string();
            if !matches!(case.bogus, Bogus::Index(_)) && !msg.starts_with(def.name) {
                return Err(format!("{name}: error does not name the op: {msg}"));
            }
        }
    }

    drop(attrs);
    session.free_many(&made, FreeReason::Explicit);
    let st = session.stats();
    if st.live_bytes != 0 || st.live_tensors != 0 {
        return Err(format!(
            "{name}: {} bytes in {} tensors left after freeing everything",
            st.live_bytes, st.live_tensors
        ));
    }
    Ok(())
}

proptest! {
    // No regression files: tests/ has no lib.rs for proptest to place them by,
    // and a failure prints its shrunk case.
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(10_000)
    })]

    #[test]
    fn any_op_with_any_inputs_returns_ok_or_err(case in case()) {
        if let Err(broken) = check(&case) {
            prop_assert!(false, "{}", broken);
        }
    }
}

/// Every registered op, once per dtype, with well-formed operands shaped
/// after its signature: a deterministic floor under the random cases.
#[test]
fn every_registered_op_runs_without_panicking() {
    let registered = OP_NAMES.len() - UNKNOWN_OPS.len();
    assert!(registered > 0, "the registry is empty");
    for op in 0..registered {
        for dtype in DataType::ALL {
            for shape in [vec![], vec![2, 3]] {
                let spec = TensorSpec {
                    dtype,
                    shape,
                    like: Like::First,
                    picks: vec![1, 2, 3, 4],
                };
                let case = Case {
                    op,
                    tensors: vec![spec; 3],
                    arity: Arity::Signature {
                        lens: vec![2; 4],
                        explicit: false,
                    },
                    attrs: Vec::new(),
                    bogus: Bogus::None,
                };
                if let Err(broken) = check(&case) {
                    panic!("{broken}");
                }
            }
        }
    }
}
