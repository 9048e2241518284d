//! The filling shape ops: Fill, ZerosLike, OnesLike, Range. Values by hand,
//! every error class, absurd sizes and the session's byte limit.

use eagerflow::{Error, SessionOptions};

use super::{expect, has};
use crate::common::{Env, none};

// ---------------------------------------------------------------------------
// Fill, ZerosLike, OnesLike

#[test]
fn fill_values() {
    let s = Env::new();
    expect(
        &s.one("Fill", &[s.v(&[2, 3]), s.scalar(7.5f32)], &none()),
        &[2, 3],
        &[7.5f32; 6],
    );
    expect(
        &s.one("Fill", &[s.v64(&[2]), s.scalar(true)], &none()),
        &[2],
        &[true, true],
    );
    expect(
        &s.one("Fill", &[s.v(&[]), s.scalar(-3i64)], &none()),
        &[],
        &[-3i64],
    );
    expect::<u8>(
        &s.one("Fill", &[s.v(&[4, 0]), s.scalar(9u8)], &none()),
        &[4, 0],
        &[],
    );
}

#[test]
fn fill_errors_and_absurd_sizes() {
    let s = Env::new();
    let before = s.s.stats().live_bytes;
    has(
        &s.err("Fill", &[s.v(&[2]), s.t(&[1], &[1f32])]),
        &["Fill", "'value'", "scalar", "[1]"],
    );
    has(
        &s.err("Fill", &[s.scalar(2i32), s.scalar(1f32)]),
        &["'dims'", "vector"],
    );
    has(
        &s.err("Fill", &[s.v(&[2, -1]), s.scalar(1f32)]),
        &["dims[1] = -1", "non-negative"],
    );
    has(
        &s.err("Fill", &[s.t(&[1], &[2f64]), s.scalar(1f32)]),
        &["'dims'", "DOUBLE"],
    );
    let overflow = s.v64(&[1 << 40, 1 << 40]);
    has(
        &s.err("Fill", &[overflow, s.scalar(1f32)]),
        &["too many elements"],
    );
    // Far beyond any address space: the allocation fails cleanly.
    let r = s.run("Fill", &[s.v64(&[1 << 50]), s.scalar(1f32)], &none());
    assert!(matches!(r, Err(Error::MemoryExhausted { .. })), "got {r:?}");
    let live = s.s.stats().live_bytes - before;
    // Only the small inputs created above remain.
    assert!(live < 1024, "{live}");

    // The session's hard limit applies to op outputs.
    let limited = Env::with_options(SessionOptions {
        max_bytes: Some(1000),
        ..SessionOptions::default()
    });
    let dims = limited.v(&[100, 100]);
    let value = limited.scalar(0u8);
    assert!(matches!(
        limited.run("Fill", &[dims, value], &none()),
        Err(Error::MemoryExhausted {
            limit: Some(1000),
            ..
        })
    ));
}

#[test]
fn zeros_like_and_ones_like() {
    let s = Env::new();
    let f = s.t(&[2, 1], &[3.5f32, -1.0]);
    expect(&s.one("ZerosLike", &[f], &none()), &[2, 1], &[0f32, 0.0]);
    expect(&s.one("OnesLike", &[f], &none()), &[2, 1], &[1f32, 1.0]);
    let i = s.t(&[3], &[5i32, 6, 7]);
    expect(&s.one("ZerosLike", &[i], &none()), &[3], &[0i32; 3]);
    expect(&s.one("OnesLike", &[i], &none()), &[3], &[1i32; 3]);
    let b = s.scalar(true);
    expect(&s.one("ZerosLike", &[b], &none()), &[], &[false]);
    expect(&s.one("OnesLike", &[b], &none()), &[], &[true]);
    let u = s.t::<u8>(&[0], &[]);
    expect::<u8>(&s.one("OnesLike", &[u], &none()), &[0], &[]);
    let d = s.scalar(2.0f64);
    expect(&s.one("OnesLike", &[d], &none()), &[], &[1.0f64]);
    let l = s.t(&[1], &[9i64]);
    expect(&s.one("ZerosLike", &[l], &none()), &[1], &[0i64]);
}

// ---------------------------------------------------------------------------
// Range

#[test]
fn range_values() {
    let s = Env::new();
    let r = |a: u64, b: u64, c: u64| s.one("Range", &[a, b, c], &none());
    expect(
        &r(s.scalar(0i32), s.scalar(5i32), s.scalar(1i32)),
        &[5],
        &[0i32, 1, 2, 3, 4],
    );
    expect(
        &r(s.scalar(10i32), s.scalar(1i32), s.scalar(-3i32)),
        &[3],
        &[10i32, 7, 4],
    );
    expect(
        &r(s.scalar(3i64), s.scalar(10i64), s.scalar(4i64)),
        &[2],
        &[3i64, 7],
    );
    expect::<i64>(
        &r(s.scalar(0i64), s.scalar(0i64), s.scalar(1i64)),
        &[0],
        &[],
    );
    expect(
        &r(s.scalar(0.0f32), s.scalar(1.0f32), s.scalar(0.25f32)),
        &[4],
        &[0f32, 0.25, 0.5, 0.75],
    );
    let d = r(s.scalar(1.0f64), s.scalar(2.0f64), s.scalar(0.3f64));
    assert_eq!(d.shape(), &[4]);
    let got = d.as_slice::<f64>().unwrap();
    for (g, w) in got.iter().zip([1.0, 1.3, 1.6, 1.9]) {
        assert!((g - w).abs() < 1e-12, "{got:?}");
    }
    expect(
        &r(s.scalar(2.0f64), s.scalar(0.5f64), s.scalar(-1.0f64)),
        &[2],
        &[2.0f64, 1.0],
    );
    // limit - start overflows INT32: computed without wrapping.
    expect(
        &r(s.scalar(i32::MIN), s.scalar(i32::MAX), s.scalar(i32::MAX)),
        &[3],
        &[i32::MIN, -1, i32::MAX - 1],
    );
}

#[test]
fn range_errors() {
    let s = Env::new();
    let err = |a: u64, b: u64, c: u64| s.err("Range", &[a, b, c]);
    has(
        &err(s.scalar(0i32), s.scalar(5i32), s.scalar(0i32)),
        &["Range", "delta", "non-zero"],
    );
    has(
        &err(s.scalar(0.0f32), s.scalar(5.0f32), s.scalar(0.0f32)),
        &["non-zero"],
    );
    // TF rejects a delta that moves away from the limit.
    has(
        &err(s.scalar(5i32), s.scalar(0i32), s.scalar(1i32)),
        &["start 5", "limit 0"],
    );
    has(
        &err(s.scalar(0i64), s.scalar(5i64), s.scalar(-1i64)),
        &["negative"],
    );
    has(
        &err(s.scalar(0i32), s.scalar(5i64), s.scalar(1i32)),
        &["'start'", "'limit'", "INT32", "INT64"],
    );
    has(
        &err(s.scalar(0u8), s.scalar(5u8), s.scalar(1u8)),
        &["UINT8"],
    );
    has(
        &err(s.v(&[0]), s.scalar(5i32), s.scalar(1i32)),
        &["'start'", "scalar"],
    );
    has(
        &err(s.scalar(0.0f32), s.scalar(1e30f32), s.scalar(1.0f32)),
        &["too many elements"],
    );
    has(
        &err(s.scalar(0.0f64), s.scalar(f64::NAN), s.scalar(1.0f64)),
        &["limit NaN"],
    );
    has(
        &err(s.scalar(1.0f64), s.scalar(0.0f64), s.scalar(f64::NAN)),
        &["too many elements"],
    );
    // 2^63 INT64 elements: the byte count overflows, which is an error.
    let r = s.run(
        "Range",
        &[s.scalar(0i64), s.scalar(i64::MAX), s.scalar(1i64)],
        &none(),
    );
    assert!(r.is_err(), "{r:?}");
}
