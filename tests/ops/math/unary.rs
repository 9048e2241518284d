//! Unary arithmetic (src/ops/math.rs) against hand-computed TensorFlow
//! results: the floating functions, Neg/Abs/Sign/Square, Round, ClipByValue.

use eagerflow::Attrs;

use super::{close, f32s};
use crate::common::Env;

#[test]
fn floating_unary_ops() {
    let e = Env::new();
    let x = [0.5f64, 1., 2., 4.];
    type F = fn(f64) -> f64;
    let cases: [(&str, F); 15] = [
        ("Log", f64::ln),
        ("Log1p", f64::ln_1p),
        ("Exp", f64::exp),
        ("Expm1", f64::exp_m1),
        ("Sqrt", f64::sqrt),
        ("Rsqrt", |v| 1. / v.sqrt()),
        ("Reciprocal", |v| 1. / v),
        ("Inv", |v| 1. / v),
        ("Sin", f64::sin),
        ("Cos", f64::cos),
        ("Tan", f64::tan),
        ("Tanh", f64::tanh),
        ("Sigmoid", |v| 1. / (1. + (-v).exp())),
        ("Floor", f64::floor),
        ("Ceil", f64::ceil),
    ];
    for (op, f) in cases {
        let want: Vec<f64> = x.iter().map(|&v| f(v)).collect();
        close(&e.un::<f64, f64>(op, &x), &want, 1e-12);
        let xf: Vec<f32> = x.iter().map(|&v| v as f32).collect();
        close(&f32s(&e.un::<f32, f32>(op, &xf)), &want, 1e-6);
        for (dtype, h) in [
            ("INT32", e.t(&[1], &[1i32])),
            ("INT64", e.t(&[1], &[1i64])),
            ("UINT8", e.t(&[1], &[1u8])),
        ] {
            let m = e.err(op, &[h]);
            let canonical = if op == "Inv" { "Reciprocal" } else { op };
            assert!(m.starts_with(canonical), "{m}");
            assert!(m.contains(dtype) && m.contains("FLOAT, DOUBLE"), "{m}");
        }
    }
    // Hand-computed special values.
    close(
        &f32s(&e.un::<f32, f32>("Log", &[0., -1., 1.])),
        &[f64::NEG_INFINITY, f64::NAN, 0.],
        0.,
    );
    close(
        &e.un::<f64, f64>("Sqrt", &[-1., 0., 9.]),
        &[f64::NAN, 0., 3.],
        0.,
    );
    close(
        &e.un::<f64, f64>("Rsqrt", &[0., 0.25]),
        &[f64::INFINITY, 2.],
        0.,
    );
    close(
        &f32s(&e.un::<f32, f32>("Reciprocal", &[0., -4.])),
        &[f64::INFINITY, -0.25],
        0.,
    );
    // Sigmoid saturates without NaN at both ends.
    close(
        &f32s(&e.un::<f32, f32>("Sigmoid", &[-1000., 0., 1000.])),
        &[0., 0.5, 1.],
        0.,
    );
    close(
        &e.un::<f64, f64>("Floor", &[-1.5, 1.5, -0.]),
        &[-2., 1., 0.],
        0.,
    );
    close(&e.un::<f64, f64>("Ceil", &[-1.5, 1.5]), &[-1., 2.], 0.);
    // Shape is kept, including rank 0 and zero-size.
    let h = e.t(&[2, 0, 3], &[0f32; 0]);
    let (sh, o): (_, Vec<f32>) = e.run1("Exp", &[h]);
    assert_eq!((sh, o), (vec![2, 0, 3], vec![]));
    let h = e.scalar(0f64);
    let (sh, o): (_, Vec<f64>) = e.run1("Exp", &[h]);
    assert_eq!((sh, o), (vec![], vec![1.]));
}

#[test]
fn neg_abs_sign_square() {
    let e = Env::new();
    assert_eq!(
        e.un::<i32, i32>("Neg", &[1, -2, 0, i32::MIN]),
        [-1, 2, 0, i32::MIN]
    );
    assert_eq!(e.un::<i64, i64>("Neg", &[5, -7]), [-5, 7]);
    assert_eq!(e.un::<f32, f32>("Neg", &[1.5, -0.]), [-1.5, 0.]);
    assert_eq!(
        e.un::<i32, i32>("Abs", &[-3, 4, i32::MIN]),
        [3, 4, i32::MIN]
    );
    assert_eq!(e.un::<i64, i64>("Abs", &[-3, 0]), [3, 0]);
    assert_eq!(e.un::<f64, f64>("Abs", &[-2.5, 2.5]), [2.5, 2.5]);
    assert_eq!(e.un::<i32, i32>("Sign", &[-9, 0, 4]), [-1, 0, 1]);
    assert_eq!(e.un::<i64, i64>("Sign", &[i64::MIN, 0, 4]), [-1, 0, 1]);
    close(
        &f32s(&e.un::<f32, f32>("Sign", &[-2.5, -0., 0., 3., f32::NAN, f32::NEG_INFINITY])),
        &[-1., 0., 0., 1., f64::NAN, -1.],
        0.,
    );
    assert_eq!(e.un::<i32, i32>("Square", &[-3, 1 << 16]), [9, 0]);
    assert_eq!(e.un::<u8, u8>("Square", &[15, 16]), [225, 0]);
    assert_eq!(e.un::<i64, i64>("Square", &[-3]), [9]);
    assert_eq!(e.un::<f64, f64>("Square", &[-1.5]), [2.25]);
    // TensorFlow has no unsigned Neg, Abs or Sign.
    for op in ["Neg", "Abs", "Sign"] {
        let h = e.t(&[1], &[1u8]);
        let m = e.err(op, &[h]);
        assert!(m.starts_with(op) && m.contains("UINT8"), "{m}");
    }
}

#[test]
fn round_is_half_to_even() {
    let e = Env::new();
    let x = [0.5f32, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4, -2.6, 3.];
    assert_eq!(
        e.un::<f32, f32>("Round", &x),
        [0., 2., 2., -0., -2., -2., 2., -3., 3.]
    );
    assert_eq!(
        e.un::<f64, f64>("Round", &[0.5, 1.5, 2.5, -3.5]),
        [0., 2., 2., -4.]
    );
    // Round on integers is the identity and shares the buffer.
    let h = e.t(&[3], &[-1i32, 0, 7]);
    let out = e.run("Round", &[h], &Attrs::new()).unwrap();
    assert_eq!(e.get::<i32>(out[0]).1, [-1, 0, 7]);
    let (a, b) = (e.s.tensor(h).unwrap(), e.s.tensor(out[0]).unwrap());
    assert!(a.shares_buffer(&b));
    assert_eq!(e.un::<i64, i64>("Round", &[5]), [5]);
    let h = e.t(&[1], &[1u8]);
    assert!(e.err("Round", &[h]).contains("UINT8"));
}

#[test]
fn clip_by_value() {
    let e = Env::new();
    let t = e.t(&[2, 3], &[-5f32, 0., 5., 10., f32::NAN, 2.]);
    let (lo, hi) = (e.scalar(0f32), e.scalar(4f32));
    let (sh, o): (_, Vec<f32>) = e.run1("ClipByValue", &[t, lo, hi]);
    assert_eq!(sh, vec![2, 3]);
    close(&f32s(&o), &[0., 0., 4., 4., f64::NAN, 2.], 0.);
    // Bounds of t's shape, and bounds that broadcast to it (a row).
    let lo = e.t(&[2, 3], &[-6f32, 1., 1., 1., 1., 3.]);
    let hi = e.t(&[3], &[-5.5f32, 9., 9.]);
    let (sh, o): (_, Vec<f32>) = e.run1("ClipByValue", &[t, lo, hi]);
    assert_eq!(sh, vec![2, 3]);
    close(&f32s(&o), &[-5.5, 1., 5., 1., f64::NAN, 3.], 0.);
    // lo > hi: TensorFlow computes max(min(t, hi), lo), so lo wins.
    let t = e.t(&[3], &[10i32, 5, -10]);
    let (lo, hi) = (e.scalar(7i32), e.scalar(3i32));
    let (_, o): (_, Vec<i32>) = e.run1("ClipByValue", &[t, lo, hi]);
    assert_eq!(o, [7, 7, 7]);
    let (lo, hi) = (e.scalar(-1i32), e.scalar(6i32));
    let (_, o): (_, Vec<i32>) = e.run1("ClipByValue", &[t, lo, hi]);
    assert_eq!(o, [6, 5, -1]);
    let t = e.t(&[3], &[0u8, 100, 255]);
    let (lo, hi) = (e.t(&[1], &[10u8]), e.scalar(200u8));
    let (_, o): (_, Vec<u8>) = e.run1("ClipByValue", &[t, lo, hi]);
    assert_eq!(o, [10, 100, 200]);
    let t = e.t(&[2], &[1i64, 9]);
    let (lo, hi) = (e.scalar(2i64), e.t(&[2], &[5i64, 8]));
    let (_, o): (_, Vec<i64>) = e.run1("ClipByValue", &[t, lo, hi]);
    assert_eq!(o, [2, 8]);
    let t = e.t(&[0, 2], &[0f64; 0]);
    let (lo, hi) = (e.scalar(2f64), e.scalar(3f64));
    let (sh, o): (_, Vec<f64>) = e.run1("ClipByValue", &[t, lo, hi]);
    assert_eq!((sh, o), (vec![0, 2], vec![]));
    // Bounds must broadcast to t's shape, not beyond it.
    let t = e.t(&[2], &[1f32, 2.]);
    let bad = e.t(&[3], &[0f32; 3]);
    let ok = e.scalar(0f32);
    let m = e.err("ClipByValue", &[t, bad, ok]);
    assert!(
        m.starts_with("ClipByValue") && m.contains("[3]") && m.contains("[2]"),
        "{m}"
    );
    let wide = e.t(&[2, 2], &[0f32; 4]);
    let m = e.err("ClipByValue", &[t, ok, wide]);
    assert!(m.contains("clip_value_max") && m.contains("[2, 2]"), "{m}");
    let b = e.t(&[1], &[true]);
    assert!(e.err("ClipByValue", &[b, b, b]).contains("BOOL"));
}
