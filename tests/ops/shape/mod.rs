//! Shape ops through a session, as Java drives them: values by hand, buffer
//! sharing, every error class, and exact accounting. One module per kernel
//! family; the accounting and registration checks across them all are here.

use eagerflow::{Attrs, Element, FreeReason, Registry, Tensor};

use crate::common::{Env, int, none};

mod fills;
mod joining;
mod one_hot;
mod selection;
mod transpose;
mod views;

/// Checks a result's dtype, shape and values.
pub fn expect<T: Element>(t: &Tensor, shape: &[usize], data: &[T]) {
    assert_eq!(t.dtype(), T::DTYPE, "dtype of {t:?}");
    assert_eq!(t.shape(), shape, "shape of {t:?}");
    assert_eq!(t.as_slice::<T>().unwrap(), data, "values of {t:?}");
}

/// Checks that an error message mentions every part.
pub fn has(msg: &str, parts: &[&str]) {
    for p in parts {
        assert!(msg.contains(p), "{msg:?} should mention {p:?}");
    }
}

pub fn f32s(range: std::ops::Range<usize>) -> Vec<f32> {
    range.map(|i| i as f32).collect()
}

// ---------------------------------------------------------------------------
// Accounting and general rules

#[test]
fn everything_freed_leaves_nothing_live() {
    let s = Env::new();
    let x = s.iota(&[4, 6]);
    let mut handles = vec![x];
    let mut add = |op: &str, inputs: &[u64], lens: Option<&[i32]>, attrs: Attrs| {
        let index = Registry::global().lookup(op).unwrap();
        handles.extend(inputs);
        handles.extend(s.s.execute(index, inputs, lens, &attrs).unwrap());
    };
    add("Reshape", &[x, s.v(&[6, 4])], None, none());
    add("Identity", &[x], None, none());
    add("ExpandDims", &[x, s.scalar(0i32)], None, none());
    add("Slice", &[x, s.v(&[1, 1]), s.v(&[2, 2])], None, none());
    add(
        "StridedSlice",
        &[x, s.v(&[0, 5]), s.v(&[4, 0]), s.v(&[2, -2])],
        None,
        none(),
    );
    add("ConcatV2", &[x, x, s.scalar(1i32)], Some(&[2, -1]), none());
    add("Pack", &[x, x, x], Some(&[3]), int("axis", 2));
    add("Unpack", &[x], None, int("num", 4));
    add("Split", &[s.scalar(1i32), x], None, int("num_split", 3));
    add("GatherV2", &[x, s.v(&[3, 0]), s.scalar(0i32)], None, none());
    add("Tile", &[x, s.v(&[2, 2])], None, none());
    add("BroadcastTo", &[x, s.v(&[3, 4, 6])], None, none());
    add(
        "OneHot",
        &[s.v(&[0, 1]), s.scalar(4i32), s.scalar(1i32), s.scalar(0i32)],
        None,
        none(),
    );
    add(
        "Range",
        &[s.scalar(0i32), s.scalar(100i32), s.scalar(3i32)],
        None,
        none(),
    );
    add("Fill", &[s.v(&[10, 10]), s.scalar(1.0f64)], None, none());
    add("Shape", &[x], None, none());
    add("OnesLike", &[x], None, none());
    let stats = s.s.stats();
    assert!(stats.live_bytes > 0 && stats.live_tensors > 0);
    handles.sort_unstable();
    handles.dedup();
    assert_eq!(
        s.s.free_many(&handles, FreeReason::Explicit) as u64,
        stats.live_tensors
    );
    let stats = s.s.stats();
    assert_eq!(stats.live_bytes, 0, "{stats:?}");
    assert_eq!(stats.live_tensors, 0, "{stats:?}");
    assert_eq!(stats.created, stats.freed_explicitly);
}

#[test]
fn failed_ops_leave_accounting_unchanged() {
    let s = Env::new();
    let x = s.iota(&[3, 4]);
    let inputs = [
        s.v(&[0, 9]),
        s.scalar(0i32),
        s.v(&[5, 5]),
        s.v64(&[1 << 50]),
        s.scalar(1.0f32),
    ];
    let before = s.s.stats();
    assert!(
        s.run("GatherV2", &[x, inputs[0], inputs[1]], &none())
            .is_err()
    );
    assert!(s.run("Reshape", &[x, inputs[2]], &none()).is_err());
    assert!(s.run("Fill", &[inputs[3], inputs[4]], &none()).is_err());
    assert!(
        s.run("Split", &[inputs[1], x], &int("num_split", 5))
            .is_err()
    );
    assert_eq!(s.s.stats(), before);
}

#[test]
fn every_op_is_registered_with_its_signature() {
    let r = Registry::global();
    for (op, inputs) in [
        ("Const", 0usize),
        ("Identity", 1),
        ("StopGradient", 1),
        ("Reshape", 2),
        ("Shape", 1),
        ("Size", 1),
        ("Rank", 1),
        ("Fill", 2),
        ("ZerosLike", 1),
        ("OnesLike", 1),
        ("ExpandDims", 2),
        ("Squeeze", 1),
        ("Slice", 3),
        ("StridedSlice", 4),
        ("ConcatV2", 2),
        ("Pack", 1),
        ("Unpack", 1),
        ("Split", 2),
        ("GatherV2", 3),
        ("Tile", 2),
        ("BroadcastTo", 2),
        ("OneHot", 4),
        ("Range", 3),
    ] {
        let def = r.def(r.lookup(op).unwrap()).unwrap();
        assert_eq!(def.name, op);
        assert_eq!(def.inputs.len(), inputs, "{op}");
    }
}

#[test]
fn large_copies_are_exact() {
    // Big enough for pooled buffers and long runs.
    let s = Env::new();
    let n = 1 << 18;
    let data: Vec<i32> = (0..n).collect();
    let x = s.t(&[512, 512], &data);
    let t = s.one(
        "StridedSlice",
        &[x, s.v(&[1, 0]), s.v(&[512, 512]), s.v(&[2, 1])],
        &none(),
    );
    assert_eq!(t.shape(), &[256, 512]);
    let got = t.as_slice::<i32>().unwrap();
    assert_eq!(got[0], 512);
    assert_eq!(got[512], 3 * 512);
    assert_eq!(got[got.len() - 1], n - 1);
    let c = s.one_list("ConcatV2", &[x, x, s.scalar(0i32)], &[2, -1], &none());
    let got = c.as_slice::<i32>().unwrap();
    assert_eq!(&got[..n as usize], &data[..]);
    assert_eq!(&got[n as usize..], &data[..]);
}
