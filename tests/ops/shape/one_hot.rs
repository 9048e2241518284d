//! OneHot: values by hand on every axis and dtype, and every error class.

use super::{expect, has};
use crate::common::{Env, int, none};

#[test]
fn one_hot_values() {
    let s = Env::new();
    let idx = s.v(&[0, 2, -1, 1]);
    let (on, off) = (s.scalar(1.0f32), s.scalar(0.0f32));
    expect(
        &s.one("OneHot", &[idx, s.scalar(3i32), on, off], &none()),
        &[4, 3],
        &[1f32, 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0.],
    );
    expect(
        &s.one("OneHot", &[idx, s.scalar(3i32), on, off], &int("axis", 0)),
        &[3, 4],
        &[1f32, 0., 0., 0., 0., 0., 0., 1., 0., 1., 0., 0.],
    );
    // [2, 2] indices, axis 1: out[i, d, j] = (idx[i, j] == d).
    let idx2 = s.t(&[2, 2], &[1i64, 0, 5, 1]);
    expect(
        &s.one(
            "OneHot",
            &[idx2, s.scalar(2i32), s.scalar(5i32), s.scalar(-1i32)],
            &int("axis", 1),
        ),
        &[2, 2, 2],
        &[-1i32, 5, 5, -1, -1, -1, -1, 5],
    );
    let u = s.t(&[2], &[3u8, 0]);
    expect(
        &s.one(
            "OneHot",
            &[u, s.scalar(4i32), s.scalar(true), s.scalar(false)],
            &none(),
        ),
        &[2, 4],
        &[false, false, false, true, true, false, false, false],
    );
    let sc = s.scalar(1i32);
    expect(
        &s.one(
            "OneHot",
            &[sc, s.scalar(3i32), s.scalar(2.0f64), s.scalar(0.5f64)],
            &none(),
        ),
        &[3],
        &[0.5f64, 2.0, 0.5],
    );
    expect::<f32>(
        &s.one("OneHot", &[idx, s.scalar(0i32), on, off], &none()),
        &[4, 0],
        &[],
    );
}

#[test]
fn one_hot_errors() {
    let s = Env::new();
    let idx = s.v(&[0, 1]);
    let (on, off) = (s.scalar(1.0f32), s.scalar(0.0f32));
    let depth = s.scalar(3i32);
    has(
        &s.err("OneHot", &[idx, s.scalar(-1i32), on, off]),
        &["OneHot", "depth", "-1"],
    );
    has(
        &s.err("OneHot", &[idx, depth, on, s.scalar(0.0f64)]),
        &["'on_value'", "'off_value'", "FLOAT", "DOUBLE"],
    );
    has(
        &s.err_with("OneHot", &[idx, depth, on, off], &int("axis", -2)),
        &["axis", "-2", "[0, 1]"],
    );
    has(
        &s.err_with("OneHot", &[idx, depth, on, off], &int("axis", 2)),
        &["axis", "2"],
    );
    has(
        &s.err("OneHot", &[idx, s.scalar(3i64), on, off]),
        &["'depth'", "INT64"],
    );
    has(
        &s.err("OneHot", &[s.t(&[1], &[0.0f32]), depth, on, off]),
        &["'indices'", "FLOAT"],
    );
    has(
        &s.err("OneHot", &[idx, depth, s.t(&[1], &[1.0f32]), off]),
        &["'on_value'", "scalar"],
    );
}
