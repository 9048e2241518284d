//! Pad, PadV2, MirrorPad, ReverseV2, Roll and Where.

use eagerflow::AttrValue;

use super::{expect, has};
use crate::common::{Env, attr, none};

fn mode(m: &str) -> eagerflow::Attrs {
    attr("mode", AttrValue::Str(m.into()))
}

#[test]
fn pad_values() {
    let s = Env::new();
    // TensorFlow's example: [[1, 1], [2, 2]] padded by [[1, 1], [2, 2]].
    let t = s.t(&[2, 2], &[1i32, 1, 2, 2]);
    let p = s.t(&[2, 2], &[1i32, 1, 2, 2]);
    #[rustfmt::skip]
    let want = [
        0, 0, 0, 0, 0, 0,
        0, 0, 1, 1, 0, 0,
        0, 0, 2, 2, 0, 0,
        0, 0, 0, 0, 0, 0,
    ];
    expect(&s.one("Pad", &[t, p], &none()), &[4, 6], &want);
    // PadV2 with a fill value, INT64 paddings, a float NaN kept.
    let x = s.t(&[3], &[1f32, f32::NAN, 3.]);
    let p = s.t(&[1, 2], &[2i64, 1]);
    let out = s.one("PadV2", &[x, p, s.scalar(-1f32)], &none());
    let v = out.as_slice::<f32>().unwrap();
    assert_eq!(out.shape(), &[6]);
    assert_eq!([v[0], v[1], v[2], v[4], v[5]], [-1., -1., 1., 3., -1.]);
    assert!(v[3].is_nan());
    // Rank 0: paddings [0, 2] leave it as it is.
    let sc = s.scalar(7u8);
    expect(
        &s.one("Pad", &[sc, s.t::<i32>(&[0, 2], &[])], &none()),
        &[],
        &[7u8],
    );
    // Padding an empty dimension; an empty output from a huge padding of an
    // empty one needs no memory.
    let e = s.t::<bool>(&[0, 2], &[]);
    expect(
        &s.one("Pad", &[e, s.t(&[2, 2], &[1i32, 0, 0, 1])], &none()),
        &[1, 3],
        &[false, false, false],
    );
    let big = s.t(&[2, 2], &[0i64, 0, 1 << 40, 1 << 40]);
    let e2 = s.t::<f64>(&[0, 1], &[]);
    expect::<f64>(&s.one("Pad", &[e2, big], &none()), &[0, (1 << 41) + 1], &[]);
}

#[test]
fn pad_errors() {
    let s = Env::new();
    let x = s.t(&[2, 2], &[1f32, 2., 3., 4.]);
    has(
        &s.err("Pad", &[x, s.t(&[2], &[1i32, 1])]),
        &["paddings", "2 columns", "[2]"],
    );
    has(
        &s.err("Pad", &[x, s.t(&[1, 2], &[1i32, 1])]),
        &["paddings", "[1, 2]", "rank, 2"],
    );
    has(
        &s.err("Pad", &[x, s.t(&[2, 2], &[0i32, 0, -1, 0])]),
        &["paddings[1] = [-1, 0]", "non-negative"],
    );
    has(
        &s.err("Pad", &[x, s.t(&[2, 2], &[0f32, 0., 0., 0.])]),
        &["paddings", "INT32 or INT64", "FLOAT"],
    );
    let p = s.t(&[2, 2], &[0i32, 0, 0, 0]);
    has(
        &s.err("PadV2", &[x, p, s.scalar(0i32)]),
        &["'input' and 'constant_values'", "FLOAT and INT32"],
    );
    has(
        &s.err("PadV2", &[x, p, s.t(&[1], &[0f32])]),
        &["constant_values", "scalar", "[1]"],
    );
    let huge = s.t(&[2, 2], &[i64::MAX, i64::MAX, 0, 0]);
    has(&s.err("Pad", &[x, huge]), &["too large"]);
}

#[test]
fn mirror_pad_values() {
    let s = Env::new();
    // TensorFlow's examples: [[1, 2, 3], [4, 5, 6]] padded by [[1, 1], [2, 2]].
    let t = s.t(&[2, 3], &[1i32, 2, 3, 4, 5, 6]);
    let p = s.t(&[2, 2], &[1i32, 1, 2, 2]);
    #[rustfmt::skip]
    let reflect = [
        6, 5, 4, 5, 6, 5, 4,
        3, 2, 1, 2, 3, 2, 1,
        6, 5, 4, 5, 6, 5, 4,
        3, 2, 1, 2, 3, 2, 1,
    ];
    #[rustfmt::skip]
    let symmetric = [
        2, 1, 1, 2, 3, 3, 2,
        2, 1, 1, 2, 3, 3, 2,
        5, 4, 4, 5, 6, 6, 5,
        5, 4, 4, 5, 6, 6, 5,
    ];
    expect(
        &s.one("MirrorPad", &[t, p], &mode("REFLECT")),
        &[4, 7],
        &reflect,
    );
    expect(
        &s.one("MirrorPad", &[t, p], &mode("SYMMETRIC")),
        &[4, 7],
        &symmetric,
    );
    // The largest paddings each mode allows.
    let v = s.t(&[3], &[1.5f64, 2.5, 3.5]);
    expect(
        &s.one(
            "MirrorPad",
            &[v, s.t(&[1, 2], &[3i32, 3])],
            &mode("SYMMETRIC"),
        ),
        &[9],
        &[3.5, 2.5, 1.5, 1.5, 2.5, 3.5, 3.5, 2.5, 1.5],
    );
    expect(
        &s.one(
            "MirrorPad",
            &[v, s.t(&[1, 2], &[2i32, 2])],
            &mode("REFLECT"),
        ),
        &[7],
        &[3.5, 2.5, 1.5, 2.5, 3.5, 2.5, 1.5],
    );
}

#[test]
fn mirror_pad_errors() {
    let s = Env::new();
    let v = s.t(&[3], &[1i64, 2, 3]);
    has(
        &s.err_with(
            "MirrorPad",
            &[v, s.t(&[1, 2], &[3i32, 0])],
            &mode("REFLECT"),
        ),
        &["paddings[0] = [3, 0]", "no greater than", "size 3 less 1"],
    );
    has(
        &s.err_with(
            "MirrorPad",
            &[v, s.t(&[1, 2], &[0i32, 4])],
            &mode("SYMMETRIC"),
        ),
        &["paddings[0] = [0, 4]", "size 3 less 0"],
    );
    let p = s.t(&[1, 2], &[1i32, 1]);
    has(
        &s.err_with("MirrorPad", &[v, p], &mode("CONSTANT")),
        &["mode", "REFLECT or SYMMETRIC", "CONSTANT"],
    );
    has(&s.err("MirrorPad", &[v, p]), &["'mode' is required"]);
    // An empty dimension cannot be reflected, but may stay unpadded.
    let e = s.t::<i64>(&[0], &[]);
    has(
        &s.err_with("MirrorPad", &[e, p], &mode("SYMMETRIC")),
        &["no greater than"],
    );
    let zero = s.t(&[1, 2], &[0i32, 0]);
    expect::<i64>(&s.one("MirrorPad", &[e, zero], &mode("REFLECT")), &[0], &[]);
}

#[test]
fn reverse_values() {
    let s = Env::new();
    let x = s.iota(&[2, 3, 2]);
    expect(
        &s.one("ReverseV2", &[x, s.v(&[1])], &none()),
        &[2, 3, 2],
        &[4f32, 5., 2., 3., 0., 1., 10., 11., 8., 9., 6., 7.],
    );
    expect(
        &s.one("ReverseV2", &[x, s.v64(&[-1, 0])], &none()),
        &[2, 3, 2],
        &[7f32, 6., 9., 8., 11., 10., 1., 0., 3., 2., 5., 4.],
    );
    // No axis, or only axes of size 1: the input itself.
    let same = s.one("ReverseV2", &[x, s.v(&[])], &none());
    assert!(same.shares_buffer(&s.s.tensor(x).unwrap()));
    let b = s.t(&[1, 3], &[true, false, false]);
    expect(
        &s.one("ReverseV2", &[b, s.v(&[1])], &none()),
        &[1, 3],
        &[false, false, true],
    );
    let sc = s.scalar(i32::MIN);
    expect(
        &s.one("ReverseV2", &[sc, s.v(&[])], &none()),
        &[],
        &[i32::MIN],
    );
}

#[test]
fn reverse_errors() {
    let s = Env::new();
    let x = s.iota(&[2, 3]);
    has(
        &s.err("ReverseV2", &[x, s.v(&[2])]),
        &["axis 2 is out of range", "rank 2"],
    );
    has(
        &s.err("ReverseV2", &[x, s.v(&[1, -1])]),
        &["axis -1 specified more than once"],
    );
    has(
        &s.err("ReverseV2", &[x, s.scalar(0i32)]),
        &["'axis' must be a vector"],
    );
}

#[test]
fn roll_values() {
    let s = Env::new();
    // TensorFlow's examples.
    let t = s.t(&[5], &[0i32, 1, 2, 3, 4]);
    expect(
        &s.one("Roll", &[t, s.scalar(2i32), s.scalar(0i32)], &none()),
        &[5],
        &[3, 4, 0, 1, 2],
    );
    let m = s.t(&[2, 5], &[0i64, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(
        &s.one("Roll", &[m, s.v(&[1, -2]), s.v(&[0, 1])], &none()),
        &[2, 5],
        &[7i64, 8, 9, 5, 6, 2, 3, 4, 0, 1],
    );
    // Shifts of one axis add up; a full turn is the input itself.
    expect(
        &s.one("Roll", &[m, s.v(&[2, -3]), s.v(&[1, 1])], &none()),
        &[2, 5],
        &[1i64, 2, 3, 4, 0, 6, 7, 8, 9, 5],
    );
    let same = s.one(
        "Roll",
        &[m, s.v64(&[i64::MAX - 2, 3]), s.v(&[0, 0])],
        &none(),
    );
    // i64::MAX + 1 is even: a whole number of turns of a dimension of 2.
    assert!(same.shares_buffer(&s.s.tensor(m).unwrap()));
    let e = s.t::<f32>(&[0, 3], &[]);
    expect::<f32>(
        &s.one("Roll", &[e, s.scalar(1i32), s.scalar(1i32)], &none()),
        &[0, 3],
        &[],
    );
}

#[test]
fn roll_errors() {
    let s = Env::new();
    let m = s.iota(&[2, 2]);
    has(
        &s.err("Roll", &[m, s.v(&[1, 1]), s.v(&[0])]),
        &["'shift' and 'axis'", "2 and 1"],
    );
    has(
        &s.err("Roll", &[m, s.scalar(1i32), s.scalar(2i32)]),
        &["axis 2 is out of range"],
    );
    has(
        &s.err("Roll", &[s.scalar(1f32), s.scalar(1i32), s.scalar(0i32)]),
        &["1-D or higher"],
    );
    has(
        &s.err("Roll", &[m, s.t(&[1, 1], &[1i32]), s.v(&[0])]),
        &["'shift'", "scalar or a vector"],
    );
}

#[test]
fn where_values() {
    let s = Env::new();
    let b = s.t(&[2, 2], &[true, false, true, true]);
    expect(
        &s.one("Where", &[b], &none()),
        &[3, 2],
        &[0i64, 0, 1, 0, 1, 1],
    );
    // Non-zero numbers; NaN counts, -0.0 does not.
    let f = s.t(&[4], &[0f32, -0.0, f32::NAN, -2.]);
    expect(&s.one("Where", &[f], &none()), &[2, 1], &[2i64, 3]);
    let i = s.t(&[2, 1, 2], &[i64::MIN, 0, 0, 5]);
    expect(
        &s.one("Where", &[i], &none()),
        &[2, 3],
        &[0i64, 0, 0, 1, 0, 1],
    );
    // Rank 0 and empty inputs.
    expect::<i64>(&s.one("Where", &[s.scalar(3u8)], &none()), &[1, 0], &[]);
    expect::<i64>(&s.one("Where", &[s.scalar(0i32)], &none()), &[0, 0], &[]);
    expect::<i64>(
        &s.one("Where", &[s.t::<f64>(&[0, 4], &[])], &none()),
        &[0, 2],
        &[],
    );
}
