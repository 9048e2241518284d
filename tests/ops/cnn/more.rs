//! `DepthwiseConv2dNative`, `FusedBatchNormV3` (inference), `LRN`,
//! `ResizeBilinear` and `ResizeNearestNeighbor` against direct loops and
//! hand-computed values.

use eagerflow::{AttrValue, Attrs, Error};

use crate::common::{Env, close, close32, data};

fn conv_attrs(stride: i64, padding: &str) -> Attrs {
    Attrs::new()
        .with("strides", AttrValue::Ints(vec![1, stride, stride, 1]))
        .with("padding", AttrValue::Str(padding.into()))
}

/// Direct depthwise convolution of NHWC `x` with `[kh, kw, c, m]` `f`.
fn depthwise_ref(
    x: &[f64],
    xs: [usize; 4],
    f: &[f64],
    fs: [usize; 4],
    s: i64,
    padding: &str,
) -> (Vec<usize>, Vec<f64>) {
    let [n, h, w, c] = xs;
    let [kh, kw, _, m] = fs;
    let dim = |i: i64, k: i64| -> (i64, i64) {
        if padding == "VALID" {
            ((i - k + s) / s, 0)
        } else {
            let out = (i + s - 1) / s;
            (out, ((out - 1) * s + k - i).max(0) / 2)
        }
    };
    let (oh, pt) = dim(h as i64, kh as i64);
    let (ow, pl) = dim(w as i64, kw as i64);
    let mut out = vec![];
    for b in 0..n {
        for oy in 0..oh {
            for ox in 0..ow {
                for ch in 0..c {
                    for q in 0..m {
                        let mut acc = 0.0;
                        for ky in 0..kh {
                            for kx in 0..kw {
                                let (iy, ix) = (oy * s - pt + ky as i64, ox * s - pl + kx as i64);
                                if iy >= 0 && ix >= 0 && iy < h as i64 && ix < w as i64 {
                                    acc += x[((b * h + iy as usize) * w + ix as usize) * c + ch]
                                        * f[((ky * kw + kx) * c + ch) * m + q];
                                }
                            }
                        }
                        out.push(acc);
                    }
                }
            }
        }
    }
    (vec![n, oh as usize, ow as usize, c * m], out)
}

#[test]
fn depthwise_matches_the_direct_loop() {
    let s = Env::new();
    for padding in ["VALID", "SAME"] {
        for stride in [1, 2] {
            for (xs, fs) in [
                ([1, 5, 5, 3], [3, 3, 3, 1]),
                ([2, 6, 7, 2], [2, 3, 2, 3]),
                ([4, 40, 40, 16], [3, 3, 16, 2]),
            ] {
                let x = data(xs.iter().product(), 6);
                let f = data(fs.iter().product(), 7);
                let (shape, want) = depthwise_ref(&x, xs, &f, fs, stride, padding);
                let a = conv_attrs(stride, padding);
                let got =
                    s.run1_with::<f64>("DepthwiseConv2dNative", &[s.t(&xs, &x), s.t(&fs, &f)], &a);
                assert_eq!(got.0, shape);
                close(&got.1, &want, 1e-12);
                let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
                let f32_: Vec<f32> = f.iter().map(|&v| v as f32).collect();
                let got = s.run1_with::<f32>(
                    "DepthwiseConv2dNative",
                    &[s.t(&xs, &x32), s.t(&fs, &f32_)],
                    &a,
                );
                close32(&got.1, &want, 1e-4);
            }
        }
    }
}

#[test]
fn depthwise_errors() {
    let s = Env::new();
    let x = s.t(&[1, 3, 3, 2], &[1f32; 18]);
    let f = s.t(&[2, 2, 2, 1], &[1f32; 8]);
    let ok = conv_attrs(1, "VALID");
    for (inputs, a, want) in [
        (
            vec![x, s.t(&[2, 2, 3, 1], &[1f32; 12])],
            ok.clone(),
            "same depth",
        ),
        (
            vec![s.t(&[3, 3, 2], &[1f32; 18]), f],
            ok.clone(),
            "4-dimensional",
        ),
        (
            vec![x, f],
            ok.clone()
                .with("strides", AttrValue::Ints(vec![1, 1, 2, 1])),
            "must be equal",
        ),
        (
            vec![x, s.t(&[2, 2, 2, 1], &[1f64; 8])],
            ok.clone(),
            "same dtype",
        ),
    ] {
        let e = s.err_with("DepthwiseConv2dNative", &inputs, &a);
        assert!(e.contains(want), "{want}: {e}");
    }
    let dil = ok
        .clone()
        .with("dilations", AttrValue::Ints(vec![1, 2, 2, 1]));
    assert!(matches!(
        s.run("DepthwiseConv2dNative", &[x, f], &dil),
        Err(Error::Unsupported(_))
    ));
}

#[test]
fn fused_batch_norm_in_inference() {
    let s = Env::new();
    let x = s.t(&[1, 1, 2, 2], &[1f32, 2., 3., 4.]);
    let v = |a: f32, b: f32| s.t(&[2], &[a, b]);
    let (scale, offset, mean, var) = (v(2., 1.), v(0.5, -1.), v(1., 2.), v(4., 0.25));
    let a = Attrs::new()
        .with("is_training", AttrValue::Bool(false))
        .with("epsilon", AttrValue::Float(0.0));
    let out = s.outs("FusedBatchNormV3", &[x, scale, offset, mean, var], &a);
    assert_eq!(out.len(), 6);
    // Channel 0: (x - 1) * 2 / 2 + 0.5; channel 1: (x - 2) * 1 / 0.5 - 1.
    assert_eq!(out[0].shape(), &[1, 1, 2, 2]);
    close32(
        out[0].as_slice::<f32>().unwrap(),
        &[0.5, -1., 2.5, 3.],
        1e-6,
    );
    assert_eq!(out[1].as_slice::<f32>().unwrap(), &[1., 2.]);
    assert_eq!(out[2].as_slice::<f32>().unwrap(), &[4., 0.25]);
    assert_eq!(out[5].shape(), &[] as &[usize]);
    // NCHW: channels along dimension 1.
    let xn = s.t(&[1, 2, 1, 2], &[1f32, 3., 2., 4.]);
    let nchw = a.clone().with("data_format", AttrValue::Str("NCHW".into()));
    let out = s.outs("FusedBatchNormV3", &[xn, scale, offset, mean, var], &nchw);
    close32(
        out[0].as_slice::<f32>().unwrap(),
        &[0.5, 2.5, -1., 3.],
        1e-6,
    );
    // Errors.
    let e = s.err_with(
        "FusedBatchNormV3",
        &[x, v(1., 1.), offset, mean, s.t(&[3], &[1f32; 3])],
        &a,
    );
    assert!(e.contains("'variance'"), "{e}");
    let e = s.err_with(
        "FusedBatchNormV3",
        &[s.t(&[2, 2], &[1f32; 4]), scale, offset, mean, var],
        &a,
    );
    assert!(e.contains("4-dimensional"), "{e}");
    match s.run(
        "FusedBatchNormV3",
        &[x, scale, offset, mean, var],
        &Attrs::new(),
    ) {
        Err(Error::Unsupported(m)) => assert!(m.contains("is_training"), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn lrn_sums_squares_over_neighbouring_channels() {
    let s = Env::new();
    let xv = [1f32, 2., 3., 4.];
    let x = s.t(&[1, 1, 1, 4], &xv);
    let a = Attrs::new()
        .with("depth_radius", AttrValue::Int(1))
        .with("bias", AttrValue::Float(1.))
        .with("alpha", AttrValue::Float(0.5))
        .with("beta", AttrValue::Float(0.75));
    let want: Vec<f64> = (0..4)
        .map(|j: usize| {
            let lo = j.saturating_sub(1);
            let hi = (j + 1).min(3);
            let sq: f64 = xv[lo..=hi].iter().map(|&v| f64::from(v * v)).sum();
            f64::from(xv[j]) / (1.0 + 0.5 * sq).powf(0.75)
        })
        .collect();
    close32(&s.run1_with::<f32>("LRN", &[x], &a).1, &want, 1e-6);
    // Defaults: radius 5, bias 1, alpha 1, beta 0.5.
    let d: f64 = xv.iter().map(|&v| f64::from(v * v)).sum::<f64>() + 1.0;
    let want: Vec<f64> = xv.iter().map(|&v| f64::from(v) / d.sqrt()).collect();
    close32(&s.run1::<f32>("LRN", &[x]).1, &want, 1e-6);
    assert!(s.err("LRN", &[s.t(&[4], &xv)]).contains("4-dimensional"));
    let neg = Attrs::new().with("depth_radius", AttrValue::Int(-1));
    assert!(s.err_with("LRN", &[x], &neg).contains("'depth_radius'"));
}

#[test]
fn resize_bilinear_and_nearest() {
    let s = Env::new();
    // 1 x 2 x 2 x 1: [[0, 10], [20, 30]] to 3 x 3.
    let x = s.t(&[1, 2, 2, 1], &[0f32, 10., 20., 30.]);
    let size = s.v(&[3, 3]);
    let flag = |n: &str| Attrs::new().with(n, AttrValue::Bool(true));
    // Legacy: scale 2/3, x at 0, 2/3, 4/3 (clamped to 1).
    let t = 20. / 3.;
    close32(
        &s.run1::<f32>("ResizeBilinear", &[x, size]).1,
        &[0., t, 10., 2. * t, 3. * t, 10. + 2. * t, 20., 20. + t, 30.],
        1e-5,
    );
    // align_corners: scale 1/2, x at 0, 1/2, 1.
    close32(
        &s.run1_with::<f32>("ResizeBilinear", &[x, size], &flag("align_corners"))
            .1,
        &[0., 5., 10., 10., 15., 20., 20., 25., 30.],
        1e-5,
    );
    // half_pixel_centers: x at -1/6 (clamped), 1/2, 7/6 (clamped).
    close32(
        &s.run1_with::<f32>("ResizeBilinear", &[x, size], &flag("half_pixel_centers"))
            .1,
        &[0., 5., 10., 10., 15., 20., 20., 25., 30.],
        1e-5,
    );
    // Integers become FLOAT.
    let xi = s.t(&[1, 1, 2, 1], &[0u8, 255]);
    let got = s.one(
        "ResizeBilinear",
        &[xi, s.v(&[1, 4])],
        &flag("align_corners"),
    );
    assert_eq!(got.dtype(), eagerflow::DataType::Float);
    close32(got.as_slice::<f32>().unwrap(), &[0., 85., 170., 255.], 1e-5);
    // Nearest: floor(i * 2/3) = 0, 0, 1.
    assert_eq!(
        s.run1::<f32>("ResizeNearestNeighbor", &[x, size]).1,
        vec![0., 0., 10., 0., 0., 10., 20., 20., 30.]
    );
    // align_corners rounds i / 2: 0, 1 (0.5 rounds up), 1.
    assert_eq!(
        s.run1_with::<f32>("ResizeNearestNeighbor", &[x, size], &flag("align_corners"))
            .1,
        vec![0., 10., 10., 20., 30., 30., 20., 30., 30.]
    );
    // half_pixel_centers: floor((i + 0.5) * 2/3) = 0, 1, 1.
    assert_eq!(
        s.run1_with::<f32>(
            "ResizeNearestNeighbor",
            &[x, size],
            &flag("half_pixel_centers")
        )
        .1,
        vec![0., 10., 10., 20., 30., 30., 20., 30., 30.]
    );
    let xi = s.t(&[1, 1, 2, 1], &[7i64, 9]);
    assert_eq!(
        s.run1::<i64>("ResizeNearestNeighbor", &[xi, s.v(&[2, 4])])
            .1,
        vec![7, 7, 9, 9, 7, 7, 9, 9]
    );
    let both = flag("align_corners").with("half_pixel_centers", AttrValue::Bool(true));
    for op in ["ResizeBilinear", "ResizeNearestNeighbor"] {
        for (inputs, a, want) in [
            (vec![x, s.v(&[0, 3])], Attrs::new(), "positive"),
            (vec![x, s.v(&[3])], Attrs::new(), "2 elements"),
            (
                vec![s.t(&[2, 2], &[1f32; 4]), size],
                Attrs::new(),
                "4-dimensional",
            ),
            (vec![x, size], both.clone(), "cannot both"),
            (
                vec![s.t::<f32>(&[1, 0, 2, 1], &[]), size],
                Attrs::new(),
                "empty",
            ),
            (vec![x, s.v64(&[3, 3])], Attrs::new(), "INT32"),
        ] {
            let e = s.err_with(op, &inputs, &a);
            assert!(e.contains(want), "{op} {want}: {e}");
        }
    }
}
