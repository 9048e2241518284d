//! Binary arithmetic (src/ops/math.rs) against hand-computed TensorFlow
//! results: every numeric dtype, NumPy broadcasting, shape, dtype, arity and
//! attribute errors, division and modulo rules, Pow, Maximum/Minimum and NaN.

use eagerflow::{AttrValue, Attrs};

use super::{close, f32s};
use crate::common::Env;

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
