//! MatMul, BatchMatMul, Transpose, the nn ops and the random ops through the
//! session: hand-computed values, transposes and broadcasting, zero-size
//! dimensions, error classes, seeded determinism, and accounting.
#![allow(clippy::unwrap_used)]

use eagerflow::{AttrValue, Attrs, DataType, Element, Error, Session, SessionOptions, Tensor};

fn session() -> Session {
    Session::new(SessionOptions::default())
}

fn put<T: Element>(s: &Session, shape: &[usize], data: &[T]) -> u64 {
    s.insert(Tensor::from_slice(s.account(), shape, data).unwrap())
        .unwrap()
}

fn run<T: Element>(
    s: &Session,
    op: &str,
    inputs: &[u64],
    attrs: &Attrs,
) -> Vec<(Vec<usize>, Vec<T>)> {
    s.execute_named(op, inputs, attrs)
        .unwrap()
        .into_iter()
        .map(|h| {
            let t = s.tensor(h).unwrap();
            (t.shape().to_vec(), t.as_slice::<T>().unwrap().to_vec())
        })
        .collect()
}

fn run1<T: Element>(s: &Session, op: &str, inputs: &[u64], attrs: &Attrs) -> (Vec<usize>, Vec<T>) {
    let mut out = run(s, op, inputs, attrs);
    assert_eq!(out.len(), 1);
    out.remove(0)
}

fn err(s: &Session, op: &str, inputs: &[u64], attrs: &Attrs) -> String {
    match s.execute_named(op, inputs, attrs) {
        Err(Error::InvalidArgument(m)) => {
            assert!(m.starts_with(op), "message names the op: {m}");
            m
        }
        other => panic!("{op}: expected InvalidArgument, got {other:?}"),
    }
}

fn flag(name: &str, v: bool) -> Attrs {
    Attrs::new().with(name, AttrValue::Bool(v))
}

fn close(a: &[f64], b: &[f64], tol: f64) {
    assert_eq!(a.len(), b.len());
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert!(
            (x - y).abs() <= tol * (1.0 + y.abs()),
            "element {i}: {x} vs {y}"
        );
    }
}

fn close32(a: &[f32], b: &[f64], tol: f64) {
    close(&a.iter().map(|&v| f64::from(v)).collect::<Vec<_>>(), b, tol);
}

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

/// Deterministic test data in [-1, 1).
fn data(n: usize, salt: usize) -> Vec<f64> {
    (0..n)
        .map(|i| ((i * 7919 + salt * 104_729) % 2000) as f64 / 1000.0 - 1.0)
        .collect()
}

// ---------------------------------------------------------------------------
// MatMul.

#[test]
fn matmul_small_every_dtype_and_transpose() {
    let s = session();
    // a = [[1, 2, 3], [4, 5, 6]], b = [[7, 8], [9, 10], [11, 12]]
    // a·b = [[58, 64], [139, 154]]
    let a = put(&s, &[2, 3], &[1f32, 2., 3., 4., 5., 6.]);
    let b = put(&s, &[3, 2], &[7f32, 8., 9., 10., 11., 12.]);
    assert_eq!(
        run1::<f32>(&s, "MatMul", &[a, b], &Attrs::new()),
        (vec![2, 2], vec![58., 64., 139., 154.])
    );
    // b·a = [[39, 54, 69], [49, 68, 87], [59, 82, 105]]
    assert_eq!(
        run1::<f32>(&s, "MatMul", &[b, a], &Attrs::new()).1,
        vec![39., 54., 69., 49., 68., 87., 59., 82., 105.]
    );
    // aᵀ·aᵀ... shapes [3,2]·[3,2] need one transpose: aᵀ (3×2) · bᵀ (2×3) = (b·a)ᵀ
    let both = flag("transpose_a", true).with("transpose_b", AttrValue::Bool(true));
    assert_eq!(
        run1::<f32>(&s, "MatMul", &[a, b], &both),
        (
            vec![3, 3],
            vec![39., 49., 59., 54., 68., 82., 69., 87., 105.]
        )
    );
    // a·aᵀ = [[14, 32], [32, 77]]; aᵀ·a = [[17, 22, 27], [22, 29, 36], [27, 36, 45]]
    assert_eq!(
        run1::<f32>(&s, "MatMul", &[a, a], &flag("transpose_b", true)).1,
        vec![14., 32., 32., 77.]
    );
    assert_eq!(
        run1::<f32>(&s, "MatMul", &[a, a], &flag("transpose_a", true)).1,
        vec![17., 22., 27., 22., 29., 36., 27., 36., 45.]
    );
    let ad = put(&s, &[2, 3], &[1f64, 2., 3., 4., 5., 6.]);
    let bd = put(&s, &[3, 2], &[7f64, 8., 9., 10., 11., 12.]);
    assert_eq!(
        run1::<f64>(&s, "MatMul", &[ad, bd], &Attrs::new()).1,
        vec![58., 64., 139., 154.]
    );
    let ai = put(&s, &[2, 3], &[1i32, 2, 3, 4, 5, 6]);
    let bi = put(&s, &[3, 2], &[7i32, 8, 9, 10, 11, 12]);
    assert_eq!(
        run1::<i32>(&s, "MatMul", &[ai, bi], &Attrs::new()).1,
        vec![58, 64, 139, 154]
    );
    assert_eq!(
        run1::<i32>(&s, "MatMul", &[ai, ai], &flag("transpose_b", true)).1,
        vec![14, 32, 32, 77]
    );
    assert_eq!(
        run1::<i32>(&s, "MatMul", &[ai, bi], &both).1,
        vec![39, 49, 59, 54, 68, 82, 69, 87, 105]
    );
    let al = put(&s, &[2, 3], &[1i64, 2, 3, 4, 5, 6]);
    assert_eq!(
        run1::<i64>(&s, "MatMul", &[al, al], &flag("transpose_a", true)).1,
        vec![17, 22, 27, 22, 29, 36, 27, 36, 45]
    );
    // Integer products wrap.
    let big = put(&s, &[1, 1], &[i32::MAX]);
    let two = put(&s, &[1, 1], &[2i32]);
    assert_eq!(
        run1::<i32>(&s, "MatMul", &[big, two], &Attrs::new()).1,
        vec![-2]
    );
}

#[test]
fn matmul_zero_sized() {
    let s = session();
    let a = put::<f32>(&s, &[2, 0], &[]);
    let b = put::<f32>(&s, &[0, 3], &[]);
    assert_eq!(
        run1::<f32>(&s, "MatMul", &[a, b], &Attrs::new()),
        (vec![2, 3], vec![0.; 6])
    );
    assert_eq!(
        run1::<f32>(
            &s,
            "MatMul",
            &[b, a],
            &flag("transpose_a", true).with("transpose_b", AttrValue::Bool(true))
        ),
        (vec![3, 2], vec![0.; 6])
    );
    let ai = put::<i64>(&s, &[2, 0], &[]);
    let bi = put::<i64>(&s, &[0, 3], &[]);
    assert_eq!(
        run1::<i64>(&s, "MatMul", &[ai, bi], &Attrs::new()).1,
        vec![0; 6]
    );
    assert_eq!(
        run1::<i64>(&s, "MatMul", &[ai, ai], &flag("transpose_b", true)).1,
        vec![0; 4]
    );
    let e = put::<f32>(&s, &[0, 4], &[]);
    let c = put(&s, &[4, 2], &[1f32; 8]);
    assert_eq!(
        run1::<f32>(&s, "MatMul", &[e, c], &Attrs::new()),
        (vec![0, 2], vec![])
    );
}

#[test]
fn matmul_large_matches_reference() {
    let s = session();
    // Big enough for the threaded path; odd sizes exercise the kernels' edges.
    for (m, k, n) in [(130, 171, 97), (257, 300, 263)] {
        let (a, b) = (data(m * k, 1), data(k * n, 2));
        let want = naive(&a, &b, m, k, n);
        let ha = put(&s, &[m, k], &a);
        let hb = put(&s, &[k, n], &b);
        close(
            &run1::<f64>(&s, "MatMul", &[ha, hb], &Attrs::new()).1,
            &want,
            1e-12,
        );
        let af: Vec<f32> = a.iter().map(|&v| v as f32).collect();
        let bf: Vec<f32> = b.iter().map(|&v| v as f32).collect();
        let hat = put(
            &s,
            &[k, m],
            &transpose_naive(&a, m, k)
                .iter()
                .map(|&v| v as f32)
                .collect::<Vec<_>>(),
        );
        let hbt = put(
            &s,
            &[n, k],
            &transpose_naive(&b, k, n)
                .iter()
                .map(|&v| v as f32)
                .collect::<Vec<_>>(),
        );
        let (haf, hbf) = (put(&s, &[m, k], &af), put(&s, &[k, n], &bf));
        close32(
            &run1::<f32>(&s, "MatMul", &[haf, hbf], &Attrs::new()).1,
            &want,
            1e-4,
        );
        close32(
            &run1::<f32>(&s, "MatMul", &[hat, hbf], &flag("transpose_a", true)).1,
            &want,
            1e-4,
        );
        close32(
            &run1::<f32>(&s, "MatMul", &[haf, hbt], &flag("transpose_b", true)).1,
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
        let (hai, hbi) = (put(&s, &[m, k], &ai), put(&s, &[k, n], &bi));
        let got: Vec<f64> = run1::<i64>(&s, "MatMul", &[hai, hbi], &Attrs::new())
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
        let (hai32, hbt32) = (put(&s, &[m, k], &ai32), put(&s, &[n, k], &bt32));
        let got: Vec<f64> = run1::<i32>(&s, "MatMul", &[hai32, hbt32], &flag("transpose_b", true))
            .1
            .iter()
            .map(|&v| f64::from(v))
            .collect();
        assert_eq!(got, wi);
    }
}

#[test]
fn matmul_errors() {
    let s = session();
    let a = put(&s, &[2, 3], &[1f32; 6]);
    let b = put(&s, &[2, 3], &[1f32; 6]);
    let m = err(&s, "MatMul", &[a, b], &Attrs::new());
    assert!(
        m.contains("[2, 3]") && m.contains("'a'") && m.contains("'b'"),
        "{m}"
    );
    let v = put(&s, &[3], &[1f32; 3]);
    assert!(err(&s, "MatMul", &[a, v], &Attrs::new()).contains("rank 2"));
    let d = put(&s, &[3, 2], &[1f64; 6]);
    let m = err(&s, "MatMul", &[a, d], &Attrs::new());
    assert!(m.contains("FLOAT") && m.contains("DOUBLE"), "{m}");
    let u = put(&s, &[2, 2], &[1u8; 4]);
    assert!(err(&s, "MatMul", &[u, u], &Attrs::new()).contains("UINT8"));
    let bo = put(&s, &[2, 2], &[true; 4]);
    assert!(err(&s, "MatMul", &[bo, bo], &Attrs::new()).contains("BOOL"));
    let bad = Attrs::new().with("transpose_a", AttrValue::Int(1));
    assert!(err(&s, "MatMul", &[a, a], &bad).contains("transpose_a"));
    assert!(err(&s, "MatMul", &[a, a], &flag("adj_x", true)).contains("adj_x"));
}

// ---------------------------------------------------------------------------
// BatchMatMul.

#[test]
fn batch_matmul_broadcasts_and_adjoints() {
    let s = session();
    // Two batches: [[1,2,3],[4,5,6]] and its negation, times b = [[7,8],[9,10],[11,12]] (shared).
    let x = put(
        &s,
        &[2, 2, 3],
        &[1f32, 2., 3., 4., 5., 6., -1., -2., -3., -4., -5., -6.],
    );
    let y = put(&s, &[3, 2], &[7f32, 8., 9., 10., 11., 12.]);
    assert_eq!(
        run1::<f32>(&s, "BatchMatMulV2", &[x, y], &Attrs::new()),
        (
            vec![2, 2, 2],
            vec![58., 64., 139., 154., -58., -64., -139., -154.]
        )
    );
    // The V1 name and the V3 name run the same kernel.
    assert_eq!(
        run1::<f32>(&s, "BatchMatMul", &[x, y], &Attrs::new()).1[..4],
        [58., 64., 139., 154.]
    );
    let tout = Attrs::new().with("Tout", AttrValue::Type(DataType::Float));
    assert_eq!(
        run1::<f32>(&s, "BatchMatMulV3", &[x, y], &tout).1[..4],
        [58., 64., 139., 154.]
    );
    // adj_x: x is [2, 3, 2] stored, used as [2, 2, 3].
    let xt = put(
        &s,
        &[2, 3, 2],
        &[1f32, 4., 2., 5., 3., 6., -1., -4., -2., -5., -3., -6.],
    );
    assert_eq!(
        run1::<f32>(&s, "BatchMatMulV2", &[xt, y], &flag("adj_x", true)).1,
        vec![58., 64., 139., 154., -58., -64., -139., -154.]
    );
    // adj_y: y stored as [2, 3].
    let yt = put(&s, &[1, 2, 3], &[7f32, 9., 11., 8., 10., 12.]);
    assert_eq!(
        run1::<f32>(&s, "BatchMatMulV2", &[x, yt], &flag("adj_y", true)).1,
        vec![58., 64., 139., 154., -58., -64., -139., -154.]
    );
    // Broadcast batch dims: [2, 1] x [3] -> [2, 3].
    let xb = put(&s, &[2, 1, 1, 2], &[1i64, 2, 3, 4]);
    let yb = put(&s, &[3, 2, 1], &[1i64, 1, 10, 10, 100, 100]);
    assert_eq!(
        run1::<i64>(&s, "BatchMatMulV2", &[xb, yb], &Attrs::new()),
        (vec![2, 3, 1, 1], vec![3, 30, 300, 7, 70, 700])
    );
    let zd = put::<f64>(&s, &[0, 2, 2], &[]);
    let yd = put(&s, &[2, 2], &[1f64; 4]);
    assert_eq!(
        run1::<f64>(&s, "BatchMatMulV2", &[zd, yd], &Attrs::new()),
        (vec![0, 2, 2], vec![])
    );
}

#[test]
fn batch_matmul_many_small_matrices() {
    let s = session();
    let (nb, m, k, n) = (5000, 3, 4, 5);
    let (x, y) = (data(nb * m * k, 3), data(nb * k * n, 4));
    let hx = put(&s, &[nb, m, k], &x);
    let hy = put(&s, &[nb, k, n], &y);
    let got = run1::<f64>(&s, "BatchMatMulV2", &[hx, hy], &Attrs::new()).1;
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
    let hx = put(&s, &[nb, m, k], &xi);
    let hy = put(&s, &[nb, k, n], &yi);
    let got = run1::<i32>(&s, "BatchMatMulV2", &[hx, hy], &Attrs::new()).1;
    let b = nb - 1;
    let f = |v: &[i32]| v.iter().map(|&x| f64::from(x)).collect::<Vec<_>>();
    let want = naive(&f(&xi[b * m * k..]), &f(&yi[b * k * n..]), m, k, n);
    assert_eq!(f(&got[b * m * n..]), want);
}

#[test]
fn batch_matmul_errors() {
    let s = session();
    let x = put(&s, &[2, 2, 3], &[1f32; 12]);
    let y = put(&s, &[3, 3, 2], &[1f32; 18]);
    let m = err(&s, "BatchMatMulV2", &[x, y], &Attrs::new());
    assert!(
        m.contains("[2, 2, 3]") && m.contains("[3, 3, 2]") && m.contains("batch"),
        "{m}"
    );
    let y2 = put(&s, &[2, 2, 2], &[1f32; 8]);
    let m = err(&s, "BatchMatMulV2", &[x, y2], &Attrs::new());
    assert!(
        m.contains("inner") && m.contains("[2, 2, 3]") && m.contains("[2, 2, 2]"),
        "{m}"
    );
    let v = put(&s, &[3], &[1f32; 3]);
    assert!(err(&s, "BatchMatMulV2", &[v, x], &Attrs::new()).contains("rank >= 2"));
    let tout = Attrs::new().with("Tout", AttrValue::Type(DataType::Double));
    assert!(err(&s, "BatchMatMulV3", &[x, x], &tout).contains("Tout"));
}

// ---------------------------------------------------------------------------
// Transpose.

fn perm(s: &Session, p: &[i32]) -> u64 {
    put(s, &[p.len()], p)
}

#[test]
fn transpose_values() {
    let s = session();
    let x = put(&s, &[2, 3], &[1i32, 2, 3, 4, 5, 6]);
    assert_eq!(
        run1::<i32>(&s, "Transpose", &[x, perm(&s, &[1, 0])], &Attrs::new()),
        (vec![3, 2], vec![1, 4, 2, 5, 3, 6])
    );
    // [2, 3, 2] with perm [2, 0, 1] -> [2, 2, 3]: out[a][b][c] = x[b][c][a].
    let x3: Vec<f32> = (0..12).map(|v| v as f32).collect();
    let h3 = put(&s, &[2, 3, 2], &x3);
    assert_eq!(
        run1::<f32>(&s, "Transpose", &[h3, perm(&s, &[2, 0, 1])], &Attrs::new()),
        (
            vec![2, 2, 3],
            vec![0., 2., 4., 6., 8., 10., 1., 3., 5., 7., 9., 11.]
        )
    );
    let p64 = put(&s, &[3], &[1i64, 0, 2]);
    assert_eq!(
        run1::<f32>(&s, "Transpose", &[h3, p64], &Attrs::new()),
        (
            vec![3, 2, 2],
            vec![0., 1., 6., 7., 2., 3., 8., 9., 4., 5., 10., 11.]
        )
    );
    let b = put(&s, &[1, 2], &[true, false]);
    assert_eq!(
        run1::<bool>(&s, "Transpose", &[b, perm(&s, &[1, 0])], &Attrs::new()),
        (vec![2, 1], vec![true, false])
    );
    let sc = put(&s, &[], &[5u8]);
    assert_eq!(
        run1::<u8>(
            &s,
            "Transpose",
            &[sc, put::<i32>(&s, &[0], &[])],
            &Attrs::new()
        ),
        (vec![], vec![5])
    );
    let e = put::<f64>(&s, &[0, 3], &[]);
    assert_eq!(
        run1::<f64>(&s, "Transpose", &[e, perm(&s, &[1, 0])], &Attrs::new()),
        (vec![3, 0], vec![])
    );
}

#[test]
fn transpose_that_keeps_memory_order_shares_the_buffer() {
    let s = session();
    let x = put(&s, &[3, 1, 4], &[0f32; 12]);
    let id = run1::<f32>(&s, "Transpose", &[x, perm(&s, &[0, 1, 2])], &Attrs::new());
    assert_eq!(id.0, vec![3, 1, 4]);
    let before = s.stats().live_bytes;
    let out = s
        .execute_named("Transpose", &[x, perm(&s, &[1, 0, 2])], &Attrs::new())
        .unwrap();
    let t = s.tensor(out[0]).unwrap();
    assert_eq!(t.shape(), &[1, 3, 4]);
    assert!(t.shares_buffer(&s.tensor(x).unwrap()));
    assert_eq!(
        s.stats().live_bytes,
        before + 12,
        "only the perm vector is new"
    );
}

/// `out[i] = x[Σ idx_perm ...]`, the slow way.
fn transpose_ref(x: &[f64], shape: &[usize], p: &[usize]) -> Vec<f64> {
    let r = shape.len();
    let out_shape: Vec<usize> = p.iter().map(|&a| shape[a]).collect();
    let mut strides = vec![1; r];
    for d in (0..r.saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1];
    }
    let n: usize = shape.iter().product();
    (0..n)
        .map(|mut flat| {
            let mut src = 0;
            for o in (0..r).rev() {
                src += (flat % out_shape[o]) * strides[p[o]];
                flat /= out_shape[o];
            }
            x[src]
        })
        .collect()
}

#[test]
fn transpose_every_permutation_matches_reference() {
    let s = session();
    for shape in [
        &[3usize, 4, 5][..],
        &[2, 3, 1, 4],
        &[5, 1, 3, 2],
        &[40, 33, 2],
        &[70, 90],
    ] {
        let r = shape.len();
        let n: usize = shape.iter().product();
        let x = data(n, 5);
        let h = put(&s, shape, &x);
        let mut p: Vec<usize> = (0..r).collect();
        // Every permutation (Heap's algorithm).
        let mut c = vec![0; r];
        let mut perms = vec![p.clone()];
        let mut i = 0;
        while i < r {
            if c[i] < i {
                if i % 2 == 0 {
                    p.swap(0, i)
                } else {
                    p.swap(c[i], i)
                }
                perms.push(p.clone());
                c[i] += 1;
                i = 0;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
        for p in perms {
            let pi: Vec<i32> = p.iter().map(|&v| v as i32).collect();
            let (got_shape, got) = run1::<f64>(&s, "Transpose", &[h, perm(&s, &pi)], &Attrs::new());
            assert_eq!(got_shape, p.iter().map(|&a| shape[a]).collect::<Vec<_>>());
            assert_eq!(got, transpose_ref(&x, shape, &p), "{shape:?} {p:?}");
        }
    }
}

#[test]
fn transpose_large_uses_threads_and_tiles() {
    let s = session();
    let (r, c) = (1031, 517);
    let x: Vec<f32> = (0..r * c).map(|v| v as f32).collect();
    let h = put(&s, &[r, c], &x);
    let got = run1::<f32>(&s, "Transpose", &[h, perm(&s, &[1, 0])], &Attrs::new()).1;
    for (i, &v) in got.iter().enumerate() {
        assert_eq!(v, x[(i % r) * c + i / r]);
    }
    let x3: Vec<f64> = data(64 * 70 * 65, 6);
    let h3 = put(&s, &[64, 70, 65], &x3);
    for p in [[2, 1, 0], [0, 2, 1], [1, 2, 0]] {
        let pi: Vec<i32> = p.iter().map(|&v| v as i32).collect();
        let got = run1::<f64>(&s, "Transpose", &[h3, perm(&s, &pi)], &Attrs::new()).1;
        assert_eq!(got, transpose_ref(&x3, &[64, 70, 65], &p), "{p:?}");
    }
}

#[test]
fn transpose_errors() {
    let s = session();
    let x = put(&s, &[2, 3], &[1f32; 6]);
    for p in [&[0, 0][..], &[0], &[0, 1, 2], &[-1, 0], &[2, 0]] {
        let m = err(&s, "Transpose", &[x, perm(&s, p)], &Attrs::new());
        assert!(m.contains("permutation") && m.contains("[2, 3]"), "{m}");
    }
    let pm = put(&s, &[1, 2], &[1i32, 0]);
    assert!(err(&s, "Transpose", &[x, pm], &Attrs::new()).contains("vector"));
    let pf = put(&s, &[2], &[1f32, 0.]);
    assert!(err(&s, "Transpose", &[x, pf], &Attrs::new()).contains("INT32 or INT64"));
}

// ---------------------------------------------------------------------------
// nn.

#[test]
fn activations() {
    let s = session();
    let x = put(&s, &[5], &[-2f32, -0.5, 0., 3., 7.]);
    assert_eq!(
        run1::<f32>(&s, "Relu", &[x], &Attrs::new()).1,
        vec![0., 0., 0., 3., 7.]
    );
    assert_eq!(
        run1::<f32>(&s, "Relu6", &[x], &Attrs::new()).1,
        vec![0., 0., 0., 3., 6.]
    );
    let xi = put(&s, &[3], &[-2i32, 4, 9]);
    assert_eq!(
        run1::<i32>(&s, "Relu", &[xi], &Attrs::new()).1,
        vec![0, 4, 9]
    );
    assert_eq!(
        run1::<i32>(&s, "Relu6", &[xi], &Attrs::new()).1,
        vec![0, 4, 6]
    );
    let xl = put(&s, &[2], &[-2i64, 8]);
    assert_eq!(run1::<i64>(&s, "Relu6", &[xl], &Attrs::new()).1, vec![0, 6]);
    let n = put(&s, &[1], &[f32::NAN]);
    assert!(run1::<f32>(&s, "Relu", &[n], &Attrs::new()).1[0].is_nan());
    let xd = put(&s, &[3], &[-1f64, 0., 2.]);
    let e = (-1f64).exp_m1();
    assert_eq!(
        run1::<f64>(&s, "Elu", &[xd], &Attrs::new()).1,
        vec![e, 0., 2.]
    );
    let (alpha, scale) = (1.673_263_242_354_377_3f64, 1.050_700_987_355_480_5f64);
    close(
        &run1::<f64>(&s, "Selu", &[xd], &Attrs::new()).1,
        &[scale * alpha * e, 0., 2. * scale],
        1e-15,
    );
    close32(
        &run1::<f32>(&s, "Elu", &[x], &Attrs::new()).1,
        &[(-2f64).exp_m1(), (-0.5f64).exp_m1(), 0., 3., 7.],
        1e-6,
    );
    assert!(err(&s, "Elu", &[xi], &Attrs::new()).contains("INT32"));
    let b = put(&s, &[1], &[true]);
    assert!(err(&s, "Relu", &[b], &Attrs::new()).contains("BOOL"));
}

#[test]
fn softmax_and_log_softmax() {
    let s = session();
    // Row [0, ln 3] -> [1/4, 3/4]; row [1000, 1000] stays finite -> [1/2, 1/2].
    let x = put(&s, &[2, 2], &[0f64, 3f64.ln(), 1000., 1000.]);
    close(
        &run1::<f64>(&s, "Softmax", &[x], &Attrs::new()).1,
        &[0.25, 0.75, 0.5, 0.5],
        1e-15,
    );
    close(
        &run1::<f64>(&s, "LogSoftmax", &[x], &Attrs::new()).1,
        &[0.25f64.ln(), 0.75f64.ln(), 0.5f64.ln(), 0.5f64.ln()],
        1e-15,
    );
    let xf = put(&s, &[3], &[-1000f32, 0., 1000.]);
    assert_eq!(
        run1::<f32>(&s, "Softmax", &[xf], &Attrs::new()).1,
        vec![0., 0., 1.]
    );
    let r3 = put(&s, &[2, 1, 3], &[1f32, 1., 1., 5., 5., 5.]);
    close32(
        &run1::<f32>(&s, "Softmax", &[r3], &Attrs::new()).1,
        &[1. / 3.; 6],
        1e-6,
    );
    let e = put::<f32>(&s, &[2, 0], &[]);
    assert_eq!(
        run1::<f32>(&s, "Softmax", &[e], &Attrs::new()),
        (vec![2, 0], vec![])
    );
    let sc = put(&s, &[], &[1f32]);
    assert!(err(&s, "Softmax", &[sc], &Attrs::new()).contains("rank >= 1"));
    let i = put(&s, &[2], &[1i32, 2]);
    assert!(err(&s, "LogSoftmax", &[i], &Attrs::new()).contains("INT32"));
    // Large: every row sums to 1 (threaded path).
    let (rows, c) = (3000, 100);
    let big = put(
        &s,
        &[rows, c],
        &data(rows * c, 7)
            .iter()
            .map(|&v| (v * 30.0) as f32)
            .collect::<Vec<_>>(),
    );
    let out = run1::<f32>(&s, "Softmax", &[big], &Attrs::new()).1;
    for row in out.chunks(c) {
        assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    }
}

#[test]
fn bias_add() {
    let s = session();
    let v = put(&s, &[2, 3], &[1f32, 2., 3., 4., 5., 6.]);
    let b = put(&s, &[3], &[10f32, 20., 30.]);
    assert_eq!(
        run1::<f32>(&s, "BiasAdd", &[v, b], &Attrs::new()).1,
        vec![11., 22., 33., 14., 25., 36.]
    );
    let nhwc = Attrs::new().with("data_format", AttrValue::Str("NHWC".into()));
    assert_eq!(
        run1::<f32>(&s, "BiasAdd", &[v, b], &nhwc).1,
        vec![11., 22., 33., 14., 25., 36.]
    );
    // NCHW [1, 2, 2, 2]: channel c adds bias[c] to its 2x2 plane.
    let v4 = put(&s, &[1, 2, 2, 2], &[0i32, 1, 2, 3, 4, 5, 6, 7]);
    let b2 = put(&s, &[2], &[100i32, 200]);
    let nchw = Attrs::new().with("data_format", AttrValue::Str("NCHW".into()));
    assert_eq!(
        run1::<i32>(&s, "BiasAdd", &[v4, b2], &nchw),
        (
            vec![1, 2, 2, 2],
            vec![100, 101, 102, 103, 204, 205, 206, 207]
        )
    );
    assert_eq!(
        run1::<i32>(
            &s,
            "BiasAddV1",
            &[put(&s, &[1, 2], &[1i32, 2]), b2],
            &Attrs::new()
        )
        .1,
        vec![101, 202]
    );
    // Large, threaded, both layouts.
    let (n, c) = (1 << 14, 96);
    let big: Vec<f64> = data(n * c, 8);
    let bias: Vec<f64> = (0..c).map(|j| j as f64).collect();
    let hb = put(&s, &[n, c], &big);
    let hbias = put(&s, &[c], &bias);
    let got = run1::<f64>(&s, "BiasAdd", &[hb, hbias], &Attrs::new()).1;
    assert!(
        got.iter()
            .enumerate()
            .all(|(i, &v)| v == big[i] + bias[i % c])
    );
    let hb4 = put(&s, &[12, c, 32, 32], &data(12 * c * 1024, 9));
    let got = run1::<f64>(&s, "BiasAdd", &[hb4, hbias], &nchw).1;
    let src = data(12 * c * 1024, 9);
    assert!(
        got.iter()
            .enumerate()
            .all(|(i, &v)| v == src[i] + bias[(i / 1024) % c])
    );

    let m = err(&s, "BiasAdd", &[v, b2], &Attrs::new());
    assert!(m.contains("[2]") && m.contains("[2, 3]"), "{m}");
    let bad = Attrs::new().with("data_format", AttrValue::Str("NDHWC".into()));
    assert!(err(&s, "BiasAdd", &[v, b], &bad).contains("data_format"));
    assert!(err(&s, "BiasAdd", &[b, b], &Attrs::new()).contains("rank >= 2"));
    let bd = put(&s, &[3], &[1f64; 3]);
    assert!(err(&s, "BiasAdd", &[v, bd], &Attrs::new()).contains("DOUBLE"));
    let bm = put(&s, &[1, 3], &[1f32; 3]);
    assert!(err(&s, "BiasAdd", &[v, bm], &Attrs::new()).contains("vector"));
}

#[test]
fn softmax_cross_entropy() {
    let s = session();
    // Row 0: softmax [1/2, 1/2], label [1, 0]: loss ln 2, backprop [-1/2, 1/2].
    // Row 1: softmax [1/4, 3/4], label [0, 1]: loss -ln(3/4), backprop [1/4, -1/4].
    let f = put(&s, &[2, 2], &[0f64, 0., 0., 3f64.ln()]);
    let l = put(&s, &[2, 2], &[1f64, 0., 0., 1.]);
    let out = run::<f64>(&s, "SoftmaxCrossEntropyWithLogits", &[f, l], &Attrs::new());
    assert_eq!(out[0].0, vec![2]);
    assert_eq!(out[1].0, vec![2, 2]);
    close(&out[0].1, &[2f64.ln(), -(0.75f64.ln())], 1e-15);
    close(&out[1].1, &[-0.5, 0.5, 0.25, -0.25], 1e-15);
    // Labels broadcast from one row.
    let l1 = put(&s, &[2], &[0.5f64, 0.5]);
    let out = run::<f64>(&s, "SoftmaxCrossEntropyWithLogits", &[f, l1], &Attrs::new());
    close(
        &out[0].1,
        &[2f64.ln(), -0.5 * 0.25f64.ln() - 0.5 * 0.75f64.ln()],
        1e-15,
    );
    close(&out[1].1, &[0., 0., -0.25, 0.25], 1e-15);
    // Float, large logits stay finite.
    let ff = put(&s, &[1, 3], &[1000f32, 0., -1000.]);
    let lf = put(&s, &[1, 3], &[0f32, 1., 0.]);
    let out = run::<f32>(
        &s,
        "SoftmaxCrossEntropyWithLogits",
        &[ff, lf],
        &Attrs::new(),
    );
    assert_eq!(out[0].1, vec![1000.]);
    assert_eq!(out[1].1, vec![1., -1., 0.]);
    // The sparse form gives the same numbers.
    let sl = put(&s, &[2], &[0i64, 1]);
    let out = run::<f64>(
        &s,
        "SparseSoftmaxCrossEntropyWithLogits",
        &[f, sl],
        &Attrs::new(),
    );
    close(&out[0].1, &[2f64.ln(), -(0.75f64.ln())], 1e-15);
    close(&out[1].1, &[-0.5, 0.5, 0.25, -0.25], 1e-15);
    let sl32 = put(&s, &[1], &[1i32]);
    let out = run::<f32>(
        &s,
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
        put(&s, &[b, c], &logits),
        put(&s, &[b], &labels),
        put(&s, &[b, c], &onehot),
    );
    let dense = run::<f32>(
        &s,
        "SoftmaxCrossEntropyWithLogits",
        &[hf, ho],
        &Attrs::new(),
    );
    let sparse = run::<f32>(
        &s,
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
    let e = put::<f32>(&s, &[0, 3], &[]);
    let el = put::<i32>(&s, &[0], &[]);
    let out = run::<f32>(
        &s,
        "SparseSoftmaxCrossEntropyWithLogits",
        &[e, el],
        &Attrs::new(),
    );
    assert_eq!((out[0].0.clone(), out[1].0.clone()), (vec![0], vec![0, 3]));
}

#[test]
fn cross_entropy_errors() {
    let s = session();
    let f = put(&s, &[2, 3], &[0f32; 6]);
    let l = put(&s, &[3, 2], &[0f32; 6]);
    let m = err(&s, "SoftmaxCrossEntropyWithLogits", &[f, l], &Attrs::new());
    assert!(m.contains("[2, 3]") && m.contains("[3, 2]"), "{m}");
    let ld = put(&s, &[2, 3], &[0f64; 6]);
    assert!(err(&s, "SoftmaxCrossEntropyWithLogits", &[f, ld], &Attrs::new()).contains("DOUBLE"));
    let f3 = put(&s, &[1, 2, 3], &[0f32; 6]);
    assert!(
        err(
            &s,
            "SoftmaxCrossEntropyWithLogits",
            &[f3, f3],
            &Attrs::new()
        )
        .contains("matrices")
    );
    let fi = put(&s, &[2, 3], &[0i32; 6]);
    assert!(
        err(
            &s,
            "SoftmaxCrossEntropyWithLogits",
            &[fi, fi],
            &Attrs::new()
        )
        .contains("INT32")
    );
    for bad in [3i64, -1] {
        let lab = put(&s, &[2], &[0i64, bad]);
        let m = err(
            &s,
            "SparseSoftmaxCrossEntropyWithLogits",
            &[f, lab],
            &Attrs::new(),
        );
        assert!(m.contains(&bad.to_string()) && m.contains("[0, 3)"), "{m}");
    }
    let lab3 = put(&s, &[3], &[0i32; 3]);
    let m = err(
        &s,
        "SparseSoftmaxCrossEntropyWithLogits",
        &[f, lab3],
        &Attrs::new(),
    );
    assert!(m.contains("[3]") && m.contains("[2, 3]"), "{m}");
    let labf = put(&s, &[2], &[0f32; 2]);
    assert!(
        err(
            &s,
            "SparseSoftmaxCrossEntropyWithLogits",
            &[f, labf],
            &Attrs::new()
        )
        .contains("FLOAT")
    );
    let v = put(&s, &[3], &[0f32; 3]);
    assert!(
        err(
            &s,
            "SparseSoftmaxCrossEntropyWithLogits",
            &[v, lab3],
            &Attrs::new()
        )
        .contains("matrix")
    );
}

#[test]
fn l2_loss() {
    let s = session();
    let t = put(&s, &[3], &[1f32, 2., 3.]);
    assert_eq!(
        run1::<f32>(&s, "L2Loss", &[t], &Attrs::new()),
        (vec![], vec![7.])
    );
    let d = put(&s, &[2, 2], &[1f64, -1., 0.5, 0.]);
    assert_eq!(
        run1::<f64>(&s, "L2Loss", &[d], &Attrs::new()).1,
        vec![1.125]
    );
    let e = put::<f64>(&s, &[0], &[]);
    assert_eq!(run1::<f64>(&s, "L2Loss", &[e], &Attrs::new()).1, vec![0.]);
    let big = put(&s, &[1 << 20], &vec![0.5f32; 1 << 20]);
    assert_eq!(
        run1::<f32>(&s, "L2Loss", &[big], &Attrs::new()).1,
        vec![(1 << 20) as f32 / 8.]
    );
    let i = put(&s, &[1], &[1i32]);
    assert!(err(&s, "L2Loss", &[i], &Attrs::new()).contains("INT32"));
}

// ---------------------------------------------------------------------------
// Random.

fn rnd(dtype: DataType, seed: i64, seed2: i64) -> Attrs {
    Attrs::new()
        .with("dtype", AttrValue::Type(dtype))
        .with("seed", AttrValue::Int(seed))
        .with("seed2", AttrValue::Int(seed2))
}

fn moments(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    (
        mean,
        v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n,
    )
}

#[test]
fn seeded_random_is_reproducible_across_calls_and_sessions() {
    let (s1, s2) = (session(), session());
    for op in ["RandomUniform", "RandomStandardNormal", "TruncatedNormal"] {
        let sh1 = put(&s1, &[2], &[3i32, 5]);
        let sh2 = put(&s2, &[2], &[3i64, 5]);
        let a = run1::<f32>(&s1, op, &[sh1], &rnd(DataType::Float, 7, 11));
        let b = run1::<f32>(&s1, op, &[sh1], &rnd(DataType::Float, 7, 11));
        let c = run1::<f32>(&s2, op, &[sh2], &rnd(DataType::Float, 7, 11));
        assert_eq!(a.0, vec![3, 5]);
        assert_eq!(a, b, "{op}: same call twice");
        assert_eq!(a, c, "{op}: another session");
        let d = run1::<f32>(&s1, op, &[sh1], &rnd(DataType::Float, 7, 12));
        assert_ne!(a.1, d.1, "{op}: seed2 matters");
        let e = run1::<f32>(&s1, op, &[sh1], &rnd(DataType::Float, 0, 12));
        assert_eq!(
            e,
            run1::<f32>(&s1, op, &[sh1], &rnd(DataType::Float, 0, 12)),
            "{op}: seed2 alone fixes it"
        );
        let x = run1::<f64>(&s1, op, &[sh1], &rnd(DataType::Double, 7, 11));
        assert_eq!(
            x,
            run1::<f64>(&s2, op, &[sh2], &rnd(DataType::Double, 7, 11))
        );
        // Unseeded calls differ.
        let u = Attrs::new().with("dtype", AttrValue::Type(DataType::Float));
        assert_ne!(
            run1::<f32>(&s1, op, &[sh1], &u).1,
            run1::<f32>(&s1, op, &[sh1], &u).1,
            "{op}"
        );
    }
}

#[test]
fn values_do_not_depend_on_size_or_threads() {
    // Element i is a function of (seed, seed2, i): a large (threaded) tensor
    // starts with the values of a small one.
    let s = session();
    for op in ["RandomUniform", "RandomStandardNormal", "TruncatedNormal"] {
        let small = run1::<f32>(
            &s,
            op,
            &[put(&s, &[1], &[13i32])],
            &rnd(DataType::Float, 3, 4),
        )
        .1;
        let large = run1::<f32>(
            &s,
            op,
            &[put(&s, &[1], &[1i32 << 20])],
            &rnd(DataType::Float, 3, 4),
        )
        .1;
        assert_eq!(small[..], large[..13], "{op}");
        let small = run1::<f64>(
            &s,
            op,
            &[put(&s, &[1], &[7i32])],
            &rnd(DataType::Double, 3, 4),
        )
        .1;
        let large = run1::<f64>(
            &s,
            op,
            &[put(&s, &[2], &[1i32 << 10, 1 << 9])],
            &rnd(DataType::Double, 3, 4),
        )
        .1;
        assert_eq!(small[..], large[..7], "{op}");
    }
}

#[test]
fn distributions_have_the_right_moments() {
    let s = session();
    let sh = put(&s, &[1], &[200_000i32]);
    let to64 = |v: Vec<f32>| v.into_iter().map(f64::from).collect::<Vec<_>>();
    let u = to64(run1::<f32>(&s, "RandomUniform", &[sh], &rnd(DataType::Float, 1, 2)).1);
    assert!(u.iter().all(|&v| (0.0..1.0).contains(&v)));
    let (m, v) = moments(&u);
    assert!(
        (m - 0.5).abs() < 0.005 && (v - 1.0 / 12.0).abs() < 0.002,
        "{m} {v}"
    );
    let ud = run1::<f64>(&s, "RandomUniform", &[sh], &rnd(DataType::Double, 1, 2)).1;
    assert!(ud.iter().all(|&v| (0.0..1.0).contains(&v)));
    let (m, v) = moments(&ud);
    assert!(
        (m - 0.5).abs() < 0.005 && (v - 1.0 / 12.0).abs() < 0.002,
        "{m} {v}"
    );
    for n in [
        to64(
            run1::<f32>(
                &s,
                "RandomStandardNormal",
                &[sh],
                &rnd(DataType::Float, 1, 2),
            )
            .1,
        ),
        run1::<f64>(
            &s,
            "RandomStandardNormal",
            &[sh],
            &rnd(DataType::Double, 1, 2),
        )
        .1,
    ] {
        let (m, v) = moments(&n);
        assert!(m.abs() < 0.01 && (v - 1.0).abs() < 0.02, "{m} {v}");
        assert!(n.iter().any(|&x| x.abs() > 3.0), "tails are there");
    }
    // A normal truncated at 2 standard deviations has variance 0.7737.
    for t in [
        to64(run1::<f32>(&s, "TruncatedNormal", &[sh], &rnd(DataType::Float, 1, 2)).1),
        run1::<f64>(&s, "TruncatedNormal", &[sh], &rnd(DataType::Double, 1, 2)).1,
    ] {
        assert!(t.iter().all(|&x| x.abs() < 2.0));
        let (m, v) = moments(&t);
        assert!(m.abs() < 0.01 && (v - 0.7737).abs() < 0.01, "{m} {v}");
    }
    // Scalar and empty shapes.
    let scalar = put::<i32>(&s, &[0], &[]);
    assert_eq!(
        run1::<f32>(&s, "RandomUniform", &[scalar], &rnd(DataType::Float, 1, 1)).0,
        Vec::<usize>::new()
    );
    let empty = put(&s, &[2], &[0i64, 5]);
    assert_eq!(
        run1::<f64>(
            &s,
            "TruncatedNormal",
            &[empty],
            &rnd(DataType::Double, 1, 1)
        ),
        (vec![0, 5], vec![])
    );
}

#[test]
fn random_errors() {
    let s = session();
    let sh = put(&s, &[2], &[2i32, 3]);
    let m = err(&s, "RandomUniform", &[sh], &Attrs::new());
    assert!(m.contains("dtype") && m.contains("required"), "{m}");
    assert!(
        err(
            &s,
            "RandomStandardNormal",
            &[sh],
            &rnd(DataType::Int32, 1, 1)
        )
        .contains("FLOAT or DOUBLE")
    );
    let neg = put(&s, &[2], &[2i32, -3]);
    assert!(err(&s, "TruncatedNormal", &[neg], &rnd(DataType::Float, 1, 1)).contains("negative"));
    let mat = put(&s, &[1, 2], &[2i32, 3]);
    assert!(err(&s, "RandomUniform", &[mat], &rnd(DataType::Float, 1, 1)).contains("vector"));
    let fl = put(&s, &[1], &[2f32]);
    assert!(
        err(&s, "RandomUniform", &[fl], &rnd(DataType::Float, 1, 1)).contains("INT32 or INT64")
    );
    let bad_seed = Attrs::new()
        .with("dtype", AttrValue::Type(DataType::Float))
        .with("seed", AttrValue::Bool(true));
    assert!(err(&s, "RandomUniform", &[sh], &bad_seed).contains("seed"));
    // Absurd shapes: too many elements, or more bytes than the limit allows.
    let huge = put(&s, &[3], &[1i64 << 40, 1 << 40, 1 << 40]);
    assert!(err(&s, "RandomUniform", &[huge], &rnd(DataType::Float, 1, 1)).contains("too many"));
    let limited = Session::new(SessionOptions {
        max_bytes: Some(1 << 30),
        ..SessionOptions::default()
    });
    let big = put(&limited, &[1], &[1i64 << 40]);
    let r = limited.execute_named("RandomStandardNormal", &[big], &rnd(DataType::Double, 1, 1));
    assert!(matches!(r, Err(Error::MemoryExhausted { .. })), "{r:?}");
    let r = limited.execute_named(
        "MatMul",
        &[
            put(&limited, &[1 << 16, 1], &vec![0f32; 1 << 16]),
            put(&limited, &[1, 1 << 16], &vec![0f32; 1 << 16]),
        ],
        &Attrs::new(),
    );
    assert!(
        matches!(r, Err(Error::MemoryExhausted { .. })),
        "a 16 GiB product is refused: {r:?}"
    );
}

#[test]
fn everything_freed_leaves_no_bytes() {
    let s = session();
    let a = put(&s, &[4, 5], &data(20, 11));
    let b = put(&s, &[5, 3], &data(15, 12));
    let p = put(&s, &[2], &[1i32, 0]);
    let bias = put(&s, &[5], &data(5, 13));
    let lab = put(&s, &[4], &[0i32, 1, 2, 4]);
    let sh = put(&s, &[2], &[64i32, 64]);
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
        handles.extend(s.execute_named(op, &inputs, &attrs).unwrap());
    }
    // Failed ops leave nothing behind.
    assert!(s.execute_named("MatMul", &[a, a], &Attrs::new()).is_err());
    assert!(
        s.execute_named("BiasAdd", &[a, lab], &Attrs::new())
            .is_err()
    );
    let stats = s.stats();
    assert_eq!(stats.live_tensors as usize, handles.len());
    assert_eq!(
        s.free_many(&handles, eagerflow::FreeReason::Explicit),
        handles.len()
    );
    assert_eq!(s.stats().live_bytes, 0);
    assert_eq!(s.stats().live_tensors, 0);
}

#[test]
fn empty_tensors_with_huge_other_dimensions() {
    // Dimensions whose product overflows are fine while another one is 0.
    let s = session();
    let huge = 1usize << 40;
    let x = put::<f32>(&s, &[0, huge, huge], &[]);
    let out = run1::<f32>(&s, "Transpose", &[x, perm(&s, &[2, 0, 1])], &Attrs::new());
    assert_eq!(out, (vec![huge, 0, huge], vec![]));
    let v = put::<f32>(&s, &[0, 2, huge, huge], &[]);
    let b = put(&s, &[2], &[1f32, 2.]);
    let nchw = Attrs::new().with("data_format", AttrValue::Str("NCHW".into()));
    assert_eq!(
        run1::<f32>(&s, "BiasAdd", &[v, b], &nchw).0,
        vec![0, 2, huge, huge]
    );
    let m = put::<f32>(&s, &[0, huge, huge], &[]);
    let y = put::<f32>(&s, &[huge, 0], &[]);
    assert_eq!(
        run1::<f32>(&s, "BatchMatMulV2", &[m, y], &Attrs::new()).0,
        vec![0, huge, 0]
    );
    assert_eq!(
        run1::<f32>(&s, "Softmax", &[m], &Attrs::new()).0,
        vec![0, huge, huge]
    );
    let z = put(&s, &[], &[1i32]);
    assert_eq!(
        run1::<i64>(&s, "ArgMax", &[m, z], &Attrs::new()).0,
        vec![0, huge]
    );
    assert_eq!(
        run1::<f32>(&s, "Sum", &[m, z], &Attrs::new()).0,
        vec![0, huge]
    );
    assert_eq!(run1::<f32>(&s, "L2Loss", &[m], &Attrs::new()).1, vec![0.]);
}
