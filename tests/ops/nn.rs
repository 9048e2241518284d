//! The nn ops through the session: activations, softmax, bias add, cross
//! entropy and L2 loss, hand-computed and on large (threaded) inputs.

use eagerflow::{AttrValue, Attrs};

use crate::common::{Env, close, close32, data};

#[test]
fn activations() {
    let s = Env::new();
    let x = s.t(&[5], &[-2f32, -0.5, 0., 3., 7.]);
    assert_eq!(s.run1::<f32>("Relu", &[x]).1, vec![0., 0., 0., 3., 7.]);
    assert_eq!(s.run1::<f32>("Relu6", &[x]).1, vec![0., 0., 0., 3., 6.]);
    let xi = s.t(&[3], &[-2i32, 4, 9]);
    assert_eq!(s.run1::<i32>("Relu", &[xi]).1, vec![0, 4, 9]);
    assert_eq!(s.run1::<i32>("Relu6", &[xi]).1, vec![0, 4, 6]);
    let xl = s.t(&[2], &[-2i64, 8]);
    assert_eq!(s.run1::<i64>("Relu6", &[xl]).1, vec![0, 6]);
    let n = s.t(&[1], &[f32::NAN]);
    assert!(s.run1::<f32>("Relu", &[n]).1[0].is_nan());
    // -0 gives +0, as TensorFlow's FLOAT and DOUBLE kernels give (its 16-bit ones keep -0).
    let nz = s.t(&[2], &[-0f32, -1.]);
    for op in ["Relu", "Relu6"] {
        let out = s.run1::<f32>(op, &[nz]).1;
        assert_eq!(
            out.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            vec![0, 0]
        );
        let nzd = s.t(&[1], &[-0f64]);
        assert_eq!(s.run1::<f64>(op, &[nzd]).1[0].to_bits(), 0);
        let nzh = s.t(&[1], &[eagerflow::f16::NEG_ZERO]);
        assert_eq!(s.run1::<eagerflow::f16>(op, &[nzh]).1[0].to_bits(), 0);
    }
    let xd = s.t(&[3], &[-1f64, 0., 2.]);
    let e = (-1f64).exp_m1();
    assert_eq!(s.run1::<f64>("Elu", &[xd]).1, vec![e, 0., 2.]);
    let (alpha, scale) = (1.673_263_242_354_377_3f64, 1.050_700_987_355_480_5f64);
    close(
        &s.run1::<f64>("Selu", &[xd]).1,
        &[scale * alpha * e, 0., 2. * scale],
        1e-15,
    );
    close32(
        &s.run1::<f32>("Elu", &[x]).1,
        &[(-2f64).exp_m1(), (-0.5f64).exp_m1(), 0., 3., 7.],
        1e-6,
    );
    assert!(s.err("Elu", &[xi]).contains("INT32"));
    let b = s.t(&[1], &[true]);
    assert!(s.err("Relu", &[b]).contains("BOOL"));
}

#[test]
fn softmax_and_log_softmax() {
    let s = Env::new();
    // Row [0, ln 3] -> [1/4, 3/4]; row [1000, 1000] stays finite -> [1/2, 1/2].
    let x = s.t(&[2, 2], &[0f64, 3f64.ln(), 1000., 1000.]);
    close(
        &s.run1::<f64>("Softmax", &[x]).1,
        &[0.25, 0.75, 0.5, 0.5],
        1e-15,
    );
    close(
        &s.run1::<f64>("LogSoftmax", &[x]).1,
        &[0.25f64.ln(), 0.75f64.ln(), 0.5f64.ln(), 0.5f64.ln()],
        1e-15,
    );
    let xf = s.t(&[3], &[-1000f32, 0., 1000.]);
    assert_eq!(s.run1::<f32>("Softmax", &[xf]).1, vec![0., 0., 1.]);
    let r3 = s.t(&[2, 1, 3], &[1f32, 1., 1., 5., 5., 5.]);
    close32(&s.run1::<f32>("Softmax", &[r3]).1, &[1. / 3.; 6], 1e-6);
    let e = s.t::<f32>(&[2, 0], &[]);
    assert_eq!(s.run1::<f32>("Softmax", &[e]), (vec![2, 0], vec![]));
    let sc = s.t(&[], &[1f32]);
    assert!(s.err("Softmax", &[sc]).contains("rank >= 1"));
    let i = s.t(&[2], &[1i32, 2]);
    assert!(s.err("LogSoftmax", &[i]).contains("INT32"));
    // Large: every row sums to 1 (threaded path).
    let (rows, c) = (3000, 100);
    let big = s.t(
        &[rows, c],
        &data(rows * c, 7)
            .iter()
            .map(|&v| (v * 30.0) as f32)
            .collect::<Vec<_>>(),
    );
    let out = s.run1::<f32>("Softmax", &[big]).1;
    for row in out.chunks(c) {
        assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    }
}

#[test]
fn bias_add() {
    let s = Env::new();
    let v = s.t(&[2, 3], &[1f32, 2., 3., 4., 5., 6.]);
    let b = s.t(&[3], &[10f32, 20., 30.]);
    assert_eq!(
        s.run1::<f32>("BiasAdd", &[v, b]).1,
        vec![11., 22., 33., 14., 25., 36.]
    );
    let nhwc = Attrs::new().with("data_format", AttrValue::Str("NHWC".into()));
    assert_eq!(
        s.run1_with::<f32>("BiasAdd", &[v, b], &nhwc).1,
        vec![11., 22., 33., 14., 25., 36.]
    );
    // NCHW [1, 2, 2, 2]: channel c adds bias[c] to its 2x2 plane.
    let v4 = s.t(&[1, 2, 2, 2], &[0i32, 1, 2, 3, 4, 5, 6, 7]);
    let b2 = s.t(&[2], &[100i32, 200]);
    let nchw = Attrs::new().with("data_format", AttrValue::Str("NCHW".into()));
    assert_eq!(
        s.run1_with::<i32>("BiasAdd", &[v4, b2], &nchw),
        (
            vec![1, 2, 2, 2],
            vec![100, 101, 102, 103, 204, 205, 206, 207]
        )
    );
    assert_eq!(
        s.run1::<i32>("BiasAddV1", &[s.t(&[1, 2], &[1i32, 2]), b2])
            .1,
        vec![101, 202]
    );
    // Large, threaded, both layouts.
    let (n, c) = (1 << 14, 96);
    let big: Vec<f64> = data(n * c, 8);
    let bias: Vec<f64> = (0..c).map(|j| j as f64).collect();
    let hb = s.t(&[n, c], &big);
    let hbias = s.t(&[c], &bias);
    let got = s.run1::<f64>("BiasAdd", &[hb, hbias]).1;
    assert!(
        got.iter()
            .enumerate()
            .all(|(i, &v)| v == big[i] + bias[i % c])
    );
    let hb4 = s.t(&[12, c, 32, 32], &data(12 * c * 1024, 9));
    let got = s.run1_with::<f64>("BiasAdd", &[hb4, hbias], &nchw).1;
    let src = data(12 * c * 1024, 9);
    assert!(
        got.iter()
            .enumerate()
            .all(|(i, &v)| v == src[i] + bias[(i / 1024) % c])
    );

    let m = s.err("BiasAdd", &[v, b2]);
    assert!(m.contains("[2]") && m.contains("[2, 3]"), "{m}");
    let bad = Attrs::new().with("data_format", AttrValue::Str("NDHWC".into()));
    assert!(s.err_with("BiasAdd", &[v, b], &bad).contains("data_format"));
    assert!(s.err("BiasAdd", &[b, b]).contains("rank >= 2"));
    let bd = s.t(&[3], &[1f64; 3]);
    assert!(s.err("BiasAdd", &[v, bd]).contains("DOUBLE"));
    let bm = s.t(&[1, 3], &[1f32; 3]);
    assert!(s.err("BiasAdd", &[v, bm]).contains("vector"));
}

#[test]
fn softmax_cross_entropy() {
    let s = Env::new();
    // Row 0: softmax [1/2, 1/2], label [1, 0]: loss ln 2, backprop [-1/2, 1/2].
    // Row 1: softmax [1/4, 3/4], label [0, 1]: loss -ln(3/4), backprop [1/4, -1/4].
    let f = s.t(&[2, 2], &[0f64, 0., 0., 3f64.ln()]);
    let l = s.t(&[2, 2], &[1f64, 0., 0., 1.]);
    let out = s.run_all::<f64>("SoftmaxCrossEntropyWithLogits", &[f, l], &Attrs::new());
    assert_eq!(out[0].0, vec![2]);
    assert_eq!(out[1].0, vec![2, 2]);
    close(&out[0].1, &[2f64.ln(), -(0.75f64.ln())], 1e-15);
    close(&out[1].1, &[-0.5, 0.5, 0.25, -0.25], 1e-15);
    // Labels broadcast from one row.
    let l1 = s.t(&[2], &[0.5f64, 0.5]);
    let out = s.run_all::<f64>("SoftmaxCrossEntropyWithLogits", &[f, l1], &Attrs::new());
    close(
        &out[0].1,
        &[2f64.ln(), -0.5 * 0.25f64.ln() - 0.5 * 0.75f64.ln()],
        1e-15,
    );
    close(&out[1].1, &[0., 0., -0.25, 0.25], 1e-15);
    // Float, large logits stay finite.
    let ff = s.t(&[1, 3], &[1000f32, 0., -1000.]);
    let lf = s.t(&[1, 3], &[0f32, 1., 0.]);
    let out = s.run_all::<f32>("SoftmaxCrossEntropyWithLogits", &[ff, lf], &Attrs::new());
    assert_eq!(out[0].1, vec![1000.]);
    assert_eq!(out[1].1, vec![1., -1., 0.]);
    // The sparse form gives the same numbers.
    let sl = s.t(&[2], &[0i64, 1]);
    let out = s.run_all::<f64>(
        "SparseSoftmaxCrossEntropyWithLogits",
        &[f, sl],
        &Attrs::new(),
    );
    close(&out[0].1, &[2f64.ln(), -(0.75f64.ln())], 1e-15);
    close(&out[1].1, &[-0.5, 0.5, 0.25, -0.25], 1e-15);
    let sl32 = s.t(&[1], &[1i32]);
    let out = s.run_all::<f32>(
        "SparseSoftmaxCrossEntropyWithLogits",
        &[ff, sl32],
        &Attrs::new(),
    );
    assert_eq!(out[0].1, vec![1000.]);
    // Large batch, threaded: dense and sparse agree.
    let (b, c) = (4000, 70);
    let logits: Vec<f32> = data(b * c, 10).iter().map(|&v| (v * 5.0) as f32).collect();
    let labels: Vec<i32> = (0..b).map(|i| (i * 13 % c) as i32).collect();
    let onehot: Vec<f32> = (0..b * c)
        .map(|i| {
            if (i % c) as i32 == labels[i / c] {
                1.
            } else {
                0.
            }
        })
        .collect();
    let (hf, hl, ho) = (
        s.t(&[b, c], &logits),
        s.t(&[b], &labels),
        s.t(&[b, c], &onehot),
    );
    let dense = s.run_all::<f32>("SoftmaxCrossEntropyWithLogits", &[hf, ho], &Attrs::new());
    let sparse = s.run_all::<f32>(
        "SparseSoftmaxCrossEntropyWithLogits",
        &[hf, hl],
        &Attrs::new(),
    );
    close32(
        &dense[0].1,
        &sparse[0]
            .1
            .iter()
            .map(|&v| f64::from(v))
            .collect::<Vec<_>>(),
        1e-5,
    );
    close32(
        &dense[1].1,
        &sparse[1]
            .1
            .iter()
            .map(|&v| f64::from(v))
            .collect::<Vec<_>>(),
        1e-5,
    );
    // Empty batch.
    let e = s.t::<f32>(&[0, 3], &[]);
    let el = s.t::<i32>(&[0], &[]);
    let out = s.run_all::<f32>(
        "SparseSoftmaxCrossEntropyWithLogits",
        &[e, el],
        &Attrs::new(),
    );
    assert_eq!((out[0].0.clone(), out[1].0.clone()), (vec![0], vec![0, 3]));
}

#[test]
fn cross_entropy_errors() {
    let s = Env::new();
    let f = s.t(&[2, 3], &[0f32; 6]);
    let l = s.t(&[3, 2], &[0f32; 6]);
    let m = s.err("SoftmaxCrossEntropyWithLogits", &[f, l]);
    assert!(m.contains("[2, 3]") && m.contains("[3, 2]"), "{m}");
    let ld = s.t(&[2, 3], &[0f64; 6]);
    assert!(
        s.err("SoftmaxCrossEntropyWithLogits", &[f, ld])
            .contains("DOUBLE")
    );
    let f3 = s.t(&[1, 2, 3], &[0f32; 6]);
    assert!(
        s.err("SoftmaxCrossEntropyWithLogits", &[f3, f3])
            .contains("matrices")
    );
    let fi = s.t(&[2, 3], &[0i32; 6]);
    assert!(
        s.err("SoftmaxCrossEntropyWithLogits", &[fi, fi])
            .contains("INT32")
    );
    for bad in [3i64, -1] {
        let lab = s.t(&[2], &[0i64, bad]);
        let m = s.err("SparseSoftmaxCrossEntropyWithLogits", &[f, lab]);
        assert!(m.contains(&bad.to_string()) && m.contains("[0, 3)"), "{m}");
    }
    let lab3 = s.t(&[3], &[0i32; 3]);
    let m = s.err("SparseSoftmaxCrossEntropyWithLogits", &[f, lab3]);
    assert!(m.contains("[3]") && m.contains("[2, 3]"), "{m}");
    let labf = s.t(&[2], &[0f32; 2]);
    assert!(
        s.err("SparseSoftmaxCrossEntropyWithLogits", &[f, labf])
            .contains("FLOAT")
    );
    let v = s.t(&[3], &[0f32; 3]);
    assert!(
        s.err("SparseSoftmaxCrossEntropyWithLogits", &[v, lab3])
            .contains("matrix")
    );
}

#[test]
fn l2_loss() {
    let s = Env::new();
    let t = s.t(&[3], &[1f32, 2., 3.]);
    assert_eq!(s.run1::<f32>("L2Loss", &[t]), (vec![], vec![7.]));
    let d = s.t(&[2, 2], &[1f64, -1., 0.5, 0.]);
    assert_eq!(s.run1::<f64>("L2Loss", &[d]).1, vec![1.125]);
    let e = s.t::<f64>(&[0], &[]);
    assert_eq!(s.run1::<f64>("L2Loss", &[e]).1, vec![0.]);
    let big = s.t(&[1 << 20], &vec![0.5f32; 1 << 20]);
    assert_eq!(
        s.run1::<f32>("L2Loss", &[big]).1,
        vec![(1 << 20) as f32 / 8.]
    );
    let i = s.t(&[1], &[1i32]);
    assert!(s.err("L2Loss", &[i]).contains("INT32"));
}
