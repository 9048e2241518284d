//! The selecting shape ops: Slice, StridedSlice (against Python's slicing),
//! Unpack, Split, GatherV2. Values by hand, buffer sharing, every error
//! class.

use eagerflow::{AttrValue, Attrs, FreeReason};

use super::{expect, f32s, has};
use crate::common::{Env, attr, int, none};

// ---------------------------------------------------------------------------
// Slice

#[test]
fn slice_values() {
    let s = Env::new();
    // [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    let x = s.iota(&[3, 4]);
    expect(
        &s.one("Slice", &[x, s.v(&[1, 1]), s.v(&[2, -1])], &none()),
        &[2, 3],
        &[5f32, 6., 7., 9., 10., 11.],
    );
    expect(
        &s.one("Slice", &[x, s.v64(&[0, 2]), s.v64(&[3, 1])], &none()),
        &[3, 1],
        &[2f32, 6., 10.],
    );
    expect(
        &s.one("Slice", &[x, s.v(&[2, 0]), s.v(&[1, 4])], &none()),
        &[1, 4],
        &[8f32, 9., 10., 11.],
    );
    expect::<f32>(
        &s.one("Slice", &[x, s.v(&[3, 4]), s.v(&[0, 0])], &none()),
        &[0, 0],
        &[],
    );
    // The whole tensor is the input itself.
    let whole = s.one("Slice", &[x, s.v(&[0, 0]), s.v(&[-1, 4])], &none());
    assert!(whole.shares_buffer(&s.s.tensor(x).unwrap()));
    let b = s.t(
        &[2, 2, 2],
        &[true, false, false, true, true, true, false, false],
    );
    expect(
        &s.one("Slice", &[b, s.v(&[1, 0, 1]), s.v(&[1, 2, 1])], &none()),
        &[1, 2, 1],
        &[true, false],
    );
    let sc = s.scalar(3i64);
    expect(
        &s.one("Slice", &[sc, s.v(&[]), s.v(&[])], &none()),
        &[],
        &[3i64],
    );
}

#[test]
fn slice_errors() {
    let s = Env::new();
    let x = s.iota(&[3, 4]);
    has(
        &s.err("Slice", &[x, s.v(&[4, 0]), s.v(&[1, 1])]),
        &["Slice", "begin[0] = 4", "[0, 3]"],
    );
    has(
        &s.err("Slice", &[x, s.v(&[-1, 0]), s.v(&[1, 1])]),
        &["begin[0] = -1"],
    );
    has(
        &s.err("Slice", &[x, s.v(&[1, 1]), s.v(&[1, 4])]),
        &["size[1] = 4", "[0, 3]"],
    );
    has(
        &s.err("Slice", &[x, s.v(&[1, 1]), s.v(&[-2, 1])]),
        &["size[0] = -2"],
    );
    has(
        &s.err("Slice", &[x, s.v(&[1]), s.v(&[1])]),
        &["one entry per dimension", "[3, 4]"],
    );
    has(
        &s.err("Slice", &[x, s.v(&[1, 1]), s.v64(&[1, 1])]),
        &["'begin'", "'size'", "INT32", "INT64"],
    );
}

// ---------------------------------------------------------------------------
// StridedSlice

/// CPython's `slice.indices` followed by `range`: an independent statement
/// of what a 1-D `x[begin:end:stride]` picks.
fn python_slice(len: i64, begin: Option<i64>, end: Option<i64>, step: i64) -> Vec<i64> {
    let (lower, upper) = if step < 0 { (-1, len - 1) } else { (0, len) };
    let fix = |v: Option<i64>, default: i64| match v {
        None => default,
        Some(v) if v < 0 => (v + len).max(lower),
        Some(v) => v.min(upper),
    };
    let start = fix(begin, if step < 0 { upper } else { lower });
    let stop = fix(end, if step < 0 { lower } else { upper });
    let mut out = Vec::new();
    let mut i = start;
    while (step > 0 && i < stop) || (step < 0 && i > stop) {
        out.push(i);
        i += step;
    }
    out
}

#[test]
fn strided_slice_matches_python_slicing_in_1d() {
    let s = Env::new();
    let len = 7usize;
    let data: Vec<i32> = (0..len as i32).map(|i| i * 10).collect();
    let x = s.t(&[len], &data);
    let mut checked = 0;
    for step in [-3i64, -2, -1, 1, 2, 3] {
        for b in -9i64..=9 {
            for e in -9i64..=9 {
                for (bm, em) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let want: Vec<i32> = python_slice(
                        len as i64,
                        (bm == 0).then_some(b),
                        (em == 0).then_some(e),
                        step,
                    )
                    .iter()
                    .map(|&i| data[i as usize])
                    .collect();
                    let attrs = int("begin_mask", bm).with("end_mask", AttrValue::Int(em));
                    let args = [x, s.v64(&[b]), s.v64(&[e]), s.v64(&[step])];
                    let out = s.run("StridedSlice", &args, &attrs).unwrap();
                    expect(&s.s.tensor(out[0]).unwrap(), &[want.len()], &want);
                    // Free as we go to keep the session small.
                    s.s.free_many(&args[1..], FreeReason::Explicit);
                    s.s.free_many(&out, FreeReason::Explicit);
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 6 * 19 * 19 * 4);
}

#[test]
fn strided_slice_2d_and_3d_forms() {
    let s = Env::new();
    // m = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    let m = s.iota(&[3, 4]);
    let ss = |b: &[i32], e: &[i32], st: &[i32], attrs: Attrs| {
        s.one("StridedSlice", &[m, s.v(b), s.v(e), s.v(st)], &attrs)
    };
    // m[1]
    expect(
        &ss(&[1], &[2], &[1], int("shrink_axis_mask", 1)),
        &[4],
        &[4f32, 5., 6., 7.],
    );
    // m[-1]
    expect(
        &ss(&[-1], &[0], &[1], int("shrink_axis_mask", 1)),
        &[4],
        &[8f32, 9., 10., 11.],
    );
    // m[:, 1]
    expect(
        &ss(
            &[0, 1],
            &[0, 2],
            &[1, 1],
            int("begin_mask", 1)
                .with("end_mask", AttrValue::Int(1))
                .with("shrink_axis_mask", AttrValue::Int(2)),
        ),
        &[3],
        &[1f32, 5., 9.],
    );
    // m[..., 1]
    expect(
        &ss(
            &[0, 1],
            &[0, 2],
            &[1, 1],
            int("ellipsis_mask", 1).with("shrink_axis_mask", AttrValue::Int(2)),
        ),
        &[3],
        &[1f32, 5., 9.],
    );
    // m[1, 2] is a scalar
    expect(
        &ss(&[1, 2], &[2, 3], &[1, 1], int("shrink_axis_mask", 3)),
        &[],
        &[6f32],
    );
    // m[None, 1]
    expect(
        &ss(
            &[0, 1],
            &[0, 2],
            &[1, 1],
            int("new_axis_mask", 1).with("shrink_axis_mask", AttrValue::Int(2)),
        ),
        &[1, 4],
        &[4f32, 5., 6., 7.],
    );
    // m[:, None]
    expect(
        &ss(
            &[0, 0],
            &[0, 0],
            &[1, 1],
            int("begin_mask", 1)
                .with("end_mask", AttrValue::Int(1))
                .with("new_axis_mask", AttrValue::Int(2)),
        ),
        &[3, 1, 4],
        &f32s(0..12),
    );
    // m[..., None]
    expect(
        &ss(
            &[0, 0],
            &[0, 0],
            &[1, 1],
            int("ellipsis_mask", 1).with("new_axis_mask", AttrValue::Int(2)),
        ),
        &[3, 4, 1],
        &f32s(0..12),
    );
    // m[::-1, ::2]
    expect(
        &ss(
            &[0, 0],
            &[0, 0],
            &[-1, 2],
            int("begin_mask", 3).with("end_mask", AttrValue::Int(3)),
        ),
        &[3, 2],
        &[8f32, 10., 4., 6., 0., 2.],
    );
    // m[2:0:-1, -1:-5:-2]
    expect(
        &ss(&[2, -1], &[0, -5], &[-1, -2], none()),
        &[2, 2],
        &[11f32, 9., 7., 5.],
    );
    // m[1:1] is empty
    expect::<f32>(&ss(&[1], &[1], &[1], none()), &[0, 4], &[]);
    // m[:] is m itself, sharing the buffer.
    let same = ss(
        &[0],
        &[0],
        &[1],
        int("begin_mask", 1).with("end_mask", AttrValue::Int(1)),
    );
    expect(&same, &[3, 4], &f32s(0..12));
    assert!(same.shares_buffer(&s.s.tensor(m).unwrap()));

    // t[1, ..., ::-2] on t of shape [2, 3, 4]
    let t = s.t(&[2, 3, 4], &(0..24).map(f64::from).collect::<Vec<_>>());
    let out = s.one(
        "StridedSlice",
        &[t, s.v(&[1, 0, 0]), s.v(&[2, 0, 0]), s.v(&[1, 1, -2])],
        &int("ellipsis_mask", 2)
            .with("shrink_axis_mask", AttrValue::Int(1))
            .with("begin_mask", AttrValue::Int(4))
            .with("end_mask", AttrValue::Int(4)),
    );
    expect(&out, &[3, 2], &[15f64, 13., 19., 17., 23., 21.]);
    // t[..., 0, None] keeps the leading dims whole.
    let out = s.one(
        "StridedSlice",
        &[t, s.v(&[0, 0, 0]), s.v(&[0, 1, 0]), s.v(&[1, 1, 1])],
        &int("ellipsis_mask", 1)
            .with("shrink_axis_mask", AttrValue::Int(2))
            .with("new_axis_mask", AttrValue::Int(4)),
    );
    expect(&out, &[2, 3, 1], &[0f64, 4., 8., 12., 16., 20.]);
    // Bool and a scalar input.
    let b = s.t(&[4], &[true, false, true, false]);
    expect(
        &s.one(
            "StridedSlice",
            &[b, s.v(&[1]), s.v(&[4]), s.v(&[2])],
            &none(),
        ),
        &[2],
        &[false, false],
    );
    let sc = s.scalar(5u8);
    expect(
        &s.one(
            "StridedSlice",
            &[sc, s.v(&[0]), s.v(&[0]), s.v(&[1])],
            &int("new_axis_mask", 1),
        ),
        &[1],
        &[5u8],
    );
}

#[test]
fn strided_slice_errors() {
    let s = Env::new();
    let m = s.iota(&[3, 4]);
    let err = |b: &[i32], e: &[i32], st: &[i32], attrs: Attrs| {
        s.err_with("StridedSlice", &[m, s.v(b), s.v(e), s.v(st)], &attrs)
    };
    has(
        &err(&[0], &[1], &[0], none()),
        &["StridedSlice", "strides[0]", "non-zero"],
    );
    has(
        &err(&[0, 0], &[1, 1], &[1, 1], int("ellipsis_mask", 3)),
        &["multiple ellipses"],
    );
    has(
        &err(&[3], &[4], &[1], int("shrink_axis_mask", 1)),
        &["index 3", "out of bounds", "[3, 4]"],
    );
    has(
        &err(&[-4], &[0], &[1], int("shrink_axis_mask", 1)),
        &["index -4", "out of bounds"],
    );
    has(
        &err(&[1], &[2], &[-1], int("shrink_axis_mask", 1)),
        &["positive stride"],
    );
    has(
        &err(&[0, 0, 0], &[1, 1, 1], &[1, 1, 1], none()),
        &["entry 2", "[3, 4]"],
    );
    has(
        &err(&[0, 0], &[1], &[1, 1], none()),
        &["same length", "2, 1 and 2"],
    );
    has(
        &s.err("StridedSlice", &[m, s.v(&[0]), s.v64(&[1]), s.v(&[1])]),
        &["'begin'", "'end'", "INT32", "INT64"],
    );
    has(
        &err(&[0], &[1], &[1], attr("begin_mask", AttrValue::Bool(true))),
        &["begin_mask", "int", "bool"],
    );
}

// ---------------------------------------------------------------------------
// Unpack, Split

#[test]
fn unpack_values() {
    let s = Env::new();
    let x = s.t(&[2, 3], &[0i64, 1, 2, 3, 4, 5]);
    let rows = s.outs("Unpack", &[x], &int("num", 2));
    assert_eq!(rows.len(), 2);
    expect(&rows[0], &[3], &[0i64, 1, 2]);
    expect(&rows[1], &[3], &[3i64, 4, 5]);
    let cols = s.outs(
        "Unpack",
        &[x],
        &int("num", 3).with("axis", AttrValue::Int(-1)),
    );
    assert_eq!(cols.len(), 3);
    expect(&cols[0], &[2], &[0i64, 3]);
    expect(&cols[1], &[2], &[1i64, 4]);
    expect(&cols[2], &[2], &[2i64, 5]);
    let v = s.t(&[2], &[true, false]);
    let parts = s.outs("Unpack", &[v], &int("num", 2));
    expect(&parts[0], &[], &[true]);
    expect(&parts[1], &[], &[false]);
    let e = s.t::<f32>(&[0, 3], &[]);
    assert!(s.outs("Unpack", &[e], &int("num", 0)).is_empty());

    has(&s.err("Unpack", &[x]), &["Unpack", "'num'", "required"]);
    has(
        &s.err_with("Unpack", &[x], &int("num", 3)),
        &["'num' is 3", "[2, 3]", "is 2"],
    );
    has(
        &s.err_with("Unpack", &[x], &attr("num", AttrValue::Float(2.0))),
        &["'num'", "int", "float"],
    );
    has(
        &s.err_with(
            "Unpack",
            &[x],
            &int("num", 2).with("axis", AttrValue::Int(2)),
        ),
        &["axis 2", "out of range"],
    );
    let sc = s.scalar(1i32);
    has(&s.err_with("Unpack", &[sc], &int("num", 1)), &["rank 0"]);
}

#[test]
fn split_values() {
    let s = Env::new();
    // [[0, 1, 2, 3], [4, 5, 6, 7]]
    let x = s.iota(&[2, 4]);
    let parts = s.outs("Split", &[s.scalar(1i32), x], &int("num_split", 2));
    assert_eq!(parts.len(), 2);
    expect(&parts[0], &[2, 2], &[0f32, 1., 4., 5.]);
    expect(&parts[1], &[2, 2], &[2f32, 3., 6., 7.]);
    let rows = s.outs("Split", &[s.scalar(-2i32), x], &int("num_split", 2));
    expect(&rows[0], &[1, 4], &[0f32, 1., 2., 3.]);
    expect(&rows[1], &[1, 4], &[4f32, 5., 6., 7.]);
    let four = s.outs("Split", &[s.scalar(1i32), x], &int("num_split", 4));
    expect(&four[3], &[2, 1], &[3f32, 7.]);
    let whole = s.outs("Split", &[s.scalar(0i32), x], &int("num_split", 1));
    assert!(whole[0].shares_buffer(&s.s.tensor(x).unwrap()));
    let u = s.t(&[3], &[7u8, 8, 9]);
    let us = s.outs("Split", &[s.scalar(0i32), u], &int("num_split", 3));
    expect(&us[2], &[1], &[9u8]);
    // A zero-size dimension splits into any number of empty parts.
    let e = s.t::<i32>(&[0, 2], &[]);
    let es = s.outs("Split", &[s.scalar(0i32), e], &int("num_split", 3));
    assert_eq!(es.len(), 3);
    expect::<i32>(&es[1], &[0, 2], &[]);

    has(
        &s.err_with("Split", &[s.scalar(1i32), x], &int("num_split", 3)),
        &["Split", "num_split 3", "evenly", "[2, 4]"],
    );
    has(
        &s.err("Split", &[s.scalar(1i32), x]),
        &["'num_split'", "required"],
    );
    has(
        &s.err_with("Split", &[s.scalar(1i32), x], &int("num_split", 0)),
        &["at least 1"],
    );
    has(
        &s.err_with("Split", &[s.scalar(2i32), x], &int("num_split", 1)),
        &["split_dim 2", "out of range"],
    );
    has(
        &s.err_with("Split", &[s.scalar(1i64), x], &int("num_split", 2)),
        &["'split_dim'", "INT64", "INT32"],
    );
    has(
        &s.err_with("Split", &[s.scalar(0i32), e], &int("num_split", 1 << 40)),
        &["outputs"],
    );
}

// ---------------------------------------------------------------------------
// GatherV2

#[test]
fn gather_values() {
    let s = Env::new();
    // p = [[0, 1], [2, 3], [4, 5]]
    let p = s.t(&[3, 2], &[0i32, 1, 2, 3, 4, 5]);
    let zero = s.scalar(0i32);
    expect(
        &s.one("GatherV2", &[p, s.v(&[2, 0, 2]), zero], &none()),
        &[3, 2],
        &[4i32, 5, 0, 1, 4, 5],
    );
    expect(
        &s.one("GatherV2", &[p, s.scalar(1i64), zero], &none()),
        &[2],
        &[2i32, 3],
    );
    let idx = s.t(&[2, 2], &[1i64, 0, 1, 1]);
    expect(
        &s.one("GatherV2", &[p, idx, s.scalar(-1i64)], &none()),
        &[3, 2, 2],
        &[1i32, 0, 1, 1, 3, 2, 3, 3, 5, 4, 5, 5],
    );
    expect::<i32>(
        &s.one("GatherV2", &[p, s.v(&[]), zero], &none()),
        &[0, 2],
        &[],
    );
    let f = s.t(&[4], &[0.5f64, 1.5, 2.5, 3.5]);
    expect(
        &s.one("GatherV2", &[f, s.v(&[3, 3, 0]), zero], &none()),
        &[3],
        &[3.5f64, 3.5, 0.5],
    );
    // batch_dims = 1: row b picks from params[b].
    // q = [[0, 1, 2], [3, 4, 5]]
    let q = s.t(&[2, 3], &[0f32, 1., 2., 3., 4., 5.]);
    let bi = s.t(&[2, 2], &[2i32, 0, 1, 1]);
    expect(
        &s.one("GatherV2", &[q, bi, s.scalar(1i32)], &int("batch_dims", 1)),
        &[2, 2],
        &[2f32, 0., 4., 4.],
    );
    expect(
        &s.one("GatherV2", &[q, bi, s.scalar(1i32)], &int("batch_dims", -1)),
        &[2, 2],
        &[2f32, 0., 4., 4.],
    );
}

#[test]
fn gather_errors() {
    let s = Env::new();
    let p = s.t(&[3, 2], &[0i32, 1, 2, 3, 4, 5]);
    let zero = s.scalar(0i32);
    has(
        &s.err("GatherV2", &[p, s.v(&[0, 5]), zero]),
        &["GatherV2", "indices[1] = 5", "[0, 3)"],
    );
    let idx = s.t(&[2, 2], &[0i64, 1, -1, 0]);
    has(
        &s.err("GatherV2", &[p, idx, zero]),
        &["indices[1, 0] = -1", "[0, 3)"],
    );
    has(
        &s.err("GatherV2", &[p, s.t(&[1], &[0f32]), zero]),
        &["'indices'", "FLOAT"],
    );
    has(
        &s.err("GatherV2", &[p, s.v(&[0]), s.scalar(2i32)]),
        &["axis 2", "out of range"],
    );
    has(
        &s.err("GatherV2", &[p, s.v(&[0]), s.v(&[0])]),
        &["'axis'", "scalar"],
    );
    has(
        &s.err_with("GatherV2", &[p, s.v(&[0]), zero], &int("batch_dims", 2)),
        &["batch_dims 2", "out of range"],
    );
    let bi = s.t(&[2, 1], &[0i32, 0]);
    has(
        &s.err_with("GatherV2", &[p, bi, s.scalar(1i32)], &int("batch_dims", 1)),
        &["[3, 2]", "[2, 1]", "batch_dims"],
    );
    let pi = s.t(&[3, 1], &[0i32, 0, 0]);
    has(
        &s.err_with("GatherV2", &[p, pi, zero], &int("batch_dims", 1)),
        &["batch_dims 1", "axis 0"],
    );
    has(
        &s.err_with(
            "GatherV2",
            &[p, s.v(&[0]), zero],
            &attr("batch_dims", AttrValue::Ints(vec![0])),
        ),
        &["batch_dims", "int", "list(int)"],
    );
}
