//! Comparison, logic, select and cast ops (src/ops/compare.rs, src/ops/cast.rs)
//! against hand-computed TensorFlow results, with exact accounting.

use eagerflow::{AttrValue, Attrs, DataType, FreeReason};

use crate::common::Env;

fn cast_attrs(dst: DataType) -> Attrs {
    Attrs::new().with("DstT", AttrValue::Type(dst))
}

#[test]
fn equal_and_not_equal_on_every_dtype() {
    let e = Env::new();
    let s = &[4][..];
    let (sh, o): (_, Vec<bool>) = e.bin(
        "Equal",
        (s, &[1f32, f32::NAN, -0., 2.]),
        (s, &[1., f32::NAN, 0., 3.]),
    );
    assert_eq!(
        (sh, o),
        (vec![4], vec![true, false, true, false]),
        "NaN != NaN, -0 == 0"
    );
    let (_, o): (_, Vec<bool>) = e.bin(
        "NotEqual",
        (s, &[1f32, f32::NAN, -0., 2.]),
        (s, &[1., f32::NAN, 0., 3.]),
    );
    assert_eq!(o, [false, true, false, true]);
    let (_, o): (_, Vec<bool>) = e.bin("Equal", (s, &[1f64, 2., 3., 4.]), (&[], &[3.]));
    assert_eq!(o, [false, false, true, false]);
    let (_, o): (_, Vec<bool>) = e.bin(
        "Equal",
        (s, &[i32::MIN, 0, 5, -5]),
        (s, &[i32::MIN, 1, 5, 5]),
    );
    assert_eq!(o, [true, false, true, false]);
    let (_, o): (_, Vec<bool>) = e.bin(
        "NotEqual",
        (&[2], &[1i64 << 40, 7]),
        (&[2], &[1i64 << 40, 8]),
    );
    assert_eq!(o, [false, true]);
    let (_, o): (_, Vec<bool>) = e.bin("Equal", (&[3], &[0u8, 255, 7]), (&[1], &[255]));
    assert_eq!(o, [false, true, false]);
    let (sh, o): (_, Vec<bool>) = e.bin("Equal", (&[2, 1], &[true, false]), (&[2], &[true, false]));
    assert_eq!(
        (sh, o),
        (vec![2, 2], vec![true, false, false, true]),
        "BOOL inputs broadcast"
    );
    let (_, o): (_, Vec<bool>) = e.bin("NotEqual", (&[2], &[true, false]), (&[], &[false]));
    assert_eq!(o, [true, false]);
    let (sh, o): (_, Vec<bool>) = e.bin("Equal", (&[0, 2], &[0i32; 0]), (&[2], &[1, 2]));
    assert_eq!((sh, o), (vec![0, 2], vec![]));
}

#[test]
fn incompatible_shape_error_attribute() {
    let e = Env::new();
    let a = e.t(&[2, 3], &[1i32; 6]);
    let b = e.t(&[4], &[1i32; 4]);
    for op in ["Equal", "NotEqual"] {
        let m = e.err(op, &[a, b]);
        assert!(
            m.starts_with(op) && m.contains("[2, 3]") && m.contains("[4]"),
            "{m}"
        );
        let t = Attrs::new().with("incompatible_shape_error", AttrValue::Bool(true));
        assert!(e.err_with(op, &[a, b], &t).contains("[2, 3]"));
    }
    // With the check off, TensorFlow answers a scalar: false for Equal, true for NotEqual.
    let off = Attrs::new().with("incompatible_shape_error", AttrValue::Bool(false));
    let (sh, o): (_, Vec<bool>) = e.run1_with("Equal", &[a, b], &off);
    assert_eq!((sh, o), (vec![], vec![false]));
    let (sh, o): (_, Vec<bool>) = e.run1_with("NotEqual", &[a, b], &off);
    assert_eq!((sh, o), (vec![], vec![true]));
    // Compatible shapes are compared as usual; dtypes must still agree.
    let c = e.t(&[3], &[1i32, 0, 1]);
    let (sh, o): (_, Vec<bool>) = e.run1_with("Equal", &[a, c], &off);
    assert_eq!(
        (sh, o),
        (vec![2, 3], vec![true, false, true, true, false, true])
    );
    let f = e.t(&[4], &[1f32; 4]);
    let m = e.err_with("Equal", &[a, f], &off);
    assert!(m.contains("INT32") && m.contains("FLOAT"), "{m}");
    let bad = Attrs::new().with("incompatible_shape_error", AttrValue::Int(0));
    assert!(
        e.err_with("NotEqual", &[a, b], &bad)
            .contains("incompatible_shape_error")
    );
    let m = e.err_with("Less", &[a, a], &off);
    assert!(
        m.contains("unknown attribute 'incompatible_shape_error'"),
        "{m}"
    );
}

#[test]
fn orderings_on_numeric_dtypes() {
    let e = Env::new();
    let s = &[4][..];
    let x = [1f32, 2., f32::NAN, -0.];
    let y = [2f32, 2., 1., 0.];
    for (op, want) in [
        ("Less", [true, false, false, false]),
        ("LessEqual", [true, true, false, true]),
        ("Greater", [false, false, false, false]),
        ("GreaterEqual", [false, true, false, true]),
    ] {
        let (sh, o): (_, Vec<bool>) = e.bin(op, (s, &x), (s, &y));
        assert_eq!((sh, o), (vec![4], want.to_vec()), "{op}");
    }
    let (sh, o): (_, Vec<bool>) = e.bin("Greater", (&[2, 1], &[1i32, 5]), (&[3], &[0, 1, 6]));
    assert_eq!(
        (sh, o),
        (vec![2, 3], vec![true, false, false, true, true, false])
    );
    let (_, o): (_, Vec<bool>) = e.bin(
        "LessEqual",
        (&[3], &[i64::MIN, 0, i64::MAX]),
        (&[], &[0i64]),
    );
    assert_eq!(o, [true, true, false]);
    let (_, o): (_, Vec<bool>) = e.bin("GreaterEqual", (&[3], &[0u8, 128, 255]), (&[], &[128u8]));
    assert_eq!(o, [false, true, true], "UINT8 compares unsigned");
    let (_, o): (_, Vec<bool>) = e.bin("Less", (&[2], &[f64::NEG_INFINITY, 1e300]), (&[], &[0f64]));
    assert_eq!(o, [true, false]);
    let b = e.t(&[1], &[true]);
    for op in ["Less", "LessEqual", "Greater", "GreaterEqual"] {
        let m = e.err(op, &[b, b]);
        assert!(m.starts_with(op) && m.contains("BOOL"), "{m}");
        let (i, f) = (e.t(&[1], &[1i32]), e.t(&[1], &[1f32]));
        let m = e.err(op, &[i, f]);
        assert!(m.contains("INT32") && m.contains("FLOAT"), "{m}");
        let (p, q) = (e.t(&[2], &[1f32; 2]), e.t(&[3], &[1f32; 3]));
        let m = e.err(op, &[p, q]);
        assert!(m.contains("[2]") && m.contains("[3]"), "{m}");
    }
}

#[test]
fn logical_ops() {
    let e = Env::new();
    let x = e.t(&[2, 2], &[true, true, false, false]);
    let y = e.t(&[2, 2], &[true, false, true, false]);
    assert_eq!(
        e.run1::<bool>("LogicalAnd", &[x, y]).1,
        [true, false, false, false]
    );
    assert_eq!(
        e.run1::<bool>("LogicalOr", &[x, y]).1,
        [true, true, true, false]
    );
    assert_eq!(
        e.run1::<bool>("LogicalNot", &[y]),
        (vec![2, 2], vec![false, true, false, true])
    );
    let col = e.t(&[2, 1], &[true, false]);
    let row = e.t(&[3], &[true, false, true]);
    let (sh, o) = e.run1::<bool>("LogicalAnd", &[col, row]);
    assert_eq!(
        (sh, o),
        (vec![2, 3], vec![true, false, true, false, false, false])
    );
    let (sh, o) = e.run1::<bool>("LogicalOr", &[e.scalar(false), row]);
    assert_eq!((sh, o), (vec![3], vec![true, false, true]));
    let (sh, o) = e.run1::<bool>("LogicalNot", &[e.scalar(false)]);
    assert_eq!((sh, o), (vec![], vec![true]));
    let i = e.t(&[2], &[1i32, 0]);
    for op in ["LogicalAnd", "LogicalOr"] {
        let m = e.err(op, &[x, i]);
        assert!(
            m.starts_with(op) && m.contains("INT32") && m.contains("BOOL"),
            "{m}"
        );
        let m = e.err(op, &[x, row]);
        assert!(m.contains("[2, 2]") && m.contains("[3]"), "{m}");
    }
    assert!(e.err("LogicalNot", &[i]).contains("INT32"));
    assert!(e.err("LogicalNot", &[x, x]).contains("expected 1 inputs"));
}

#[test]
fn select_v2() {
    let e = Env::new();
    let c = e.t(&[4], &[true, false, false, true]);
    let t = e.t(&[4], &[1f32, 2., 3., 4.]);
    let f = e.t(&[4], &[-1f32, -2., -3., -4.]);
    assert_eq!(e.run1::<f32>("SelectV2", &[c, t, f]).1, [1., -2., -3., 4.]);
    // Scalar condition.
    let (sh, o) = e.run1::<f32>("SelectV2", &[e.scalar(false), t, f]);
    assert_eq!((sh, o), (vec![4], vec![-1., -2., -3., -4.]));
    // Condition [2,1], t [1,3], e scalar: all three broadcast to [2,3].
    let c2 = e.t(&[2, 1], &[true, false]);
    let t2 = e.t(&[1, 3], &[1i64, 2, 3]);
    let (sh, o) = e.run1::<i64>("SelectV2", &[c2, t2, e.scalar(0i64)]);
    assert_eq!((sh, o), (vec![2, 3], vec![1, 2, 3, 0, 0, 0]));
    // Condition broadcast against a larger rank, scalar branches.
    let c3 = e.t(&[3], &[true, false, true]);
    let (sh, o) = e.run1::<u8>("SelectV2", &[c3, e.scalar(7u8), e.t(&[2, 1], &[1u8, 2])]);
    assert_eq!((sh, o), (vec![2, 3], vec![7, 1, 7, 7, 2, 7]));
    // Bool and INT32 branches; zero-size.
    let (_, o) = e.run1::<bool>("SelectV2", &[c3, e.scalar(true), e.t(&[3], &[false; 3])]);
    assert_eq!(o, [true, false, true]);
    let (_, o) = e.run1::<i32>("SelectV2", &[c3, e.t(&[3], &[1i32, 2, 3]), e.scalar(-1i32)]);
    assert_eq!(o, [1, -1, 3]);
    let z = e.t(&[0, 3], &[false; 0]);
    let (sh, o) = e.run1::<f64>("SelectV2", &[z, e.scalar(1f64), e.scalar(2f64)]);
    assert_eq!((sh, o), (vec![0, 3], vec![]));
    // Errors.
    let m = e.err("SelectV2", &[c, t, e.t(&[3], &[0f32; 3])]);
    assert!(m.starts_with("SelectV2"), "{m}");
    assert!(m.contains("[4]") && m.contains("[3]"), "{m}");
    let i = e.t(&[4], &[1i32; 4]);
    let m = e.err("SelectV2", &[i, t, f]);
    assert!(
        m.contains("condition") && m.contains("INT32") && m.contains("BOOL"),
        "{m}"
    );
    let m = e.err("SelectV2", &[c, t, i]);
    assert!(m.contains("FLOAT") && m.contains("INT32"), "{m}");
    assert!(e.err("SelectV2", &[c, t]).contains("expected 3 inputs"));
}

#[test]
fn cast_float_to_int_truncates_and_saturates() {
    let e = Env::new();
    let x = e.t(&[7], &[1.7f32, -1.7, f32::NAN, 1e10, -1e10, 0.99, -0.]);
    let (sh, o) = e.run1_with::<i32>("Cast", &[x], &cast_attrs(DataType::Int32));
    assert_eq!(sh, vec![7]);
    assert_eq!(o, [1, -1, 0, i32::MAX, i32::MIN, 0, 0]);
    let (_, o) = e.run1_with::<i64>("Cast", &[x], &cast_attrs(DataType::Int64));
    assert_eq!(o, [1, -1, 0, 10_000_000_000, -10_000_000_000, 0, 0]);
    let (_, o) = e.run1_with::<u8>("Cast", &[x], &cast_attrs(DataType::UInt8));
    assert_eq!(o, [1, 0, 0, 255, 0, 0, 0]);
    let d = e.t(&[3], &[2.5f64, -2.5, 300.9]);
    let (_, o) = e.run1_with::<i32>("Cast", &[d], &cast_attrs(DataType::Int32));
    assert_eq!(o, [2, -2, 300]);
    let (_, o) = e.run1_with::<f32>("Cast", &[d], &cast_attrs(DataType::Float));
    assert_eq!(o, [2.5, -2.5, 300.9]);
}

#[test]
fn cast_between_integers_wraps() {
    let e = Env::new();
    let x = e.t(&[5], &[300i32, -1, 255, 256, i32::MIN]);
    let (_, o) = e.run1_with::<u8>("Cast", &[x], &cast_attrs(DataType::UInt8));
    assert_eq!(o, [44, 255, 255, 0, 0]);
    let (_, o) = e.run1_with::<i64>("Cast", &[x], &cast_attrs(DataType::Int64));
    assert_eq!(o, [300, -1, 255, 256, -2_147_483_648]);
    let l = e.t(&[3], &[1i64 << 32, (1i64 << 32) + 5, -1]);
    let (_, o) = e.run1_with::<i32>("Cast", &[l], &cast_attrs(DataType::Int32));
    assert_eq!(o, [0, 5, -1]);
    let (_, o) = e.run1_with::<f64>("Cast", &[l], &cast_attrs(DataType::Double));
    assert_eq!(o, [4_294_967_296., 4_294_967_301., -1.]);
    let u = e.t(&[2], &[200u8, 0]);
    let (_, o) = e.run1_with::<i32>("Cast", &[u], &cast_attrs(DataType::Int32));
    assert_eq!(o, [200, 0]);
    let (_, o) = e.run1_with::<f32>("Cast", &[u], &cast_attrs(DataType::Float));
    assert_eq!(o, [200., 0.]);
}

#[test]
fn cast_to_and_from_bool() {
    let e = Env::new();
    let b = e.t(&[3], &[true, false, true]);
    assert_eq!(
        e.run1_with::<f32>("Cast", &[b], &cast_attrs(DataType::Float))
            .1,
        [1., 0., 1.]
    );
    assert_eq!(
        e.run1_with::<f64>("Cast", &[b], &cast_attrs(DataType::Double))
            .1,
        [1., 0., 1.]
    );
    assert_eq!(
        e.run1_with::<i32>("Cast", &[b], &cast_attrs(DataType::Int32))
            .1,
        [1, 0, 1]
    );
    assert_eq!(
        e.run1_with::<i64>("Cast", &[b], &cast_attrs(DataType::Int64))
            .1,
        [1, 0, 1]
    );
    assert_eq!(
        e.run1_with::<u8>("Cast", &[b], &cast_attrs(DataType::UInt8))
            .1,
        [1, 0, 1]
    );
    let f = e.t(&[5], &[0f32, -0., 0.5, f32::NAN, -3.]);
    let to_bool = cast_attrs(DataType::Bool);
    assert_eq!(
        e.run1_with::<bool>("Cast", &[f], &to_bool).1,
        [false, false, true, true, true]
    );
    let i = e.t(&[3], &[0i64, -1, 1 << 40]);
    assert_eq!(
        e.run1_with::<bool>("Cast", &[i], &to_bool).1,
        [false, true, true]
    );
    let u = e.t(&[2], &[0u8, 2]);
    assert_eq!(e.run1_with::<bool>("Cast", &[u], &to_bool).1, [false, true]);
}

#[test]
fn cast_to_the_same_dtype_shares_the_buffer() {
    let e = Env::new();
    for (h, dtype) in [
        (e.t(&[2], &[1f32, 2.]), DataType::Float),
        (e.t(&[2], &[true, false]), DataType::Bool),
        (e.t(&[0], &[0i64; 0]), DataType::Int64),
    ] {
        let before = e.s.stats().live_bytes;
        let out = e.run("Cast", &[h], &cast_attrs(dtype)).unwrap();
        assert_eq!(e.s.stats().live_bytes, before, "no new bytes");
        let (a, b) = (e.s.tensor(h).unwrap(), e.s.tensor(out[0]).unwrap());
        assert!(a.shares_buffer(&b));
        assert_eq!(b.dtype(), dtype);
    }
}

#[test]
fn cast_truncate_attribute() {
    let e = Env::new();
    // 1 + 0.75 ulp(f32): round-to-nearest goes up, truncation goes toward zero.
    let v = 1. + 0.75 * f64::from(f32::EPSILON);
    let d = e.t(&[4], &[v, -v, f64::NAN, 0.1]);
    let (_, rounded) = e.run1_with::<f32>("Cast", &[d], &cast_attrs(DataType::Float));
    assert_eq!(&rounded[..2], &[1. + f32::EPSILON, -1. - f32::EPSILON]);
    assert!(rounded[2].is_nan());
    let truncate = cast_attrs(DataType::Float).with("Truncate", AttrValue::Bool(true));
    let (_, cut) = e.run1_with::<f32>("Cast", &[d], &truncate);
    assert_eq!(&cut[..2], &[1., -1.]);
    assert!(cut[2].is_nan());
    assert!(f64::from(cut[3]) <= 0.1 && f64::from(cut[3]) > 0.1 - 1e-8);
    // Truncate changes nothing else.
    let f = e.t(&[2], &[1.7f32, -1.7]);
    let t = cast_attrs(DataType::Int32).with("Truncate", AttrValue::Bool(true));
    assert_eq!(e.run1_with::<i32>("Cast", &[f], &t).1, [1, -1]);
    let bad = cast_attrs(DataType::Int32).with("Truncate", AttrValue::Str("yes".into()));
    let m = e.err_with("Cast", &[f], &bad);
    assert!(m.starts_with("Cast") && m.contains("'Truncate'"), "{m}");
}

#[test]
fn cast_errors() {
    let e = Env::new();
    let f = e.t(&[2], &[1f32, 2.]);
    let m = e.err("Cast", &[f]);
    assert!(
        m.starts_with("Cast") && m.contains("'DstT' is required"),
        "{m}"
    );
    let m = e.err_with("Cast", &[f], &Attrs::new().with("DstT", AttrValue::Int(3)));
    assert!(m.contains("'DstT'") && m.contains("type"), "{m}");
    let m = e.err_with("Cast", &[f, f], &cast_attrs(DataType::Int32));
    assert!(m.contains("expected 1 inputs"), "{m}");
    let m = e.err_with("Cast", &[], &cast_attrs(DataType::Int32));
    assert!(m.contains("expected 1 inputs"), "{m}");
    let extra = cast_attrs(DataType::Int32).with("dtype", AttrValue::Type(DataType::Float));
    let m = e.err_with("Cast", &[f], &extra);
    assert!(
        m.contains("unknown attribute 'dtype'") && m.contains("DstT"),
        "{m}"
    );
    // SrcT is inferred; setting it is accepted and ignored.
    let src = cast_attrs(DataType::Int32).with("SrcT", AttrValue::Type(DataType::Double));
    assert_eq!(e.run1_with::<i32>("Cast", &[f], &src).1, [1, 2]);
}

#[test]
fn every_cast_pair_keeps_shape_and_accounts_bytes() {
    let e = Env::new();
    let inputs = [
        e.t(&[2, 3], &[0f32, 1., -1., 2.5, 255., 256.]),
        e.t(&[2, 3], &[0f64, 1., -1., 2.5, 255., 256.]),
        e.t(&[2, 3], &[0i32, 1, -1, 2, 255, 256]),
        e.t(&[2, 3], &[0i64, 1, -1, 2, 255, 256]),
        e.t(&[2, 3], &[0u8, 1, 255, 2, 255, 0]),
        e.t(&[2, 3], &[false, true, true, false, true, false]),
    ];
    for &h in &inputs {
        for dst in DataType::ALL {
            let before = e.s.stats().live_bytes;
            let out = e.run("Cast", &[h], &cast_attrs(dst)).unwrap();
            let t = e.s.tensor(out[0]).unwrap();
            assert_eq!((t.dtype(), t.shape()), (dst, &[2usize, 3][..]));
            let src = e.s.tensor(h).unwrap().dtype();
            let added = if src == dst { 0 } else { 6 * dst.size() as u64 };
            assert_eq!(e.s.stats().live_bytes, before + added, "{src} -> {dst}");
            drop(t);
            assert!(e.s.free(out[0], FreeReason::Explicit));
            assert_eq!(e.s.stats().live_bytes, before);
        }
    }
}

#[test]
fn freeing_everything_leaves_nothing() {
    let e = Env::new();
    let a = e.t(&[2, 2], &[1f32, 2., 3., 4.]);
    let b = e.t(&[2], &[2f32, 3.]);
    let c = e.t(&[2, 1], &[true, false]);
    let mut handles = vec![a, b, c];
    for op in ["Equal", "NotEqual", "Less", "GreaterEqual"] {
        handles.extend(e.run(op, &[a, b], &Attrs::new()).unwrap());
    }
    handles.extend(e.run("SelectV2", &[c, a, b], &Attrs::new()).unwrap());
    handles.extend(e.run("LogicalNot", &[c], &Attrs::new()).unwrap());
    handles.extend(e.run("Cast", &[a], &cast_attrs(DataType::Int64)).unwrap());
    assert!(e.run("SelectV2", &[a, a, b], &Attrs::new()).is_err());
    let st = e.s.stats();
    assert_eq!(st.live_tensors, handles.len() as u64);
    assert_eq!(st.live_bytes, (16 + 8 + 2 + 4 * 4 + 16 + 2 + 32) as u64);
    for &h in &handles {
        assert!(e.s.free(h, FreeReason::Explicit));
    }
    let st = e.s.stats();
    assert_eq!((st.live_bytes, st.live_tensors), (0, 0));
}
