//! Arithmetic ops (src/ops/math.rs) against hand-computed TensorFlow results:
//! dtypes, broadcasting, errors, and exact accounting after every test.

use eagerflow::ops::broadcast::PARALLEL_MIN_ELEMENTS;
use eagerflow::{AttrValue, Attrs, FreeReason, Registry};

use crate::common::Env;

/// Element-wise closeness, NaN equal to NaN and infinities exact.
fn close(got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (g, w) in got.iter().zip(want) {
        let ok = if w.is_nan() {
            g.is_nan()
        } else if w.is_infinite() {
            g == w
        } else {
            (g - w).abs() <= tol * w.abs().max(1.0)
        };
        assert!(ok, "got {got:?}, want {want:?}");
    }
}

fn f32s(v: &[f32]) -> Vec<f64> {
    v.iter().map(|&x| f64::from(x)).collect()
}

#[test]
fn add_sub_mul_every_numeric_dtype() {
    let e = Env::new();
    let s = &[3][..];
    let (_, o): (_, Vec<f32>) = e.bin("AddV2", (s, &[1.5f32, -2., 0.25]), (s, &[1., 2., 0.75]));
    assert_eq!(o, [2.5, 0., 1.]);
    let (_, o): (_, Vec<f64>) = e.bin("Add", (s, &[1.5f64, -2., 0.25]), (s, &[1., 2., 0.75]));
    assert_eq!(o, [2.5, 0., 1.]);
    let (_, o): (_, Vec<i32>) = e.bin("AddV2", (s, &[i32::MAX, -5, 7]), (s, &[1, 5, -9]));
    assert_eq!(o, [i32::MIN, 0, -2], "INT32 addition wraps");
    let (_, o): (_, Vec<i64>) = e.bin("AddV2", (s, &[i64::MAX, 1, 2]), (s, &[1i64, 1, 2]));
    assert_eq!(o, [i64::MIN, 2, 4]);
    let (_, o): (_, Vec<u8>) = e.bin("AddV2", (s, &[250u8, 1, 0]), (s, &[10, 1, 0]));
    assert_eq!(o, [4, 2, 0], "UINT8 addition wraps modulo 256");

    let (_, o): (_, Vec<f32>) = e.bin("Sub", (s, &[1.5f32, -2., 0.25]), (s, &[1., 2., 0.75]));
    assert_eq!(o, [0.5, -4., -0.5]);
    let (_, o): (_, Vec<i32>) = e.bin("Sub", (s, &[i32::MIN, 5, 0]), (s, &[1, 7, 0]));
    assert_eq!(o, [i32::MAX, -2, 0]);
    let (_, o): (_, Vec<u8>) = e.bin("Sub", (s, &[3u8, 10, 0]), (s, &[5, 3, 1]));
    assert_eq!(o, [254, 7, 255]);
    let (_, o): (_, Vec<i64>) = e.bin("Sub", (s, &[10i64, -3, 0]), (s, &[4, 3, -1]));
    assert_eq!(o, [6, -6, 1]);

    let (_, o): (_, Vec<f64>) = e.bin("Mul", (s, &[1.5f64, -2., 0.]), (s, &[4., 2.5, -1.]));
    assert_eq!(o, [6., -5., -0.]);
    let (_, o): (_, Vec<i32>) = e.bin("Mul", (s, &[1 << 30, -3, 7]), (s, &[4, 3, 6]));
    assert_eq!(o, [0, -9, 42], "INT32 multiplication wraps");
    let (_, o): (_, Vec<i64>) = e.bin("Mul", (s, &[i64::MAX, -3, 7]), (s, &[2, 3, 6]));
    assert_eq!(o, [-2, -9, 42]);
    let (_, o): (_, Vec<u8>) = e.bin("Mul", (s, &[16u8, 3, 255]), (s, &[16, 5, 255]));
    assert_eq!(o, [0, 15, 1]);
    let (_, o): (_, Vec<f32>) = e.bin("Mul", (s, &[1.5f32, -2., 3.]), (s, &[2., 2., 0.5]));
    assert_eq!(o, [3., -4., 1.5]);
}

#[test]
fn broadcasting_follows_numpy_rules() {
    let e = Env::new();
    // Scalar with tensor, both orders.
    let (sh, o): (_, Vec<f32>) = e.bin("Sub", (&[], &[10f32]), (&[2, 2], &[1., 2., 3., 4.]));
    assert_eq!((sh, o), (vec![2, 2], vec![9., 8., 7., 6.]));
    let (sh, o): (_, Vec<f32>) = e.bin("Sub", (&[2, 2], &[1f32, 2., 3., 4.]), (&[], &[10.]));
    assert_eq!((sh, o), (vec![2, 2], vec![-9., -8., -7., -6.]));
    // A one-element tensor of higher rank than the other operand.
    let (sh, o): (_, Vec<i32>) = e.bin("Mul", (&[1, 1], &[3i32]), (&[2], &[1, 2]));
    assert_eq!((sh, o), (vec![1, 2], vec![3, 6]));
    // Size-1 axes on both sides.
    let (sh, o): (_, Vec<i32>) = e.bin("AddV2", (&[2, 1], &[10i32, 20]), (&[1, 3], &[1, 2, 3]));
    assert_eq!((sh, o), (vec![2, 3], vec![11, 12, 13, 21, 22, 23]));
    // Rank mismatch: a row broadcast over a matrix.
    let (sh, o): (_, Vec<i64>) = e.bin(
        "Sub",
        (&[2, 3], &[10i64, 20, 30, 40, 50, 60]),
        (&[3], &[1, 2, 3]),
    );
    assert_eq!((sh, o), (vec![2, 3], vec![9, 18, 27, 39, 48, 57]));
    // Output in row-major order even when a view's memory runs column-wise.
    let (sh, o): (_, Vec<f32>) = e.bin(
        "AddV2",
        (&[3, 1], &[1f32, 2., 3.]),
        (&[2, 1, 1], &[10., 20.]),
    );
    assert_eq!((sh, o), (vec![2, 3, 1], vec![11., 12., 13., 21., 22., 23.]));
    let (sh, o): (_, Vec<f64>) = e.bin(
        "Sub",
        (&[2, 1, 2], &[1f64, 2., 3., 4.]),
        (&[3, 1], &[10., 20., 30.]),
    );
    assert_eq!(
        (sh, o),
        (
            vec![2, 3, 2],
            vec![
                -9., -8., -19., -18., -29., -28., -7., -6., -17., -16., -27., -26.
            ]
        )
    );
    // Zero-size dimensions.
    let (sh, o): (_, Vec<f32>) = e.bin("AddV2", (&[0, 3], &[]), (&[3], &[1f32, 2., 3.]));
    assert_eq!((sh, o), (vec![0, 3], vec![]));
    let (sh, o): (_, Vec<f32>) = e.bin("Mul", (&[2, 0], &[]), (&[2, 1], &[1f32, 2.]));
    assert_eq!((sh, o), (vec![2, 0], vec![]));
    let (sh, o): (_, Vec<i32>) = e.bin("AddV2", (&[0], &[]), (&[], &[5i32]));
    assert_eq!((sh, o), (vec![0], vec![]));
    let (sh, o): (_, Vec<i32>) = e.bin("Maximum", (&[1, 0], &[]), (&[4, 1], &[1i32, 2, 3, 4]));
    assert_eq!((sh, o), (vec![4, 0], vec![]));
}

#[test]
fn incompatible_shapes_name_both_shapes() {
    let e = Env::new();
    for op in [
        "AddV2",
        "Sub",
        "Mul",
        "RealDiv",
        "FloorMod",
        "Pow",
        "SquaredDifference",
    ] {
        let a = e.t(&[2, 3], &[1f32; 6]);
        let b = e.t(&[2], &[1f32; 2]);
        let m = e.err(op, &[a, b]);
        assert!(m.starts_with(op), "{m}");
        assert!(m.contains("[2, 3]") && m.contains("[2]"), "{m}");
    }
    let a = e.t(&[0], &[0f32; 0]);
    let b = e.t(&[2], &[1f32; 2]);
    let m = e.err("AddV2", &[a, b]);
    assert!(m.contains("[0]") && m.contains("[2]"), "{m}");
    let a = e.t(&[4, 3], &[1i32; 12]);
    let b = e.t(&[4, 2, 1], &[1i32; 8]);
    let m = e.err("Maximum", &[a, b]);
    assert!(m.contains("[4, 3]") && m.contains("[4, 2, 1]"), "{m}");
}

#[test]
fn dtype_mismatch_names_both_dtypes() {
    let e = Env::new();
    let f = e.t(&[2], &[1f32, 2.]);
    let i = e.t(&[2], &[1i32, 2]);
    let d = e.t(&[2], &[1f64, 2.]);
    let u = e.t(&[2], &[1u8, 2]);
    for (op, a, b, da, db) in [
        ("AddV2", f, i, "FLOAT", "INT32"),
        ("Sub", d, f, "DOUBLE", "FLOAT"),
        ("Mul", u, i, "UINT8", "INT32"),
        ("RealDiv", i, d, "INT32", "DOUBLE"),
        ("Minimum", f, u, "FLOAT", "UINT8"),
        ("ClipByValue", f, d, "FLOAT", "DOUBLE"),
    ] {
        let inputs: Vec<u64> = if op == "ClipByValue" {
            vec![a, b, a]
        } else {
            vec![a, b]
        };
        let m = e.err(op, &inputs);
        assert!(m.starts_with(op), "{m}");
        assert!(m.contains(da) && m.contains(db), "{m}");
    }
}

#[test]
fn wrong_arity_and_unknown_attributes_are_errors() {
    let e = Env::new();
    let a = e.t(&[2], &[1f32, 2.]);
    for (op, inputs) in [
        ("AddV2", vec![a]),
        ("Sub", vec![a, a, a]),
        ("Neg", vec![]),
        ("Exp", vec![a, a]),
        ("ClipByValue", vec![a, a]),
        ("Cumsum", vec![a]),
    ] {
        let m = e.err(op, &inputs);
        assert!(m.starts_with(op) && m.contains("expected"), "{m}");
    }
    let attrs = Attrs::new().with("keep_dims", AttrValue::Bool(true));
    let m = e.err_with("Mul", &[a, a], &attrs);
    assert!(m.contains("unknown attribute 'keep_dims'"), "{m}");
    let m = e.err_with("Sqrt", &[a], &attrs);
    assert!(m.starts_with("Sqrt") && m.contains("keep_dims"), "{m}");
    // Inferred type attributes are accepted and ignored.
    let attrs = Attrs::new().with("T", AttrValue::Type(eagerflow::DataType::Float));
    let (_, o): (_, Vec<f32>) = e.run1_with("Mul", &[a, a], &attrs);
    assert_eq!(o, [1., 4.]);
    assert!(
        e.err("NoSuchOp", &[a])
            .contains("unknown op type 'NoSuchOp'")
    );
}

#[test]
fn bool_is_rejected_by_arithmetic() {
    let e = Env::new();
    let b = e.t(&[2], &[true, false]);
    for op in [
        "AddV2",
        "Sub",
        "Mul",
        "RealDiv",
        "FloorDiv",
        "FloorMod",
        "Pow",
        "Maximum",
        "Minimum",
        "SquaredDifference",
        "DivNoNan",
    ] {
        let m = e.err(op, &[b, b]);
        assert!(m.starts_with(op) && m.contains("BOOL"), "{m}");
    }
    for op in [
        "Neg", "Abs", "Sign", "Square", "Round", "Exp", "Log", "Sigmoid",
    ] {
        let m = e.err(op, &[b]);
        assert!(m.starts_with(op) && m.contains("BOOL"), "{m}");
    }
}

#[test]
fn real_div_and_div() {
    let e = Env::new();
    let s = &[4][..];
    let (_, o): (_, Vec<f32>) = e.bin(
        "RealDiv",
        (s, &[1f32, -3., 0., 7.]),
        (s, &[0., 2., 0., -2.]),
    );
    close(&f32s(&o), &[f64::INFINITY, -1.5, f64::NAN, -3.5], 0.);
    let (_, o): (_, Vec<f64>) = e.bin("Div", (s, &[1f64, 1., -1., 9.]), (s, &[3., -0., 0., 3.]));
    close(
        &o,
        &[1. / 3., f64::NEG_INFINITY, f64::NEG_INFINITY, 3.],
        1e-15,
    );
    // Integer Div truncates toward zero (TensorFlow's Div on integers).
    let (_, o): (_, Vec<i32>) = e.bin("Div", (s, &[-7i32, 7, -7, 7]), (s, &[2, -2, -2, 2]));
    assert_eq!(o, [-3, -3, 3, 3]);
    let (_, o): (_, Vec<i64>) = e.bin("RealDiv", (&[2], &[i64::MIN, 5]), (&[2], &[-1, 5]));
    assert_eq!(o, [i64::MIN, 1], "MIN / -1 wraps");
    let (_, o): (_, Vec<i32>) = e.bin("RealDiv", (&[1], &[i32::MIN]), (&[], &[-1]));
    assert_eq!(o, [i32::MIN]);
    let (_, o): (_, Vec<u8>) = e.bin("Div", (&[3], &[7u8, 255, 0]), (&[], &[2]));
    assert_eq!(o, [3, 127, 0]);
    // Integer division by zero is an error, never a panic.
    for op in ["Div", "RealDiv", "FloorDiv", "FloorMod"] {
        let a = e.t(&[2], &[1i32, 2]);
        let z = e.t(&[2], &[1i32, 0]);
        let err = e.run(op, &[a, z], &Attrs::new()).unwrap_err();
        assert!(
            matches!(err, eagerflow::Error::InvalidArgument(_)),
            "{err:?}"
        );
        let m = err.to_string();
        let canonical = if op == "Div" { "RealDiv" } else { op };
        assert!(
            m.starts_with(canonical) && m.contains("division by zero"),
            "{m}"
        );
        let a = e.t(&[1], &[5u8]);
        let z = e.scalar(0u8);
        assert!(e.err(op, &[a, z]).contains("division by zero"));
        let a = e.t(&[1], &[5i64]);
        let z = e.scalar(0i64);
        assert!(e.err(op, &[a, z]).contains("division by zero"));
        // An empty output divides nothing.
        let a = e.t(&[0], &[0i32; 0]);
        let z = e.scalar(0i32);
        let (sh, o): (_, Vec<i32>) = e.run1(op, &[a, z]);
        assert_eq!((sh, o), (vec![0], vec![]));
    }
}

#[test]
fn floor_div_and_floor_mod() {
    let e = Env::new();
    let s = &[5][..];
    let x = [-7i32, 7, -7, 7, 6];
    let y = [2i32, -2, -2, 2, 3];
    let (_, o): (_, Vec<i32>) = e.bin("FloorDiv", (s, &x), (s, &y));
    assert_eq!(o, [-4, -4, 3, 3, 2]);
    let (_, o): (_, Vec<i32>) = e.bin("FloorMod", (s, &x), (s, &y));
    assert_eq!(
        o,
        [1, -1, -1, 1, 0],
        "the remainder takes the divisor's sign"
    );
    let xl: Vec<i64> = x.iter().map(|&v| i64::from(v)).collect();
    let yl: Vec<i64> = y.iter().map(|&v| i64::from(v)).collect();
    let (_, o): (_, Vec<i64>) = e.bin("FloorDiv", (s, &xl), (s, &yl));
    assert_eq!(o, [-4, -4, 3, 3, 2]);
    let (_, o): (_, Vec<i64>) = e.bin("FloorMod", (s, &xl), (s, &yl));
    assert_eq!(o, [1, -1, -1, 1, 0]);
    let (_, o): (_, Vec<i32>) = e.bin("FloorDiv", (&[2], &[i32::MIN, i32::MIN]), (&[2], &[-1, 3]));
    assert_eq!(o, [i32::MIN, -715_827_883], "MIN // -1 wraps");
    let (_, o): (_, Vec<i32>) = e.bin("FloorMod", (&[2], &[i32::MIN, i32::MIN]), (&[2], &[-1, 3]));
    assert_eq!(o, [0, 1]);
    let (_, o): (_, Vec<u8>) = e.bin("FloorDiv", (&[2], &[7u8, 255]), (&[2], &[2, 16]));
    assert_eq!(o, [3, 15]);
    let (_, o): (_, Vec<u8>) = e.bin("FloorMod", (&[2], &[7u8, 255]), (&[2], &[2, 16]));
    assert_eq!(o, [1, 15]);
    let xf = [-7.5f32, 7.5, -7.5, 7.5, 1.];
    let yf = [2f32, -2., -2., 2., 0.];
    let (_, o): (_, Vec<f32>) = e.bin("FloorDiv", (s, &xf), (s, &yf));
    close(&f32s(&o), &[-4., -4., 3., 3., f64::INFINITY], 0.);
    let (_, o): (_, Vec<f32>) = e.bin("FloorMod", (s, &xf), (s, &yf));
    close(&f32s(&o), &[0.5, -0.5, -1.5, 1.5, f64::NAN], 0.);
    let (_, o): (_, Vec<f64>) = e.bin("FloorMod", (&[2], &[-1f64, 4.]), (&[], &[3.]));
    assert_eq!(o, [2., 1.]);
}

#[test]
fn pow_on_floats_and_integers() {
    let e = Env::new();
    let s = &[4][..];
    let (_, o): (_, Vec<f32>) = e.bin(
        "Pow",
        (s, &[2f32, 4., 0., -8.]),
        (s, &[10., 0.5, 0., 1. / 3.]),
    );
    close(&f32s(&o), &[1024., 2., 1., f64::NAN], 1e-6);
    let (_, o): (_, Vec<f64>) = e.bin("Pow", (&[2], &[0f64, 2.]), (&[2], &[-1., -2.]));
    assert_eq!(o, [f64::INFINITY, 0.25]);
    let (_, o): (_, Vec<i32>) = e.bin("Pow", (s, &[3i32, 2, 0, -2]), (s, &[4, 31, 0, 3]));
    assert_eq!(o, [81, i32::MIN, 1, -8], "INT32 powers wrap");
    let (_, o): (_, Vec<i64>) = e.bin("Pow", (s, &[2i64, 3, -1, 2]), (s, &[62, 3, 1 << 40, 64]));
    assert_eq!(o, [1 << 62, 27, 1, 0]);
    let (_, o): (_, Vec<u8>) = e.bin("Pow", (&[3], &[2u8, 3, 255]), (&[3], &[8, 5, 2]));
    assert_eq!(o, [0, 243, 1]);
    let a = e.t(&[2], &[2i32, 3]);
    let b = e.t(&[2], &[1i32, -1]);
    let m = e.err("Pow", &[a, b]);
    assert!(
        m.starts_with("Pow") && m.contains("negative integer powers"),
        "{m}"
    );
    let a = e.t(&[1], &[2i64]);
    let b = e.scalar(-3i64);
    assert!(e.err("Pow", &[a, b]).contains("negative"));
}

#[test]
fn maximum_minimum_and_nan() {
    let e = Env::new();
    let s = &[4][..];
    let x = [1f32, f32::NAN, -0.5, 3.];
    let y = [2f32, 1., f32::NAN, -3.];
    let (_, o): (_, Vec<f32>) = e.bin("Maximum", (s, &x), (s, &y));
    close(&f32s(&o), &[2., f64::NAN, f64::NAN, 3.], 0.);
    let (_, o): (_, Vec<f32>) = e.bin("Minimum", (s, &x), (s, &y));
    close(&f32s(&o), &[1., f64::NAN, f64::NAN, -3.], 0.);
    let (sh, o): (_, Vec<i32>) = e.bin("Maximum", (&[2, 2], &[1i32, 5, -3, 0]), (&[], &[0]));
    assert_eq!((sh, o), (vec![2, 2], vec![1, 5, 0, 0]));
    let (_, o): (_, Vec<i64>) = e.bin("Minimum", (&[3], &[1i64, 5, -3]), (&[1], &[2]));
    assert_eq!(o, [1, 2, -3]);
    let (_, o): (_, Vec<u8>) = e.bin("Maximum", (&[3], &[1u8, 200, 3]), (&[3], &[7, 100, 3]));
    assert_eq!(o, [7, 200, 3]);
    let (_, o): (_, Vec<f64>) = e.bin("Minimum", (&[2], &[1f64, 2.]), (&[2, 1], &[0., 3.]));
    assert_eq!(o, [0., 0., 1., 2.]);
}

#[test]
fn squared_difference_and_div_no_nan() {
    let e = Env::new();
    let (_, o): (_, Vec<f32>) = e.bin("SquaredDifference", (&[3], &[1f32, -2., 0.5]), (&[], &[2.]));
    assert_eq!(o, [1., 16., 2.25]);
    let (_, o): (_, Vec<i32>) = e.bin("SquaredDifference", (&[2], &[2i32, -3]), (&[2], &[5, 3]));
    assert_eq!(o, [9, 36]);
    let (_, o): (_, Vec<u8>) = e.bin("SquaredDifference", (&[2], &[2u8, 9]), (&[2], &[5, 1]));
    assert_eq!(o, [9, 64], "(2 - 5)^2 = 9 modulo 256 too");
    let (_, o): (_, Vec<i64>) = e.bin("SquaredDifference", (&[1], &[1i64 << 32]), (&[1], &[0]));
    assert_eq!(o, [0], "wraps");
    let x = [1f32, 2., f32::NAN, f32::INFINITY, -3.];
    let y = [0f32, 4., 0., -0., 2.];
    let (_, o): (_, Vec<f32>) = e.bin("DivNoNan", (&[5], &x), (&[5], &y));
    assert_eq!(o, [0., 0.5, 0., 0., -1.5]);
    let (_, o): (_, Vec<f64>) = e.bin("DivNoNan", (&[2], &[3f64, 0.]), (&[], &[0.]));
    assert_eq!(o, [0., 0.]);
    let a = e.t(&[2], &[1i32, 2]);
    let m = e.err("DivNoNan", &[a, a]);
    assert!(
        m.starts_with("DivNoNan") && m.contains("INT32") && m.contains("FLOAT"),
        "{m}"
    );
}

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

fn run_list(e: &Env, op: &str, handles: &[u64], lens: &[i32]) -> eagerflow::Result<Vec<u64>> {
    let idx = Registry::global().lookup(op).unwrap();
    e.s.execute(idx, handles, Some(lens), &Attrs::new())
        .map(|h| h.to_vec())
}

#[test]
fn add_n() {
    let e = Env::new();
    let a = e.t(&[2, 2], &[1i32, 2, 3, i32::MAX]);
    let b = e.t(&[2, 2], &[10i32, 20, 30, 1]);
    let c = e.t(&[2, 2], &[100i32, 200, 300, 0]);
    let out = run_list(&e, "AddN", &[a, b, c], &[3]).unwrap();
    assert_eq!(
        e.get::<i32>(out[0]),
        (vec![2, 2], vec![111, 222, 333, i32::MIN])
    );
    let f = e.t(&[3], &[0.5f32, -1., 2.]);
    let g = e.t(&[3], &[0.25f32, 1., 2.]);
    let out = run_list(&e, "AddN", &[f, g, f], &[3]).unwrap();
    assert_eq!(e.get::<f32>(out[0]).1, [1.25, -1., 6.]);
    let u = e.t(&[2], &[200u8, 1]);
    let out = run_list(&e, "AddN", &[u, u], &[2]).unwrap();
    assert_eq!(e.get::<u8>(out[0]).1, [144, 2]);
    let s = e.scalar(2.5f64);
    let out = run_list(&e, "AddN", &[s, s, s, s], &[4]).unwrap();
    assert_eq!(e.get::<f64>(out[0]), (vec![], vec![10.]));
    // One input is returned as it is.
    let out = run_list(&e, "AddN", &[a], &[1]).unwrap();
    let (x, y) = (e.s.tensor(a).unwrap(), e.s.tensor(out[0]).unwrap());
    assert!(x.shares_buffer(&y));
    // Errors.
    let m = run_list(&e, "AddN", &[], &[0]).unwrap_err().to_string();
    assert!(m.starts_with("AddN") && m.contains("at least one"), "{m}");
    let wrong = e.t(&[4], &[1i32; 4]);
    let m = run_list(&e, "AddN", &[a, wrong], &[2])
        .unwrap_err()
        .to_string();
    assert!(m.contains("[2, 2]") && m.contains("[4]"), "{m}");
    let m = run_list(&e, "AddN", &[a, f], &[2]).unwrap_err().to_string();
    assert!(m.contains("INT32") && m.contains("FLOAT"), "{m}");
    let bools = e.t(&[1], &[true]);
    assert!(run_list(&e, "AddN", &[bools, bools], &[2]).is_err());
    let m = e.err("AddN", &[a, b]);
    assert!(m.contains("must be given as a list"), "{m}");
    assert!(run_list(&e, "AddN", &[a, b], &[-1]).is_err());
    assert!(run_list(&e, "AddN", &[a, b], &[3]).is_err());
}

#[test]
fn cumsum() {
    let e = Env::new();
    let x = e.t(&[4], &[1i32, 2, 3, 4]);
    let axis = e.scalar(0i32);
    let flags = |ex: bool, rev: bool| {
        Attrs::new()
            .with("exclusive", AttrValue::Bool(ex))
            .with("reverse", AttrValue::Bool(rev))
    };
    for (ex, rev, want) in [
        (false, false, [1, 3, 6, 10]),
        (true, false, [0, 1, 3, 6]),
        (false, true, [10, 9, 7, 4]),
        (true, true, [9, 7, 4, 0]),
    ] {
        let (_, o): (_, Vec<i32>) = e.run1_with("Cumsum", &[x, axis], &flags(ex, rev));
        assert_eq!(o, want, "exclusive={ex} reverse={rev}");
    }
    let (_, o): (_, Vec<i32>) = e.run1("Cumsum", &[x, axis]);
    assert_eq!(o, [1, 3, 6, 10], "defaults: inclusive, forward");
    // A matrix along each axis, with INT64 and negative axes.
    let m = e.t(&[2, 3], &[1f32, 2., 3., 4., 5., 6.]);
    let (sh, o): (_, Vec<f32>) = e.run1("Cumsum", &[m, e.scalar(0i64)]);
    assert_eq!((sh, o), (vec![2, 3], vec![1., 2., 3., 5., 7., 9.]));
    let (_, o): (_, Vec<f32>) = e.run1("Cumsum", &[m, e.scalar(-1i32)]);
    assert_eq!(o, [1., 3., 6., 4., 9., 15.]);
    let (_, o): (_, Vec<f32>) = e.run1_with("Cumsum", &[m, e.scalar(1i64)], &flags(true, true));
    assert_eq!(o, [5., 3., 0., 11., 6., 0.]);
    let t3 = e.t(&[2, 2, 2], &[1f64, 2., 3., 4., 5., 6., 7., 8.]);
    let (_, o): (_, Vec<f64>) = e.run1("Cumsum", &[t3, e.scalar(1i32)]);
    assert_eq!(o, [1., 2., 4., 6., 5., 6., 12., 14.]);
    let (_, o): (_, Vec<f64>) = e.run1_with("Cumsum", &[t3, e.scalar(-3i32)], &flags(false, true));
    assert_eq!(o, [6., 8., 10., 12., 5., 6., 7., 8.]);
    let u = e.t(&[3], &[200u8, 100, 1]);
    let (_, o): (_, Vec<u8>) = e.run1("Cumsum", &[u, axis]);
    assert_eq!(o, [200, 44, 45], "UINT8 sums wrap");
    let l = e.t(&[2], &[i64::MAX, 1]);
    let (_, o): (_, Vec<i64>) = e.run1("Cumsum", &[l, axis]);
    assert_eq!(o, [i64::MAX, i64::MIN]);
    // Zero-size dimensions.
    let z = e.t(&[2, 0], &[0f32; 0]);
    let (sh, o): (_, Vec<f32>) = e.run1("Cumsum", &[z, e.scalar(0i32)]);
    assert_eq!((sh, o), (vec![2, 0], vec![]));
    let (sh, _): (_, Vec<f32>) = e.run1("Cumsum", &[z, e.scalar(1i32)]);
    assert_eq!(sh, vec![2, 0]);
    // Errors.
    let m = e.err("Cumsum", &[x, e.scalar(1i32)]);
    assert!(m.starts_with("Cumsum") && m.contains("out of range"), "{m}");
    assert!(
        e.err("Cumsum", &[x, e.scalar(-2i32)])
            .contains("out of range")
    );
    let m = e.err("Cumsum", &[x, e.t(&[1], &[0i32])]);
    assert!(m.contains("scalar") && m.contains("[1]"), "{m}");
    let m = e.err("Cumsum", &[x, e.scalar(0f32)]);
    assert!(m.contains("FLOAT"), "{m}");
    assert!(
        e.err("Cumsum", &[e.scalar(1f32), axis])
            .contains("out of range")
    );
    assert!(
        e.err("Cumsum", &[e.t(&[1], &[true]), axis])
            .contains("BOOL")
    );
    let bad = Attrs::new().with("exclusive", AttrValue::Int(1));
    let m = e.err_with("Cumsum", &[x, axis], &bad);
    assert!(m.contains("'exclusive'") && m.contains("bool"), "{m}");
    let bad = Attrs::new().with("axis", AttrValue::Int(0));
    assert!(
        e.err_with("Cumsum", &[x, axis], &bad)
            .contains("unknown attribute 'axis'")
    );
}

/// Tensors past the parallel threshold take the multi-threaded paths; their
/// results must match the single-threaded definition everywhere.
#[test]
fn large_tensors_use_the_parallel_paths() {
    let e = Env::new();
    let n = PARALLEL_MIN_ELEMENTS + 3;
    let xs: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let ys: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
    let (x, y) = (e.t(&[n], &xs), e.t(&[n], &ys));
    let (_, o): (_, Vec<f32>) = e.run1("Sub", &[x, y]);
    assert!(o.iter().enumerate().all(|(i, &v)| v == xs[i] - ys[i]));
    let two = e.scalar(2f32);
    let (_, o): (_, Vec<f32>) = e.run1("Mul", &[two, x]);
    assert!(o.iter().enumerate().all(|(i, &v)| v == 2. * xs[i]));
    let (_, o): (_, Vec<f32>) = e.run1("Square", &[y]);
    assert!(o.iter().enumerate().all(|(i, &v)| v == ys[i] * ys[i]));
    let (lo, hi) = (e.scalar(10f32), e.scalar(20f32));
    let (_, o): (_, Vec<f32>) = e.run1("ClipByValue", &[x, lo, hi]);
    assert!(
        o.iter()
            .enumerate()
            .all(|(i, &v)| v == xs[i].clamp(10., 20.))
    );
    let out = run_list(&e, "AddN", &[x, y, x], &[3]).unwrap();
    let (_, o) = e.get::<f32>(out[0]);
    assert!(o.iter().enumerate().all(|(i, &v)| v == 2. * xs[i] + ys[i]));
    let is: Vec<i32> = (0..n as i32).collect();
    let i = e.t(&[n], &is);
    let (_, o): (_, Vec<i32>) = e.run1("FloorMod", &[i, e.scalar(-3i32)]);
    assert!(
        o.iter()
            .enumerate()
            .all(|(k, &v)| v == -((3 - (k as i32 % 3)) % 3))
    );
}

#[test]
fn freeing_everything_leaves_nothing() {
    let e = Env::new();
    let a = e.t(&[2, 3], &[1f32, 2., 3., 4., 5., 6.]);
    let b = e.t(&[3], &[1f32, 1., 1.]);
    let mut handles = vec![a, b];
    for op in ["AddV2", "Sub", "Mul", "RealDiv", "Maximum", "Pow"] {
        handles.extend(e.run(op, &[a, b], &Attrs::new()).unwrap());
    }
    for op in ["Exp", "Neg", "Round", "Sigmoid"] {
        handles.extend(e.run(op, &[a], &Attrs::new()).unwrap());
    }
    // Failed ops leave nothing behind.
    let c = e.t(&[2], &[1f32, 1.]);
    handles.push(c);
    assert!(e.run("AddV2", &[a, c], &Attrs::new()).is_err());
    let st = e.s.stats();
    assert_eq!(st.live_tensors, handles.len() as u64);
    assert_eq!(st.live_bytes, (24 + 12 + 10 * 24 + 8) as u64);
    for &h in &handles {
        assert!(e.s.free(h, FreeReason::Explicit));
    }
    let st = e.s.stats();
    assert_eq!((st.live_bytes, st.live_tensors), (0, 0));
    assert_eq!(st.freed_explicitly, handles.len() as u64);
}
