//! MatMul and BatchMatMul through the session: hand-computed values,
//! transposes and broadcasting, zero-size dimensions, error classes; and
//! accounting across the linalg, nn and random ops.

use eagerflow::{AttrValue, Attrs, DataType};

use crate::common::{Env, close, close32, data, flag};
use crate::random::rnd;

/// Row-major `m×k` times `k×n`.
fn naive(a: &[f64], b: &[f64], m: usize, k: usize, n: usize) -> Vec<f64> {
    let mut c = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            c[i * n + j] = (0..k).map(|q| a[i * k + q] * b[q * n + j]).sum();
        }
    }
    c
}

fn transpose_naive(a: &[f64], r: usize, c: usize) -> Vec<f64> {
    (0..c * r).map(|i| a[(i % r) * c + i / r]).collect()
}

// ---------------------------------------------------------------------------
// MatMul.

#[test]
fn matmul_small_every_dtype_and_transpose() {
    let s = Env::new();
    // a = [[1, 2, 3], [4, 5, 6]], b = [[7, 8], [9, 10], [11, 12]]
    // a·b = [[58, 64], [139, 154]]
    let a = s.t(&[2, 3], &[1f32, 2., 3., 4., 5., 6.]);
    let b = s.t(&[3, 2], &[7f32, 8., 9., 10., 11., 12.]);
    assert_eq!(
        s.run1::<f32>("MatMul", &[a, b]),
        (vec![2, 2], vec![58., 64., 139., 154.])
    );
    // b·a = [[39, 54, 69], [49, 68, 87], [59, 82, 105]]
    assert_eq!(
        s.run1::<f32>("MatMul", &[b, a]).1,
        vec![39., 54., 69., 49., 68., 87., 59., 82., 105.]
    );
    // aᵀ·aᵀ... shapes [3,2]·[3,2] need one transpose: aᵀ (3×2) · bᵀ (2×3) = (b·a)ᵀ
    let both = flag("transpose_a", true).with("transpose_b", AttrValue::Bool(true));
    assert_eq!(
        s.run1_with::<f32>("MatMul", &[a, b], &both),
        (
            vec![3, 3],
            vec![39., 49., 59., 54., 68., 82., 69., 87., 105.]
        )
    );
    // a·aᵀ = [[14, 32], [32, 77]]; aᵀ·a = [[17, 22, 27], [22, 29, 36], [27, 36, 45]]
    assert_eq!(
        s.run1_with::<f32>("MatMul", &[a, a], &flag("transpose_b", true))
            .1,
        vec![14., 32., 32., 77.]
    );
    assert_eq!(
        s.run1_with::<f32>("MatMul", &[a, a], &flag("transpose_a", true))
            .1,
        vec![17., 22., 27., 22., 29., 36., 27., 36., 45.]
    );
    let ad = s.t(&[2, 3], &[1f64, 2., 3., 4., 5., 6.]);
    let bd = s.t(&[3, 2], &[7f64, 8., 9., 10., 11., 12.]);
    assert_eq!(
        s.run1::<f64>("MatMul", &[ad, bd]).1,
        vec![58., 64., 139., 154.]
    );
    let ai = s.t(&[2, 3], &[1i32, 2, 3, 4, 5, 6]);
    let bi = s.t(&[3, 2], &[7i32, 8, 9, 10, 11, 12]);
    assert_eq!(s.run1::<i32>("MatMul", &[ai, bi]).1, vec![58, 64, 139, 154]);
    assert_eq!(
        s.run1_with::<i32>("MatMul", &[ai, ai], &flag("transpose_b", true))
            .1,
        vec![14, 32, 32, 77]
    );
    assert_eq!(
        s.run1_with::<i32>("MatMul", &[ai, bi], &both).1,
        vec![39, 49, 59, 54, 68, 82, 69, 87, 105]
    );
    let al = s.t(&[2, 3], &[1i64, 2, 3, 4, 5, 6]);
    assert_eq!(
        s.run1_with::<i64>("MatMul", &[al, al], &flag("transpose_a", true))
            .1,
        vec![17, 22, 27, 22, 29, 36, 27, 36, 45]
    );
    // Integer products wrap.
    let big = s.t(&[1, 1], &[i32::MAX]);
    let two = s.t(&[1, 1], &[2i32]);
    assert_eq!(s.run1::<i32>("MatMul", &[big, two]).1, vec![-2]);
}

#[test]
fn matmul_zero_sized() {
    let s = Env::new();
    let a = s.t::<f32>(&[2, 0], &[]);
    let b = s.t::<f32>(&[0, 3], &[]);
    assert_eq!(s.run1::<f32>("MatMul", &[a, b]), (vec![2, 3], vec![0.; 6]));
    assert_eq!(
        s.run1_with::<f32>(
            "MatMul",
            &[b, a],
            &flag("transpose_a", true).with("transpose_b", AttrValue::Bool(true))
        ),
        (vec![3, 2], vec![0.; 6])
    );
    let ai = s.t::<i64>(&[2, 0], &[]);
    let bi = s.t::<i64>(&[0, 3], &[]);
    assert_eq!(s.run1::<i64>("MatMul", &[ai, bi]).1, vec![0; 6]);
    assert_eq!(
        s.run1_with::<i64>("MatMul", &[ai, ai], &flag("transpose_b", true))
            .1,
        vec![0; 4]
    );
    let e = s.t::<f32>(&[0, 4], &[]);
    let c = s.t(&[4, 2], &[1f32; 8]);
    assert_eq!(s.run1::<f32>("MatMul", &[e, c]), (vec![0, 2], vec![]));
}

#[test]
fn matmul_large_matches_reference() {
    let s = Env::new();
    // Big enough for the threaded path; odd sizes exercise the kernels' edges.
    for (m, k, n) in [(130, 171, 97), (257, 300, 263)] {
        let (a, b) = (data(m * k, 1), data(k * n, 2));
        let want = naive(&a, &b, m, k, n);
        let ha = s.t(&[m, k], &a);
        let hb = s.t(&[k, n], &b);
        close(&s.run1::<f64>("MatMul", &[ha, hb]).1, &want, 1e-12);
        let af: Vec<f32> = a.iter().map(|&v| v as f32).collect();
        let bf: Vec<f32> = b.iter().map(|&v| v as f32).collect();
        let hat = s.t(
            &[k, m],
            &transpose_naive(&a, m, k)
                .iter()
                .map(|&v| v as f32)
                .collect::<Vec<_>>(),
        );
        let hbt = s.t(
            &[n, k],
            &transpose_naive(&b, k, n)
                .iter()
                .map(|&v| v as f32)
                .collect::<Vec<_>>(),
        );
        let (haf, hbf) = (s.t(&[m, k], &af), s.t(&[k, n], &bf));
        close32(&s.run1::<f32>("MatMul", &[haf, hbf]).1, &want, 1e-4);
        close32(
            &s.run1_with::<f32>("MatMul", &[hat, hbf], &flag("transpose_a", true))
                .1,
            &want,
            1e-4,
        );
        close32(
            &s.run1_with::<f32>("MatMul", &[haf, hbt], &flag("transpose_b", true))
                .1,
            &want,
            1e-4,
        );
        // Integers: exact.
        let ai: Vec<i64> = a.iter().map(|&v| (v * 1000.0) as i64).collect();
        let bi: Vec<i64> = b.iter().map(|&v| (v * 1000.0) as i64).collect();
        let wi = naive(
            &ai.iter().map(|&v| v as f64).collect::<Vec<_>>(),
            &bi.iter().map(|&v| v as f64).collect::<Vec<_>>(),
            m,
            k,
            n,
        );
        let (hai, hbi) = (s.t(&[m, k], &ai), s.t(&[k, n], &bi));
        let got: Vec<f64> = s
            .run1::<i64>("MatMul", &[hai, hbi])
            .1
            .iter()
            .map(|&v| v as f64)
            .collect();
        assert_eq!(got, wi);
        let ai32: Vec<i32> = ai.iter().map(|&v| v as i32).collect();
        let bt32: Vec<i32> =
            transpose_naive(&bi.iter().map(|&v| v as f64).collect::<Vec<_>>(), k, n)
                .iter()
                .map(|&v| v as i32)
                .collect();
        let (hai32, hbt32) = (s.t(&[m, k], &ai32), s.t(&[n, k], &bt32));
        let got: Vec<f64> = s
            .run1_with::<i32>("MatMul", &[hai32, hbt32], &flag("transpose_b", true))
            .1
            .iter()
            .map(|&v| f64::from(v))
            .collect();
        assert_eq!(got, wi);
    }
}

#[test]
fn matmul_errors() {
    let s = Env::new();
    let a = s.t(&[2, 3], &[1f32; 6]);
    let b = s.t(&[2, 3], &[1f32; 6]);
    let m = s.err("MatMul", &[a, b]);
    assert!(
        m.contains("[2, 3]") && m.contains("'a'") && m.contains("'b'"),
        "{m}"
    );
    let v = s.t(&[3], &[1f32; 3]);
    assert!(s.err("MatMul", &[a, v]).contains("rank 2"));
    let d = s.t(&[3, 2], &[1f64; 6]);
    let m = s.err("MatMul", &[a, d]);
    assert!(m.contains("FLOAT") && m.contains("DOUBLE"), "{m}");
    let u = s.t(&[2, 2], &[1u8; 4]);
    assert!(s.err("MatMul", &[u, u]).contains("UINT8"));
    let bo = s.t(&[2, 2], &[true; 4]);
    assert!(s.err("MatMul", &[bo, bo]).contains("BOOL"));
    let bad = Attrs::new().with("transpose_a", AttrValue::Int(1));
    assert!(s.err_with("MatMul", &[a, a], &bad).contains("transpose_a"));
    assert!(
        s.err_with("MatMul", &[a, a], &flag("adj_x", true))
            .contains("adj_x")
    );
}

// ---------------------------------------------------------------------------
// BatchMatMul.

#[test]
fn batch_matmul_broadcasts_and_adjoints() {
    let s = Env::new();
    // Two batches: [[1,2,3],[4,5,6]] and its negation, times b = [[7,8],[9,10],[11,12]] (shared).
    let x = s.t(
        &[2, 2, 3],
        &[1f32, 2., 3., 4., 5., 6., -1., -2., -3., -4., -5., -6.],
    );
    let y = s.t(&[3, 2], &[7f32, 8., 9., 10., 11., 12.]);
    assert_eq!(
        s.run1::<f32>("BatchMatMulV2", &[x, y]),
        (
            vec![2, 2, 2],
            vec![58., 64., 139., 154., -58., -64., -139., -154.]
        )
    );
    // The V1 name and the V3 name run the same kernel.
    assert_eq!(
        s.run1::<f32>("BatchMatMul", &[x, y]).1[..4],
        [58., 64., 139., 154.]
    );
    let tout = Attrs::new().with("Tout", AttrValue::Type(DataType::Float));
    assert_eq!(
        s.run1_with::<f32>("BatchMatMulV3", &[x, y], &tout).1[..4],
        [58., 64., 139., 154.]
    );
    // adj_x: x is [2, 3, 2] stored, used as [2, 2, 3].
    let xt = s.t(
        &[2, 3, 2],
        &[1f32, 4., 2., 5., 3., 6., -1., -4., -2., -5., -3., -6.],
    );
    assert_eq!(
        s.run1_with::<f32>("BatchMatMulV2", &[xt, y], &flag("adj_x", true))
            .1,
        vec![58., 64., 139., 154., -58., -64., -139., -154.]
    );
    // adj_y: y stored as [2, 3].
    let yt = s.t(&[1, 2, 3], &[7f32, 9., 11., 8., 10., 12.]);
    assert_eq!(
        s.run1_with::<f32>("BatchMatMulV2", &[x, yt], &flag("adj_y", true))
            .1,
        vec![58., 64., 139., 154., -58., -64., -139., -154.]
    );
    // Broadcast batch dims: [2, 1] x [3] -> [2, 3].
    let xb = s.t(&[2, 1, 1, 2], &[1i64, 2, 3, 4]);
    let yb = s.t(&[3, 2, 1], &[1i64, 1, 10, 10, 100, 100]);
    assert_eq!(
        s.run1::<i64>("BatchMatMulV2", &[xb, yb]),
        (vec![2, 3, 1, 1], vec![3, 30, 300, 7, 70, 700])
    );
    let zd = s.t::<f64>(&[0, 2, 2], &[]);
    let yd = s.t(&[2, 2], &[1f64; 4]);
    assert_eq!(
        s.run1::<f64>("BatchMatMulV2", &[zd, yd]),
        (vec![0, 2, 2], vec![])
    );
}

#[test]
fn batch_matmul_many_small_matrices() {
    let s = Env::new();
    let (nb, m, k, n) = (5000, 3, 4, 5);
    let (x, y) = (data(nb * m * k, 3), data(nb * k * n, 4));
    let hx = s.t(&[nb, m, k], &x);
    let hy = s.t(&[nb, k, n], &y);
    let got = s.run1::<f64>("BatchMatMulV2", &[hx, hy]).1;
    for b in (0..nb).step_by(499) {
        let want = naive(
            &x[b * m * k..(b + 1) * m * k],
            &y[b * k * n..(b + 1) * k * n],
            m,
            k,
            n,
        );
        close(&got[b * m * n..(b + 1) * m * n], &want, 1e-12);
    }
    let xi: Vec<i32> = (0..nb * m * k).map(|v| (v % 7) as i32).collect();
    let yi: Vec<i32> = (0..nb * k * n).map(|v| (v % 5) as i32).collect();
    let hx = s.t(&[nb, m, k], &xi);
    let hy = s.t(&[nb, k, n], &yi);
    let got = s.run1::<i32>("BatchMatMulV2", &[hx, hy]).1;
    let b = nb - 1;
    let f = |v: &[i32]| v.iter().map(|&x| f64::from(x)).collect::<Vec<_>>();
    let want = naive(&f(&xi[b * m * k..]), &f(&yi[b * k * n..]), m, k, n);
    assert_eq!(f(&got[b * m * n..]), want);
}

#[test]
fn batch_matmul_errors() {
    let s = Env::new();
    let x = s.t(&[2, 2, 3], &[1f32; 12]);
    let y = s.t(&[3, 3, 2], &[1f32; 18]);
    let m = s.err("BatchMatMulV2", &[x, y]);
    assert!(
        m.contains("[2, 2, 3]") && m.contains("[3, 3, 2]") && m.contains("batch"),
        "{m}"
    );
    let y2 = s.t(&[2, 2, 2], &[1f32; 8]);
    let m = s.err("BatchMatMulV2", &[x, y2]);
    assert!(
        m.contains("inner") && m.contains("[2, 2, 3]") && m.contains("[2, 2, 2]"),
        "{m}"
    );
    let v = s.t(&[3], &[1f32; 3]);
    assert!(s.err("BatchMatMulV2", &[v, x]).contains("rank >= 2"));
    let tout = Attrs::new().with("Tout", AttrValue::Type(DataType::Double));
    assert!(s.err_with("BatchMatMulV3", &[x, x], &tout).contains("Tout"));
}

// ---------------------------------------------------------------------------
// Across linalg, nn and random.

#[test]
fn everything_freed_leaves_no_bytes() {
    let s = Env::new();
    let a = s.t(&[4, 5], &data(20, 11));
    let b = s.t(&[5, 3], &data(15, 12));
    let p = s.t(&[2], &[1i32, 0]);
    let bias = s.t(&[5], &data(5, 13));
    let lab = s.t(&[4], &[0i32, 1, 2, 4]);
    let sh = s.t(&[2], &[64i32, 64]);
    let mut handles = vec![a, b, p, bias, lab, sh];
    for (op, inputs, attrs) in [
        ("MatMul", vec![a, b], Attrs::new()),
        ("BatchMatMulV2", vec![a, b], Attrs::new()),
        ("Transpose", vec![a, p], Attrs::new()),
        ("Relu", vec![a], Attrs::new()),
        ("Softmax", vec![a], Attrs::new()),
        ("LogSoftmax", vec![a], Attrs::new()),
        ("BiasAdd", vec![a, bias], Attrs::new()),
        ("SoftmaxCrossEntropyWithLogits", vec![a, a], Attrs::new()),
        (
            "SparseSoftmaxCrossEntropyWithLogits",
            vec![a, lab],
            Attrs::new(),
        ),
        ("L2Loss", vec![a], Attrs::new()),
        ("RandomUniform", vec![sh], rnd(DataType::Double, 1, 2)),
        ("TruncatedNormal", vec![sh], rnd(DataType::Float, 0, 0)),
    ] {
        handles.extend(s.run(op, &inputs, &attrs).unwrap());
    }
    // Failed ops leave nothing behind.
    assert!(s.run("MatMul", &[a, a], &Attrs::new()).is_err());
    assert!(s.run("BiasAdd", &[a, lab], &Attrs::new()).is_err());
    let stats = s.s.stats();
    assert_eq!(stats.live_tensors as usize, handles.len());
    assert_eq!(
        s.s.free_many(&handles, eagerflow::FreeReason::Explicit),
        handles.len()
    );
    assert_eq!(s.s.stats().live_bytes, 0);
    assert_eq!(s.s.stats().live_tensors, 0);
}

#[test]
fn empty_tensors_with_huge_other_dimensions() {
    // Dimensions whose product overflows are fine while another one is 0.
    let s = Env::new();
    let huge = 1usize << 40;
    let x = s.t::<f32>(&[0, huge, huge], &[]);
    let out = s.run1::<f32>("Transpose", &[x, s.v(&[2, 0, 1])]);
    assert_eq!(out, (vec![huge, 0, huge], vec![]));
    let v = s.t::<f32>(&[0, 2, huge, huge], &[]);
    let b = s.t(&[2], &[1f32, 2.]);
    let nchw = Attrs::new().with("data_format", AttrValue::Str("NCHW".into()));
    assert_eq!(
        s.run1_with::<f32>("BiasAdd", &[v, b], &nchw).0,
        vec![0, 2, huge, huge]
    );
    let m = s.t::<f32>(&[0, huge, huge], &[]);
    let y = s.t::<f32>(&[huge, 0], &[]);
    assert_eq!(s.run1::<f32>("BatchMatMulV2", &[m, y]).0, vec![0, huge, 0]);
    assert_eq!(s.run1::<f32>("Softmax", &[m]).0, vec![0, huge, huge]);
    let z = s.t(&[], &[1i32]);
    assert_eq!(s.run1::<i64>("ArgMax", &[m, z]).0, vec![0, huge]);
    assert_eq!(s.run1::<f32>("Sum", &[m, z]).0, vec![0, huge]);
    assert_eq!(s.run1::<f32>("L2Loss", &[m]).1, vec![0.]);
}
