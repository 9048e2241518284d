//! `MaxPool`, `MaxPoolV2` and `AvgPool` against direct window loops.

use eagerflow::{AttrValue, Attrs, Error};

use crate::common::{Env, close, data};

fn attrs(k: (i64, i64), s: (i64, i64), padding: &str) -> Attrs {
    Attrs::new()
        .with("ksize", AttrValue::Ints(vec![1, k.0, k.1, 1]))
        .with("strides", AttrValue::Ints(vec![1, s.0, s.1, 1]))
        .with("padding", AttrValue::Str(padding.into()))
}

/// Direct pooling of NHWC `x`: max (or mean) over the in-bounds positions
/// of each window.
fn reference(
    x: &[f64],
    xs: [usize; 4],
    k: (i64, i64),
    s: (i64, i64),
    padding: &str,
    max: bool,
) -> (Vec<usize>, Vec<f64>) {
    let [n, h, w, c] = xs;
    let dim = |i: i64, k: i64, s: i64| -> (i64, i64) {
        if padding == "VALID" {
            ((i - k + s) / s, 0)
        } else {
            let out = (i + s - 1) / s;
            (out, ((out - 1) * s + k - i).max(0) / 2)
        }
    };
    let (oh, pt) = dim(h as i64, k.0, s.0);
    let (ow, pl) = dim(w as i64, k.1, s.1);
    let mut out = vec![];
    for b in 0..n {
        for oy in 0..oh {
            for ox in 0..ow {
                for ch in 0..c {
                    let mut vals = vec![];
                    for ky in 0..k.0 {
                        for kx in 0..k.1 {
                            let (iy, ix) = (oy * s.0 - pt + ky, ox * s.1 - pl + kx);
                            if iy >= 0 && ix >= 0 && iy < h as i64 && ix < w as i64 {
                                vals.push(x[((b * h + iy as usize) * w + ix as usize) * c + ch]);
                            }
                        }
                    }
                    out.push(if max {
                        vals.iter().copied().fold(f64::MIN, f64::max)
                    } else {
                        vals.iter().sum::<f64>() / vals.len() as f64
                    });
                }
            }
        }
    }
    (vec![n, oh as usize, ow as usize, c], out)
}

#[test]
fn pooling_matches_the_direct_loops() {
    let s = Env::new();
    for padding in ["VALID", "SAME"] {
        for (k, st) in [
            ((2, 2), (2, 2)),
            ((3, 3), (1, 1)),
            ((3, 2), (2, 3)),
            ((1, 1), (2, 2)),
            ((4, 4), (3, 3)),
        ] {
            for xs in [[1, 5, 5, 1], [2, 7, 6, 3], [1, 4, 9, 2]] {
                let x = data(xs.iter().product(), 3);
                let h = s.t(&xs, &x);
                let a = attrs(k, st, padding);
                for (op, max) in [("MaxPool", true), ("AvgPool", false)] {
                    let (shape, want) = reference(&x, xs, k, st, padding, max);
                    let (got_shape, got) = s.run1_with::<f64>(op, &[h], &a);
                    assert_eq!(got_shape, shape, "{op} {xs:?} {k:?} {st:?} {padding}");
                    close(&got, &want, 1e-12);
                }
                // MaxPoolV2: the same with window and strides as inputs.
                let kt = s.v(&[1, k.0 as i32, k.1 as i32, 1]);
                let stt = s.v(&[1, st.0 as i32, st.1 as i32, 1]);
                let v2 = Attrs::new().with("padding", AttrValue::Str(padding.into()));
                let (shape, want) = reference(&x, xs, k, st, padding, true);
                assert_eq!(
                    s.run1_with::<f64>("MaxPoolV2", &[h, kt, stt], &v2),
                    (shape, want)
                );
            }
        }
    }
}

#[test]
fn max_pool_takes_integers_and_large_inputs() {
    let s = Env::new();
    let x = s.t(&[1, 2, 2, 1], &[3i32, -7, 9, 1]);
    let a = attrs((2, 2), (2, 2), "VALID");
    assert_eq!(
        s.run1_with::<i32>("MaxPool", &[x], &a),
        (vec![1, 1, 1, 1], vec![9])
    );
    let x = s.t(&[1, 2, 2, 1], &[3u8, 200, 9, 1]);
    assert_eq!(s.run1_with::<u8>("MaxPool", &[x], &a).1, vec![200]);
    // Threaded: 8 x 64 x 64 x 32.
    let xs = [8, 64, 64, 32];
    let x = data(xs.iter().product(), 4);
    let h = s.t(&xs, &x);
    let a = attrs((3, 3), (2, 2), "SAME");
    for (op, max) in [("MaxPool", true), ("AvgPool", false)] {
        let (shape, want) = reference(&x, xs, (3, 3), (2, 2), "SAME", max);
        let (got_shape, got) = s.run1_with::<f64>(op, &[h], &a);
        assert_eq!(got_shape, shape);
        close(&got, &want, 1e-12);
    }
}

#[test]
fn max_pool_takes_explicit_padding() {
    let s = Env::new();
    let x = s.t(&[1, 3, 3, 1], &[1f32, 2., 3., 4., 5., 6., 7., 8., 9.]);
    let a = attrs((2, 2), (2, 2), "EXPLICIT").with(
        "explicit_paddings",
        AttrValue::Ints(vec![0, 0, 1, 0, 1, 0, 0, 0]),
    );
    assert_eq!(
        s.run1_with::<f32>("MaxPool", &[x], &a),
        (vec![1, 2, 2, 1], vec![1., 3., 7., 9.])
    );
    // A window wholly in the padding holds nothing: the lowest finite value.
    let far = attrs((1, 1), (1, 1), "EXPLICIT").with(
        "explicit_paddings",
        AttrValue::Ints(vec![0, 0, 1, 0, 0, 0, 0, 0]),
    );
    assert_eq!(s.run1_with::<f32>("MaxPool", &[x], &far).1[0], f32::MIN);
}

#[test]
fn max_pool_starts_at_the_lowest_finite_value_as_tensorflow() {
    let s = Env::new();
    let x = s.t(&[1, 1, 3, 1], &[f32::NEG_INFINITY, f32::NAN, 2.]);
    let a = attrs((1, 2), (1, 1), "VALID");
    assert_eq!(
        s.run1_with::<f32>("MaxPool", &[x], &a).1,
        vec![f32::MIN, 2.]
    );
}

#[test]
fn bad_pools_are_errors_naming_them() {
    let s = Env::new();
    let x = s.t(&[1, 3, 3, 1], &[1f32; 9]);
    let ok = attrs((2, 2), (1, 1), "VALID");
    let with = |n: &str, v: AttrValue| ok.clone().with(n, v);
    for op in ["MaxPool", "AvgPool"] {
        for (inputs, a, want) in [
            (
                vec![s.t(&[3, 3, 1], &[1f32; 9])],
                ok.clone(),
                "4-dimensional",
            ),
            (
                vec![x],
                with("ksize", AttrValue::Ints(vec![1, 2, 2])),
                "4 dimensions",
            ),
            (
                vec![x],
                with("strides", AttrValue::Ints(vec![1, 0, 1, 1])),
                "'strides'",
            ),
            (
                vec![x],
                with("ksize", AttrValue::Ints(vec![1, 0, 1, 1])),
                "'ksize'",
            ),
            (
                vec![x],
                with("padding", AttrValue::Str("FULL".into())),
                "'padding'",
            ),
            (
                vec![x],
                with("data_format", AttrValue::Str("NCHW".into())),
                "NHWC",
            ),
            (
                vec![x],
                with("ksize", AttrValue::Ints(vec![1, 5, 5, 1])),
                "negative",
            ),
            (
                vec![x],
                Attrs::new().with("padding", AttrValue::Str("SAME".into())),
                "'ksize' is required",
            ),
        ] {
            let e = s.err_with(op, &inputs, &a);
            assert!(e.contains(want), "{op} {want}: {e}");
        }
        match s.run(op, &[x], &with("ksize", AttrValue::Ints(vec![2, 1, 1, 1]))) {
            Err(Error::Unsupported(m)) => assert!(m.starts_with(op) && m.contains("batch"), "{m}"),
            other => panic!("{op}: {other:?}"),
        }
    }
    let explicit = with("padding", AttrValue::Str("EXPLICIT".into()));
    assert!(s.err_with("AvgPool", &[x], &explicit).contains("'padding'"));
    assert!(
        s.err_with("MaxPool", &[x], &explicit)
            .contains("'explicit_paddings'")
    );
    let xi = s.t(&[1, 3, 3, 1], &[1i32; 9]);
    assert!(s.err_with("AvgPool", &[xi], &ok).contains("INT32"));
    let b = s.t(&[1, 1, 1, 1], &[true]);
    assert!(s.err_with("MaxPool", &[b], &ok).contains("BOOL"));
    let v2 = Attrs::new().with("padding", AttrValue::Str("VALID".into()));
    let k3 = s.v(&[1, 2, 2]);
    assert!(
        s.err_with("MaxPoolV2", &[x, k3, k3], &v2)
            .contains("4 dimensions")
    );
    let kf = s.t(&[4], &[1f32; 4]);
    assert!(
        s.err_with("MaxPoolV2", &[x, kf, kf], &v2)
            .contains("'ksize'")
    );
}
