//! GatherNd, ScatterNd, TensorScatterUpdate and TensorScatterAdd.

use super::{expect, has};
use crate::common::{Env, none};

#[test]
fn gather_nd_values() {
    let s = Env::new();
    // TensorFlow's examples: whole elements, rows, and a batch of them.
    let p = s.t(&[2, 2], &[1i32, 2, 3, 4]);
    expect(
        &s.one("GatherNd", &[p, s.t(&[2, 2], &[0i32, 0, 1, 1])], &none()),
        &[2],
        &[1, 4],
    );
    expect(
        &s.one("GatherNd", &[p, s.t(&[2, 1], &[1i64, 0])], &none()),
        &[2, 2],
        &[3, 4, 1, 2],
    );
    let p3 = s.iota(&[2, 2, 2]);
    expect(
        &s.one(
            "GatherNd",
            &[p3, s.t(&[2, 1, 2], &[0i32, 1, 1, 0])],
            &none(),
        ),
        &[2, 1, 2],
        &[2f32, 3., 4., 5.],
    );
    // An index of depth 0 selects the whole tensor; a lone index vector gives one slice.
    expect(
        &s.one("GatherNd", &[p, s.t::<i32>(&[3, 0], &[])], &none()),
        &[3, 2, 2],
        &[1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4],
    );
    expect(&s.one("GatherNd", &[p, s.v(&[1, 0])], &none()), &[], &[3]);
    // No rows: nothing read, even of an empty params.
    let e = s.t::<bool>(&[0, 3], &[]);
    expect::<bool>(
        &s.one("GatherNd", &[e, s.t::<i32>(&[0, 1], &[])], &none()),
        &[0, 3],
        &[],
    );
}

#[test]
fn gather_nd_errors() {
    let s = Env::new();
    let p = s.t(&[2, 2], &[1i32, 2, 3, 4]);
    has(
        &s.err("GatherNd", &[p, s.t(&[2, 2], &[0i32, 0, 2, 0])]),
        &["indices[1] = [2, 0]", "params of shape [2, 2]"],
    );
    has(
        &s.err("GatherNd", &[p, s.t(&[1, 1, 1], &[-1i64])]),
        &["indices[0, 0] = [-1]"],
    );
    has(
        &s.err("GatherNd", &[p, s.t(&[1, 3], &[0i32, 0, 0])]),
        &["innermost dimension (3)", "rank of params (2)"],
    );
    has(
        &s.err("GatherNd", &[p, s.scalar(0i32)]),
        &["at least a vector"],
    );
    has(
        &s.err("GatherNd", &[p, s.t(&[1, 1], &[0f32])]),
        &["indices", "INT32 or INT64"],
    );
    let e = s.t::<f32>(&[0, 2], &[]);
    has(
        &s.err("GatherNd", &[e, s.t(&[1, 0], &[0i32; 0])]),
        &["params is empty"],
    );
    let big = s.t(&[1, 1], &[i32::MAX]);
    has(&s.err("GatherNd", &[p, big]), &["2147483647"]);
}

#[test]
fn scatter_nd_values() {
    let s = Env::new();
    // TensorFlow's example: four elements into a vector of 8.
    let i = s.t(&[4, 1], &[4i32, 3, 1, 7]);
    let u = s.t(&[4], &[9f32, 10., 11., 12.]);
    expect(
        &s.one("ScatterNd", &[i, u, s.v(&[8])], &none()),
        &[8],
        &[0f32, 11., 0., 10., 9., 0., 0., 12.],
    );
    // Slices, and duplicates that add up (wrapping for integers).
    let i = s.t(&[3, 1], &[0i64, 2, 0]);
    let u = s.t(&[3, 2], &[1i32, 2, 3, 4, i32::MAX, 5]);
    expect(
        &s.one("ScatterNd", &[i, u, s.v64(&[3, 2])], &none()),
        &[3, 2],
        &[i32::MIN, 7, 0, 0, 3, 4],
    );
    // No updates: zeros of the shape.
    let i = s.t::<i32>(&[0, 1], &[]);
    let u = s.t::<u8>(&[0, 2], &[]);
    expect(
        &s.one("ScatterNd", &[i, u, s.v(&[2, 2])], &none()),
        &[2, 2],
        &[0u8; 4],
    );
}

#[test]
fn scatter_nd_errors() {
    let s = Env::new();
    let i = s.t(&[2, 1], &[0i32, 5]);
    let u = s.t(&[2], &[1f64, 2.]);
    has(
        &s.err("ScatterNd", &[i, u, s.v(&[4])]),
        &["indices[1] = [5]", "shape of shape [4]"],
    );
    has(
        &s.err("ScatterNd", &[i, s.t(&[3], &[1f64, 2., 3.]), s.v(&[4])]),
        &["'updates' has shape [3]", "must have shape [2]"],
    );
    has(
        &s.err("ScatterNd", &[i, u, s.v(&[-4])]),
        &["shape[0] = -4", "non-negative"],
    );
    has(
        &s.err("ScatterNd", &[i, u, s.v64(&[4])]),
        &["'indices' and 'shape'", "INT32 and INT64"],
    );
    has(&s.err("ScatterNd", &[i, u, s.v(&[0])]), &["empty"]);
    let b = s.t(&[2], &[true, false]);
    has(
        &s.err("ScatterNd", &[i, b, s.v(&[6])]),
        &["'updates'", "BOOL"],
    );
}

#[test]
fn tensor_scatter_values() {
    let s = Env::new();
    let t = s.t(&[2, 3], &[1i64, 2, 3, 4, 5, 6]);
    let i = s.t(&[2, 1], &[1i32, 1]);
    let u = s.t(&[2, 3], &[10i64, 20, 30, 40, 50, 60]);
    // Update: the last of duplicates wins. Add: they add up.
    expect(
        &s.one("TensorScatterUpdate", &[t, i, u], &none()),
        &[2, 3],
        &[1i64, 2, 3, 40, 50, 60],
    );
    expect(
        &s.one("TensorScatterAdd", &[t, i, u], &none()),
        &[2, 3],
        &[1i64, 2, 3, 54, 75, 96],
    );
    // Elements, a BOOL update, and no updates at all.
    let b = s.t(&[3], &[false, false, false]);
    let i = s.t(&[1, 1], &[2i64]);
    expect(
        &s.one("TensorScatterUpdate", &[b, i, s.t(&[1], &[true])], &none()),
        &[3],
        &[false, false, true],
    );
    let f = s.t(&[2], &[1f32, f32::INFINITY]);
    let none_i = s.t::<i32>(&[0, 1], &[]);
    let none_u = s.t::<f32>(&[0], &[]);
    expect(
        &s.one("TensorScatterAdd", &[f, none_i, none_u], &none()),
        &[2],
        &[1f32, f32::INFINITY],
    );
    // The input is left as it was.
    assert_eq!(s.get::<i64>(t).1, vec![1, 2, 3, 4, 5, 6]);
}

#[test]
fn tensor_scatter_errors() {
    let s = Env::new();
    let t = s.t(&[2, 3], &[0f32; 6]);
    let i = s.t(&[1, 1], &[2i32]);
    let u = s.t(&[1, 3], &[1f32; 3]);
    has(
        &s.err("TensorScatterUpdate", &[t, i, u]),
        &["indices[0] = [2]", "tensor of shape [2, 3]"],
    );
    has(
        &s.err(
            "TensorScatterAdd",
            &[t, s.t(&[1, 1], &[0i32]), s.t(&[1, 2], &[1f32; 2])],
        ),
        &["'updates' has shape [1, 2]", "[1, 3]"],
    );
    has(
        &s.err("TensorScatterAdd", &[t, i, s.t(&[1, 3], &[1f64; 3])]),
        &["'tensor' and 'updates'", "FLOAT and DOUBLE"],
    );
    let b = s.t(&[2], &[true, true]);
    has(
        &s.err(
            "TensorScatterAdd",
            &[b, s.t(&[1, 1], &[0i32]), s.t(&[1], &[false])],
        ),
        &["'tensor'", "BOOL"],
    );
    has(
        &s.err("TensorScatterUpdate", &[t, s.t(&[1, 1], &[0f32]), u]),
        &["'indices'", "INT32, INT64"],
    );
}
