//! `TopKV2`, `InTopKV2` and the activations `LeakyRelu`, `Softplus` and
//! `Softsign`.

use eagerflow::{AttrValue, Attrs, DataType};

use crate::common::{Env, close, close32, data};

#[test]
fn top_k_picks_the_largest_with_ties_by_lower_index() {
    let s = Env::new();
    let x = s.t(&[2, 5], &[1f32, 5., 3., 5., 2., 0., -1., 0., 7., f32::NAN]);
    let k = s.scalar(3i32);
    let out = s.outs("TopKV2", &[x, k], &Attrs::new());
    assert_eq!(out[0].shape(), &[2, 3]);
    let v = out[0].as_slice::<f32>().unwrap();
    assert_eq!(&v[..3], &[5., 5., 3.]);
    assert!(v[3].is_nan(), "NaN ranks highest");
    assert_eq!(&v[4..], &[7., 0.]);
    assert_eq!(out[1].dtype(), DataType::Int32);
    assert_eq!(out[1].as_slice::<i32>().unwrap(), &[1, 3, 2, 4, 3, 0]);
    // INT64 k and indices, integer input, k = 0 and k = n.
    let xi = s.t(&[4], &[4i64, -2, 9, 4]);
    let a = Attrs::new().with("index_type", AttrValue::Type(DataType::Int64));
    let out = s.outs("TopKV2", &[xi, s.scalar(4i64)], &a);
    assert_eq!(out[0].as_slice::<i64>().unwrap(), &[9, 4, 4, -2]);
    assert_eq!(out[1].as_slice::<i64>().unwrap(), &[2, 0, 3, 1]);
    let out = s.outs("TopKV2", &[xi, s.scalar(0i32)], &Attrs::new());
    assert_eq!(out[0].shape(), &[0]);
    // A large row against a full sort.
    let n = 10_000;
    let d = data(n, 5);
    let big = s.t(&[n], &d);
    let out = s.outs("TopKV2", &[big, s.scalar(100i32)], &Attrs::new());
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| d[b].partial_cmp(&d[a]).unwrap().then(a.cmp(&b)));
    let want: Vec<i32> = order[..100].iter().map(|&i| i as i32).collect();
    assert_eq!(out[1].as_slice::<i32>().unwrap(), &want[..]);
}

#[test]
fn bad_top_k_arguments_are_errors() {
    let s = Env::new();
    let x = s.t(&[2, 3], &[1f32; 6]);
    for (inputs, want) in [
        (vec![x, s.scalar(4i32)], "at least k = 4"),
        (vec![x, s.scalar(-1i32)], ">= 0"),
        (vec![x, s.v(&[1])], "scalar"),
        (vec![s.scalar(1f32), s.scalar(1i32)], "rank >= 1"),
        (vec![x, s.scalar(1f32)], "'k'"),
        (vec![s.t(&[1], &[true]), s.scalar(1i32)], "BOOL"),
    ] {
        let e = s.err("TopKV2", &inputs);
        assert!(e.contains(want), "{want}: {e}");
    }
    let a = Attrs::new().with("index_type", AttrValue::Type(DataType::Float));
    assert!(
        s.err_with("TopKV2", &[x, s.scalar(1i32)], &a)
            .contains("index_type")
    );
}

#[test]
fn in_top_k_counts_strictly_greater_predictions() {
    let s = Env::new();
    let p = s.t(
        &[3, 4],
        &[
            0.1f32,
            0.5,
            0.5,
            0.2,
            1.,
            f32::NAN,
            0.,
            0.,
            0.,
            0.,
            0.,
            f32::INFINITY,
        ],
    );
    let t = s.v(&[2, 0, 3]);
    // Row 0: one greater-or-equal rival (0.5 at index 1), none greater: in top 1.
    assert_eq!(
        s.run1::<bool>("InTopKV2", &[p, t, s.scalar(1i32)]).1,
        vec![true, true, false]
    );
    let t2 = s.v(&[0, 9, 1]);
    // Row 2: only +inf is greater than 0.
    assert_eq!(
        s.run1::<bool>("InTopKV2", &[p, t2, s.scalar(2i32)]).1,
        vec![false, false, true]
    );
    let t64 = s.v64(&[3, 0, 0]);
    assert_eq!(
        s.run1::<bool>("InTopKV2", &[p, t64, s.scalar(3i64)]).1,
        vec![true, true, true]
    );
    for (inputs, want) in [
        (vec![p, t, s.scalar(1i64)], "same dtype"),
        (vec![p, s.v(&[0, 1]), s.scalar(1i32)], "batch size"),
        (
            vec![s.t(&[4], &[1f32; 4]), s.v(&[0]), s.scalar(1i32)],
            "matrix",
        ),
        (
            vec![s.t(&[1, 1], &[1f64]), s.v(&[0]), s.scalar(1i32)],
            "FLOAT",
        ),
    ] {
        let e = s.err("InTopKV2", &inputs);
        assert!(e.contains(want), "{want}: {e}");
    }
}

#[test]
fn leaky_relu_softplus_and_softsign() {
    let s = Env::new();
    let x = s.t(&[5], &[-100f64, -2., 0., 3., 50.]);
    // alpha is a float attribute: 0.2 as f32, then widened, as TensorFlow's.
    let alpha = f64::from(0.2f32);
    assert_eq!(
        s.run1::<f64>("LeakyRelu", &[x]).1,
        vec![-100. * alpha, -2. * alpha, 0., 3., 50.]
    );
    let a = Attrs::new().with("alpha", AttrValue::Float(0.5));
    assert_eq!(
        s.run1_with::<f64>("LeakyRelu", &[x], &a).1,
        vec![-50., -1., 0., 3., 50.]
    );
    let sp = |v: f64| v.exp().ln_1p();
    close(
        &s.run1::<f64>("Softplus", &[x]).1,
        &[(-100f64).exp(), sp(-2.), sp(0.), sp(3.), 50.],
        1e-15,
    );
    close(
        &s.run1::<f64>("Softsign", &[x]).1,
        &[-100. / 101., -2. / 3., 0., 0.75, 50. / 51.],
        1e-15,
    );
    let xf = s.t(&[3], &[-20f32, 0., 20.]);
    close32(
        &s.run1::<f32>("Softplus", &[xf]).1,
        &[(-20f64).exp(), sp(0.), 20.],
        1e-6,
    );
    assert!(s.run1::<f32>("Softplus", &[s.t(&[1], &[f32::NAN])]).1[0].is_nan());
    for op in ["LeakyRelu", "Softplus", "Softsign"] {
        assert!(s.err(op, &[s.t(&[1], &[1i32])]).contains("INT32"), "{op}");
    }
    let bad = Attrs::new().with("alpha", AttrValue::Int(1));
    assert!(s.err_with("LeakyRelu", &[x], &bad).contains("'alpha'"));
}
