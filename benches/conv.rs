//! `Conv2D` through the session on the sizes of real networks. Criterion's
//! "elem/s" are FLOP/s (2 per multiply-add). Figures: docs/nn-ops.md.
#![allow(clippy::unwrap_used)]
// Tests and benchmarks size their data freely (clippy.toml guards the library).
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use eagerflow::{AttrValue, Attrs, FreeReason, Registry, Session, SessionOptions, Tensor};

fn put(s: &Session, shape: &[usize]) -> u64 {
    let n: usize = shape.iter().product();
    let data: Vec<f32> = (0..n)
        .map(|i| ((i * 7919) % 2000) as f32 / 1000.0 - 1.0)
        .collect();
    s.insert(Tensor::from_slice(s.account(), shape, &data).unwrap())
        .unwrap()
}

/// (name, input NHWC, filter HWIO, stride, output rows and cols under SAME)
const CASES: &[(&str, [usize; 4], [usize; 4], i64)] = &[
    (
        "8x32x32x64 * 3x3x64x64 SAME",
        [8, 32, 32, 64],
        [3, 3, 64, 64],
        1,
    ),
    (
        "1x224x224x3 * 7x7x3x64 s2 SAME",
        [1, 224, 224, 3],
        [7, 7, 3, 64],
        2,
    ),
    (
        "8x56x56x64 * 1x1x64x128",
        [8, 56, 56, 64],
        [1, 1, 64, 128],
        1,
    ),
];

fn conv2d(c: &mut Criterion) {
    let s = Session::new(SessionOptions::default());
    let op = Registry::global().lookup("Conv2D").unwrap();
    let mut g = c.benchmark_group("Conv2D f32");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    for &(name, xs, fs, stride) in CASES {
        let (x, f) = (put(&s, &xs), put(&s, &fs));
        let attrs = Attrs::new()
            .with("strides", AttrValue::Ints(vec![1, stride, stride, 1]))
            .with("padding", AttrValue::Str("SAME".into()));
        let out_rows = xs[1].div_ceil(stride as usize);
        let out_cols = xs[2].div_ceil(stride as usize);
        let macs = xs[0] * out_rows * out_cols * fs[0] * fs[1] * fs[2] * fs[3];
        g.throughput(Throughput::Elements(2 * macs as u64));
        g.bench_function(name, |b| {
            b.iter(|| {
                for h in s.execute(op, black_box(&[x, f]), None, &attrs).unwrap() {
                    s.free(h, FreeReason::Explicit);
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, conv2d);
criterion_main!(benches);
