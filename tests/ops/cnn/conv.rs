//! `Conv2D` against a direct six-loop convolution.

use eagerflow::{AttrValue, Attrs, Error};

use crate::common::{Env, close, close32, data};

/// Conv2D's attributes: strides and dilations over (rows, cols), padding,
/// and explicit paddings ((top, bottom), (left, right)) for EXPLICIT.
fn attrs(stride: (i64, i64), dil: (i64, i64), padding: &str, pads: [(i64, i64); 2]) -> Attrs {
    let mut a = Attrs::new()
        .with("strides", AttrValue::Ints(vec![1, stride.0, stride.1, 1]))
        .with("dilations", AttrValue::Ints(vec![1, dil.0, dil.1, 1]))
        .with("padding", AttrValue::Str(padding.into()));
    if padding == "EXPLICIT" {
        let [(t, b), (l, r)] = pads;
        a.set(
            "explicit_paddings",
            AttrValue::Ints(vec![0, 0, t, b, l, r, 0, 0]),
        );
    }
    a
}

/// Output size and leading padding, as TensorFlow computes them.
fn dim(input: i64, k: i64, d: i64, s: i64, padding: &str, pads: (i64, i64)) -> (i64, i64) {
    let eff = (k - 1) * d + 1;
    match padding {
        "VALID" => ((input - eff + s) / s, 0),
        "EXPLICIT" => ((input + pads.0 + pads.1 - eff + s) / s, pads.0),
        _ => {
            let out = (input + s - 1) / s;
            let need = ((out - 1) * s + eff - input).max(0);
            (out, need / 2)
        }
    }
}

/// The direct convolution: NHWC `x` of `xs`, HWIO `f` of `fs` (grouped when
/// the input depth is a multiple of the filter's).
#[allow(clippy::too_many_arguments)]
fn reference(
    x: &[f64],
    xs: [usize; 4],
    f: &[f64],
    fs: [usize; 4],
    stride: (i64, i64),
    dil: (i64, i64),
    padding: &str,
    pads: [(i64, i64); 2],
) -> (Vec<usize>, Vec<f64>) {
    let [n, h, w, c] = xs;
    let [kh, kw, pd, oc] = fs;
    let groups = c / pd;
    let opg = oc / groups;
    let (oh, pt) = dim(h as i64, kh as i64, dil.0, stride.0, padding, pads[0]);
    let (ow, pl) = dim(w as i64, kw as i64, dil.1, stride.1, padding, pads[1]);
    let (oh, ow) = (oh as usize, ow as usize);
    let mut out = vec![0.0; n * oh * ow * oc];
    for b in 0..n {
        for oy in 0..oh {
            for ox in 0..ow {
                for o in 0..oc {
                    let g = o / opg;
                    let mut s = 0.0;
                    for ky in 0..kh {
                        for kx in 0..kw {
                            let iy = oy as i64 * stride.0 - pt + ky as i64 * dil.0;
                            let ix = ox as i64 * stride.1 - pl + kx as i64 * dil.1;
                            if iy < 0 || ix < 0 || iy >= h as i64 || ix >= w as i64 {
                                continue;
                            }
                            for i in 0..pd {
                                let xi = ((b * h + iy as usize) * w + ix as usize) * c + g * pd + i;
                                let fi = ((ky * kw + kx) * pd + i) * oc + o;
                                s += x[xi] * f[fi];
                            }
                        }
                    }
                    out[((b * oh + oy) * ow + ox) * oc + o] = s;
                }
            }
        }
    }
    (vec![n, oh, ow, oc], out)
}

/// Runs Conv2D in f64 and f32 and checks both against the reference.
#[allow(clippy::too_many_arguments)]
fn check(
    s: &Env,
    xs: [usize; 4],
    fs: [usize; 4],
    stride: (i64, i64),
    dil: (i64, i64),
    padding: &str,
    pads: [(i64, i64); 2],
) {
    let x = data(xs.iter().product(), 1);
    let f = data(fs.iter().product(), 2);
    let a = attrs(stride, dil, padding, pads);
    let rows = dim(
        xs[1] as i64,
        fs[0] as i64,
        dil.0,
        stride.0,
        padding,
        pads[0],
    )
    .0;
    let cols = dim(
        xs[2] as i64,
        fs[1] as i64,
        dil.1,
        stride.1,
        padding,
        pads[1],
    )
    .0;
    if rows < 0 || cols < 0 {
        let (xh, fh) = (s.t(&xs, &x), s.t(&fs, &f));
        let e = s.err_with("Conv2D", &[xh, fh], &a);
        assert!(e.contains("negative"), "{e}");
        return;
    }
    let (shape, want) = reference(&x, xs, &f, fs, stride, dil, padding, pads);
    let what = format!("{xs:?} * {fs:?} {stride:?} {dil:?} {padding} {pads:?}");
    let (xh, fh) = (s.t(&xs, &x), s.t(&fs, &f));
    let (got_shape, got) = s.run1_with::<f64>("Conv2D", &[xh, fh], &a);
    assert_eq!(got_shape, shape, "{what}");
    close(&got, &want, 1e-12);
    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let f32_: Vec<f32> = f.iter().map(|&v| v as f32).collect();
    let (xh, fh) = (s.t(&xs, &x32), s.t(&fs, &f32_));
    let (got_shape, got) = s.run1_with::<f32>("Conv2D", &[xh, fh], &a);
    assert_eq!(got_shape, shape, "{what}");
    close32(&got, &want, 1e-4);
}

#[test]
fn a_hand_computed_convolution() {
    let s = Env::new();
    // 1x3x3x1 input 1..9, 2x2x1x1 filter [1, 0; 0, -1]: x[i][j] - x[i+1][j+1].
    let x = s.t(&[1, 3, 3, 1], &[1f32, 2., 3., 4., 5., 6., 7., 8., 9.]);
    let f = s.t(&[2, 2, 1, 1], &[1f32, 0., 0., -1.]);
    let valid = attrs((1, 1), (1, 1), "VALID", [(0, 0); 2]);
    assert_eq!(
        s.run1_with::<f32>("Conv2D", &[x, f], &valid),
        (vec![1, 2, 2, 1], vec![-4., -4., -4., -4.])
    );
    // SAME pads one row and column at the end (the odd one goes after).
    let same = attrs((1, 1), (1, 1), "SAME", [(0, 0); 2]);
    assert_eq!(
        s.run1_with::<f32>("Conv2D", &[x, f], &same),
        (
            vec![1, 3, 3, 1],
            vec![-4., -4., 3., -4., -4., 6., 7., 8., 9.]
        )
    );
}

#[test]
fn every_padding_stride_and_dilation_matches_the_direct_convolution() {
    let s = Env::new();
    let pads = [(1, 2), (0, 3)];
    for padding in ["VALID", "SAME", "EXPLICIT"] {
        for stride in [(1, 1), (2, 1), (2, 3)] {
            for dil in [(1, 1), (2, 1), (2, 2)] {
                for (xs, fs) in [
                    ([1, 5, 6, 1], [3, 2, 1, 1]),
                    ([2, 7, 5, 3], [3, 3, 3, 4]),
                    ([1, 4, 4, 2], [1, 1, 2, 3]),
                    ([2, 6, 7, 4], [2, 3, 2, 6]),
                    ([1, 3, 3, 2], [3, 3, 2, 2]),
                ] {
                    check(&s, xs, fs, stride, dil, padding, pads);
                }
            }
        }
    }
}

#[test]
fn large_convolutions_split_across_threads_and_blocks() {
    let s = Env::new();
    // 8 x 32 x 32 x 16 -> 24 channels, 3x3: millions of multiply-adds,
    // several blocks of patch rows per thread.
    check(
        &s,
        [8, 32, 32, 16],
        [3, 3, 16, 24],
        (1, 1),
        (1, 1),
        "SAME",
        [(0, 0); 2],
    );
    check(
        &s,
        [2, 45, 45, 3],
        [7, 7, 3, 16],
        (2, 2),
        (1, 1),
        "SAME",
        [(0, 0); 2],
    );
    // Pointwise: the input is the matrix.
    check(
        &s,
        [4, 32, 32, 32],
        [1, 1, 32, 64],
        (1, 1),
        (1, 1),
        "VALID",
        [(0, 0); 2],
    );
    // Grouped, threaded.
    check(
        &s,
        [4, 24, 24, 16],
        [3, 3, 4, 32],
        (1, 1),
        (1, 1),
        "SAME",
        [(0, 0); 2],
    );
}

#[test]
fn empty_inputs_and_outputs() {
    let s = Env::new();
    let same = attrs((1, 1), (1, 1), "SAME", [(0, 0); 2]);
    // No input depth: every window sums nothing.
    let x = s.t::<f32>(&[2, 3, 3, 0], &[]);
    let f = s.t::<f32>(&[2, 2, 0, 2], &[]);
    let e = s.err_with("Conv2D", &[x, f], &same);
    assert!(e.contains("filter depth"), "{e}");
    let f1 = s.t::<f32>(&[2, 2, 1, 2], &[1.; 8]);
    assert_eq!(
        s.run1_with::<f32>("Conv2D", &[x, f1], &same),
        (vec![2, 3, 3, 2], vec![0.; 36])
    );
    // No batch: an empty output.
    let x = s.t::<f64>(&[0, 3, 3, 1], &[]);
    let f = s.t::<f64>(&[2, 2, 1, 2], &[1.; 8]);
    assert_eq!(
        s.run1_with::<f64>("Conv2D", &[x, f], &same).0,
        vec![0, 3, 3, 2]
    );
    // A window larger than the input under VALID: an empty output.
    let x = s.t(&[1, 2, 2, 1], &[1f32; 4]);
    let f = s.t(&[3, 3, 1, 1], &[1f32; 9]);
    let valid = attrs((1, 1), (1, 1), "VALID", [(0, 0); 2]);
    assert_eq!(
        s.run1_with::<f32>("Conv2D", &[x, f], &valid),
        (vec![1, 0, 0, 1], vec![])
    );
}

#[test]
fn bad_inputs_and_attributes_are_errors_naming_them() {
    let s = Env::new();
    let x = s.t(&[1, 3, 3, 2], &[1f32; 18]);
    let f = s.t(&[2, 2, 2, 1], &[1f32; 8]);
    let ok = attrs((1, 1), (1, 1), "VALID", [(0, 0); 2]);
    let with = |name: &str, v: AttrValue| ok.clone().with(name, v);
    let cases: Vec<(Vec<u64>, Attrs, &str)> = vec![
        (
            vec![s.t(&[3, 3, 2], &[1f32; 18]), f],
            ok.clone(),
            "'input' must be 4-dimensional",
        ),
        (
            vec![x, s.t(&[2, 2, 2], &[1f32; 8])],
            ok.clone(),
            "'filter' must be 4-dimensional",
        ),
        (
            vec![x, s.t(&[2, 2, 3, 1], &[1f32; 12])],
            ok.clone(),
            "multiple of the filter depth 3",
        ),
        (
            vec![x, s.t(&[2, 2, 2, 1], &[1f64; 8])],
            ok.clone(),
            "same dtype",
        ),
        (
            vec![s.t(&[1, 1, 1, 1], &[1i32]), s.t(&[1, 1, 1, 1], &[1i32])],
            ok.clone(),
            "INT32",
        ),
        (
            vec![x, f],
            Attrs::new().with("padding", AttrValue::Str("VALID".into())),
            "'strides' is required",
        ),
        (
            vec![x, f],
            with("strides", AttrValue::Ints(vec![1, 1, 1])),
            "4 dimensions",
        ),
        (
            vec![x, f],
            with("strides", AttrValue::Ints(vec![2, 1, 1, 1])),
            "batch and depth",
        ),
        (
            vec![x, f],
            with("strides", AttrValue::Ints(vec![1, 0, 1, 1])),
            "'strides'",
        ),
        (
            vec![x, f],
            with("dilations", AttrValue::Ints(vec![1, 1, 1, 2])),
            "batch and depth",
        ),
        (
            vec![x, f],
            with("dilations", AttrValue::Ints(vec![1, -1, 1, 1])),
            "'dilations'",
        ),
        (
            vec![x, f],
            with("padding", AttrValue::Str("FULL".into())),
            "'padding'",
        ),
        (
            vec![x, f],
            with("data_format", AttrValue::Str("HWCN".into())),
            "'data_format'",
        ),
        (
            vec![x, f],
            with("explicit_paddings", AttrValue::Ints(vec![0; 8])),
            "must be empty",
        ),
        (
            vec![x, f],
            with("padding", AttrValue::Str("EXPLICIT".into())),
            "must have 8 entries",
        ),
        (
            vec![x, f],
            with("padding", AttrValue::Str("EXPLICIT".into())).with(
                "explicit_paddings",
                AttrValue::Ints(vec![1, 0, 0, 0, 0, 0, 0, 0]),
            ),
            "batch or depth",
        ),
        (
            vec![x, f],
            with("padding", AttrValue::Str("EXPLICIT".into())).with(
                "explicit_paddings",
                AttrValue::Ints(vec![0, 0, -1, 0, 0, 0, 0, 0]),
            ),
            "'explicit_paddings'",
        ),
        (
            vec![x, s.t(&[5, 1, 2, 1], &[1f32; 10])],
            ok.clone(),
            "negative",
        ),
        (
            vec![x, s.t(&[0, 1, 2, 1], &[0f32; 0])],
            ok.clone(),
            "zero elements",
        ),
        (
            vec![
                s.t(&[1, 3, 3, 4], &[1f32; 36]),
                s.t(&[1, 1, 2, 3], &[1f32; 6]),
            ],
            ok.clone(),
            "groups",
        ),
    ];
    for (inputs, a, want) in cases {
        let e = s.err_with("Conv2D", &inputs, &a);
        assert!(e.contains(want), "{want}: {e}");
    }
}

#[test]
fn nchw_is_refused_on_the_cpu_as_tensorflow_does() {
    let s = Env::new();
    let x = s.t(&[1, 2, 3, 3], &[1f32; 18]);
    let f = s.t(&[2, 2, 2, 1], &[1f32; 8]);
    let a = Attrs::new()
        .with("strides", AttrValue::Ints(vec![1, 1, 1, 1]))
        .with("padding", AttrValue::Str("VALID".into()))
        .with("data_format", AttrValue::Str("NCHW".into()));
    match s.run("Conv2D", &[x, f], &a) {
        Err(Error::Unsupported(m)) => assert!(m.starts_with("Conv2D") && m.contains("NHWC"), "{m}"),
        other => panic!("expected Unsupported, got {other:?}"),
    }
}
