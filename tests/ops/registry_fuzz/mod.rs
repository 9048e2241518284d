//! Property test over the whole op registry: any op name (every registered
//! name and alias, plus unknown ones), any small inputs, list lengths and
//! attributes must give `Ok` or `Err`, never a panic; an `Ok` must hand back
//! well-formed tensors, and freeing everything must leave no byte accounted.
//!
//! The test knows no op by name: it reads names and signatures from
//! `Registry::global()`, so ops added later are covered without changes.
//! Half the cases are shaped after the op's declared inputs (and offer its
//! declared attribute names) so that kernels get past arity checks; the rest
//! are arbitrary. Each case runs in a session limited to 1 MiB (64 MiB for
//! the large cases), so an input value that asks for a huge output is refused
//! by the accounting instead of allocating it.
//!
//! Buffers kernels write index-wise are poisoned (see `poison`): every `Ok`
//! must come out the same under two poison patterns and hold no poisoned
//! float, so an element a kernel forgets to write fails the case. A second
//! property (`valid_inputs_leave_no_element_unwritten`) draws inputs related
//! to the first one (its shape, axes, permutations) so that most cases reach
//! the kernels; one case in 16 there, and one in 128 in the first property,
//! grows its first input to 2^18 to 2^20 elements: pooled buffer sizes and
//! the kernels' multi-threaded paths.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::LazyLock;

use proptest::prelude::*;

use eagerflow::{
    AttrValue, Attrs, DataType, Error, FreeReason, Registry, Session, SessionOptions, Tensor,
};

use crate::common::Env;

mod case;
mod poison;
mod valid;

use case::{
    ATTR_NAMES, Arity, AttrName, AttrSpec, Bogus, Case, Kind, Like, TensorSpec, case,
    conventional_kind,
};
use valid::{conventional_input, valid_case};

/// Per-case memory cap; inputs are at most 625 elements of 8 bytes.
const MAX_BYTES: u64 = 1 << 20;

/// Per-case memory cap of the large cases (inputs of up to 2^20 elements).
const BIG_MAX_BYTES: u64 = 64 << 20;

/// Names no op answers to, to check that lookups fail cleanly.
const UNKNOWN_OPS: &[&str] = &["", "NoSuchOp", "addv2", "AddV2 ", "Add\0", "Ç", "MatMul3"];

/// Every registered name and alias, sorted so that a case replays the same
/// way in any process, followed by the unknown names.
static OP_NAMES: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let mut names: Vec<&'static str> = Registry::global().names().collect();
    names.sort_unstable();
    names.extend(UNKNOWN_OPS);
    names
});

/// Interesting values per dtype; tensors cycle through picks of these.
/// `small` keeps integers to the first eight entries, all in -2..=5.
fn make_tensor(
    session: &Session,
    spec: &TensorSpec,
    shape: &[usize],
    dtype: DataType,
    small: bool,
) -> Tensor {
    make_tensor_of(
        session,
        spec,
        &Resolved::plain(shape.to_vec(), dtype, small),
    )
}

/// What a spec stands for once the first input is known: shape, dtype,
/// whether integers stay small, and exact integer values if it has them.
#[derive(Clone, Debug, PartialEq)]
struct Resolved {
    shape: Vec<usize>,
    dtype: DataType,
    small: bool,
    values: Option<Vec<i64>>,
}

impl Resolved {
    fn plain(shape: Vec<usize>, dtype: DataType, small: bool) -> Resolved {
        Resolved {
            shape,
            dtype,
            small,
            values: None,
        }
    }

    /// An INT32 tensor of `shape` holding `values`.
    fn ints(shape: Vec<usize>, values: Vec<i64>) -> Resolved {
        Resolved {
            shape,
            dtype: DataType::Int32,
            small: true,
            values: Some(values),
        }
    }
}

/// `n` elements `f(i)`, periodic in `period` (the picks cycle): built by
/// repeating one period, which keeps large inputs cheap in debug builds.
fn periodic<T: Copy>(n: usize, period: usize, f: impl Fn(usize) -> T) -> Vec<T> {
    let period = period.clamp(1, n.max(1));
    let one: Vec<T> = (0..period).map(f).collect();
    let mut all = one.repeat(n.div_ceil(period));
    all.truncate(n);
    all
}

fn make_tensor_of(session: &Session, spec: &TensorSpec, r: &Resolved) -> Tensor {
    let (shape, dtype, small) = (&r.shape[..], r.dtype, r.small);
    if let Some(values) = &r.values {
        let data: Vec<i32> = values.iter().map(|&v| v as i32).collect();
        return Tensor::from_slice(session.account(), shape, &data).unwrap();
    }
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
            let data: Vec<f32> = periodic(n, spec.picks.len(), |i| V[pick(i) % V.len()]);
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
            let data: Vec<f64> = periodic(n, spec.picks.len(), |i| V[pick(i) % V.len()]);
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
            let data: Vec<i32> = periodic(n, spec.picks.len(), |i| V[pick(i) % lim]);
            Tensor::from_slice(account, shape, &data)
        }
        DataType::Int64 => {
            const V: [i64; 13] = [0, 1, 2, 3, -1, -2, 4, 5, 1, i64::MAX, i64::MIN, 1 << 40, -9];
            let lim = if small { 8 } else { V.len() };
            let data: Vec<i64> = periodic(n, spec.picks.len(), |i| V[pick(i) % lim]);
            Tensor::from_slice(account, shape, &data)
        }
        DataType::UInt8 => {
            const V: [u8; 9] = [0, 1, 2, 3, 4, 5, 128, 255, 1];
            let data: Vec<u8> = periodic(n, spec.picks.len(), |i| V[pick(i) % V.len()]);
            Tensor::from_slice(account, shape, &data)
        }
        DataType::Bool => {
            let data: Vec<bool> = periodic(n, spec.picks.len(), |i| pick(i) % 2 == 1);
            Tensor::from_slice(account, shape, &data)
        }
        DataType::UInt16 => {
            const V: [u16; 9] = [0, 1, 2, 3, 4, 5, 32768, 65535, 1];
            let data: Vec<u16> = periodic(n, spec.picks.len(), |i| V[pick(i) % V.len()]);
            Tensor::from_slice(account, shape, &data)
        }
        DataType::Half | DataType::BFloat16 => {
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
                65504.0,
                1e-7,
            ];
            let data: Vec<f32> = periodic(n, spec.picks.len(), |i| V[pick(i) % V.len()]);
            if dtype == DataType::Half {
                let h: Vec<eagerflow::f16> =
                    data.iter().map(|&v| eagerflow::f16::from_f32(v)).collect();
                Tensor::from_slice(account, shape, &h)
            } else {
                let h: Vec<eagerflow::bf16> =
                    data.iter().map(|&v| eagerflow::bf16::from_f32(v)).collect();
                Tensor::from_slice(account, shape, &h)
            }
        }
        // Drawn from `DataType::ALL`, which has no STRING (tests/ops/strings.rs covers it).
        DataType::String => panic!("the fuzzer makes no STRING tensors"),
    };
    made.unwrap()
}

/// What `spec` stands for; `first` is the first input's, if this is not the
/// first. Relative kinds (`Axis`, `Perm`, ...) take their values from it;
/// `ByName` reads the declared argument's `name`.
fn resolve(spec: &TensorSpec, first: Option<&Resolved>, name: Option<&str>) -> Resolved {
    let pick = |i: usize| usize::from(spec.picks[i % spec.picks.len()]);
    let rank = first.map_or(0, |f| f.shape.len());
    let dims: &[usize] = first.map_or(&[], |f| &f.shape);
    let per_axis = |f: &dyn Fn(usize, usize) -> i64| -> Resolved {
        Resolved::ints(
            vec![rank],
            dims.iter().enumerate().map(|(i, &d)| f(i, d)).collect(),
        )
    };
    match (spec.like, first) {
        (Like::ByName, _) => {
            let like = name.map_or(Like::First, |n| conventional_input(n, spec.picks[0]));
            let by_name = TensorSpec {
                like,
                ..spec.clone()
            };
            resolve(&by_name, first, None)
        }
        (Like::Begin, _) => per_axis(&|i, d| (pick(i) % d.max(1)) as i64),
        (Like::End, _) => per_axis(&|_, d| d as i64),
        (Like::Rest, _) => per_axis(&|_, _| -1),
        (Like::Repeats, _) => per_axis(&|i, _| 1 + (pick(i) % 3) as i64),
        (Like::Indices, _) => {
            let bound = dims.iter().copied().min().unwrap_or(1).max(1);
            Resolved::ints(vec![3], (0..3).map(|i| (pick(i) % bound) as i64).collect())
        }
        (Like::Mask, Some(f)) => Resolved::plain(f.shape.clone(), DataType::Bool, false),
        (Like::LastAxis, Some(f)) => {
            Resolved::plain(vec![f.shape.last().copied().unwrap_or(1)], f.dtype, false)
        }
        (Like::ScalarLikeFirst, Some(f)) => Resolved::plain(Vec::new(), f.dtype, f.small),
        (Like::First, Some(f)) => f.clone(),
        (Like::FirstShape, Some(f)) => Resolved::plain(f.shape.clone(), spec.dtype, false),
        (Like::Scalar, _) => Resolved::plain(Vec::new(), spec.dtype, false),
        (Like::Index, _) => {
            let shape = match spec.shape.first() {
                Some(&n) if spec.shape.len() % 2 == 1 => vec![n],
                _ => Vec::new(),
            };
            let dtype = match spec.dtype {
                DataType::Int64 => DataType::Int64,
                _ => DataType::Int32,
            };
            Resolved::plain(shape, dtype, true)
        }
        (Like::Axis, _) => {
            let r = rank.max(1) as i64;
            Resolved::ints(Vec::new(), vec![(pick(0) as i64 % (2 * r)) - r])
        }
        (Like::Axes, _) => {
            let k = if rank == 0 { 0 } else { 1 + pick(0) % rank };
            let axes = (0..k)
                .map(|i| ((pick(1) + i) % rank.max(1)) as i64)
                .map(|a| if pick(2) % 2 == 1 { a - rank as i64 } else { a })
                .collect();
            Resolved::ints(vec![k], axes)
        }
        (Like::Perm, _) => {
            let mut perm: Vec<i64> = (0..rank as i64).collect();
            perm.rotate_left(pick(0) % rank.max(1));
            if pick(1) % 2 == 1 {
                perm.reverse();
            }
            Resolved::ints(vec![rank], perm)
        }
        (Like::ShapeOf, Some(f)) => {
            let mut dims: Vec<i64> = f.shape.iter().map(|&d| d as i64).collect();
            if rank > 0 && pick(0) % 6 == 0 {
                dims[pick(1) % rank] = -1;
            }
            Resolved::ints(vec![rank], dims)
        }
        (Like::Count, _) => Resolved::ints(Vec::new(), vec![1 + (pick(0) % 3) as i64]),
        _ => Resolved::plain(spec.shape.clone(), spec.dtype, false),
    }
}

/// `shape` with its first dimension grown so that it holds at least `min`
/// elements (a scalar becomes a vector); an empty shape stays empty.
fn scaled(shape: &[usize], min: usize) -> Vec<usize> {
    let rest: usize = shape.iter().skip(1).product();
    match shape.first() {
        None => vec![min],
        Some(_) if rest == 0 => shape.to_vec(),
        Some(&d) => {
            let mut s = shape.to_vec();
            s[0] = d.max(min.div_ceil(rest));
            s
        }
    }
}

/// The case's input tensors, stored in the session; with `big`, the first
/// input (and every input shaped after it) holds at least that many elements.
/// `PerArgument` cases make one per declared argument (in `declared`), the
/// first tensor's spec being the data the others relate to.
fn make_inputs(session: &Session, case: &Case, declared: &[&str]) -> Vec<u64> {
    let specs = &case.tensors;
    let first = specs.first().map(|s| {
        let mut r = resolve(s, None, None);
        if let Some(min) = case.big {
            r.shape = scaled(&r.shape, min);
            r.values = None;
        }
        r
    });
    let put = |spec: &TensorSpec, r: &Resolved| session.insert(make_tensor_of(session, spec, r));
    if let (Arity::PerArgument { .. }, Some(base)) = (&case.arity, &first) {
        return declared
            .iter()
            .enumerate()
            .map(|(i, &name)| {
                let spec = &specs[i.min(specs.len() - 1)];
                let spec = TensorSpec {
                    like: if i == 0 { Like::ByName } else { spec.like },
                    ..spec.clone()
                };
                put(&spec, &resolve(&spec, Some(base), Some(name))).unwrap()
            })
            .collect();
    }
    specs
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            let r = match (i, &first) {
                (0, Some(f)) => f.clone(),
                _ => resolve(spec, first.as_ref(), None),
            };
            put(spec, &r).unwrap()
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
        Arity::PerArgument { lens } => {
            let mut handles = Vec::new();
            let mut list_lens = Vec::new();
            for (i, (arg, &h)) in declared.iter().zip(made).enumerate() {
                if arg.ends_with("[]") {
                    let n = 1 + usize::from(lens.get(i).copied().unwrap_or(0) % 3);
                    handles.extend(std::iter::repeat_n(h, n));
                    list_lens.push(n as i32);
                } else {
                    handles.push(h);
                    list_lens.push(-1);
                }
            }
            let any_list = list_lens.iter().any(|&n| n >= 0);
            (handles, any_list.then_some(list_lens))
        }
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
        max_bytes: Some(if case.big.is_some() {
            BIG_MAX_BYTES
        } else {
            MAX_BYTES
        }),
        ..SessionOptions::default()
    });
    let session = &env.s;
    let made = make_inputs(session, case, def.inputs);
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

    let run = |pattern: u8| -> Result<Result<poison::Bits, Error>, String> {
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            poison::with_pattern(pattern, || {
                session.execute(index, &handles, lens.as_deref(), &attrs)
            })
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
        let outputs = match result {
            Ok(outputs) => outputs,
            Err(e) => return Ok(Err(e)),
        };
        let mut bits = Vec::new();
        for (i, h) in outputs.iter().enumerate() {
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
            if let Some(at) = poison::poisoned_at(&t, pattern) {
                return Err(format!(
                    "{name}: element {at} of output {i} (shape {:?}) was never written: \
                     it holds its buffer's poison",
                    t.shape()
                ));
            }
            bits.push(poison::bits(&t));
        }
        session.free_many(&outputs, FreeReason::Explicit);
        Ok(Ok(bits))
    };

    let first = run(poison::PATTERNS[0])?;
    match &first {
        Ok(outputs) => {
            if matches!(case.bogus, Bogus::Index(_)) {
                return Err(format!("op index {index} out of range was accepted"));
            }
            poison::same_under_other_poison(name, outputs, &run)?;
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

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(2_000)
    })]

    #[test]
    fn valid_inputs_leave_no_element_unwritten(case in valid_case()) {
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
                    big: None,
                };
                if let Err(broken) = check(&case) {
                    panic!("{broken}");
                }
            }
        }
    }
}
