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

mod case;

use case::{
    ATTR_NAMES, Arity, AttrName, AttrSpec, Bogus, Case, Kind, Like, TensorSpec, case,
    conventional_kind,
};

/// Per-case memory cap; inputs are at most 625 elements of 8 bytes.
const MAX_BYTES: u64 = 1 << 20;

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
