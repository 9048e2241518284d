//! Reductions through the session: hand-computed values per op and dtype,
//! keep_dims, negative, multiple and empty axis lists, zero-size dimensions,
//! error classes, a brute-force cross-check of every axis subset, and
//! accounting.
#![allow(clippy::unwrap_used)]

use eagerflow::{AttrValue, Attrs, Element, Error, Session, SessionOptions, Tensor};

fn session() -> Session {
    Session::new(SessionOptions::default())
}

fn put<T: Element>(s: &Session, shape: &[usize], data: &[T]) -> u64 {
    s.insert(Tensor::from_slice(s.account(), shape, data).unwrap())
        .unwrap()
}

fn keep() -> Attrs {
    Attrs::new().with("keep_dims", AttrValue::Bool(true))
}

/// Runs a one-output op and returns its shape and values.
fn run1<T: Element>(s: &Session, op: &str, inputs: &[u64], attrs: &Attrs) -> (Vec<usize>, Vec<T>) {
    let out = s.execute_named(op, inputs, attrs).unwrap();
    assert_eq!(out.len(), 1);
    let t = s.tensor(out[0]).unwrap();
    (t.shape().to_vec(), t.as_slice::<T>().unwrap().to_vec())
}

fn err(s: &Session, op: &str, inputs: &[u64], attrs: &Attrs) -> String {
    match s.execute_named(op, inputs, attrs) {
        Err(Error::InvalidArgument(m)) => m,
        other => panic!("{op}: expected InvalidArgument, got {other:?}"),
    }
}

#[test]
fn sum_every_dtype_and_axis_form() {
    let s = session();
    // [[1, 2, 3], [4, 5, 6]]
    let f = put(&s, &[2, 3], &[1f32, 2., 3., 4., 5., 6.]);
    let d = put(&s, &[2, 3], &[1f64, 2., 3., 4., 5., 6.]);
    let i = put(&s, &[2, 3], &[1i32, 2, 3, 4, 5, 6]);
    let l = put(&s, &[2, 3], &[1i64, 2, 3, 4, 5, 6]);
    let u = put(&s, &[2, 3], &[1u8, 2, 3, 4, 5, 6]);
    let ax0 = put(&s, &[], &[0i32]);
    let ax1 = put(&s, &[1], &[1i64]);
    let axm1 = put(&s, &[], &[-1i64]);
    let both = put(&s, &[2], &[0i32, -1]);
    let none = put::<i32>(&s, &[0], &[]);

    assert_eq!(
        run1::<f32>(&s, "Sum", &[f, ax0], &Attrs::new()),
        (vec![3], vec![5., 7., 9.])
    );
    assert_eq!(
        run1::<f32>(&s, "Sum", &[f, ax1], &Attrs::new()),
        (vec![2], vec![6., 15.])
    );
    assert_eq!(
        run1::<f32>(&s, "Sum", &[f, axm1], &Attrs::new()),
        (vec![2], vec![6., 15.])
    );
    assert_eq!(
        run1::<f32>(&s, "Sum", &[f, both], &Attrs::new()),
        (vec![], vec![21.])
    );
    assert_eq!(
        run1::<f32>(&s, "Sum", &[f, both], &keep()),
        (vec![1, 1], vec![21.])
    );
    assert_eq!(
        run1::<f32>(&s, "Sum", &[f, ax0], &keep()),
        (vec![1, 3], vec![5., 7., 9.])
    );
    assert_eq!(
        run1::<f32>(&s, "Sum", &[f, none], &Attrs::new()),
        (vec![2, 3], vec![1., 2., 3., 4., 5., 6.])
    );
    assert_eq!(
        run1::<f64>(&s, "Sum", &[d, ax1], &Attrs::new()),
        (vec![2], vec![6., 15.])
    );
    assert_eq!(
        run1::<i32>(&s, "Sum", &[i, ax0], &Attrs::new()),
        (vec![3], vec![5, 7, 9])
    );
    assert_eq!(
        run1::<i64>(&s, "Sum", &[l, ax1], &keep()),
        (vec![2, 1], vec![6, 15])
    );
    assert_eq!(
        run1::<u8>(&s, "Sum", &[u, both], &Attrs::new()),
        (vec![], vec![21])
    );
}

#[test]
fn prod_max_min_mean() {
    let s = session();
    // [[1, -2, 3], [4, 5, -6]]
    let f = put(&s, &[2, 3], &[1f32, -2., 3., 4., 5., -6.]);
    let i = put(&s, &[2, 3], &[1i32, -2, 3, 4, 5, -6]);
    let l = put(&s, &[2, 3], &[1i64, -2, 3, 4, 5, -6]);
    let ax0 = put(&s, &[1], &[0i32]);
    let ax1 = put(&s, &[1], &[1i32]);
    let all = put(&s, &[2], &[1i32, 0]);

    assert_eq!(
        run1::<f32>(&s, "Prod", &[f, ax0], &Attrs::new()).1,
        vec![4., -10., -18.]
    );
    assert_eq!(
        run1::<i32>(&s, "Prod", &[i, ax1], &Attrs::new()).1,
        vec![-6, -120]
    );
    assert_eq!(
        run1::<f32>(&s, "Max", &[f, ax1], &Attrs::new()).1,
        vec![3., 5.]
    );
    assert_eq!(
        run1::<i64>(&s, "Max", &[l, ax0], &Attrs::new()).1,
        vec![4, 5, 3]
    );
    assert_eq!(
        run1::<f32>(&s, "Min", &[f, all], &Attrs::new()).1,
        vec![-6.]
    );
    assert_eq!(
        run1::<i32>(&s, "Min", &[i, ax0], &keep()),
        (vec![1, 3], vec![1, -2, -6])
    );
    // Mean: float division, and integer division (truncating) for integers.
    assert_eq!(
        run1::<f32>(&s, "Mean", &[f, ax1], &Attrs::new()).1,
        vec![2. / 3., 1.]
    );
    assert_eq!(
        run1::<f32>(&s, "Mean", &[f, all], &Attrs::new()).1,
        vec![5. / 6.]
    );
    assert_eq!(
        run1::<i32>(&s, "Mean", &[i, ax1], &Attrs::new()).1,
        vec![0, 1]
    );
    assert_eq!(
        run1::<i64>(&s, "Mean", &[l, ax0], &Attrs::new()).1,
        vec![2, 1, -1]
    );
    let u = put(&s, &[4], &[1u8, 2, 2, 2]);
    let z = put(&s, &[], &[0i32]);
    assert_eq!(run1::<u8>(&s, "Mean", &[u, z], &Attrs::new()).1, vec![1]);
    assert_eq!(
        run1::<f64>(
            &s,
            "Mean",
            &[put(&s, &[3], &[1f64, 2., 4.]), z],
            &Attrs::new()
        )
        .1,
        vec![7. / 3.]
    );
}

#[test]
fn integer_sums_and_products_wrap() {
    let s = session();
    let z = put(&s, &[], &[0i32]);
    let i = put(&s, &[2], &[i32::MAX, 1]);
    assert_eq!(
        run1::<i32>(&s, "Sum", &[i, z], &Attrs::new()).1,
        vec![i32::MIN]
    );
    let u = put(&s, &[3], &[200u8, 100, 1]);
    assert_eq!(run1::<u8>(&s, "Sum", &[u, z], &Attrs::new()).1, vec![45]);
    assert_eq!(run1::<u8>(&s, "Prod", &[u, z], &Attrs::new()).1, vec![32]);
}

#[test]
fn all_any() {
    let s = session();
    let b = put(&s, &[2, 3], &[true, false, true, true, true, true]);
    let ax0 = put(&s, &[], &[0i64]);
    let ax1 = put(&s, &[], &[1i64]);
    let none = put::<i64>(&s, &[0], &[]);
    assert_eq!(
        run1::<bool>(&s, "All", &[b, ax0], &Attrs::new()).1,
        vec![true, false, true]
    );
    assert_eq!(
        run1::<bool>(&s, "All", &[b, ax1], &keep()),
        (vec![2, 1], vec![false, true])
    );
    assert_eq!(
        run1::<bool>(&s, "Any", &[b, ax1], &Attrs::new()).1,
        vec![true, true]
    );
    let f = put(&s, &[2], &[false, false]);
    assert_eq!(
        run1::<bool>(&s, "Any", &[f, ax0], &Attrs::new()).1,
        vec![false]
    );
    assert_eq!(
        run1::<bool>(&s, "All", &[f, none], &Attrs::new()).1,
        vec![false, false]
    );
    // Empty reductions give the identities.
    let e = put::<bool>(&s, &[0], &[]);
    assert_eq!(
        run1::<bool>(&s, "All", &[e, ax0], &Attrs::new()).1,
        vec![true]
    );
    assert_eq!(
        run1::<bool>(&s, "Any", &[e, ax0], &Attrs::new()).1,
        vec![false]
    );
}

#[test]
fn zero_size_dimensions() {
    let s = session();
    let x = put::<f32>(&s, &[2, 0, 3], &[]);
    let ax1 = put(&s, &[], &[1i32]);
    let ax0 = put(&s, &[], &[0i32]);
    assert_eq!(
        run1::<f32>(&s, "Sum", &[x, ax1], &Attrs::new()),
        (vec![2, 3], vec![0.; 6])
    );
    assert_eq!(
        run1::<f32>(&s, "Prod", &[x, ax1], &Attrs::new()),
        (vec![2, 3], vec![1.; 6])
    );
    assert_eq!(
        run1::<f32>(&s, "Max", &[x, ax1], &keep()),
        (vec![2, 1, 3], vec![f32::NEG_INFINITY; 6])
    );
    assert_eq!(
        run1::<f32>(&s, "Min", &[x, ax1], &Attrs::new()).1,
        vec![f32::INFINITY; 6]
    );
    let m = run1::<f32>(&s, "Mean", &[x, ax1], &Attrs::new()).1;
    assert!(
        m.len() == 6 && m.iter().all(|v| v.is_nan()),
        "mean of nothing is NaN"
    );
    // Reducing a non-empty axis of an empty tensor gives an empty result.
    assert_eq!(
        run1::<f32>(&s, "Sum", &[x, ax0], &Attrs::new()),
        (vec![0, 3], vec![])
    );
    let i = put::<i32>(&s, &[0], &[]);
    assert_eq!(
        run1::<i32>(&s, "Max", &[i, ax0], &Attrs::new()).1,
        vec![i32::MIN]
    );
    assert_eq!(run1::<i32>(&s, "Mean", &[i, ax0], &Attrs::new()).1, vec![0]);
    // A scalar with no axes is its own sum.
    let sc = put(&s, &[], &[7i64]);
    let none = put::<i32>(&s, &[0], &[]);
    assert_eq!(
        run1::<i64>(&s, "Sum", &[sc, none], &Attrs::new()),
        (vec![], vec![7])
    );
}

#[test]
fn nan_propagates_through_max_min() {
    let s = session();
    let z = put(&s, &[], &[0i32]);
    for data in [[f32::NAN, 1., 2.], [1., f32::NAN, 2.], [1., 2., f32::NAN]] {
        let x = put(&s, &[3], &data);
        assert!(run1::<f32>(&s, "Max", &[x, z], &Attrs::new()).1[0].is_nan());
        assert!(run1::<f32>(&s, "Min", &[x, z], &Attrs::new()).1[0].is_nan());
    }
}

#[test]
fn arg_max_min() {
    let s = session();
    // [[1, 3, 3], [7, 0, 7]]: ties go to the first index.
    let f = put(&s, &[2, 3], &[1f32, 3., 3., 7., 0., 7.]);
    let d0 = put(&s, &[], &[0i32]);
    let d1 = put(&s, &[], &[1i64]);
    let dm1 = put(&s, &[], &[-1i32]);
    assert_eq!(
        run1::<i64>(&s, "ArgMax", &[f, d1], &Attrs::new()),
        (vec![2], vec![1, 0])
    );
    assert_eq!(
        run1::<i64>(&s, "ArgMax", &[f, dm1], &Attrs::new()),
        (vec![2], vec![1, 0])
    );
    assert_eq!(
        run1::<i64>(&s, "ArgMax", &[f, d0], &Attrs::new()),
        (vec![3], vec![1, 0, 1])
    );
    assert_eq!(
        run1::<i64>(&s, "ArgMin", &[f, d1], &Attrs::new()),
        (vec![2], vec![0, 1])
    );
    assert_eq!(
        run1::<i64>(&s, "ArgMin", &[f, d0], &Attrs::new()),
        (vec![3], vec![0, 1, 0])
    );
    let as32 = Attrs::new().with("output_type", AttrValue::Type(eagerflow::DataType::Int32));
    assert_eq!(
        run1::<i32>(&s, "ArgMax", &[f, d1], &as32),
        (vec![2], vec![1, 0])
    );
    let i = put(&s, &[4], &[5i32, -1, 9, 9]);
    assert_eq!(
        run1::<i64>(&s, "ArgMax", &[i, d0], &Attrs::new()).1,
        vec![2]
    );
    assert_eq!(
        run1::<i64>(&s, "ArgMin", &[i, d0], &Attrs::new()).1,
        vec![1]
    );
    let l = put(&s, &[2, 2], &[5i64, 6, 8, 2]);
    assert_eq!(
        run1::<i64>(&s, "ArgMin", &[l, d0], &Attrs::new()).1,
        vec![0, 1]
    );
    let u = put(&s, &[3], &[1u8, 200, 3]);
    assert_eq!(
        run1::<i64>(&s, "ArgMax", &[u, d0], &Attrs::new()).1,
        vec![1]
    );
    let dd = put(&s, &[3], &[0.5f64, -1., 0.25]);
    assert_eq!(
        run1::<i64>(&s, "ArgMin", &[dd, d0], &Attrs::new()).1,
        vec![1]
    );
    let b = put(&s, &[3], &[false, true, true]);
    assert_eq!(
        run1::<i64>(&s, "ArgMax", &[b, d0], &Attrs::new()).1,
        vec![1]
    );
    // The first NaN wins, for both, along rows and along columns.
    let n = put(&s, &[2, 3], &[1f32, f32::NAN, f32::NAN, f32::NAN, 0., 9.]);
    assert_eq!(
        run1::<i64>(&s, "ArgMax", &[n, d1], &Attrs::new()).1,
        vec![1, 0]
    );
    assert_eq!(
        run1::<i64>(&s, "ArgMin", &[n, d1], &Attrs::new()).1,
        vec![1, 0]
    );
    assert_eq!(
        run1::<i64>(&s, "ArgMax", &[n, d0], &Attrs::new()).1,
        vec![1, 0, 0]
    );
    // Other dimensions may be empty.
    let e = put::<f32>(&s, &[0, 3], &[]);
    assert_eq!(
        run1::<i64>(&s, "ArgMax", &[e, d1], &Attrs::new()),
        (vec![0], vec![])
    );
}

#[test]
fn errors_name_the_problem() {
    let s = session();
    let f = put(&s, &[2, 3], &[1f32, 2., 3., 4., 5., 6.]);
    let bad = put(&s, &[], &[2i32]);
    let m = err(&s, "Sum", &[f, bad], &Attrs::new());
    assert!(
        m.starts_with("Sum:") && m.contains("2") && m.contains("[2, 3]"),
        "{m}"
    );
    let low = put(&s, &[], &[-3i32]);
    assert!(err(&s, "Max", &[f, low], &Attrs::new()).contains("-3"));
    let dup = put(&s, &[2], &[1i32, -1]);
    assert!(err(&s, "Sum", &[f, dup], &Attrs::new()).contains("duplicate"));
    let fl_axis = put(&s, &[], &[0f32]);
    assert!(err(&s, "Sum", &[f, fl_axis], &Attrs::new()).contains("INT32 or INT64"));
    let mat_axis = put(&s, &[1, 1], &[0i32]);
    assert!(err(&s, "Mean", &[f, mat_axis], &Attrs::new()).contains("scalar or a vector"));
    let z = put(&s, &[], &[0i32]);
    let b = put(&s, &[2], &[true, false]);
    assert!(err(&s, "Sum", &[b, z], &Attrs::new()).contains("BOOL"));
    assert!(err(&s, "All", &[f, z], &Attrs::new()).contains("BOOL"));
    let wrong_kind = Attrs::new().with("keep_dims", AttrValue::Int(1));
    assert!(err(&s, "Sum", &[f, z], &wrong_kind).contains("keep_dims"));
    let unknown = Attrs::new().with("keepdims", AttrValue::Bool(true));
    assert!(err(&s, "Sum", &[f, z], &unknown).contains("keepdims"));
    assert!(err(&s, "Sum", &[f], &Attrs::new()).contains("expected 2 inputs"));

    let d5 = put(&s, &[], &[5i32]);
    assert!(err(&s, "ArgMax", &[f, d5], &Attrs::new()).contains("5"));
    let dvec = put(&s, &[1], &[0i32]);
    assert!(err(&s, "ArgMax", &[f, dvec], &Attrs::new()).contains("scalar"));
    let e = put::<f32>(&s, &[0, 3], &[]);
    assert!(err(&s, "ArgMin", &[e, z], &Attrs::new()).contains("empty"));
    let sc = put(&s, &[], &[1f32]);
    assert!(err(&s, "ArgMax", &[sc, z], &Attrs::new()).contains("rank 0"));
    let as_float = Attrs::new().with("output_type", AttrValue::Type(eagerflow::DataType::Float));
    assert!(err(&s, "ArgMax", &[f, z], &as_float).contains("output_type"));
}

/// A straightforward reference: visit every input element and add it into
/// the output cell its kept coordinates name.
fn reference_sum(shape: &[usize], data: &[f64], mask: &[bool]) -> Vec<f64> {
    reference_fold(shape, data, mask, 0.0, |a, b| a + b)
}

fn reference_fold(
    shape: &[usize],
    data: &[f64],
    mask: &[bool],
    init: f64,
    f: fn(f64, f64) -> f64,
) -> Vec<f64> {
    let out_dims: Vec<usize> = shape
        .iter()
        .zip(mask)
        .map(|(&d, &r)| if r { 1 } else { d })
        .collect();
    let n_out: usize = out_dims.iter().product();
    let mut out = vec![init; n_out];
    let mut idx = vec![0usize; shape.len()];
    for &v in data {
        let mut o = 0;
        for (k, &i) in idx.iter().enumerate() {
            o = o * out_dims[k] + if mask[k] { 0 } else { i };
        }
        out[o] = f(out[o], v);
        for k in (0..shape.len()).rev() {
            idx[k] += 1;
            if idx[k] < shape[k] {
                break;
            }
            idx[k] = 0;
        }
    }
    out
}

#[test]
fn every_axis_subset_matches_a_reference() {
    let s = session();
    let shapes: [&[usize]; 6] = [
        &[5],
        &[3, 4],
        &[2, 1, 3],
        &[3, 2, 4, 5],
        &[2, 3, 1, 4, 3],
        &[4, 1, 1, 7],
    ];
    for shape in shapes {
        let n: usize = shape.iter().product();
        // Small integers: every sum is exact whatever the order.
        let data: Vec<f64> = (0..n).map(|i| ((i * 37 + 11) % 23) as f64 - 11.0).collect();
        let x = put(&s, shape, &data);
        let xi = put(
            &s,
            shape,
            &data.iter().map(|&v| v as i64).collect::<Vec<_>>(),
        );
        for bits in 0u32..(1 << shape.len()) {
            let mask: Vec<bool> = (0..shape.len()).map(|k| bits & (1 << k) != 0).collect();
            // Negative axes for odd subsets, to mix both forms.
            let axes: Vec<i32> = (0..shape.len())
                .filter(|&k| mask[k])
                .map(|k| {
                    if bits % 2 == 1 {
                        k as i32 - shape.len() as i32
                    } else {
                        k as i32
                    }
                })
                .collect();
            let ax = put(&s, &[axes.len()], &axes);
            let want = reference_sum(shape, &data, &mask);
            let (got_shape, got) = run1::<f64>(&s, "Sum", &[x, ax], &keep());
            let want_shape: Vec<usize> = shape
                .iter()
                .zip(&mask)
                .map(|(&d, &r)| if r { 1 } else { d })
                .collect();
            assert_eq!(got_shape, want_shape, "{shape:?} {axes:?}");
            assert_eq!(got, want, "{shape:?} {axes:?}");
            let (_, got_i) = run1::<i64>(&s, "Sum", &[xi, ax], &Attrs::new());
            assert_eq!(
                got_i,
                want.iter().map(|&v| v as i64).collect::<Vec<_>>(),
                "{shape:?} {axes:?}"
            );
        }
    }
}

#[test]
fn large_reductions_use_threads_and_agree() {
    let s = session();
    // Large enough for the threaded paths of every layout.
    let (r, c) = (1 << 12, 1 << 9);
    let data: Vec<f32> = (0..r * c).map(|i| (i % 7) as f32).collect();
    let x = put(&s, &[r, c], &data);
    let ax0 = put(&s, &[], &[0i32]);
    let ax1 = put(&s, &[], &[1i32]);
    let both = put(&s, &[2], &[0i32, 1]);
    let rows = run1::<f32>(&s, "Sum", &[x, ax1], &Attrs::new()).1;
    for (i, v) in rows.iter().enumerate() {
        let want: f32 = data[i * c..(i + 1) * c].iter().sum();
        assert_eq!(*v, want, "row {i}");
    }
    let cols = run1::<f32>(&s, "Sum", &[x, ax0], &Attrs::new()).1;
    for (j, v) in cols.iter().enumerate() {
        let want: f32 = (0..r).map(|i| data[i * c + j]).sum();
        assert_eq!(*v, want, "column {j}");
    }
    let total: f64 = data.iter().map(|&v| f64::from(v)).sum();
    assert_eq!(
        run1::<f32>(&s, "Sum", &[x, both], &Attrs::new()).1,
        vec![total as f32]
    );
    // A tall, narrow matrix reduced over its rows (partials per thread).
    let tall = put(&s, &[r * c / 3, 3], &data[..r * c / 3 * 3]);
    let got = run1::<f32>(&s, "Sum", &[tall, ax0], &Attrs::new()).1;
    for (j, g) in got.iter().enumerate() {
        let want: f64 = data[..r * c / 3 * 3]
            .iter()
            .skip(j)
            .step_by(3)
            .map(|&v| f64::from(v))
            .sum();
        assert_eq!(f64::from(*g), want, "column {j}");
    }
    let mx = run1::<f32>(&s, "Max", &[x, both], &Attrs::new()).1;
    assert_eq!(mx, vec![6.]);
    let am = run1::<i64>(&s, "ArgMax", &[x, ax0], &Attrs::new()).1;
    for (j, &a) in am.iter().enumerate() {
        let col: Vec<f32> = (0..r).map(|i| data[i * c + j]).collect();
        let best = col.iter().cloned().fold(f32::MIN, f32::max);
        assert_eq!(a as usize, col.iter().position(|&v| v == best).unwrap());
    }
}

#[test]
fn float_sum_is_accurate() {
    let s = session();
    // 2^22 copies of 0.1: a naive f32 running sum drifts far off.
    let n = 1 << 22;
    let x = put(&s, &[n], &vec![0.1f32; n]);
    let z = put(&s, &[], &[0i32]);
    let got = f64::from(run1::<f32>(&s, "Sum", &[x, z], &Attrs::new()).1[0]);
    let want = n as f64 * f64::from(0.1f32);
    // Pairwise over 2048-element leaves of 16 lanes: error ~ (11 + 128 + 16) ulp at worst.
    assert!((got - want).abs() / want < 1e-5, "{got} vs {want}");
    let naive = f64::from((0..n).fold(0f32, |s, _| s + 0.1));
    assert!(
        (naive - want).abs() / want > 1e-3,
        "a running sum drifts: {naive}"
    );
}

#[test]
fn everything_freed_leaves_no_bytes() {
    let s = session();
    let x = put(
        &s,
        &[3, 4, 5],
        &(0..60).map(|v| v as f32).collect::<Vec<_>>(),
    );
    let ax = put(&s, &[2], &[0i32, 2]);
    let d = put(&s, &[], &[1i32]);
    let mut handles = vec![x, ax, d];
    for op in ["Sum", "Prod", "Max", "Min", "Mean"] {
        handles.extend(s.execute_named(op, &[x, ax], &Attrs::new()).unwrap());
        handles.extend(s.execute_named(op, &[x, ax], &keep()).unwrap());
    }
    handles.extend(s.execute_named("ArgMax", &[x, d], &Attrs::new()).unwrap());
    let empty_axes = put::<i32>(&s, &[0], &[]);
    handles.push(empty_axes);
    // An empty axis list shares the input's buffer: its bytes are counted once.
    let before = s.stats().live_bytes;
    handles.extend(
        s.execute_named("Sum", &[x, empty_axes], &Attrs::new())
            .unwrap(),
    );
    assert_eq!(s.stats().live_bytes, before);
    // A failing op leaves nothing behind.
    let bad = put(&s, &[], &[9i32]);
    handles.push(bad);
    assert!(s.execute_named("Sum", &[x, bad], &Attrs::new()).is_err());
    assert_eq!(
        s.free_many(&handles, eagerflow::FreeReason::Explicit),
        handles.len()
    );
    assert_eq!(s.stats().live_bytes, 0);
    assert_eq!(s.stats().live_tensors, 0);
}

#[test]
fn large_column_reductions_every_split() {
    let s = session();
    // Many outer blocks (split by block), a row wider than a thread's partial
    // row (split by columns), and one block of moderate rows (row bands).
    for shape in [&[8usize, 1024, 130][..], &[3, 400_000], &[1200, 1000]] {
        let n: usize = shape.iter().product();
        let data: Vec<f64> = (0..n).map(|i| ((i * 31 + 7) % 19) as f64).collect();
        let x = put(&s, shape, &data);
        let mask: Vec<bool> = (0..shape.len()).map(|k| k + 2 == shape.len()).collect();
        let ax = put(&s, &[], &[shape.len() as i32 - 2]);
        let (_, got) = run1::<f64>(&s, "Sum", &[x, ax], &Attrs::new());
        assert_eq!(got, reference_sum(shape, &data, &mask), "{shape:?}");
        let (_, mx) = run1::<f64>(&s, "Max", &[x, ax], &Attrs::new());
        assert_eq!(
            mx,
            reference_fold(shape, &data, &mask, f64::NEG_INFINITY, f64::max)
        );
    }
}

#[test]
fn more_axes_than_dimensions_is_an_error() {
    let s = session();
    let x = put(&s, &[2, 3], &[1f32; 6]);
    let many = put(&s, &[3], &[0i32, 1, 0]);
    let m = err(&s, "Sum", &[x, many], &Attrs::new());
    assert!(m.contains("3 axes") && m.contains("[2, 3]"), "{m}");
}
