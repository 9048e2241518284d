//! The joining shape ops: ConcatV2, Pack, Tile, BroadcastTo. Values by
//! hand, list arguments, buffer sharing, every error class.

use super::{expect, has};
use crate::common::{Env, int, none};

// ---------------------------------------------------------------------------
// ConcatV2, Pack

#[test]
fn concat_values() {
    let s = Env::new();
    let a = s.t(&[2, 2], &[1i32, 2, 3, 4]);
    let b = s.t(&[2, 1], &[5i32, 6]);
    let c = s.t(&[2, 3], &[7i32, 8, 9, 10, 11, 12]);
    expect(
        &s.one_list("ConcatV2", &[a, b, s.scalar(1i32)], &[2, -1], &none()),
        &[2, 3],
        &[1i32, 2, 5, 3, 4, 6],
    );
    expect(
        &s.one_list("ConcatV2", &[a, b, c, s.scalar(-1i64)], &[3, -1], &none()),
        &[2, 6],
        &[1i32, 2, 5, 7, 8, 9, 3, 4, 6, 10, 11, 12],
    );
    let d = s.t(&[1, 2], &[0i32, -1]);
    expect(
        &s.one_list("ConcatV2", &[a, d, s.scalar(0i32)], &[2, -1], &none()),
        &[3, 2],
        &[1i32, 2, 3, 4, 0, -1],
    );
    // Empty parts contribute nothing.
    let e = s.t::<i32>(&[2, 0], &[]);
    expect(
        &s.one_list("ConcatV2", &[e, b, e, s.scalar(1i32)], &[3, -1], &none()),
        &[2, 1],
        &[5i32, 6],
    );
    // One input is the input.
    let only = s.one_list("ConcatV2", &[a, s.scalar(0i32)], &[1, -1], &none());
    assert!(only.shares_buffer(&s.s.tensor(a).unwrap()));
    // Other dtypes.
    let f = s.t(&[2], &[true, false]);
    let g = s.t(&[1], &[true]);
    expect(
        &s.one_list("ConcatV2", &[f, g, s.scalar(0i32)], &[2, -1], &none()),
        &[3],
        &[true, false, true],
    );
    let x = s.t(&[1, 1, 2], &[1.5f64, 2.5]);
    let y = s.t(&[1, 1, 2], &[3.5f64, 4.5]);
    expect(
        &s.one_list("ConcatV2", &[x, y, s.scalar(1i32)], &[2, -1], &none()),
        &[1, 2, 2],
        &[1.5f64, 2.5, 3.5, 4.5],
    );
}

#[test]
fn concat_errors() {
    let s = Env::new();
    let a = s.t(&[2, 2], &[1i32, 2, 3, 4]);
    let b = s.t(&[2, 2], &[1f32, 2., 3., 4.]);
    let c = s.t(&[3, 3], &[0i32; 9]);
    let axis = s.scalar(0i32);
    let run = |inputs: &[u64], lens: &[i32]| s.err_list("ConcatV2", inputs, lens, &none());
    has(
        &run(&[a, b, axis], &[2, -1]),
        &["ConcatV2", "values[1]", "FLOAT", "INT32"],
    );
    has(
        &run(&[a, c, axis], &[2, -1]),
        &["values[1]", "[3, 3]", "[2, 2]"],
    );
    let r1 = s.t(&[4], &[0i32; 4]);
    has(&run(&[a, r1, axis], &[2, -1]), &["values[1]", "[4]"]);
    let sc = s.scalar(1i32);
    has(&run(&[sc, sc, axis], &[2, -1]), &["scalars"]);
    has(
        &run(&[a, a, s.scalar(2i32)], &[2, -1]),
        &["axis 2", "out of range", "rank 2"],
    );
    has(&run(&[a, a, s.v(&[0])], &[2, -1]), &["'axis'", "scalar"]);
    has(&run(&[axis], &[0, -1]), &["at least one"]);
    // Arity: the list must be given as a list.
    has(&s.err("ConcatV2", &[a, a, axis]), &["list"]);
    has(&run(&[a, a, a], &[1, -1]), &["add up to 2", "3 were given"]);
}

#[test]
fn pack_values() {
    let s = Env::new();
    let a = s.v(&[1, 2]);
    let b = s.v(&[3, 4]);
    let c = s.v(&[5, 6]);
    expect(
        &s.one_list("Pack", &[a, b, c], &[3], &none()),
        &[3, 2],
        &[1i32, 2, 3, 4, 5, 6],
    );
    expect(
        &s.one_list("Pack", &[a, b, c], &[3], &int("axis", 1)),
        &[2, 3],
        &[1i32, 3, 5, 2, 4, 6],
    );
    expect(
        &s.one_list("Pack", &[a, b, c], &[3], &int("axis", -1)),
        &[2, 3],
        &[1i32, 3, 5, 2, 4, 6],
    );
    let x = s.scalar(1.5f32);
    let y = s.scalar(-2.5f32);
    expect(
        &s.one_list("Pack", &[x, y], &[2], &none()),
        &[2],
        &[1.5f32, -2.5],
    );
    let one = s.one_list("Pack", &[x], &[1], &none());
    expect(&one, &[1], &[1.5f32]);
    let e = s.t::<u8>(&[0, 2], &[]);
    expect::<u8>(
        &s.one_list("Pack", &[e, e], &[2], &int("axis", 1)),
        &[0, 2, 2],
        &[],
    );

    let bad = s.v(&[1, 2, 3]);
    has(
        &s.err_list("Pack", &[a, bad], &[2], &none()),
        &["Pack", "values[1]", "[3]", "[2]"],
    );
    let f = s.t(&[2], &[1f64, 2.]);
    has(
        &s.err_list("Pack", &[a, f], &[2], &none()),
        &["values[1]", "DOUBLE", "INT32"],
    );
    has(
        &s.err_list("Pack", &[a, b], &[2], &int("axis", 2)),
        &["axis 2", "out of range"],
    );
    has(
        &s.err_list("Pack", &[a, b], &[2], &int("axis", -3)),
        &["axis -3"],
    );
    has(&s.err_list("Pack", &[], &[0], &none()), &["at least one"]);
}

// ---------------------------------------------------------------------------
// Tile, BroadcastTo

/// Tile by index arithmetic, one element at a time.
fn naive_tile(data: &[i32], shape: &[usize], reps: &[usize]) -> (Vec<usize>, Vec<i32>) {
    let out_shape: Vec<usize> = shape.iter().zip(reps).map(|(s, r)| s * r).collect();
    let n: usize = out_shape.iter().product();
    let mut out = Vec::with_capacity(n);
    for flat in 0..n {
        let mut rest = flat;
        let mut src = 0;
        let mut stride = 1;
        for d in (0..shape.len()).rev() {
            let c = rest % out_shape[d];
            rest /= out_shape[d];
            src += (c % shape[d]) * stride;
            stride *= shape[d];
        }
        out.push(data[src]);
    }
    (out_shape, out)
}

#[test]
fn tile_values() {
    let s = Env::new();
    let x = s.t(&[2, 2], &[1i32, 2, 3, 4]);
    expect(
        &s.one("Tile", &[x, s.v(&[2, 3])], &none()),
        &[4, 6],
        &[
            1i32, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4, 1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4,
        ],
    );
    let y = s.t(&[2, 2, 1], &[1.0f32, 2.0, 3.0, 4.0]);
    expect(
        &s.one("Tile", &[y, s.v64(&[1, 2, 2])], &none()),
        &[2, 4, 2],
        &[
            1f32, 1., 2., 2., 1., 1., 2., 2., 3., 3., 4., 4., 3., 3., 4., 4.,
        ],
    );
    let b = s.t(&[2], &[true, false]);
    expect(
        &s.one("Tile", &[b, s.v(&[3])], &none()),
        &[6],
        &[true, false, true, false, true, false],
    );
    expect::<i32>(&s.one("Tile", &[x, s.v(&[0, 5])], &none()), &[0, 10], &[]);
    let sc = s.scalar(7u8);
    expect(&s.one("Tile", &[sc, s.v(&[])], &none()), &[], &[7u8]);
    let same = s.one("Tile", &[x, s.v(&[1, 1])], &none());
    assert!(same.shares_buffer(&s.s.tensor(x).unwrap()));

    for (shape, reps) in [
        (vec![3usize], vec![4usize]),
        (vec![2, 3], vec![3, 1]),
        (vec![2, 3], vec![1, 3]),
        (vec![1, 2, 3], vec![2, 2, 2]),
        (vec![2, 1, 2, 1], vec![1, 3, 2, 2]),
        (vec![3, 2, 2], vec![2, 1, 3]),
    ] {
        let n: usize = shape.iter().product();
        let data: Vec<i32> = (0..n as i32).collect();
        let h = s.t(&shape, &data);
        let r: Vec<i32> = reps.iter().map(|&r| r as i32).collect();
        let (want_shape, want) = naive_tile(&data, &shape, &reps);
        expect(&s.one("Tile", &[h, s.v(&r)], &none()), &want_shape, &want);
    }

    has(
        &s.err("Tile", &[x, s.v(&[2])]),
        &["Tile", "multiples", "[2, 2]"],
    );
    has(&s.err("Tile", &[x, s.v(&[2, -1])]), &["multiples[1] = -1"]);
    has(
        &s.err("Tile", &[x, s.v64(&[1 << 62, 1 << 62])]),
        &["too many elements"],
    );
}

#[test]
fn broadcast_to_values() {
    let s = Env::new();
    let v = s.t(&[3], &[1i64, 2, 3]);
    expect(
        &s.one("BroadcastTo", &[v, s.v(&[2, 3])], &none()),
        &[2, 3],
        &[1i64, 2, 3, 1, 2, 3],
    );
    let c = s.t(&[2, 1], &[1.5f32, 2.5]);
    expect(
        &s.one("BroadcastTo", &[c, s.v64(&[2, 3])], &none()),
        &[2, 3],
        &[1.5f32, 1.5, 1.5, 2.5, 2.5, 2.5],
    );
    expect(
        &s.one("BroadcastTo", &[c, s.v(&[2, 2, 2])], &none()),
        &[2, 2, 2],
        &[1.5f32, 1.5, 2.5, 2.5, 1.5, 1.5, 2.5, 2.5],
    );
    let sc = s.scalar(false);
    expect(
        &s.one("BroadcastTo", &[sc, s.v(&[2, 2])], &none()),
        &[2, 2],
        &[false; 4],
    );
    let one = s.t(&[1], &[9u8]);
    expect::<u8>(&s.one("BroadcastTo", &[one, s.v(&[0])], &none()), &[0], &[]);
    let same = s.one("BroadcastTo", &[v, s.v(&[3])], &none());
    assert!(same.shares_buffer(&s.s.tensor(v).unwrap()));

    has(
        &s.err("BroadcastTo", &[v, s.v(&[2, 4])]),
        &["BroadcastTo", "[3]", "[2, 4]"],
    );
    has(&s.err("BroadcastTo", &[c, s.v(&[3])]), &["[2, 1]", "[3]"]);
    has(
        &s.err("BroadcastTo", &[v, s.v(&[-1, 3])]),
        &["shape[0] = -1"],
    );
    has(
        &s.err("BroadcastTo", &[sc, s.v64(&[1 << 40, 1 << 40])]),
        &["too many elements"],
    );
}
