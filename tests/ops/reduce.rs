//! Reductions through the session: hand-computed values per op and dtype,
//! keep_dims, negative, multiple and empty axis lists, zero-size dimensions,
//! error classes, a brute-force cross-check of every axis subset, and
//! accounting.

use eagerflow::{AttrValue, Attrs};

use crate::common::{Env, flag};

fn keep() -> Attrs {
    flag("keep_dims", true)
}

#[test]
fn sum_every_dtype_and_axis_form() {
    let s = Env::new();
    // [[1, 2, 3], [4, 5, 6]]
    let f = s.t(&[2, 3], &[1f32, 2., 3., 4., 5., 6.]);
    let d = s.t(&[2, 3], &[1f64, 2., 3., 4., 5., 6.]);
    let i = s.t(&[2, 3], &[1i32, 2, 3, 4, 5, 6]);
    let l = s.t(&[2, 3], &[1i64, 2, 3, 4, 5, 6]);
    let u = s.t(&[2, 3], &[1u8, 2, 3, 4, 5, 6]);
    let ax0 = s.t(&[], &[0i32]);
    let ax1 = s.t(&[1], &[1i64]);
    let axm1 = s.t(&[], &[-1i64]);
    let both = s.t(&[2], &[0i32, -1]);
    let none = s.t::<i32>(&[0], &[]);

    assert_eq!(s.run1::<f32>("Sum", &[f, ax0]), (vec![3], vec![5., 7., 9.]));
    assert_eq!(s.run1::<f32>("Sum", &[f, ax1]), (vec![2], vec![6., 15.]));
    assert_eq!(s.run1::<f32>("Sum", &[f, axm1]), (vec![2], vec![6., 15.]));
    assert_eq!(s.run1::<f32>("Sum", &[f, both]), (vec![], vec![21.]));
    assert_eq!(
        s.run1_with::<f32>("Sum", &[f, both], &keep()),
        (vec![1, 1], vec![21.])
    );
    assert_eq!(
        s.run1_with::<f32>("Sum", &[f, ax0], &keep()),
        (vec![1, 3], vec![5., 7., 9.])
    );
    assert_eq!(
        s.run1::<f32>("Sum", &[f, none]),
        (vec![2, 3], vec![1., 2., 3., 4., 5., 6.])
    );
    assert_eq!(s.run1::<f64>("Sum", &[d, ax1]), (vec![2], vec![6., 15.]));
    assert_eq!(s.run1::<i32>("Sum", &[i, ax0]), (vec![3], vec![5, 7, 9]));
    assert_eq!(
        s.run1_with::<i64>("Sum", &[l, ax1], &keep()),
        (vec![2, 1], vec![6, 15])
    );
    assert_eq!(s.run1::<u8>("Sum", &[u, both]), (vec![], vec![21]));
}

#[test]
fn prod_max_min_mean() {
    let s = Env::new();
    // [[1, -2, 3], [4, 5, -6]]
    let f = s.t(&[2, 3], &[1f32, -2., 3., 4., 5., -6.]);
    let i = s.t(&[2, 3], &[1i32, -2, 3, 4, 5, -6]);
    let l = s.t(&[2, 3], &[1i64, -2, 3, 4, 5, -6]);
    let ax0 = s.t(&[1], &[0i32]);
    let ax1 = s.t(&[1], &[1i32]);
    let all = s.t(&[2], &[1i32, 0]);

    assert_eq!(s.run1::<f32>("Prod", &[f, ax0]).1, vec![4., -10., -18.]);
    assert_eq!(s.run1::<i32>("Prod", &[i, ax1]).1, vec![-6, -120]);
    assert_eq!(s.run1::<f32>("Max", &[f, ax1]).1, vec![3., 5.]);
    assert_eq!(s.run1::<i64>("Max", &[l, ax0]).1, vec![4, 5, 3]);
    assert_eq!(s.run1::<f32>("Min", &[f, all]).1, vec![-6.]);
    assert_eq!(
        s.run1_with::<i32>("Min", &[i, ax0], &keep()),
        (vec![1, 3], vec![1, -2, -6])
    );
    // Mean: float division, and integer division (truncating) for integers.
    assert_eq!(s.run1::<f32>("Mean", &[f, ax1]).1, vec![2. / 3., 1.]);
    assert_eq!(s.run1::<f32>("Mean", &[f, all]).1, vec![5. / 6.]);
    assert_eq!(s.run1::<i32>("Mean", &[i, ax1]).1, vec![0, 1]);
    assert_eq!(s.run1::<i64>("Mean", &[l, ax0]).1, vec![2, 1, -1]);
    let u = s.t(&[4], &[1u8, 2, 2, 2]);
    let z = s.t(&[], &[0i32]);
    assert_eq!(s.run1::<u8>("Mean", &[u, z]).1, vec![1]);
    assert_eq!(
        s.run1::<f64>("Mean", &[s.t(&[3], &[1f64, 2., 4.]), z]).1,
        vec![7. / 3.]
    );
}

#[test]
fn integer_sums_and_products_wrap() {
    let s = Env::new();
    let z = s.t(&[], &[0i32]);
    let i = s.t(&[2], &[i32::MAX, 1]);
    assert_eq!(s.run1::<i32>("Sum", &[i, z]).1, vec![i32::MIN]);
    let u = s.t(&[3], &[200u8, 100, 1]);
    assert_eq!(s.run1::<u8>("Sum", &[u, z]).1, vec![45]);
    assert_eq!(s.run1::<u8>("Prod", &[u, z]).1, vec![32]);
}

/// TensorFlow's `Mean` of UINT8, UINT16 and INT32 does not wrap its sum (INT64's does) (found by
/// the differential test): the means over both axes and over one.
#[test]
fn narrow_unsigned_means_do_not_wrap() {
    let s = Env::new();
    let z = s.t(&[], &[0i32]);
    let u = s.t(&[3], &[200u8, 100, 255]);
    assert_eq!(s.run1::<u8>("Mean", &[u, z]).1, vec![185]);
    let w = s.t(&[2, 2], &[65535u16, 65534, 65535, 2]);
    assert_eq!(s.run1::<u16>("Mean", &[w, z]).1, vec![65535, 32768]);
    let last = s.t(&[], &[-1i32]);
    assert_eq!(
        s.run1_with::<u16>("Mean", &[w, last], &keep()),
        (vec![2, 1], vec![65534, 32768])
    );
    let i = s.t(&[2], &[i32::MAX, i32::MAX]);
    assert_eq!(s.run1::<i32>("Mean", &[i, z]).1, vec![i32::MAX]);
    let l = s.t(&[2], &[i64::MAX, i64::MAX]);
    assert_eq!(s.run1::<i64>("Mean", &[l, z]).1, vec![-1]);
    let empty = s.t(&[0], &[0u8; 0]);
    assert_eq!(s.run1::<u8>("Mean", &[empty, z]).1, vec![0]);
}

#[test]
fn all_any() {
    let s = Env::new();
    let b = s.t(&[2, 3], &[true, false, true, true, true, true]);
    let ax0 = s.t(&[], &[0i64]);
    let ax1 = s.t(&[], &[1i64]);
    let none = s.t::<i64>(&[0], &[]);
    assert_eq!(s.run1::<bool>("All", &[b, ax0]).1, vec![true, false, true]);
    assert_eq!(
        s.run1_with::<bool>("All", &[b, ax1], &keep()),
        (vec![2, 1], vec![false, true])
    );
    assert_eq!(s.run1::<bool>("Any", &[b, ax1]).1, vec![true, true]);
    let f = s.t(&[2], &[false, false]);
    assert_eq!(s.run1::<bool>("Any", &[f, ax0]).1, vec![false]);
    assert_eq!(s.run1::<bool>("All", &[f, none]).1, vec![false, false]);
    // Empty reductions give the identities.
    let e = s.t::<bool>(&[0], &[]);
    assert_eq!(s.run1::<bool>("All", &[e, ax0]).1, vec![true]);
    assert_eq!(s.run1::<bool>("Any", &[e, ax0]).1, vec![false]);
}

#[test]
fn zero_size_dimensions() {
    let s = Env::new();
    let x = s.t::<f32>(&[2, 0, 3], &[]);
    let ax1 = s.t(&[], &[1i32]);
    let ax0 = s.t(&[], &[0i32]);
    assert_eq!(s.run1::<f32>("Sum", &[x, ax1]), (vec![2, 3], vec![0.; 6]));
    assert_eq!(s.run1::<f32>("Prod", &[x, ax1]), (vec![2, 3], vec![1.; 6]));
    assert_eq!(
        s.run1_with::<f32>("Max", &[x, ax1], &keep()),
        (vec![2, 1, 3], vec![f32::NEG_INFINITY; 6])
    );
    assert_eq!(s.run1::<f32>("Min", &[x, ax1]).1, vec![f32::INFINITY; 6]);
    let m = s.run1::<f32>("Mean", &[x, ax1]).1;
    assert!(
        m.len() == 6 && m.iter().all(|v| v.is_nan()),
        "mean of nothing is NaN"
    );
    // Reducing a non-empty axis of an empty tensor gives an empty result.
    assert_eq!(s.run1::<f32>("Sum", &[x, ax0]), (vec![0, 3], vec![]));
    let i = s.t::<i32>(&[0], &[]);
    assert_eq!(s.run1::<i32>("Max", &[i, ax0]).1, vec![i32::MIN]);
    assert_eq!(s.run1::<i32>("Mean", &[i, ax0]).1, vec![0]);
    // A scalar with no axes is its own sum.
    let sc = s.t(&[], &[7i64]);
    let none = s.t::<i32>(&[0], &[]);
    assert_eq!(s.run1::<i64>("Sum", &[sc, none]), (vec![], vec![7]));
}

#[test]
fn nan_propagates_through_max_min() {
    let s = Env::new();
    let z = s.t(&[], &[0i32]);
    for data in [[f32::NAN, 1., 2.], [1., f32::NAN, 2.], [1., 2., f32::NAN]] {
        let x = s.t(&[3], &data);
        assert!(s.run1::<f32>("Max", &[x, z]).1[0].is_nan());
        assert!(s.run1::<f32>("Min", &[x, z]).1[0].is_nan());
    }
}

#[test]
fn arg_max_min() {
    let s = Env::new();
    // [[1, 3, 3], [7, 0, 7]]: ties go to the first index.
    let f = s.t(&[2, 3], &[1f32, 3., 3., 7., 0., 7.]);
    let d0 = s.t(&[], &[0i32]);
    let d1 = s.t(&[], &[1i64]);
    let dm1 = s.t(&[], &[-1i32]);
    assert_eq!(s.run1::<i64>("ArgMax", &[f, d1]), (vec![2], vec![1, 0]));
    assert_eq!(s.run1::<i64>("ArgMax", &[f, dm1]), (vec![2], vec![1, 0]));
    assert_eq!(s.run1::<i64>("ArgMax", &[f, d0]), (vec![3], vec![1, 0, 1]));
    assert_eq!(s.run1::<i64>("ArgMin", &[f, d1]), (vec![2], vec![0, 1]));
    assert_eq!(s.run1::<i64>("ArgMin", &[f, d0]), (vec![3], vec![0, 1, 0]));
    let as32 = Attrs::new().with("output_type", AttrValue::Type(eagerflow::DataType::Int32));
    assert_eq!(
        s.run1_with::<i32>("ArgMax", &[f, d1], &as32),
        (vec![2], vec![1, 0])
    );
    let i = s.t(&[4], &[5i32, -1, 9, 9]);
    assert_eq!(s.run1::<i64>("ArgMax", &[i, d0]).1, vec![2]);
    assert_eq!(s.run1::<i64>("ArgMin", &[i, d0]).1, vec![1]);
    let l = s.t(&[2, 2], &[5i64, 6, 8, 2]);
    assert_eq!(s.run1::<i64>("ArgMin", &[l, d0]).1, vec![0, 1]);
    let u = s.t(&[3], &[1u8, 200, 3]);
    assert_eq!(s.run1::<i64>("ArgMax", &[u, d0]).1, vec![1]);
    let dd = s.t(&[3], &[0.5f64, -1., 0.25]);
    assert_eq!(s.run1::<i64>("ArgMin", &[dd, d0]).1, vec![1]);
    let b = s.t(&[3], &[false, true, true]);
    assert_eq!(s.run1::<i64>("ArgMax", &[b, d0]).1, vec![1]);
    // The first NaN wins, for both, along rows and along columns.
    let n = s.t(&[2, 3], &[1f32, f32::NAN, f32::NAN, f32::NAN, 0., 9.]);
    assert_eq!(s.run1::<i64>("ArgMax", &[n, d1]).1, vec![1, 0]);
    assert_eq!(s.run1::<i64>("ArgMin", &[n, d1]).1, vec![1, 0]);
    assert_eq!(s.run1::<i64>("ArgMax", &[n, d0]).1, vec![1, 0, 0]);
    // Other dimensions may be empty.
    let e = s.t::<f32>(&[0, 3], &[]);
    assert_eq!(s.run1::<i64>("ArgMax", &[e, d1]), (vec![0], vec![]));
}

#[test]
fn errors_name_the_problem() {
    let s = Env::new();
    let f = s.t(&[2, 3], &[1f32, 2., 3., 4., 5., 6.]);
    let bad = s.t(&[], &[2i32]);
    let m = s.err("Sum", &[f, bad]);
    assert!(
        m.starts_with("Sum:") && m.contains("2") && m.contains("[2, 3]"),
        "{m}"
    );
    let low = s.t(&[], &[-3i32]);
    assert!(s.err("Max", &[f, low]).contains("-3"));
    let dup = s.t(&[2], &[1i32, -1]);
    assert!(s.err("Sum", &[f, dup]).contains("duplicate"));
    let fl_axis = s.t(&[], &[0f32]);
    assert!(s.err("Sum", &[f, fl_axis]).contains("INT32 or INT64"));
    let mat_axis = s.t(&[1, 1], &[0i32]);
    assert!(s.err("Mean", &[f, mat_axis]).contains("scalar or a vector"));
    let z = s.t(&[], &[0i32]);
    let b = s.t(&[2], &[true, false]);
    assert!(s.err("Sum", &[b, z]).contains("BOOL"));
    assert!(s.err("All", &[f, z]).contains("BOOL"));
    let wrong_kind = Attrs::new().with("keep_dims", AttrValue::Int(1));
    assert!(
        s.err_with("Sum", &[f, z], &wrong_kind)
            .contains("keep_dims")
    );
    let unknown = Attrs::new().with("keepdims", AttrValue::Bool(true));
    assert!(s.err_with("Sum", &[f, z], &unknown).contains("keepdims"));
    assert!(s.err("Sum", &[f]).contains("expected 2 inputs"));

    let d5 = s.t(&[], &[5i32]);
    assert!(s.err("ArgMax", &[f, d5]).contains("5"));
    let dvec = s.t(&[1], &[0i32]);
    assert!(s.err("ArgMax", &[f, dvec]).contains("scalar"));
    let e = s.t::<f32>(&[0, 3], &[]);
    assert!(s.err("ArgMin", &[e, z]).contains("empty"));
    let sc = s.t(&[], &[1f32]);
    assert!(s.err("ArgMax", &[sc, z]).contains("rank 0"));
    let as_float = Attrs::new().with("output_type", AttrValue::Type(eagerflow::DataType::Float));
    assert!(
        s.err_with("ArgMax", &[f, z], &as_float)
            .contains("output_type")
    );
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
    let s = Env::new();
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
        let x = s.t(shape, &data);
        let xi = s.t(shape, &data.iter().map(|&v| v as i64).collect::<Vec<_>>());
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
            let ax = s.t(&[axes.len()], &axes);
            let want = reference_sum(shape, &data, &mask);
            let (got_shape, got) = s.run1_with::<f64>("Sum", &[x, ax], &keep());
            let want_shape: Vec<usize> = shape
                .iter()
                .zip(&mask)
                .map(|(&d, &r)| if r { 1 } else { d })
                .collect();
            assert_eq!(got_shape, want_shape, "{shape:?} {axes:?}");
            assert_eq!(got, want, "{shape:?} {axes:?}");
            let (_, got_i) = s.run1::<i64>("Sum", &[xi, ax]);
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
    let s = Env::new();
    // Large enough for the threaded paths of every layout.
    let (r, c) = (1 << 12, 1 << 9);
    let data: Vec<f32> = (0..r * c).map(|i| (i % 7) as f32).collect();
    let x = s.t(&[r, c], &data);
    let ax0 = s.t(&[], &[0i32]);
    let ax1 = s.t(&[], &[1i32]);
    let both = s.t(&[2], &[0i32, 1]);
    let rows = s.run1::<f32>("Sum", &[x, ax1]).1;
    for (i, v) in rows.iter().enumerate() {
        let want: f32 = data[i * c..(i + 1) * c].iter().sum();
        assert_eq!(*v, want, "row {i}");
    }
    let cols = s.run1::<f32>("Sum", &[x, ax0]).1;
    for (j, v) in cols.iter().enumerate() {
        let want: f32 = (0..r).map(|i| data[i * c + j]).sum();
        assert_eq!(*v, want, "column {j}");
    }
    let total: f64 = data.iter().map(|&v| f64::from(v)).sum();
    assert_eq!(s.run1::<f32>("Sum", &[x, both]).1, vec![total as f32]);
    // A tall, narrow matrix reduced over its rows (partials per thread).
    let tall = s.t(&[r * c / 3, 3], &data[..r * c / 3 * 3]);
    let got = s.run1::<f32>("Sum", &[tall, ax0]).1;
    for (j, g) in got.iter().enumerate() {
        let want: f64 = data[..r * c / 3 * 3]
            .iter()
            .skip(j)
            .step_by(3)
            .map(|&v| f64::from(v))
            .sum();
        assert_eq!(f64::from(*g), want, "column {j}");
    }
    let mx = s.run1::<f32>("Max", &[x, both]).1;
    assert_eq!(mx, vec![6.]);
    let am = s.run1::<i64>("ArgMax", &[x, ax0]).1;
    for (j, &a) in am.iter().enumerate() {
        let col: Vec<f32> = (0..r).map(|i| data[i * c + j]).collect();
        let best = col.iter().cloned().fold(f32::MIN, f32::max);
        assert_eq!(a as usize, col.iter().position(|&v| v == best).unwrap());
    }
}

#[test]
fn float_sum_is_accurate() {
    let s = Env::new();
    // 2^22 copies of 0.1: a naive f32 running sum drifts far off.
    let n = 1 << 22;
    let x = s.t(&[n], &vec![0.1f32; n]);
    let z = s.t(&[], &[0i32]);
    let got = f64::from(s.run1::<f32>("Sum", &[x, z]).1[0]);
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
    let s = Env::new();
    let x = s.t(&[3, 4, 5], &(0..60).map(|v| v as f32).collect::<Vec<_>>());
    let ax = s.t(&[2], &[0i32, 2]);
    let d = s.t(&[], &[1i32]);
    let mut handles = vec![x, ax, d];
    for op in ["Sum", "Prod", "Max", "Min", "Mean"] {
        handles.extend(s.run(op, &[x, ax], &Attrs::new()).unwrap());
        handles.extend(s.run(op, &[x, ax], &keep()).unwrap());
    }
    handles.extend(s.run("ArgMax", &[x, d], &Attrs::new()).unwrap());
    let empty_axes = s.t::<i32>(&[0], &[]);
    handles.push(empty_axes);
    // An empty axis list shares the input's buffer: its bytes are counted once.
    let before = s.s.stats().live_bytes;
    handles.extend(s.run("Sum", &[x, empty_axes], &Attrs::new()).unwrap());
    assert_eq!(s.s.stats().live_bytes, before);
    // A failing op leaves nothing behind.
    let bad = s.t(&[], &[9i32]);
    handles.push(bad);
    assert!(s.run("Sum", &[x, bad], &Attrs::new()).is_err());
    assert_eq!(
        s.s.free_many(&handles, eagerflow::FreeReason::Explicit),
        handles.len()
    );
    assert_eq!(s.s.stats().live_bytes, 0);
    assert_eq!(s.s.stats().live_tensors, 0);
}

#[test]
fn large_column_reductions_every_split() {
    let s = Env::new();
    // Many outer blocks (split by block), a row wider than a thread's partial
    // row (split by columns), and one block of moderate rows (row bands).
    for shape in [&[8usize, 1024, 130][..], &[3, 400_000], &[1200, 1000]] {
        let n: usize = shape.iter().product();
        let data: Vec<f64> = (0..n).map(|i| ((i * 31 + 7) % 19) as f64).collect();
        let x = s.t(shape, &data);
        let mask: Vec<bool> = (0..shape.len()).map(|k| k + 2 == shape.len()).collect();
        let ax = s.t(&[], &[shape.len() as i32 - 2]);
        let (_, got) = s.run1::<f64>("Sum", &[x, ax]);
        assert_eq!(got, reference_sum(shape, &data, &mask), "{shape:?}");
        let (_, mx) = s.run1::<f64>("Max", &[x, ax]);
        assert_eq!(
            mx,
            reference_fold(shape, &data, &mask, f64::NEG_INFINITY, f64::max)
        );
    }
}

#[test]
fn more_axes_than_dimensions_is_an_error() {
    let s = Env::new();
    let x = s.t(&[2, 3], &[1f32; 6]);
    let many = s.t(&[3], &[0i32, 1, 0]);
    let m = s.err("Sum", &[x, many]);
    assert!(m.contains("3 axes") && m.contains("[2, 3]"), "{m}");
}
