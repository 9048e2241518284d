//! Arithmetic ops (src/ops/math.rs) against hand-computed TensorFlow results:
//! dtypes, broadcasting, errors, and exact accounting after every test.
//! Binary and unary element-wise ops have a module each; the list and scan
//! ops (AddN, Cumsum), the parallel paths and accounting are here.

use eagerflow::ops::broadcast::PARALLEL_MIN_ELEMENTS;
use eagerflow::{AttrValue, Attrs, FreeReason};

use crate::common::Env;

mod binary;
mod unary;

/// Element-wise closeness, NaN equal to NaN and infinities exact.
pub fn close(got: &[f64], want: &[f64], tol: f64) {
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

pub fn f32s(v: &[f32]) -> Vec<f64> {
    v.iter().map(|&x| f64::from(x)).collect()
}

#[test]
fn add_n() {
    let e = Env::new();
    let a = e.t(&[2, 2], &[1i32, 2, 3, i32::MAX]);
    let b = e.t(&[2, 2], &[10i32, 20, 30, 1]);
    let c = e.t(&[2, 2], &[100i32, 200, 300, 0]);
    let out = e.run_list("AddN", &[a, b, c], &[3], &Attrs::new()).unwrap();
    assert_eq!(
        e.get::<i32>(out[0]),
        (vec![2, 2], vec![111, 222, 333, i32::MIN])
    );
    let f = e.t(&[3], &[0.5f32, -1., 2.]);
    let g = e.t(&[3], &[0.25f32, 1., 2.]);
    let out = e.run_list("AddN", &[f, g, f], &[3], &Attrs::new()).unwrap();
    assert_eq!(e.get::<f32>(out[0]).1, [1.25, -1., 6.]);
    let u = e.t(&[2], &[200u8, 1]);
    let out = e.run_list("AddN", &[u, u], &[2], &Attrs::new()).unwrap();
    assert_eq!(e.get::<u8>(out[0]).1, [144, 2]);
    let s = e.scalar(2.5f64);
    let out = e
        .run_list("AddN", &[s, s, s, s], &[4], &Attrs::new())
        .unwrap();
    assert_eq!(e.get::<f64>(out[0]), (vec![], vec![10.]));
    // One input is returned as it is.
    let out = e.run_list("AddN", &[a], &[1], &Attrs::new()).unwrap();
    let (x, y) = (e.s.tensor(a).unwrap(), e.s.tensor(out[0]).unwrap());
    assert!(x.shares_buffer(&y));
    // Errors.
    let m = e
        .run_list("AddN", &[], &[0], &Attrs::new())
        .unwrap_err()
        .to_string();
    assert!(m.starts_with("AddN") && m.contains("at least one"), "{m}");
    let wrong = e.t(&[4], &[1i32; 4]);
    let m = e
        .run_list("AddN", &[a, wrong], &[2], &Attrs::new())
        .unwrap_err()
        .to_string();
    assert!(m.contains("[2, 2]") && m.contains("[4]"), "{m}");
    let m = e
        .run_list("AddN", &[a, f], &[2], &Attrs::new())
        .unwrap_err()
        .to_string();
    assert!(m.contains("INT32") && m.contains("FLOAT"), "{m}");
    let bools = e.t(&[1], &[true]);
    assert!(
        e.run_list("AddN", &[bools, bools], &[2], &Attrs::new())
            .is_err()
    );
    let m = e.err("AddN", &[a, b]);
    assert!(m.contains("must be given as a list"), "{m}");
    assert!(e.run_list("AddN", &[a, b], &[-1], &Attrs::new()).is_err());
    assert!(e.run_list("AddN", &[a, b], &[3], &Attrs::new()).is_err());
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
    let out = e.run_list("AddN", &[x, y, x], &[3], &Attrs::new()).unwrap();
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
