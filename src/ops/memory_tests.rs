//! Ops under memory exhaustion: outputs no machine can hold, temporaries
//! counted against the limit but never as live bytes, buffers poisoned under
//! test, and the pool's reuse, size classes and trimming.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use super::parallel::threads;
use crate::dtype::Element;
use crate::error::Error;
use crate::memory::MemoryAccount;
use crate::pool::{self, poison};
use crate::session::{FreeReason, Session, SessionOptions};
use crate::tensor::{Allocation, Tensor};
use crate::{AttrValue, Attrs, DataType};

fn session(max_bytes: Option<u64>) -> Session {
    Session::new(SessionOptions {
        max_bytes,
        ..SessionOptions::default()
    })
}

fn put<T: Element>(s: &Session, shape: &[usize], data: &[T]) -> u64 {
    s.insert(Tensor::from_slice(s.account(), shape, data).unwrap())
        .unwrap()
}

fn filled<T: Element>(s: &Session, shape: &[usize], v: T) -> u64 {
    s.insert(Tensor::filled(s.account(), shape, v).unwrap())
        .unwrap()
}

fn values<T: Element>(s: &Session, h: u64) -> Vec<T> {
    s.tensor(h).unwrap().as_slice::<T>().unwrap().to_vec()
}

fn is_exhausted<T: std::fmt::Debug>(r: &crate::Result<T>) -> bool {
    matches!(r, Err(Error::MemoryExhausted { .. }))
}

/// Outputs of 2^41 elements: a size that fits `i64` (and `usize`) but that no
/// allocator on these machines can reserve, so the allocator itself refuses.
#[test]
fn outputs_no_machine_can_hold_are_memory_errors_and_counts_stay_exact() {
    let _pool = pool::TEST_LOCK.lock().unwrap_or_else(|p| p.into_inner());
    let s = session(None);
    let dims = put(&s, &[2], &[1i64 << 20, 1 << 21]);
    let one = put(&s, &[], &[1f32]);
    let two = put(&s, &[1], &[2f32]);
    let (zero, limit, step) = (
        put(&s, &[], &[0i64]),
        put(&s, &[], &[1i64 << 41]),
        put(&s, &[], &[1i64]),
    );
    let multiples = put(&s, &[1], &[1i64 << 41]);
    let column = filled(&s, &[1 << 21, 1], 1f32);
    let row = filled(&s, &[1, 1 << 20], 1f32);
    let float = Attrs::new().with("dtype", AttrValue::Type(DataType::Float));
    let before = s.stats();
    let cases: [(&str, Vec<u64>, &Attrs); 6] = [
        ("Fill", vec![dims, one], &Attrs::new()),
        ("BroadcastTo", vec![one, dims], &Attrs::new()),
        ("Range", vec![zero, limit, step], &Attrs::new()),
        ("Tile", vec![two, multiples], &Attrs::new()),
        ("RandomUniform", vec![dims], &float),
        ("MatMul", vec![column, row], &Attrs::new()),
    ];
    for (op, inputs, attrs) in cases {
        let r = s.execute_named(op, &inputs, attrs);
        assert!(is_exhausted(&r), "{op}: {r:?}");
        assert_eq!(s.stats(), before, "{op} changed the counts");
        assert_eq!(s.account().scratch_bytes(), 0);
    }
    // The session keeps working, with exact counts.
    let small = put(&s, &[2], &[2i64, 3]);
    let out = s
        .execute_named("Fill", &[small, one], &Attrs::new())
        .unwrap();
    assert_eq!(values::<f32>(&s, out[0]), vec![1.0; 6]);
    assert_eq!(s.stats().live_bytes, before.live_bytes + 16 + 24);
    s.free(out[0], FreeReason::Explicit);
    assert_eq!(s.stats().live_bytes, before.live_bytes + 16);
}

/// `Sum` over axes 0 and 2 of `[8, 2048, 16]` takes two passes; the first
/// writes a `[8, 2048]` temporary (64 KiB).
#[test]
fn reduction_passes_are_temporaries_counted_against_the_limit_not_live() {
    let _pool = pool::TEST_LOCK.lock().unwrap_or_else(|p| p.into_inner());
    let (input, axes, output) = (1u64 << 20, 8, 8192);
    for tight in [false, true] {
        let limit = input + axes + output + if tight { 32 << 10 } else { 1 << 20 };
        let s = session(Some(limit));
        let x = filled(&s, &[8, 2048, 16], 1f32);
        let a = put(&s, &[2], &[0i32, 2]);
        let r = s.execute_named("Sum", &[x, a], &Attrs::new());
        if tight {
            assert!(is_exhausted(&r), "{r:?}");
            assert_eq!(s.stats().live_bytes, input + axes);
        } else {
            let out = r.unwrap();
            assert_eq!(values::<f32>(&s, out[0]), vec![128.0; 2048]);
            // The temporary never showed as live: the peak is the tensors'.
            assert_eq!(s.stats().peak_bytes, input + axes + output);
        }
        assert_eq!(s.account().scratch_bytes(), 0);
    }
}

/// A large reduction to few rows folds bands of rows on each thread into
/// partial rows; those are temporaries too.
#[test]
fn reduction_partials_are_counted_against_the_limit() {
    if threads() < 2 {
        return; // one thread folds in place, with no partial rows
    }
    let _pool = pool::TEST_LOCK.lock().unwrap_or_else(|p| p.into_inner());
    let (input, axis, output) = (4u64 << 20, 4, 256 << 10);
    for tight in [false, true] {
        let limit = input + axis + output + if tight { 128 << 10 } else { 4 << 20 };
        let s = session(Some(limit));
        let x = filled(&s, &[16, 1 << 16], 1f32);
        let a = put(&s, &[], &[0i32]);
        let r = s.execute_named("Sum", &[x, a], &Attrs::new());
        if tight {
            assert!(is_exhausted(&r), "{r:?}");
            assert_eq!(s.stats().live_bytes, input + axis);
        } else {
            let out = r.unwrap();
            assert_eq!(values::<f32>(&s, out[0]), vec![16.0; 1 << 16]);
            assert_eq!(s.stats().peak_bytes, input + axis + output);
        }
        assert_eq!(s.account().scratch_bytes(), 0);
    }
}

/// Under test every buffer a kernel gets for index-wise writes holds the
/// poison pattern, recycled or fresh.
#[test]
fn buffers_for_index_wise_writes_are_poisoned_recycled_or_fresh() {
    let _pool = pool::TEST_LOCK.lock().unwrap_or_else(|p| p.into_inner());
    fn check<T: Element>(acc: &Arc<MemoryAccount>, n: usize, old: T, same: fn(T, T) -> bool) {
        drop(Tensor::filled(acc, &[n], old).unwrap());
        let (hits, _) = pool::hits_and_misses();
        let a = Allocation::<T>::new_initialized(acc, n).unwrap();
        if n * T::DTYPE.size() >= pool::MIN_POOLED_BYTES {
            assert!(
                pool::hits_and_misses().0 > hits,
                "{} came from the pool",
                T::DTYPE
            );
        }
        let p = T::poison(poison::DEFAULT_PATTERN);
        assert_eq!(a.data.len(), n);
        assert!(
            a.data.iter().all(|&v| same(v, p)),
            "{} buffer of {n} not poisoned",
            T::DTYPE
        );
    }
    let acc = MemoryAccount::new(None);
    for n in [7, 3 << 18] {
        check::<f32>(&acc, n, 1.0, |a, b| a.to_bits() == b.to_bits());
        check::<f64>(&acc, n, 1.0, |a, b| a.to_bits() == b.to_bits());
        check::<i32>(&acc, n, 1, |a, b| a == b);
        check::<i64>(&acc, n, 1, |a, b| a == b);
        check::<u8>(&acc, n, 1, |a, b| a == b);
        check::<bool>(&acc, n, false, |a, b| a == b);
    }
    assert_eq!(acc.live_bytes(), 0);
}

/// Size classes keep a buffer's capacity within 1/8 of its length while the
/// accounts count exactly the tensor's bytes.
#[test]
fn capacity_slack_stays_within_an_eighth_and_counts_stay_exact() {
    let _pool = pool::TEST_LOCK.lock().unwrap_or_else(|p| p.into_inner());
    let acc = MemoryAccount::new(None);
    for n in [(1 << 18) + 1, 300_001, (1 << 19) - 1, 5 << 20] {
        let t = Tensor::filled(&acc, &[n], 0f32).unwrap();
        let (len, cap) = (n * 4, t.storage().capacity_bytes());
        assert!(cap >= len && cap - len <= len / 8, "{len} bytes in {cap}");
        assert_eq!(acc.live_bytes(), len as u64);
    }
}

/// A steady loop of same-shaped ops takes every output from the pool after
/// its first iteration.
#[test]
fn a_steady_loop_reuses_pooled_buffers() {
    let _pool = pool::TEST_LOCK.lock().unwrap_or_else(|p| p.into_inner());
    let s = session(Some(1 << 30));
    let x = filled(&s, &[1 << 18], 1f32);
    let first = s.execute_named("AddV2", &[x, x], &Attrs::new()).unwrap();
    s.free(first[0], FreeReason::Explicit);
    let (hits, misses) = pool::hits_and_misses();
    for _ in 0..20 {
        let y = s.execute_named("AddV2", &[x, x], &Attrs::new()).unwrap();
        let z = s.execute_named("Mul", &[y[0], x], &Attrs::new()).unwrap();
        s.free_many(&[y[0], z[0]], FreeReason::Explicit);
    }
    let (h, m) = pool::hits_and_misses();
    // The first Mul's output is new; every other output is recycled.
    assert_eq!((h - hits, m - misses), (39, 1));
}

/// Idle buffers are trimmed so that a session's tensors, temporaries and the
/// pool stay within its limit, and `trim` empties the pool.
#[test]
fn the_pool_is_trimmed_near_a_sessions_limit_and_on_demand() {
    let _pool = pool::TEST_LOCK.lock().unwrap_or_else(|p| p.into_inner());
    pool::trim();
    let limit = 16u64 << 20;
    let s = session(Some(limit));
    // Four idle buffers of 2 MiB (four size classes).
    for k in 0..4 {
        let h = filled(&s, &[(1 << 19) + k * (1 << 16)], 0f32);
        s.free(h, FreeReason::Explicit);
    }
    assert!(pool::idle_bytes() >= 8 << 20);
    let big = filled(&s, &[10 << 18], 0f32);
    assert!(
        s.stats().live_bytes + pool::idle_bytes() <= limit,
        "{} live + {} idle over the limit {limit}",
        s.stats().live_bytes,
        pool::idle_bytes()
    );
    let idle = pool::idle_bytes();
    assert!(idle > 0, "only what did not fit was released");
    assert_eq!(pool::trim(), idle);
    assert_eq!(pool::idle_bytes(), 0);
    s.free(big, FreeReason::Explicit);
    assert_eq!(s.stats().live_bytes, 0);
}

/// A write's range is checked before anything is copied or allocated.
#[test]
fn writes_check_their_range_first() {
    let s = session(None);
    let h = put(&s, &[4], &[1f32, 2., 3., 4.]);
    for (offset, len) in [(usize::MAX, 1), (3, 2), (1 << 62, 1 << 62)] {
        let r = s.write_with::<f32, Error>(h, offset, len, |_| panic!("filled out of range"));
        assert!(matches!(r, Err(Error::OutOfRange(_))), "{r:?}");
    }
    s.write(h, 2, &[7f32, 8.]).unwrap();
    assert_eq!(values::<f32>(&s, h), vec![1., 2., 7., 8.]);
    assert_eq!(s.stats().live_bytes, 16);
}
