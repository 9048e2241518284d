//! Unique, UniqueV2, MatrixBandPart, MatrixDiag, MatrixDiagPart, LinSpace,
//! SpaceToDepth and DepthToSpace.

use eagerflow::{AttrValue, Attrs, DataType};

use super::{expect, has};
use crate::common::{Env, attr, int, none};

#[test]
fn unique_values() {
    let s = Env::new();
    // TensorFlow's example.
    let x = s.t(&[9], &[1i32, 1, 2, 4, 4, 4, 7, 8, 8]);
    let out = s.outs("Unique", &[x], &none());
    expect(&out[0], &[5], &[1i32, 2, 4, 7, 8]);
    expect(&out[1], &[9], &[0i32, 0, 1, 2, 2, 2, 3, 4, 4]);
    // INT64 indices; -0.0 is 0.0, every NaN is its own value.
    let f = s.t(&[5], &[0f32, f32::NAN, -0.0, f32::NAN, 1.]);
    let out = s.outs(
        "Unique",
        &[f],
        &attr("out_idx", AttrValue::Type(DataType::Int64)),
    );
    assert_eq!(out[0].shape(), &[4]);
    let y = out[0].as_slice::<f32>().unwrap();
    assert!(y[0] == 0. && y[1].is_nan() && y[2].is_nan() && y[3] == 1.);
    expect(&out[1], &[5], &[0i64, 1, 0, 2, 3]);
    // UniqueV2 along an axis: distinct columns.
    let m = s.t(&[2, 3], &[1i64, 2, 1, 3, 4, 3]);
    let out = s.outs("UniqueV2", &[m, s.v(&[1])], &none());
    expect(&out[0], &[2, 2], &[1i64, 2, 3, 4]);
    expect(&out[1], &[3], &[0i32, 1, 0]);
    let out = s.outs("UniqueV2", &[s.t::<bool>(&[0], &[]), s.v64(&[])], &none());
    expect::<bool>(&out[0], &[0], &[]);
    expect::<i32>(&out[1], &[0], &[]);
    has(&s.err("Unique", &[m]), &["'x' must be a vector", "[2, 3]"]);
    has(&s.err("UniqueV2", &[m, s.v(&[])]), &["no axis", "[2, 3]"]);
    has(
        &s.err("UniqueV2", &[m, s.v(&[2])]),
        &["axis 2 is out of range"],
    );
    has(
        &s.err_with(
            "Unique",
            &[x],
            &attr("out_idx", AttrValue::Type(DataType::Float)),
        ),
        &["out_idx", "FLOAT"],
    );
}

#[test]
fn band_part_values() {
    let s = Env::new();
    // TensorFlow's example: a 4x4 matrix, band (1, -1) and (2, 1).
    #[rustfmt::skip]
    let x = s.t(&[4, 4], &[
        0i32, 1, 2, 3,
        -1, 0, 1, 2,
        -2, -1, 0, 1,
        -3, -2, -1, 0,
    ]);
    #[rustfmt::skip]
    expect(
        &s.one("MatrixBandPart", &[x, s.scalar(1i32), s.scalar(-1i32)], &none()),
        &[4, 4],
        &[0i32, 1, 2, 3, -1, 0, 1, 2, 0, -1, 0, 1, 0, 0, -1, 0],
    );
    #[rustfmt::skip]
    expect(
        &s.one("MatrixBandPart", &[x, s.scalar(2i64), s.scalar(1i64)], &none()),
        &[4, 4],
        &[0i32, 1, 0, 0, -1, 0, 1, 0, -2, -1, 0, 1, 0, -2, -1, 0],
    );
    // Diagonal only, on a batch of 2x3 matrices.
    let b = s.iota(&[2, 2, 3]);
    expect(
        &s.one(
            "MatrixBandPart",
            &[b, s.scalar(0i32), s.scalar(0i32)],
            &none(),
        ),
        &[2, 2, 3],
        &[0f32, 0., 0., 0., 4., 0., 6., 0., 0., 0., 10., 0.],
    );
    has(
        &s.err("MatrixBandPart", &[x, s.scalar(5i32), s.scalar(0i32)]),
        &["'num_lower' = 5", "rows (4)"],
    );
    has(
        &s.err(
            "MatrixBandPart",
            &[s.v(&[1]), s.scalar(0i32), s.scalar(0i32)],
        ),
        &["rank 2 or more"],
    );
    has(
        &s.err("MatrixBandPart", &[x, s.v(&[0]), s.v(&[0])]),
        &["'num_lower' must be a scalar"],
    );
}

#[test]
fn diag_values() {
    let s = Env::new();
    let d = s.t(&[2, 2], &[1i32, 2, 3, 4]);
    expect(
        &s.one("MatrixDiag", &[d], &none()),
        &[2, 2, 2],
        &[1i32, 0, 0, 2, 3, 0, 0, 4],
    );
    let m = s.iota(&[2, 3]);
    expect(&s.one("MatrixDiagPart", &[m], &none()), &[2], &[0f32, 4.]);
    let t = s.iota(&[2, 3, 2]);
    expect(
        &s.one("MatrixDiagPart", &[t], &none()),
        &[2, 2],
        &[0f32, 3., 6., 9.],
    );
    expect::<f64>(
        &s.one("MatrixDiag", &[s.t::<f64>(&[0], &[])], &none()),
        &[0, 0],
        &[],
    );
    has(&s.err("MatrixDiag", &[s.scalar(1f32)]), &["rank 1 or more"]);
    has(&s.err("MatrixDiagPart", &[s.v(&[1])]), &["rank 2 or more"]);
}

#[test]
fn lin_space_values() {
    let s = Env::new();
    // TensorFlow's example: 10.0, 12.0, 3 -> [10, 11, 12].
    expect(
        &s.one(
            "LinSpace",
            &[s.scalar(10f32), s.scalar(12f32), s.scalar(3i32)],
            &none(),
        ),
        &[3],
        &[10f32, 11., 12.],
    );
    // The last value is `stop` exactly.
    let out = s.one(
        "LinSpace",
        &[s.scalar(0f64), s.scalar(0.3f64), s.scalar(4i64)],
        &none(),
    );
    assert_eq!(out.as_slice::<f64>().unwrap()[3], 0.3);
    expect(
        &s.one(
            "LinSpace",
            &[s.scalar(5f64), s.scalar(7f64), s.scalar(1i32)],
            &none(),
        ),
        &[1],
        &[5f64],
    );
    has(
        &s.err(
            "LinSpace",
            &[s.scalar(0f32), s.scalar(1f32), s.scalar(0i32)],
        ),
        &["'num' = 0", "positive"],
    );
    has(
        &s.err(
            "LinSpace",
            &[s.t(&[1], &[0f32]), s.scalar(1f32), s.scalar(2i32)],
        ),
        &["'start' must be a scalar"],
    );
    has(
        &s.err(
            "LinSpace",
            &[s.scalar(0i32), s.scalar(1i32), s.scalar(2i32)],
        ),
        &["'start'", "INT32"],
    );
}

#[test]
fn space_and_depth() {
    let s = Env::new();
    let bs = |b: i64| int("block_size", b);
    // TensorFlow's example: [1, 2, 2, 1] -> [1, 1, 1, 4], and back.
    let x = s.t(&[1, 2, 2, 1], &[1i32, 2, 3, 4]);
    expect(
        &s.one("SpaceToDepth", &[x], &bs(2)),
        &[1, 1, 1, 4],
        &[1i32, 2, 3, 4],
    );
    // [1, 2, 2, 3] -> [1, 1, 1, 12].
    let x = s.t(&[1, 2, 2, 3], &(1..=12).collect::<Vec<i32>>());
    expect(
        &s.one("SpaceToDepth", &[x], &bs(2)),
        &[1, 1, 1, 12],
        &(1..=12).collect::<Vec<i32>>(),
    );
    // [1, 4, 4, 1] -> [1, 2, 2, 4].
    let x = s.t(&[1, 4, 4, 1], &(1..=16).collect::<Vec<i32>>());
    let deep = s.one("SpaceToDepth", &[x], &bs(2));
    #[rustfmt::skip]
    expect(&deep, &[1, 2, 2, 4], &[
        1i32, 2, 5, 6, 3, 4, 7, 8,
        9, 10, 13, 14, 11, 12, 15, 16,
    ]);
    let deep_h = s.run("SpaceToDepth", &[x], &bs(2)).unwrap()[0];
    let back = s.one("DepthToSpace", &[deep_h], &bs(2));
    expect(&back, &[1, 4, 4, 1], &(1..=16).collect::<Vec<i32>>());
    has(
        &s.err_with("SpaceToDepth", &[x], &bs(3)),
        &["divisible by block_size 3"],
    );
    has(&s.err_with("SpaceToDepth", &[x], &bs(1)), &["at least 2"]);
    has(&s.err("DepthToSpace", &[x]), &["'block_size' is required"]);
    has(
        &s.err_with("DepthToSpace", &[x], &bs(2)),
        &["depth 1", "divisible"],
    );
    let nchw = Attrs::new()
        .with("block_size", AttrValue::Int(2))
        .with("data_format", AttrValue::Str("NCHW".into()));
    has(&s.err_with("SpaceToDepth", &[x], &nchw), &["NHWC", "NCHW"]);
    has(
        &s.err_with("SpaceToDepth", &[s.iota(&[2, 2])], &bs(2)),
        &["rank 4"],
    );
}

fn k(s: &Env, lower: i32, upper: i32) -> u64 {
    s.v(&[lower, upper])
}

#[test]
fn matrix_diag_v3_values() {
    let s = Env::new();
    let pad0 = s.scalar(0i32);
    let m1 = s.scalar(-1i32);
    // TensorFlow's examples: a tridiagonal band, RIGHT_LEFT (the default)
    // and LEFT_RIGHT.
    #[rustfmt::skip]
    let right_left = s.t(&[1, 3, 3], &[0i32, 8, 9, 1, 2, 3, 4, 5, 0]);
    #[rustfmt::skip]
    let left_right = s.t(&[1, 3, 3], &[8i32, 9, 0, 1, 2, 3, 0, 4, 5]);
    let want = [1i32, 8, 0, 4, 2, 9, 0, 5, 3];
    expect(
        &s.one(
            "MatrixDiagV3",
            &[right_left, k(&s, -1, 1), m1, m1, pad0],
            &none(),
        ),
        &[1, 3, 3],
        &want,
    );
    let lr = attr("align", AttrValue::Str("LEFT_RIGHT".into()));
    expect(
        &s.one(
            "MatrixDiagV3",
            &[left_right, k(&s, -1, 1), m1, m1, pad0],
            &lr,
        ),
        &[1, 3, 3],
        &want,
    );
    // A rectangular matrix, and one with inferred columns and padding 9.
    let d = s.v(&[1, 2]);
    let sub = s.scalar(-1i32);
    expect(
        &s.one(
            "MatrixDiagV3",
            &[d, sub, s.scalar(3i32), s.scalar(4i32), pad0],
            &none(),
        ),
        &[3, 4],
        &[0i32, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0],
    );
    expect(
        &s.one(
            "MatrixDiagV2",
            &[d, sub, s.scalar(3i32), m1, s.scalar(9i32)],
            &none(),
        ),
        &[3, 2],
        &[9i32, 9, 1, 9, 9, 2],
    );
    has(
        &s.err("MatrixDiagV3", &[d, sub, s.scalar(2i32), m1, pad0]),
        &["num_rows 2", "do not fit"],
    );
    has(
        &s.err("MatrixDiagV3", &[d, k(&s, 1, 0), m1, m1, pad0]),
        &["k[0] = 1", "larger than k[1] = 0"],
    );
    has(
        &s.err("MatrixDiagV3", &[d, k(&s, -1, 1), m1, m1, pad0]),
        &["'diagonal' has shape [2]", "k = [-1, 1]"],
    );
    has(
        &s.err_with(
            "MatrixDiagV3",
            &[d, sub, m1, m1, pad0],
            &attr("align", AttrValue::Str("UP".into())),
        ),
        &["align", "UP"],
    );
}

#[test]
fn matrix_diag_part_v3_values() {
    let s = Env::new();
    // TensorFlow's examples, on one [3, 4] matrix.
    let x = s.t(&[3, 4], &[1i32, 2, 3, 4, 5, 6, 7, 8, 9, 8, 7, 6]);
    let pad0 = s.scalar(0i32);
    let run = |k: u64, pad: u64, attrs: &Attrs| s.one("MatrixDiagPartV3", &[x, k, pad], attrs);
    expect(&run(s.scalar(0i32), pad0, &none()), &[3], &[1i32, 6, 7]);
    expect(&run(s.scalar(1i32), pad0, &none()), &[3], &[2i32, 7, 6]);
    expect(
        &run(k(&s, -1, 2), pad0, &none()),
        &[4, 3],
        &[0i32, 3, 8, 2, 7, 6, 1, 6, 7, 5, 8, 0],
    );
    let lr = attr("align", AttrValue::Str("LEFT_RIGHT".into()));
    expect(
        &run(k(&s, -1, 2), pad0, &lr),
        &[4, 3],
        &[3i32, 8, 0, 2, 7, 6, 1, 6, 7, 0, 5, 8],
    );
    expect(
        &run(k(&s, -2, -1), pad0, &none()),
        &[2, 2],
        &[5i32, 8, 9, 0],
    );
    expect(
        &run(k(&s, 1, 3), s.scalar(9i32), &none()),
        &[3, 3],
        &[9i32, 9, 4, 9, 3, 8, 2, 7, 6],
    );
    // V2 aligns both halves to the left.
    expect(
        &s.one("MatrixDiagPartV2", &[x, k(&s, -1, 2), pad0], &none()),
        &[4, 3],
        &[3i32, 8, 0, 2, 7, 6, 1, 6, 7, 5, 8, 0],
    );
    has(
        &s.err("MatrixDiagPartV3", &[x, s.scalar(4i32), pad0]),
        &["k[0] = 4", "out of bounds"],
    );
    has(
        &s.err("MatrixDiagPartV3", &[x, s.scalar(0i32), s.scalar(0f32)]),
        &["'input' and 'padding_value'"],
    );
}
