//! The matrix decompositions and solvers (MatrixDeterminant, MatrixInverse,
//! MatrixSolve, Cholesky, MatrixTriangularSolve, Qr, Svd): hand-checked
//! values, invariants on generated batches, and every error case.

use eagerflow::{AttrValue, Attrs, DataType};

use crate::common::{Env, close, close32, data, flag, none};

/// Row-major `m×k` times `k×n`.
fn mul(a: &[f64], b: &[f64], m: usize, k: usize, n: usize) -> Vec<f64> {
    let mut c = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            c[i * n + j] = (0..k).map(|q| a[i * k + q] * b[q * n + j]).sum();
        }
    }
    c
}

fn tr(a: &[f64], r: usize, c: usize) -> Vec<f64> {
    (0..c * r).map(|i| a[(i % r) * c + i / r]).collect()
}

fn eye(n: usize) -> Vec<f64> {
    (0..n * n)
        .map(|i| if i % (n + 1) == 0 { 1.0 } else { 0.0 })
        .collect()
}

/// A well-conditioned `n×n` matrix: generated data plus `n` on the diagonal.
fn dominant(n: usize, salt: usize) -> Vec<f64> {
    let mut a = data(n * n, salt);
    for i in 0..n {
        a[i * n + i] += n as f64;
    }
    a
}

/// `a aᵀ + n I`: symmetric positive definite.
fn spd(n: usize, salt: usize) -> Vec<f64> {
    let a = data(n * n, salt);
    let mut s = mul(&a, &tr(&a, n, n), n, n, n);
    for i in 0..n {
        s[i * n + i] += n as f64;
    }
    s
}

// ---------------------------------------------------------------------------
// MatrixDeterminant.

#[test]
fn determinant_values_batches_and_empty() {
    let s = Env::new();
    // det [[1, 2], [3, 4]] = -2; det [[2, 0, 0], [0, 3, 0], [0, 0, 4]] = 24;
    // a row swap needed first: det [[0, 1], [1, 0]] = -1.
    let x = s.t(&[2, 2, 2], &[1f32, 2., 3., 4., 0., 1., 1., 0.]);
    let (shape, v) = s.run1::<f32>("MatrixDeterminant", &[x]);
    assert_eq!(shape, vec![2]);
    close32(&v, &[-2.0, -1.0], 1e-6);
    let d = s.t(&[3, 3], &[2f64, 0., 0., 0., 3., 0., 0., 0., 4.]);
    // Through sign and log, as TensorFlow computes it: not exact.
    let (shape, v) = s.run1::<f64>("MatrixDeterminant", &[d]);
    assert_eq!(shape, Vec::<usize>::new());
    close(&v, &[24.0], 1e-14);
    // Singular: 0. Empty matrices: 1. An empty batch: empty.
    let z = s.t(&[2, 2], &[1f64, 2., 2., 4.]);
    assert_eq!(s.run1::<f64>("MatrixDeterminant", &[z]).1, vec![0.0]);
    let e = s.t::<f32>(&[3, 0, 0], &[]);
    assert_eq!(
        s.run1::<f32>("MatrixDeterminant", &[e]),
        (vec![3], vec![1.0; 3])
    );
    let eb = s.t::<f32>(&[0, 4, 4], &[]);
    assert_eq!(s.run1::<f32>("MatrixDeterminant", &[eb]), (vec![0], vec![]));
    // det(ab) = det(a) det(b), on 6x6 matrices.
    let (a, b) = (dominant(6, 1), dominant(6, 2));
    let det = |m: &[f64]| {
        let h = s.t(&[6, 6], m);
        s.run1::<f64>("MatrixDeterminant", &[h]).1[0]
    };
    let ab = mul(&a, &b, 6, 6, 6);
    close(&[det(&ab)], &[det(&a) * det(&b)], 1e-10);
}

#[test]
fn determinant_errors() {
    let s = Env::new();
    let v = s.t(&[3], &[1f32, 2., 3.]);
    let m = s.err("MatrixDeterminant", &[v]);
    assert!(
        m.contains("'input'") && m.contains("rank >= 2") && m.contains("[3]"),
        "{m}"
    );
    let r = s.t(&[2, 3], &[1f32; 6]);
    let m = s.err("MatrixDeterminant", &[r]);
    assert!(m.contains("square") && m.contains("[2, 3]"), "{m}");
    let i = s.t(&[2, 2], &[1i32, 2, 3, 4]);
    let m = s.err("MatrixDeterminant", &[i]);
    assert!(m.contains("INT32"), "{m}");
}

// ---------------------------------------------------------------------------
// MatrixInverse.

#[test]
fn inverse_values_adjoint_and_halves() {
    let s = Env::new();
    // [[4, 7], [2, 6]]⁻¹ = [[0.6, -0.7], [-0.2, 0.4]]
    let x = s.t(&[2, 2], &[4f64, 7., 2., 6.]);
    let (shape, v) = s.run1::<f64>("MatrixInverse", &[x]);
    assert_eq!(shape, vec![2, 2]);
    close(&v, &[0.6, -0.7, -0.2, 0.4], 1e-12);
    // adjoint: the inverse of the transpose.
    let v = s
        .run1_with::<f64>("MatrixInverse", &[x], &flag("adjoint", true))
        .1;
    close(&v, &[0.6, -0.2, -0.7, 0.4], 1e-12);
    // A batch of 3 8x8 FLOAT matrices: a a⁻¹ = I.
    let n = 8;
    let all: Vec<f64> = (0..3).flat_map(|b| dominant(n, b + 5)).collect();
    let h = s.t(
        &[3, n, n],
        &all.iter().map(|&v| v as f32).collect::<Vec<_>>(),
    );
    let (_, inv) = s.run1::<f32>("MatrixInverse", &[h]);
    for b in 0..3 {
        let a = &all[b * n * n..(b + 1) * n * n];
        let ai: Vec<f64> = inv[b * n * n..(b + 1) * n * n]
            .iter()
            .map(|&v| f64::from(v))
            .collect();
        close(&mul(a, &ai, n, n, n), &eye(n), 1e-5);
    }
    // HALF through FLOAT.
    let hx = s.t(&[2, 2], &[4f32, 7., 2., 6.].map(eagerflow::f16::from_f32));
    let out = s.one("MatrixInverse", &[hx], &none());
    assert_eq!(out.dtype(), DataType::Half);
    let hv: Vec<f32> = out
        .as_slice::<eagerflow::f16>()
        .unwrap()
        .iter()
        .map(|v| v.to_f32())
        .collect();
    close32(&hv, &[0.6, -0.7, -0.2, 0.4], 1e-3);
    // Empty matrices invert to themselves.
    let e = s.t::<f64>(&[2, 0, 0], &[]);
    assert_eq!(
        s.run1::<f64>("MatrixInverse", &[e]),
        (vec![2, 0, 0], vec![])
    );
}

#[test]
fn inverse_errors() {
    let s = Env::new();
    let z = s.t(&[2, 2, 2], &[1f32, 0., 0., 1., 1., 2., 2., 4.]);
    let m = s.err("MatrixInverse", &[z]);
    assert!(
        m.contains("Input is not invertible") && m.contains("matrix 1") && m.contains("[2, 2, 2]"),
        "{m}"
    );
    let r = s.t(&[3, 2], &[1f32; 6]);
    assert!(s.err("MatrixInverse", &[r]).contains("square"));
    let sc = s.scalar(1f64);
    assert!(s.err("MatrixInverse", &[sc]).contains("rank >= 2"));
    let x = s.t(&[1, 1], &[1f64]);
    let bad = Attrs::new().with("adjoint", AttrValue::Int(1));
    assert!(s.err_with("MatrixInverse", &[x], &bad).contains("adjoint"));
}

// ---------------------------------------------------------------------------
// MatrixSolve.

#[test]
fn solve_values_residuals_and_adjoint() {
    let s = Env::new();
    // [[2, 1], [1, 3]] x = [[3], [5]]: x = [[0.8], [1.4]]
    let a = s.t(&[2, 2], &[2f64, 1., 1., 3.]);
    let b = s.t(&[2, 1], &[3f64, 5.]);
    let (shape, x) = s.run1::<f64>("MatrixSolve", &[a, b]);
    assert_eq!(shape, vec![2, 1]);
    close(&x, &[0.8, 1.4], 1e-12);
    // Residuals on a batch of 2 7x7 systems with 3 right-hand sides, both
    // ways round.
    let (n, k) = (7, 3);
    let am: Vec<f64> = (0..2).flat_map(|i| dominant(n, i + 11)).collect();
    let bm = data(2 * n * k, 13);
    let (ah, bh) = (s.t(&[2, n, n], &am), s.t(&[2, n, k], &bm));
    for adjoint in [false, true] {
        let (shape, x) = s.run1_with::<f64>("MatrixSolve", &[ah, bh], &flag("adjoint", adjoint));
        assert_eq!(shape, vec![2, n, k]);
        for i in 0..2 {
            let mut a = am[i * n * n..(i + 1) * n * n].to_vec();
            if adjoint {
                a = tr(&a, n, n);
            }
            let ax = mul(&a, &x[i * n * k..(i + 1) * n * k], n, n, k);
            close(&ax, &bm[i * n * k..(i + 1) * n * k], 1e-10);
        }
    }
    // No right-hand sides: empty.
    let e = s.t::<f64>(&[2, 0], &[]);
    assert_eq!(s.run1::<f64>("MatrixSolve", &[a, e]), (vec![2, 0], vec![]));
}

#[test]
fn solve_errors() {
    let s = Env::new();
    let a = s.t(&[2, 2], &[1f64, 2., 2., 4.]);
    let b = s.t(&[2, 1], &[1f64, 1.]);
    assert!(
        s.err("MatrixSolve", &[a, b])
            .contains("Input matrix is not invertible")
    );
    let r = s.t(&[3, 1], &[1f64; 3]);
    let m = s.err("MatrixSolve", &[s.t(&[2, 2], &[1f64, 0., 0., 1.]), r]);
    assert!(m.contains("rows") && m.contains("[3, 1]"), "{m}");
    let batch = s.t(&[2, 2, 1], &[1f64; 4]);
    let m = s.err("MatrixSolve", &[s.t(&[3, 2, 2], &[1f64; 12]), batch]);
    assert!(m.contains("same batch dimensions"), "{m}");
    // Different ranks, even where batches would broadcast.
    let m = s.err("MatrixSolve", &[s.t(&[1, 2, 2], &[1f64, 0., 0., 1.]), b]);
    assert!(m.contains("same batch dimensions"), "{m}");
    let f = s.t(&[2, 1], &[1f32, 1.]);
    assert!(s.err("MatrixSolve", &[a, f]).contains("same dtype"));
    let ns = s.t(&[2, 3], &[1f64; 6]);
    assert!(s.err("MatrixSolve", &[ns, b]).contains("square"));
}

// ---------------------------------------------------------------------------
// Cholesky.

#[test]
fn cholesky_values_reconstruction_and_lower_only() {
    let s = Env::new();
    // [[4, 12, -16], [12, 37, -43], [-16, -43, 98]] = L Lᵀ with
    // L = [[2, 0, 0], [6, 1, 0], [-8, 5, 3]].
    let x = s.t(&[3, 3], &[4f64, 12., -16., 12., 37., -43., -16., -43., 98.]);
    let (shape, l) = s.run1::<f64>("Cholesky", &[x]);
    assert_eq!(shape, vec![3, 3]);
    close(&l, &[2., 0., 0., 6., 1., 0., -8., 5., 3.], 1e-12);
    // The upper triangle is never read.
    let y = s.t(&[3, 3], &[4f64, 99., 99., 12., 37., 99., -16., -43., 98.]);
    close(&s.run1::<f64>("Cholesky", &[y]).1, &l, 1e-12);
    // L Lᵀ = A over a FLOAT batch of 10x10.
    let n = 10;
    let all: Vec<f64> = (0..2).flat_map(|b| spd(n, b + 3)).collect();
    let h = s.t(
        &[2, n, n],
        &all.iter().map(|&v| v as f32).collect::<Vec<_>>(),
    );
    let (_, l) = s.run1::<f32>("Cholesky", &[h]);
    for b in 0..2 {
        let lb: Vec<f64> = l[b * n * n..(b + 1) * n * n]
            .iter()
            .map(|&v| f64::from(v))
            .collect();
        for r in 0..n {
            for c in r + 1..n {
                assert_eq!(lb[r * n + c], 0.0);
            }
        }
        close(
            &mul(&lb, &tr(&lb, n, n), n, n, n),
            &all[b * n * n..(b + 1) * n * n],
            1e-5,
        );
    }
}

#[test]
fn cholesky_errors() {
    let s = Env::new();
    let x = s.t(&[2, 2, 2], &[1f64, 0., 0., 1., 1., 2., 2., 1.]);
    let m = s.err("Cholesky", &[x]);
    assert!(
        m.contains("Cholesky decomposition was not successful")
            && m.contains("matrix 1")
            && m.contains("not positive definite"),
        "{m}"
    );
    let r = s.t(&[2, 3], &[1f32; 6]);
    assert!(s.err("Cholesky", &[r]).contains("square"));
    let i = s.t(&[1, 1], &[1i64]);
    assert!(s.err("Cholesky", &[i]).contains("INT64"));
}

// ---------------------------------------------------------------------------
// MatrixTriangularSolve.

#[test]
fn triangular_solve_every_triangle_and_broadcast() {
    let s = Env::new();
    // L = [[2, 0], [3, 1]], b = [[4], [7]]: L x = b gives x = [[2], [1]];
    // Lᵀ x = b gives x = [[-8.5], [7]]. The ignored triangle holds 99.
    let l = s.t(&[2, 2], &[2f64, 99., 3., 1.]);
    let b = s.t(&[2, 1], &[4f64, 7.]);
    close(
        &s.run1::<f64>("MatrixTriangularSolve", &[l, b]).1,
        &[2.0, 1.0],
        1e-12,
    );
    let adj = flag("adjoint", true);
    close(
        &s.run1_with::<f64>("MatrixTriangularSolve", &[l, b], &adj).1,
        &[-8.5, 7.0],
        1e-12,
    );
    // U = [[2, 3], [0, 1]] (the lower 99 ignored): U x = b gives [[-8.5], [7]];
    // Uᵀ x = b gives [[2], [1]].
    let u = s.t(&[2, 2], &[2f64, 3., 99., 1.]);
    let upper = flag("lower", false);
    close(
        &s.run1_with::<f64>("MatrixTriangularSolve", &[u, b], &upper)
            .1,
        &[-8.5, 7.0],
        1e-12,
    );
    let both = upper.with("adjoint", AttrValue::Bool(true));
    close(
        &s.run1_with::<f64>("MatrixTriangularSolve", &[u, b], &both)
            .1,
        &[2.0, 1.0],
        1e-12,
    );
    // Batch dimensions broadcast: [2, 1, 2, 2] with [3, 2, 1] gives [2, 3, 2, 1].
    let ls = s.t(&[2, 1, 2, 2], &[2f32, 0., 3., 1., 1., 0., 0., 4.]);
    let bs = s.t(&[3, 2, 1], &[4f32, 7., 2., 3., 0., 8.]);
    let (shape, x) = s.run1::<f32>("MatrixTriangularSolve", &[ls, bs]);
    assert_eq!(shape, vec![2, 3, 2, 1]);
    close32(
        &x,
        &[2., 1., 1., 0., 0., 8., 4., 1.75, 2., 0.75, 0., 2.],
        1e-6,
    );
}

#[test]
fn triangular_solve_errors() {
    let s = Env::new();
    let m = s.err(
        "MatrixTriangularSolve",
        &[s.t(&[2, 3], &[1f64; 6]), s.t(&[2, 1], &[1f64; 2])],
    );
    assert!(m.contains("square") && m.contains("[2, 3]"), "{m}");
    let a = s.t(&[2, 2], &[1f64, 0., 0., 1.]);
    let m = s.err("MatrixTriangularSolve", &[a, s.t(&[3, 1], &[1f64; 3])]);
    assert!(m.contains("rows"), "{m}");
    let m = s.err(
        "MatrixTriangularSolve",
        &[s.t(&[2, 2, 2], &[1f64; 8]), s.t(&[3, 2, 1], &[1f64; 6])],
    );
    assert!(m.contains("broadcast"), "{m}");
    let m = s.err("MatrixTriangularSolve", &[a, s.t(&[2], &[1f64; 2])]);
    assert!(m.contains("'rhs'") && m.contains("rank >= 2"), "{m}");
}

// ---------------------------------------------------------------------------
// Qr.

/// Checks q (m×qc) has orthonormal columns, r (rr×n) is upper triangular
/// and q r = a.
fn check_qr(a: &[f64], q: &[f64], r: &[f64], m: usize, n: usize, qc: usize, rr: usize) {
    let tol = 1e-12;
    close(&mul(&tr(q, m, qc), q, qc, m, qc), &eye(qc), tol);
    for i in 0..rr {
        for j in 0..i.min(n) {
            assert_eq!(r[i * n + j], 0.0, "r[{i}][{j}]");
        }
    }
    close(&mul(q, r, m, qc, n), a, tol);
}

#[test]
fn qr_thin_full_wide_tall_and_batches() {
    let s = Env::new();
    for (m, n) in [(5, 3), (3, 5), (4, 4), (1, 1)] {
        let a: Vec<f64> = (0..2).flat_map(|b| data(m * n, b + m * 10 + n)).collect();
        let h = s.t(&[2, m, n], &a);
        for full in [false, true] {
            let out = s.run_all::<f64>("Qr", &[h], &flag("full_matrices", full));
            let p = m.min(n);
            let (qc, rr) = if full { (m, m) } else { (p, p) };
            assert_eq!(out[0].0, vec![2, m, qc]);
            assert_eq!(out[1].0, vec![2, rr, n]);
            for b in 0..2 {
                check_qr(
                    &a[b * m * n..(b + 1) * m * n],
                    &out[0].1[b * m * qc..(b + 1) * m * qc],
                    &out[1].1[b * rr * n..(b + 1) * rr * n],
                    m,
                    n,
                    qc,
                    rr,
                );
            }
        }
    }
    // FLOAT, and a hand-checked case: [[3], [4]] = q r with |r| = 5.
    let x = s.t(&[2, 1], &[3f32, 4.]);
    let out = s.run_all::<f32>("Qr", &[x], &none());
    assert_eq!(out[1].1.len(), 1);
    close32(&[out[1].1[0].abs()], &[5.0], 1e-6);
    close32(
        &[out[0].1[0] * out[1].1[0], out[0].1[1] * out[1].1[0]],
        &[3.0, 4.0],
        1e-6,
    );
    // Empty: [3, 0] gives q [3, 0] (thin) or the identity (full).
    let e = s.t::<f64>(&[3, 0], &[]);
    let out = s.run_all::<f64>("Qr", &[e], &flag("full_matrices", true));
    assert_eq!(out[0], (vec![3, 3], eye(3)));
    assert_eq!(out[1], (vec![3, 0], vec![]));
    let m = s.err("Qr", &[s.t(&[3], &[1f64; 3])]);
    assert!(m.contains("rank >= 2"), "{m}");
}

// ---------------------------------------------------------------------------
// Svd.

#[test]
fn svd_values_reconstruction_and_options() {
    let s = Env::new();
    // [[3, 0], [0, -4]]: singular values 4, 3.
    let x = s.t(&[2, 2], &[3f64, 0., 0., -4.]);
    let out = s.run_all::<f64>("Svd", &[x], &none());
    close(&out[0].1, &[4.0, 3.0], 1e-12);
    for (m, n) in [(5, 3), (3, 5), (4, 4)] {
        let a = data(m * n, m * 7 + n);
        let h = s.t(&[1, m, n], &a);
        let p = m.min(n);
        for full in [false, true] {
            let out = s.run_all::<f64>("Svd", &[h], &flag("full_matrices", full));
            let (uc, vc) = if full { (m, n) } else { (p, p) };
            assert_eq!(out[0].0, vec![1, p]);
            assert_eq!(out[1].0, vec![1, m, uc]);
            assert_eq!(out[2].0, vec![1, n, vc]);
            let (sv, u, v) = (&out[0].1, &out[1].1, &out[2].1);
            assert!(sv.windows(2).all(|w| w[0] >= w[1]) && sv.iter().all(|&x| x >= 0.0));
            close(&mul(&tr(u, m, uc), u, uc, m, uc), &eye(uc), 1e-12);
            close(&mul(&tr(v, n, vc), v, vc, n, vc), &eye(vc), 1e-12);
            // u[:, :p] diag(s) v[:, :p]ᵀ = a
            let mut us = vec![0.0; m * p];
            for i in 0..m {
                for j in 0..p {
                    us[i * p + j] = u[i * uc + j] * sv[j];
                }
            }
            let vp: Vec<f64> = (0..n * p).map(|i| v[(i / p) * vc + i % p]).collect();
            close(&mul(&us, &tr(&vp, n, p), m, p, n), &a, 1e-12);
        }
        // Without vectors: the same values, u and v empty.
        let no = flag("compute_uv", false);
        let out = s.run_all::<f64>("Svd", &[h], &no);
        let with = s.run_all::<f64>("Svd", &[h], &none());
        close(&out[0].1, &with[0].1, 1e-12);
        assert_eq!(out[1].0, vec![0]);
        assert_eq!(out[2].0, vec![0]);
    }
    // FLOAT: the singular values of a rank-one matrix [[1, 2], [2, 4]]: 5, 0.
    let f = s.t(&[2, 2], &[1f32, 2., 2., 4.]);
    let out = s.run_all::<f32>("Svd", &[f], &none());
    close32(&out[0].1, &[5.0, 0.0], 1e-6);
    let i = s.t(&[2, 2], &[1i32; 4]);
    assert!(s.err("Svd", &[i]).contains("INT32"));
}
