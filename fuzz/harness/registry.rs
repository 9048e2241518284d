//! One op call per input: an op by name (a registered name or alias mostly,
//! sometimes any string or any index), inputs laid out for its signature
//! (new tensors of any dtype and shape, reused, released, standalone or
//! forged handles), list lengths, and attributes encoded as Java encodes
//! them (`Attrs::decode`, including malformed encodings), run on a session
//! with a hard cap through one of the three paths Java uses (`execute`,
//! `execute_single`, `execute_tensors`). Checks: no panic; a failed call
//! changes no count and holds no byte; outputs read back; a closed session
//! holds nothing.

use std::sync::Arc;

use arbitrary::{Result, Unstructured};
use eagerflow::ops::TensorOwner;
use eagerflow::{Attrs, Registry, Session, SessionOptions, Tensor, sessions, wire};

use super::{check_closed, check_error, float, int, read, tensor};

/// Caps small enough that no generated call allocates much.
const LIMITS: [u64; 7] = [1, 64, 4096, 1 << 16, 1 << 20, 1 << 24, 1 << 26];

/// Strings attributes take, and some they do not.
const STRINGS: [&str; 8] = [
    "SAME",
    "VALID",
    "NHWC",
    "NCHW",
    "BYTE",
    "UTF8_CHAR",
    "",
    "ü",
];

pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let mut standalone = Vec::new();
    let _ = case(&mut u, &mut standalone);
    let table = Session::standalone();
    for h in standalone {
        table.free(h, eagerflow::FreeReason::Explicit);
    }
}

fn case(u: &mut Unstructured<'_>, standalone: &mut Vec<u64>) -> Result<()> {
    let options = SessionOptions {
        max_bytes: Some(*u.choose(&LIMITS)?),
        gc_signals: u.arbitrary()?,
        gc_trigger_bytes: None,
    };
    let id = sessions::open(options).expect("a session opens");
    let session = sessions::lookup(id).expect("an open session is found");
    let result = call(u, &session, id, standalone);
    let stats = sessions::close(id).expect("an open session closes");
    check_closed(&stats, &session);
    result
}

/// The op: a listed name (sorted, so that an input replays the same op),
/// any string, or any index.
fn op(u: &mut Unstructured<'_>) -> Result<Option<usize>> {
    let registry = Registry::global();
    // The test-only ops (present when the replay runs with `testing`)
    // misbehave on purpose: an input must pick the same op in both builds.
    let usable = |i: usize| registry.def(i).map_or(true, |d| !d.test_only);
    Ok(match u.int_in_range(0..=31)? {
        0 => registry
            .lookup(&u.arbitrary::<String>()?)
            .ok()
            .filter(|&i| usable(i)),
        1 => Some(u.arbitrary::<u32>()? as usize).filter(|&i| usable(i)),
        _ => {
            let mut names: Vec<&str> = registry.names().collect();
            names.sort_unstable();
            Some(
                registry
                    .lookup(u.choose(&names)?)
                    .expect("a listed name resolves"),
            )
        }
    })
}

/// How an input reaches the op.
enum Input {
    Handle(u64),
    Standalone(u64),
}

fn call(
    u: &mut Unstructured<'_>,
    session: &Session,
    id: u64,
    standalone: &mut Vec<u64>,
) -> Result<()> {
    let Some(op) = op(u)? else {
        return Ok(());
    };
    let registry = Registry::global();
    let args = registry.def(op).map_or(&[][..], |d| d.inputs);
    // One count per argument (a list's from 0), or sometimes any layout.
    let mut lens: Vec<i32> = args
        .iter()
        .map(|a| {
            if a.ends_with("[]") {
                Ok(if u.ratio(1, 16)? {
                    u.int_in_range(5..=40)?
                } else {
                    u.int_in_range(0..=4)?
                })
            } else {
                Ok(-1)
            }
        })
        .collect::<Result<_>>()?;
    if u.ratio(1, 16)? {
        lens = (0..u.int_in_range(0..=5)?)
            .map(|_| Ok(int(u)? as i32 % 6))
            .collect::<Result<_>>()?;
    }
    let count: usize = lens
        .iter()
        .map(|&l| if l < 0 { 1 } else { l as usize })
        .sum();
    let mut inputs = Vec::new();
    for _ in 0..count.min(48) {
        inputs.push(input(u, session, standalone, &inputs)?);
    }
    let encoded = attributes(u, op, id, &inputs)?;
    let lens = (args.iter().any(|a| a.ends_with("[]")) || u.ratio(1, 8)?).then_some(lens);

    let before = settled(session);
    // As `lens_and_attrs` in src/jni/exports.rs.
    let attrs = Attrs::decode(&encoded, registry.attr_names(op), |owner, handle| {
        let t = match owner {
            TensorOwner::Standalone => Session::standalone().tensor(handle)?,
            TensorOwner::Caller => session.tensor(handle)?,
            TensorOwner::Session(other) => sessions::lookup(other)?.tensor(handle)?,
        };
        Ok((*t).clone())
    });
    let attrs = match attrs {
        Ok(a) => a,
        Err(e) => {
            check_error(&e);
            assert_eq!(settled(session), before);
            return Ok(());
        }
    };
    let mixed = inputs.iter().any(|i| matches!(i, Input::Standalone(_)));
    let outputs = match u.int_in_range(0..=7)? {
        _ if mixed => execute_tensors(session, op, &inputs, lens.as_deref(), &attrs),
        0 | 1 => execute_tensors(session, op, &inputs, lens.as_deref(), &attrs),
        2 | 3 if attrs.is_empty() => {
            let handles = handles(&inputs);
            let extra = scalar(u, session)?;
            session.execute_single(op, &handles, extra).map(|h| vec![h])
        }
        _ => session
            .execute(op, &handles(&inputs), lens.as_deref(), &attrs)
            .map(|h| h.to_vec()),
    };
    match outputs {
        Ok(outputs) => {
            for h in outputs {
                let t = session.tensor(h).expect("an output is live");
                read(&t);
                let (dtype, shape) = session.describe(h, true).expect("an output is described");
                assert_eq!((dtype, &shape[..]), (t.dtype(), t.shape()));
                if u.ratio(1, 2)? {
                    assert!(session.free(h, eagerflow::FreeReason::Explicit));
                }
            }
        }
        Err(e) => {
            check_error(&e);
            let after = settled(session);
            assert_eq!(after, before, "a failed call leaves nothing behind: {e}");
        }
    }
    Ok(())
}

fn handles(inputs: &[Input]) -> Vec<u64> {
    inputs
        .iter()
        .map(|i| match i {
            Input::Handle(h) | Input::Standalone(h) => *h,
        })
        .collect()
}

/// The mixed path (`executeMixed`): inputs resolved in their own tables.
fn execute_tensors(
    session: &Session,
    op: usize,
    inputs: &[Input],
    lens: Option<&[i32]>,
    attrs: &Attrs,
) -> eagerflow::Result<Vec<u64>> {
    let tensors = inputs
        .iter()
        .map(|i| match i {
            Input::Handle(h) => session.tensor(*h),
            Input::Standalone(h) => Session::standalone().tensor(*h),
        })
        .collect::<eagerflow::Result<Vec<Arc<Tensor>>>>()?;
    session
        .execute_tensors(op, &tensors, lens, attrs)
        .map(|h| h.to_vec())
}

/// The fast path's extra scalar (`executeWithScalar`), sometimes.
fn scalar(u: &mut Unstructured<'_>, session: &Session) -> Result<Option<Tensor>> {
    if !u.ratio(1, 3)? {
        return Ok(None);
    }
    let v = float(u)?;
    Ok(match u.int_in_range(0..=2)? {
        0 => Tensor::scalar(session.account(), v as f32).ok(),
        1 => Tensor::scalar(session.account(), v as i32).ok(),
        _ => Tensor::scalar(session.account(), v != 0.0).ok(),
    })
}

fn input(
    u: &mut Unstructured<'_>,
    session: &Session,
    standalone: &mut Vec<u64>,
    earlier: &[Input],
) -> Result<Input> {
    let fresh = |u: &mut Unstructured<'_>, table: &Session| -> Result<u64> {
        let t = match tensor(u, table.account())? {
            Some(Ok(t)) => t,
            // Refused (past the cap, or rank): the library said so; go on.
            Some(Err(e)) => {
                check_error(&e);
                Tensor::scalar(table.account(), 0f32).unwrap_or_else(|_| empty())
            }
            None => empty(),
        };
        Ok(table.insert(t).expect("an open table takes a tensor"))
    };
    Ok(match u.int_in_range(0..=15)? {
        0..=10 => Input::Handle(fresh(u, session)?),
        11 | 12 if !earlier.is_empty() => match u.choose(earlier)? {
            Input::Handle(h) => Input::Handle(*h),
            Input::Standalone(h) => Input::Standalone(*h),
        },
        13 => {
            let h = fresh(u, Session::standalone())?;
            standalone.push(h);
            Input::Standalone(h)
        }
        14 => {
            let h = fresh(u, session)?;
            session.free(h, eagerflow::FreeReason::Explicit);
            Input::Handle(h)
        }
        _ => Input::Handle(u.arbitrary()?),
    })
}

/// An empty FLOAT vector: needs no memory, so no cap refuses it.
fn empty() -> Tensor {
    let account = eagerflow::MemoryAccount::new(None);
    Tensor::from_slice::<f32>(&account, &[0], &[]).expect("an empty tensor")
}

/// Attributes in Java's flat encoding (`[name, kind, count, payload...]`),
/// mostly well formed, with names the op knows.
fn attributes(u: &mut Unstructured<'_>, op: usize, id: u64, inputs: &[Input]) -> Result<Vec<i64>> {
    let names = Registry::global().attr_names(op);
    let mut out = Vec::new();
    let n = if u.ratio(1, 3)? {
        0
    } else {
        u.int_in_range(1..=4)?
    };
    for _ in 0..n {
        let name = if !names.is_empty() && u.ratio(15, 16)? {
            u.int_in_range(0..=names.len() - 1)? as i64
        } else {
            int(u)?
        };
        let kind = if u.ratio(31, 32)? {
            u.int_in_range(0..=10)?
        } else {
            int(u)?
        };
        out.extend([name, kind]);
        payload(u, kind, id, inputs, &mut out)?;
    }
    if u.ratio(1, 32)? {
        for _ in 0..u.int_in_range(1..=6)? {
            out.push(int(u)?);
        }
    }
    Ok(out)
}

fn payload(
    u: &mut Unstructured<'_>,
    kind: i64,
    id: u64,
    inputs: &[Input],
    out: &mut Vec<i64>,
) -> Result<()> {
    let list = |u: &mut Unstructured<'_>,
                out: &mut Vec<i64>,
                f: &dyn Fn(&mut Unstructured<'_>) -> Result<i64>| {
        let n = u.int_in_range(0..=6)?;
        out.push(n as i64);
        for _ in 0..n {
            out.push(f(u)?);
        }
        Ok(())
    };
    match kind {
        wire::ATTR_INT => out.extend([1, int(u)?]),
        wire::ATTR_FLOAT => out.extend([1, i64::from((float(u)? as f32).to_bits())]),
        wire::ATTR_BOOL => out.extend([1, i64::from(u.arbitrary::<bool>()?)]),
        wire::ATTR_TYPE => {
            let code = if u.ratio(7, 8)? {
                super::dtype(u)?.code()
            } else {
                int(u)? as i32
            };
            out.extend([1, i64::from(code)]);
        }
        wire::ATTR_INTS | wire::ATTR_SHAPE if u.ratio(1, 8)? => out.push(-1),
        wire::ATTR_INTS | wire::ATTR_SHAPE => list(u, out, &|u| int(u))?,
        wire::ATTR_FLOATS => list(u, out, &|u| Ok(i64::from((float(u)? as f32).to_bits())))?,
        wire::ATTR_BOOLS => list(u, out, &|u| Ok(i64::from(u.arbitrary::<bool>()?)))?,
        wire::ATTR_STRING => {
            let s = if u.ratio(3, 4)? {
                u.choose(&STRINGS)?.as_bytes().to_vec()
            } else {
                let len = u.int_in_range(0..=24)?;
                u.bytes(len)?.to_vec()
            };
            let words: Vec<i64> = s
                .chunks(8)
                .map(|c| {
                    let mut w = [0u8; 8];
                    w[..c.len()].copy_from_slice(c);
                    i64::from_le_bytes(w)
                })
                .collect();
            let len = if u.ratio(15, 16)? {
                s.len() as i64
            } else {
                int(u)?
            };
            out.extend([1 + words.len() as i64, len]);
            out.extend(words);
        }
        wire::ATTR_TENSOR | wire::ATTR_FOREIGN_TENSOR => {
            let (owner, handle) = match inputs.get(u.int_in_range(0..=inputs.len())?) {
                Some(Input::Handle(h)) => (1, *h),
                Some(Input::Standalone(h)) => (0, *h),
                None => (int(u)?, u.arbitrary()?),
            };
            let owner = match (kind, owner) {
                (wire::ATTR_FOREIGN_TENSOR, 1) => id as i64,
                (wire::ATTR_FOREIGN_TENSOR, _) => 0,
                _ => owner,
            };
            out.extend([2, owner, handle as i64]);
        }
        _ => list(u, out, &|u| int(u))?,
    }
    Ok(())
}

/// What a failed call must leave as it was: the statistics but the peak
/// (a call may use memory and give it back), and the held bytes.
fn settled(session: &Session) -> (eagerflow::SessionStats, u64) {
    let mut stats = session.stats();
    stats.peak_bytes = 0;
    (stats, session.account().held_bytes())
}
