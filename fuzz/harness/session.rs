//! Sessions in any order: up to four open at once, synchronous or
//! asynchronous (each asynchronous one with its executor thread, as Java
//! runs it), caps from one byte to none; constants, a few ops of each
//! family on handles of any session (the mixed path when they differ),
//! frees one at a time and in batches, reads, writes, copies, syncs, stats
//! and closes, on open, closed and forged ids and handles. Checks: no
//! panic, no hang, every error a documented one, and every closed session
//! holds nothing.

use std::sync::Arc;
use std::thread::JoinHandle;

use arbitrary::{Result, Unstructured};
use eagerflow::{
    AttrValue, Attrs, FreeReason, Registry, Session, SessionOptions, Tensor, executor, sessions,
};

use super::{check_closed, check_error, dim, float, int, read, tensor};

// No uncapped session: without a limit an op really allocates what it is
// asked for, which is what "no limit" means (the fuzzer found a batched
// MatMul of small, partly empty inputs whose INT64 output had 2^32 elements,
// 32 GiB, past what the fuzzer's process may hold, in the standalone table).
const LIMITS: [Option<u64>; 6] = [
    Some(1),
    Some(64),
    Some(4096),
    Some(1 << 20),
    Some(1 << 24),
    Some(1 << 28),
];

/// Queue capacities as Java may pass them (an `int`), valid or not.
const CAPACITIES: [i64; 8] = [1, 2, 16, 1 << 16, (1 << 16) + 1, 0, -1, i32::MAX as i64];

/// Ops of every family, with the attributes they take. None sizes its
/// output by an input's values (`Fill`, `Range`, `Tile`: the registry target
/// has them, under caps): an uncapped session here would really allocate.
const OPS: [&str; 16] = [
    "AddV2",
    "Mul",
    "MatMul",
    "Neg",
    "Sum",
    "Reshape",
    "Pack",
    "Identity",
    "ConcatV2",
    "Split",
    "Cast",
    "Softmax",
    "ExpandDims",
    "ZerosLike",
    "Transpose",
    "StringJoin",
];

struct Open {
    id: u64,
    executor: Option<JoinHandle<()>>,
}

#[derive(Default)]
struct World {
    open: Vec<Open>,
    closed: Vec<u64>,
    /// (session id, handle) of every tensor made, freed or not.
    handles: Vec<(u64, u64)>,
}

pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let mut world = World::default();
    for _ in 0..64 {
        if u.is_empty() || step(&mut u, &mut world).is_err() {
            break;
        }
    }
    for open in std::mem::take(&mut world.open) {
        close(open);
    }
    let standalone = Session::standalone();
    for &(id, h) in &world.handles {
        if id == 0 {
            standalone.free(h, FreeReason::Explicit);
        }
    }
}

fn close(open: Open) {
    let session = sessions::lookup(open.id).expect("an open session is found");
    let stats = sessions::close(open.id).expect("an open session closes");
    if let Some(t) = open.executor {
        t.join().expect("the executor thread ends at close");
    }
    check_closed(&stats, &session);
}

/// An id: an open session's, a closed one's, the standalone table's, or forged.
fn id(u: &mut Unstructured<'_>, w: &World) -> Result<u64> {
    Ok(match u.int_in_range(0..=9)? {
        0 => 0,
        1 if !w.closed.is_empty() => *u.choose(&w.closed)?,
        2 => u.arbitrary()?,
        _ if !w.open.is_empty() => u.choose(&w.open)?.id,
        _ => 0,
    })
}

fn handle(u: &mut Unstructured<'_>, w: &World) -> Result<(u64, u64)> {
    if w.handles.is_empty() || u.ratio(1, 16)? {
        return Ok((id(u, w)?, u.arbitrary()?));
    }
    Ok(*u.choose(&w.handles)?)
}

/// Checks a result: a value, or an error Java can show.
fn checked<T>(r: eagerflow::Result<T>) -> Option<T> {
    match r {
        Ok(v) => Some(v),
        Err(e) => {
            check_error(&e);
            None
        }
    }
}

fn step(u: &mut Unstructured<'_>, w: &mut World) -> Result<()> {
    match u.int_in_range(0..=12)? {
        0 if w.open.len() < 4 => open(u, w)?,
        1 => {
            let id = id(u, w)?;
            if let Some(i) = w.open.iter().position(|o| o.id == id) {
                let o = w.open.swap_remove(i);
                w.closed.push(id);
                close(o);
            } else {
                checked(sessions::close(id));
            }
        }
        2 | 3 => {
            let id = id(u, w)?;
            let Some(s) = checked(sessions::lookup(id)) else {
                return Ok(());
            };
            if let Some(Ok(t)) = tensor(u, s.account())?
                && let Some(h) = checked(s.insert(t))
            {
                w.handles.push((id, h));
            }
        }
        4..=6 => op(u, w)?,
        7 => {
            let (id, h) = handle(u, w)?;
            let reason = if u.arbitrary()? {
                FreeReason::Explicit
            } else {
                FreeReason::Cleanup
            };
            if let Some(s) = checked(sessions::lookup(id)) {
                s.free(h, reason);
            }
        }
        8 => {
            let id = id(u, w)?;
            let picks: Vec<u64> = (0..u.int_in_range(0..=8)?)
                .map(|_| Ok(handle(u, w)?.1))
                .collect::<Result<_>>()?;
            if let Some(s) = checked(sessions::lookup(id)) {
                assert!(s.free_many(&picks, FreeReason::Cleanup) <= picks.len());
            }
        }
        9 => {
            let (id, h) = handle(u, w)?;
            if let Some(s) = checked(sessions::lookup(id)) {
                if let Some(t) = checked(s.tensor(h)) {
                    read(&t);
                }
                checked(s.describe(h, u.arbitrary()?));
            }
        }
        10 => {
            let (id, h) = handle(u, w)?;
            let offset = dim(u)?;
            let values: Vec<f32> = (0..u.int_in_range(0..=8)?)
                .map(|_| Ok(float(u)? as f32))
                .collect::<Result<_>>()?;
            if let Some(s) = checked(sessions::lookup(id)) {
                checked(s.write(h, offset, &values));
            }
        }
        11 => {
            let id = id(u, w)?;
            if let Some(s) = checked(sessions::lookup(id)) {
                checked(s.sync());
                let stats = s.stats();
                assert_eq!(
                    stats.created,
                    stats.live_tensors
                        + stats.freed_explicitly
                        + stats.freed_by_cleanup
                        + stats.freed_at_close
                );
            }
        }
        _ => {
            // `copyTensor`: a deep copy into another table.
            let dst = id(u, w)?;
            let (src, h) = handle(u, w)?;
            let (Some(d), Some(s)) = (
                checked(sessions::lookup(dst)),
                checked(sessions::lookup(src)),
            ) else {
                return Ok(());
            };
            if let Some(t) = checked(s.tensor(h))
                && let Some(copy) = checked(t.deep_copy(d.account()))
                && let Some(h) = checked(d.insert(copy))
            {
                w.handles.push((dst, h));
            }
        }
    }
    Ok(())
}

fn open(u: &mut Unstructured<'_>, w: &mut World) -> Result<()> {
    let options = SessionOptions {
        max_bytes: *u.choose(&LIMITS)?,
        gc_signals: u.arbitrary()?,
        gc_trigger_bytes: *u.choose(&[None, Some(1), Some(1 << 20), Some(u64::MAX)])?,
    };
    if u.ratio(2, 3)? {
        let id = sessions::open(options).expect("a session opens");
        w.open.push(Open { id, executor: None });
        return Ok(());
    }
    // As `newAsyncSession`: the capacity checked, then the executor thread started.
    let Some(capacity) = checked(executor::queue_capacity(*u.choose(&CAPACITIES)?)) else {
        return Ok(());
    };
    let id = sessions::open_async(options, capacity).expect("an async session opens");
    let ex = sessions::executor(id).expect("an async session has an executor");
    let thread = std::thread::spawn(move || {
        let _ = ex.run();
    });
    w.open.push(Open {
        id,
        executor: Some(thread),
    });
    Ok(())
}

/// An op on handles of any sessions, with its attributes.
fn op(u: &mut Unstructured<'_>, w: &mut World) -> Result<()> {
    let name = *u.choose(&OPS)?;
    let registry = Registry::global();
    let index = registry.lookup(name).expect("a listed op");
    let args = registry.def(index).expect("a def").inputs;
    let lists: Vec<i32> = args
        .iter()
        .map(|a| {
            Ok(if a.ends_with("[]") {
                u.int_in_range(0..=3)?
            } else {
                -1
            })
        })
        .collect::<Result<_>>()?;
    let n: usize = lists
        .iter()
        .map(|&l| if l < 0 { 1 } else { l as usize })
        .sum();
    let inputs: Vec<(u64, u64)> = (0..n).map(|_| handle(u, w)).collect::<Result<_>>()?;
    let mut attrs = Attrs::new();
    match name {
        "Split" => attrs.set("num_split", AttrValue::Int(int(u)?)),
        "Cast" => attrs.set("DstT", AttrValue::Type(super::dtype(u)?)),
        "Sum" => attrs.set("keep_dims", AttrValue::Bool(u.arbitrary()?)),
        "MatMul" => attrs.set("transpose_a", AttrValue::Bool(u.arbitrary()?)),
        "StringJoin" => attrs.set("separator", AttrValue::Str(u.arbitrary()?)),
        _ => {}
    }
    let target = id(u, w)?;
    // The standalone table (id 0) has no limit either (see LIMITS).
    if target == 0 {
        return Ok(());
    }
    let Some(s) = checked(sessions::lookup(target)) else {
        return Ok(());
    };
    let lens = args.iter().any(|a| a.ends_with("[]")).then_some(&lists[..]);
    let outputs = if inputs.iter().all(|&(id, _)| id == target) {
        let handles: Vec<u64> = inputs.iter().map(|&(_, h)| h).collect();
        if lens.is_none() && attrs.is_empty() && registry.single_output(index) && u.ratio(1, 2)? {
            checked(s.execute_single(index, &handles, None)).map(|h| vec![h])
        } else {
            checked(s.execute(index, &handles, lens, &attrs)).map(|h| h.to_vec())
        }
    } else {
        // `executeMixed`: each input resolved in its own session.
        let tensors: Option<Vec<Arc<Tensor>>> = inputs
            .iter()
            .map(|&(id, h)| checked(sessions::lookup(id)).and_then(|o| checked(o.tensor(h))))
            .collect();
        tensors
            .and_then(|t| checked(s.execute_tensors(index, &t, lens, &attrs)).map(|h| h.to_vec()))
    };
    for h in outputs.unwrap_or_default() {
        w.handles.push((target, h));
    }
    Ok(())
}
