//! The math ops of issue 24 (src/ops/special.rs, src/ops/segment.rs and
//! `Cumprod`): values from TensorFlow's documentation or worked by hand,
//! reference values of erf and lgamma, NaN and infinities, integer extremes,
//! empty inputs, and the errors.

use super::array::{expect, has};
use crate::common::{Env, close, flag, none};

#[test]
fn float_predicates() {
    let s = Env::new();
    let x = [
        0f32,
        -0.0,
        1e-40,
        f32::MAX,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ];
    assert_eq!(
        s.un::<f32, bool>("IsNan", &x),
        [false, false, false, false, false, false, true]
    );
    assert_eq!(
        s.un::<f32, bool>("IsInf", &x),
        [false, false, false, false, true, true, false]
    );
    assert_eq!(
        s.un::<f32, bool>("IsFinite", &x),
        [true, true, true, true, false, false, false]
    );
    assert_eq!(s.un::<f64, bool>("IsNan", &[f64::NAN, 1.]), [true, false]);
    let e = s.t::<f64>(&[0, 2], &[]);
    expect::<bool>(&s.one("IsInf", &[e], &none()), &[0, 2], &[]);
    for op in ["IsNan", "IsInf", "IsFinite", "Erf", "Erfc", "Lgamma"] {
        has(
            &s.err(op, &[s.scalar(1i32)]),
            &["'x'", "INT32", "FLOAT, DOUBLE"],
        );
    }
}

#[test]
fn special_functions() {
    let s = Env::new();
    // Reference values (Abramowitz and Stegun; lgamma(0.5) = ln(sqrt(pi))).
    let x = [0.0f64, 0.5, 1.0, -2.0];
    close(
        &s.un::<f64, f64>("Erf", &x),
        &[
            0.0,
            0.520_499_877_813_046_5,
            0.842_700_792_949_714_9,
            -0.995_322_265_018_952_7,
        ],
        1e-15,
    );
    close(
        &s.un::<f64, f64>("Erfc", &x),
        &[
            1.0,
            0.479_500_122_186_953_5,
            0.157_299_207_050_285_1,
            1.995_322_265_018_952_7,
        ],
        1e-15,
    );
    let g = s.un::<f64, f64>("Lgamma", &[1.0, 2.0, 0.5, 10.0, -0.5, 0.0, -3.0]);
    close(
        &g[..5],
        &[
            0.0,
            0.0,
            0.572_364_942_924_700_1,
            12.801_827_480_081_469,
            1.265_512_123_484_645_4,
        ],
        1e-14,
    );
    // Poles: +inf, as TensorFlow gives.
    assert_eq!(g[5..], [f64::INFINITY, f64::INFINITY]);
    let f = s.un::<f32, f32>("Erf", &[f32::INFINITY, f32::NEG_INFINITY, f32::NAN]);
    assert_eq!(f[..2], [1.0, -1.0]);
    assert!(f[2].is_nan());
    let l = s.un::<f32, f32>("Lgamma", &[3.0]);
    assert!((l[0] - 2f32.ln()).abs() < 1e-6);
}

#[test]
fn atan2_broadcasts() {
    let s = Env::new();
    let (shape, z) = s.bin::<f64, f64>("Atan2", (&[2, 1], &[1., -1.]), (&[3], &[1., 0., -1.]));
    assert_eq!(shape, [2, 3]);
    let q = std::f64::consts::FRAC_PI_4;
    close(&z, &[q, 2. * q, 3. * q, -q, -2. * q, -3. * q], 1e-15);
    let (_, z) = s.bin::<f32, f32>("Atan2", (&[2], &[0., -0.0]), (&[2], &[-1., -1.]));
    assert_eq!(z, [std::f32::consts::PI, -std::f32::consts::PI]);
    has(
        &s.err("Atan2", &[s.v(&[1]), s.v(&[1])]),
        &["'y'", "INT32", "FLOAT, DOUBLE"],
    );
    has(
        &s.err("Atan2", &[s.t(&[2], &[1f32, 2.]), s.t(&[3], &[1f32; 3])]),
        &["incompatible shapes", "'y' has shape [2]"],
    );
}

#[test]
fn truncate_div_and_mod() {
    let s = Env::new();
    let x = [7i32, -7, 7, -7, i32::MIN, 0];
    let y = [2i32, 2, -2, -2, -1, 5];
    let (_, q) = s.bin::<i32, i32>("TruncateDiv", (&[6], &x), (&[6], &y));
    assert_eq!(q, [3, -3, -3, 3, i32::MIN, 0]);
    let (_, r) = s.bin::<i32, i32>("TruncateMod", (&[6], &x), (&[6], &y));
    assert_eq!(r, [1, -1, 1, -1, 0, 0]);
    let (_, q) = s.bin::<u8, u8>("TruncateDiv", (&[2], &[255, 7]), (&[], &[2]));
    assert_eq!(q, [127, 3]);
    let (_, r) = s.bin::<f64, f64>(
        "TruncateMod",
        (&[3], &[7.5, -7.5, 1.]),
        (&[3], &[2., 2., 0.]),
    );
    assert_eq!(r[..2], [1.5, -1.5]);
    assert!(r[2].is_nan());
    let (_, r) = s.bin::<i64, i64>("TruncateMod", (&[1], &[i64::MIN]), (&[1], &[-1]));
    assert_eq!(r, [0]);
    has(
        &s.err("TruncateDiv", &[s.v(&[1, 2]), s.v(&[1, 0])]),
        &["division by zero", "'y'"],
    );
    has(
        &s.err("TruncateMod", &[s.v64(&[1]), s.v64(&[0])]),
        &["division by zero"],
    );
    // An empty output divides by nothing.
    let (shape, _) = s.bin::<i32, i32>("TruncateDiv", (&[0], &[]), (&[1], &[0]));
    assert_eq!(shape, [0]);
    has(
        &s.err("TruncateDiv", &[s.scalar(1f32), s.scalar(1f32)]),
        &["'x'", "FLOAT", "UINT8, INT32, INT64"],
    );
    has(
        &s.err("TruncateMod", &[s.scalar(1u8), s.scalar(1u8)]),
        &["'x'", "UINT8"],
    );
}

#[test]
fn cumprod_values() {
    let s = Env::new();
    let x = s.t(&[2, 3], &[1f32, 2., 3., 4., 5., 6.]);
    let axis1 = s.scalar(1i32);
    expect(
        &s.one("Cumprod", &[x, axis1], &none()),
        &[2, 3],
        &[1f32, 2., 6., 4., 20., 120.],
    );
    expect(
        &s.one("Cumprod", &[x, s.scalar(0i64)], &flag("exclusive", true)),
        &[2, 3],
        &[1f32, 1., 1., 1., 2., 3.],
    );
    expect(
        &s.one("Cumprod", &[x, s.scalar(-1i32)], &flag("reverse", true)),
        &[2, 3],
        &[6f32, 6., 3., 120., 30., 6.],
    );
    let both = eagerflow::Attrs::new()
        .with("exclusive", eagerflow::AttrValue::Bool(true))
        .with("reverse", eagerflow::AttrValue::Bool(true));
    expect(
        &s.one("Cumprod", &[x, axis1], &both),
        &[2, 3],
        &[6f32, 3., 1., 30., 6., 1.],
    );
    // Integers wrap; NaN propagates.
    let i = s.t(&[3], &[i64::MAX, 2, 1]);
    expect(
        &s.one("Cumprod", &[i, s.scalar(0i32)], &none()),
        &[3],
        &[i64::MAX, -2, -2],
    );
    let f = s.t(&[3], &[2f64, f64::NAN, 0.]);
    let out = s.one("Cumprod", &[f, s.scalar(0i32)], &none());
    let v = out.as_slice::<f64>().unwrap();
    assert!(v[0] == 2. && v[1].is_nan() && v[2].is_nan());
    has(
        &s.err("Cumprod", &[x, s.scalar(2i32)]),
        &["axis 2 is out of range"],
    );
    has(
        &s.err("Cumprod", &[s.t(&[1], &[true]), s.scalar(0i32)]),
        &["BOOL"],
    );
}

#[test]
fn sorted_segments() {
    let s = Env::new();
    // TensorFlow's example: c = [[1,2,3,4], [4,3,2,1], [5,6,7,8]], ids [0, 0, 1].
    let c = s.t(&[3, 4], &[1i32, 2, 3, 4, 4, 3, 2, 1, 5, 6, 7, 8]);
    let ids = s.v(&[0, 0, 1]);
    expect(
        &s.one("SegmentSum", &[c, ids], &none()),
        &[2, 4],
        &[5, 5, 5, 5, 5, 6, 7, 8],
    );
    expect(
        &s.one("SegmentMax", &[c, ids], &none()),
        &[2, 4],
        &[4, 3, 3, 4, 5, 6, 7, 8],
    );
    expect(
        &s.one("SegmentMin", &[c, ids], &none()),
        &[2, 4],
        &[1, 2, 2, 1, 5, 6, 7, 8],
    );
    // Integer means truncate.
    expect(
        &s.one("SegmentMean", &[c, ids], &none()),
        &[2, 4],
        &[2, 2, 2, 2, 5, 6, 7, 8],
    );
    // Segments with no rows are 0; NaN propagates through Max.
    let x = s.t(&[4], &[1f32, 2., f32::NAN, 4.]);
    let ids = s.v64(&[0, 0, 3, 3]);
    let mean = s.one("SegmentMean", &[x, s.v64(&[0, 0, 2, 2])], &none());
    let v = mean.as_slice::<f32>().unwrap();
    assert_eq!(mean.shape(), &[3]);
    assert_eq!(v[..2], [1.5, 0.]);
    assert!(v[2].is_nan());
    let max = s.one("SegmentMax", &[x, ids], &none());
    let v = max.as_slice::<f32>().unwrap();
    assert_eq!(max.shape(), &[4]);
    assert_eq!(v[..3], [2., 0., 0.]);
    assert!(v[3].is_nan());
    // No rows: no segments.
    let e = s.t::<f64>(&[0, 2], &[]);
    expect::<f64>(&s.one("SegmentSum", &[e, s.v(&[])], &none()), &[0, 2], &[]);
}

#[test]
fn sorted_segment_errors() {
    let s = Env::new();
    let x = s.t(&[3], &[1f64, 2., 3.]);
    has(
        &s.err("SegmentSum", &[x, s.v(&[0, 1])]),
        &["'segment_ids' has 2 elements", "one per row", "[3]"],
    );
    has(
        &s.err("SegmentMax", &[x, s.v(&[0, 2, 1])]),
        &["not increasing", "segment_ids[2] = 1"],
    );
    has(
        &s.err("SegmentMin", &[x, s.v(&[-1, 0, 0])]),
        &["segment_ids[0] = -1", "non-negative"],
    );
    has(
        &s.err("SegmentMean", &[x, s.t(&[3, 1], &[0i32, 0, 0])]),
        &["'segment_ids' must be a vector"],
    );
    has(
        &s.err("SegmentSum", &[s.scalar(1f32), s.v(&[])]),
        &["'data'", "scalar"],
    );
    has(
        &s.err("SegmentSum", &[s.t(&[1], &[true]), s.v(&[0])]),
        &["'data'", "BOOL"],
    );
}

#[test]
fn unsorted_segments() {
    let s = Env::new();
    // TensorFlow's example: ids [0, 1, 0] into 2 segments.
    let c = s.t(&[3, 4], &[1i32, 2, 3, 4, 5, 6, 7, 8, 4, 3, 2, 1]);
    let ids = s.v(&[0, 1, 0]);
    expect(
        &s.one("UnsortedSegmentSum", &[c, ids, s.scalar(2i32)], &none()),
        &[2, 4],
        &[5, 5, 5, 5, 5, 6, 7, 8],
    );
    // Negative ids are dropped; an empty segment's max is the lowest value.
    let ids = s.v64(&[2, -1, 0]);
    expect(
        &s.one("UnsortedSegmentMax", &[c, ids, s.scalar(4i64)], &none()),
        &[4, 4],
        &[
            4,
            3,
            2,
            1,
            i32::MIN,
            i32::MIN,
            i32::MIN,
            i32::MIN,
            1,
            2,
            3,
            4,
            i32::MIN,
            i32::MIN,
            i32::MIN,
            i32::MIN,
        ],
    );
    let f = s.t(&[2, 2], &[1f32, 2., 3., 4.]);
    let ids2 = s.t(&[2, 2], &[0i32, 1, 1, 1]);
    expect(
        &s.one("UnsortedSegmentMax", &[f, ids2, s.scalar(3i32)], &none()),
        &[3],
        &[1f32, 4., f32::NEG_INFINITY],
    );
    expect(
        &s.one("UnsortedSegmentSum", &[f, ids2, s.scalar(2i32)], &none()),
        &[2],
        &[1f32, 9.],
    );
    has(
        &s.err("UnsortedSegmentSum", &[c, s.v(&[0, 2, 0]), s.scalar(2i32)]),
        &["segment_ids[1] = 2", "out of range [0, 2)"],
    );
    has(
        &s.err("UnsortedSegmentSum", &[c, s.v(&[0, 1]), s.scalar(2i32)]),
        &["[3, 4]", "must start with", "[2]"],
    );
    has(
        &s.err("UnsortedSegmentMax", &[c, s.v(&[0, 1, 0]), s.scalar(-1i32)]),
        &["num_segments", "-1", "non-negative"],
    );
    has(
        &s.err("UnsortedSegmentMax", &[c, s.v(&[0, 1, 0]), s.v(&[2])]),
        &["num_segments", "scalar"],
    );
}

#[test]
fn bincount_values_and_errors() {
    let s = Env::new();
    let arr = s.t(&[2, 3], &[1i32, 1, 3, 0, 7, 1]);
    let none_w = s.t::<f32>(&[0], &[]);
    // Values past the last bin are not counted.
    expect(
        &s.one("Bincount", &[arr, s.scalar(5i32), none_w], &none()),
        &[5],
        &[1f32, 3., 0., 1., 0.],
    );
    let w = s.t(&[2, 3], &[10i64, 20, 30, 40, 50, 60]);
    expect(
        &s.one("Bincount", &[arr, s.scalar(2i32), w], &none()),
        &[2],
        &[40i64, 90],
    );
    let empty = s.t::<i32>(&[0], &[]);
    let none_d = s.t::<f64>(&[0], &[]);
    expect::<f64>(
        &s.one("Bincount", &[empty, s.scalar(0i32), none_d], &none()),
        &[0],
        &[],
    );
    has(
        &s.err("Bincount", &[arr, s.scalar(-1i32), none_w]),
        &["'size' = -1", "non-negative"],
    );
    has(
        &s.err("Bincount", &[s.v(&[0, -1]), s.scalar(2i32), none_w]),
        &["'arr' must be non-negative", "-1"],
    );
    has(
        &s.err("Bincount", &[arr, s.scalar(2i32), s.t(&[2], &[1f32, 1.])]),
        &["'arr' and 'weights'", "[2, 3] and [2]"],
    );
    has(
        &s.err("Bincount", &[arr, s.scalar(2i32), s.t::<u8>(&[0], &[])]),
        &["'weights'", "UINT8"],
    );
    has(
        &s.err("Bincount", &[s.v64(&[0]), s.scalar(2i32), none_w]),
        &["'arr'", "INT64"],
    );
}
