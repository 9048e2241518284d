//! Transpose through the session: hand-computed values, every permutation
//! against a reference, buffer sharing, the threaded and tiled paths, and
//! error classes.

use eagerflow::Attrs;

use crate::common::{Env, data};

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
fn transpose_values() {
    let s = Env::new();
    let x = s.t(&[2, 3], &[1i32, 2, 3, 4, 5, 6]);
    assert_eq!(
        s.run1::<i32>("Transpose", &[x, s.v(&[1, 0])]),
        (vec![3, 2], vec![1, 4, 2, 5, 3, 6])
    );
    // [2, 3, 2] with perm [2, 0, 1] -> [2, 2, 3]: out[a][b][c] = x[b][c][a].
    let x3: Vec<f32> = (0..12).map(|v| v as f32).collect();
    let h3 = s.t(&[2, 3, 2], &x3);
    assert_eq!(
        s.run1::<f32>("Transpose", &[h3, s.v(&[2, 0, 1])]),
        (
            vec![2, 2, 3],
            vec![0., 2., 4., 6., 8., 10., 1., 3., 5., 7., 9., 11.]
        )
    );
    let p64 = s.t(&[3], &[1i64, 0, 2]);
    assert_eq!(
        s.run1::<f32>("Transpose", &[h3, p64]),
        (
            vec![3, 2, 2],
            vec![0., 1., 6., 7., 2., 3., 8., 9., 4., 5., 10., 11.]
        )
    );
    let b = s.t(&[1, 2], &[true, false]);
    assert_eq!(
        s.run1::<bool>("Transpose", &[b, s.v(&[1, 0])]),
        (vec![2, 1], vec![true, false])
    );
    let sc = s.t(&[], &[5u8]);
    assert_eq!(
        s.run1::<u8>("Transpose", &[sc, s.t::<i32>(&[0], &[])]),
        (vec![], vec![5])
    );
    let e = s.t::<f64>(&[0, 3], &[]);
    assert_eq!(
        s.run1::<f64>("Transpose", &[e, s.v(&[1, 0])]),
        (vec![3, 0], vec![])
    );
}

#[test]
fn transpose_that_keeps_memory_order_shares_the_buffer() {
    let s = Env::new();
    let x = s.t(&[3, 1, 4], &[0f32; 12]);
    let id = s.run1::<f32>("Transpose", &[x, s.v(&[0, 1, 2])]);
    assert_eq!(id.0, vec![3, 1, 4]);
    let before = s.s.stats().live_bytes;
    let out = s
        .run("Transpose", &[x, s.v(&[1, 0, 2])], &Attrs::new())
        .unwrap();
    let t = s.s.tensor(out[0]).unwrap();
    assert_eq!(t.shape(), &[1, 3, 4]);
    assert!(t.shares_buffer(&s.s.tensor(x).unwrap()));
    assert_eq!(
        s.s.stats().live_bytes,
        before + 12,
        "only the perm vector is new"
    );
}

#[test]
fn transpose_every_permutation_matches_reference() {
    let s = Env::new();
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
        let h = s.t(shape, &x);
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
            let (got_shape, got) = s.run1::<f64>("Transpose", &[h, s.v(&pi)]);
            assert_eq!(got_shape, p.iter().map(|&a| shape[a]).collect::<Vec<_>>());
            assert_eq!(got, transpose_ref(&x, shape, &p), "{shape:?} {p:?}");
        }
    }
}

#[test]
fn transpose_large_uses_threads_and_tiles() {
    let s = Env::new();
    let (r, c) = (1031, 517);
    let x: Vec<f32> = (0..r * c).map(|v| v as f32).collect();
    let h = s.t(&[r, c], &x);
    let got = s.run1::<f32>("Transpose", &[h, s.v(&[1, 0])]).1;
    for (i, &v) in got.iter().enumerate() {
        assert_eq!(v, x[(i % r) * c + i / r]);
    }
    let x3: Vec<f64> = data(64 * 70 * 65, 6);
    let h3 = s.t(&[64, 70, 65], &x3);
    for p in [[2, 1, 0], [0, 2, 1], [1, 2, 0]] {
        let pi: Vec<i32> = p.iter().map(|&v| v as i32).collect();
        let got = s.run1::<f64>("Transpose", &[h3, s.v(&pi)]).1;
        assert_eq!(got, transpose_ref(&x3, &[64, 70, 65], &p), "{p:?}");
    }
}

#[test]
fn transpose_errors() {
    let s = Env::new();
    let x = s.t(&[2, 3], &[1f32; 6]);
    for p in [&[0, 0][..], &[0], &[0, 1, 2], &[-1, 0], &[2, 0]] {
        let m = s.err("Transpose", &[x, s.v(p)]);
        assert!(m.contains("permutation") && m.contains("[2, 3]"), "{m}");
    }
    let pm = s.t(&[1, 2], &[1i32, 0]);
    assert!(s.err("Transpose", &[x, pm]).contains("vector"));
    let pf = s.t(&[2], &[1f32, 0.]);
    assert!(s.err("Transpose", &[x, pf]).contains("INT32 or INT64"));
}
