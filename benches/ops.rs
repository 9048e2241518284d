//! Rust-core benchmarks: per-op overhead through the session, streaming
//! AddV2 and Sum against plain loops, MatMul against ndarray's default
//! (matrixmultiply) and faer called directly. Figures and the machine are in
//! docs/benchmarks.md. Criterion's "elem/s" for the MatMul group are FLOP/s
//! (2·n³ per product).
#![allow(clippy::unwrap_used)]
// Tests and benchmarks size their data freely (clippy.toml guards the library).
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use eagerflow::{Attrs, FreeReason, Registry, Session, SessionOptions, Tensor, sessions};

const N16M: usize = 1 << 24;

fn session() -> Session {
    Session::new(SessionOptions::default())
}

fn put(s: &Session, shape: &[usize], data: &[f32]) -> u64 {
    s.insert(Tensor::from_slice(s.account(), shape, data).unwrap())
        .unwrap()
}

/// Runs op `op` on `inputs` and frees its outputs: what one Java call costs.
fn exec_free(s: &Session, op: usize, inputs: &[u64], attrs: &Attrs) {
    for h in s.execute(op, inputs, None, attrs).unwrap() {
        s.free(h, FreeReason::Explicit);
    }
}

/// Calls `f(part_a, part_b, part_out)` on two threads over halves of the data.
fn two_threads(a: &[f32], b: &[f32], out: &mut [f32], f: fn(&[f32], &[f32], &mut [f32])) {
    let h = a.len() / 2;
    let (oa, ob) = out.split_at_mut(h);
    std::thread::scope(|s| {
        s.spawn(|| f(&a[..h], &b[..h], oa));
        f(&a[h..], &b[h..], ob);
    });
}

fn add_into(a: &[f32], b: &[f32], out: &mut [f32]) {
    for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
        *o = x + y;
    }
}

/// A sequential read loop with independent accumulators: one core's read
/// bandwidth (a single running sum is bound by add latency instead).
fn read_lanes(xs: &[f32]) -> f32 {
    let mut acc = [0f32; 16];
    for c in xs.chunks_exact(16) {
        for (a, &x) in acc.iter_mut().zip(c) {
            *a += x;
        }
    }
    acc.iter().sum()
}

fn per_op_overhead(c: &mut Criterion) {
    let s = session();
    let a = s
        .insert(Tensor::scalar(s.account(), 1f32).unwrap())
        .unwrap();
    let b = s
        .insert(Tensor::scalar(s.account(), 2f32).unwrap())
        .unwrap();
    let add = Registry::global().lookup("AddV2").unwrap();
    let attrs = Attrs::new();
    let mut g = c.benchmark_group("overhead");
    g.sample_size(30)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    g.bench_function("AddV2 scalar: execute + free", |bch| {
        bch.iter(|| exec_free(&s, add, black_box(&[a, b]), &attrs))
    });
    let v = put(&s, &[4], &[1., 2., 3., 4.]);
    let axis = s
        .insert(Tensor::scalar(s.account(), 0i32).unwrap())
        .unwrap();
    let sum = Registry::global().lookup("Sum").unwrap();
    g.bench_function("Sum of 4 floats: execute + free", |bch| {
        bch.iter(|| exec_free(&s, sum, black_box(&[v, axis]), &attrs))
    });
    let m = put(&s, &[4, 4], &[0.5; 16]);
    let mm = Registry::global().lookup("MatMul").unwrap();
    g.bench_function("MatMul 4x4 f32: execute + free", |bch| {
        bch.iter(|| exec_free(&s, mm, black_box(&[m, m]), &attrs))
    });
    g.finish();
}

/// The id lookup every Java call makes: the same session again (the
/// per-thread cache), and two sessions in turn (the table, every time). In a
/// test binary thread-locals are cheaper than in the cdylib Java loads, so the
/// JMH figures in docs/benchmarks.md are the ones that count.
fn session_lookup(c: &mut Criterion) {
    let a = sessions::open(SessionOptions::default()).unwrap();
    let b = sessions::open(SessionOptions::default()).unwrap();
    let mut g = c.benchmark_group("lookup");
    g.sample_size(30)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    g.bench_function("same session", |bch| {
        bch.iter(|| sessions::lookup(black_box(a)).unwrap().is_closed())
    });
    g.bench_function("two sessions in turn", |bch| {
        let mut turn = false;
        bch.iter(|| {
            turn = !turn;
            sessions::lookup(black_box(if turn { a } else { b }))
                .unwrap()
                .is_closed()
        })
    });
    g.finish();
    sessions::close(a).unwrap();
    sessions::close(b).unwrap();
}

fn add_16m(c: &mut Criterion) {
    let s = session();
    let av: Vec<f32> = (0..N16M).map(|i| (i % 1000) as f32).collect();
    let bv: Vec<f32> = (0..N16M).map(|i| (i % 7) as f32).collect();
    let (a, b) = (put(&s, &[N16M], &av), put(&s, &[N16M], &bv));
    let add = Registry::global().lookup("AddV2").unwrap();
    let attrs = Attrs::new();
    let mut existing = vec![0f32; N16M];
    let mut g = c.benchmark_group("add_16M_f32");
    g.throughput(Throughput::BytesDecimal(3 * 4 * N16M as u64));
    g.sample_size(15)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1));
    g.bench_function("eagerflow AddV2 (new output each call)", |bch| {
        bch.iter(|| exec_free(&s, add, &[a, b], &attrs))
    });
    g.bench_function("plain loop, 1 thread, existing buffer", |bch| {
        bch.iter(|| add_into(black_box(&av), black_box(&bv), &mut existing))
    });
    g.bench_function("plain loop, 2 threads, existing buffer", |bch| {
        bch.iter(|| two_threads(black_box(&av), black_box(&bv), &mut existing, add_into))
    });
    g.bench_function("plain loop, 1 thread, fresh Vec", |bch| {
        bch.iter(|| {
            let v: Vec<f32> = av.iter().zip(&bv).map(|(x, y)| x + y).collect();
            black_box(v)
        })
    });
    g.finish();
}

fn sum_16m(c: &mut Criterion) {
    let s = session();
    let xv: Vec<f32> = (0..N16M).map(|i| (i % 1000) as f32 * 0.001).collect();
    let x = put(&s, &[N16M], &xv);
    let axis = s
        .insert(Tensor::scalar(s.account(), 0i32).unwrap())
        .unwrap();
    let square = put(&s, &[4096, 4096], &xv);
    let ax1 = s
        .insert(Tensor::scalar(s.account(), 1i32).unwrap())
        .unwrap();
    let sum = Registry::global().lookup("Sum").unwrap();
    let attrs = Attrs::new();
    let mut g = c.benchmark_group("sum_16M_f32");
    g.throughput(Throughput::BytesDecimal(4 * N16M as u64));
    g.sample_size(20)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1));
    g.bench_function("eagerflow Sum (all)", |bch| {
        bch.iter(|| exec_free(&s, sum, &[x, axis], &attrs))
    });
    g.bench_function("eagerflow Sum axis 0 of [4096, 4096]", |bch| {
        bch.iter(|| exec_free(&s, sum, &[square, axis], &attrs))
    });
    g.bench_function("eagerflow Sum axis 1 of [4096, 4096]", |bch| {
        bch.iter(|| exec_free(&s, sum, &[square, ax1], &attrs))
    });
    g.bench_function("plain read loop, 1 thread, 16 accumulators", |bch| {
        bch.iter(|| read_lanes(black_box(&xv)))
    });
    g.bench_function("plain loop, 1 thread, iter().sum()", |bch| {
        bch.iter(|| black_box(&xv).iter().sum::<f32>())
    });
    g.finish();
}

fn matmul_1024(c: &mut Criterion) {
    let n = 1024;
    let s = session();
    let av: Vec<f32> = (0..n * n).map(|i| ((i * 7) % 13) as f32 * 0.1).collect();
    let bv: Vec<f32> = (0..n * n).map(|i| ((i * 5) % 17) as f32 * 0.1).collect();
    let (a, b) = (put(&s, &[n, n], &av), put(&s, &[n, n], &bv));
    let mm = Registry::global().lookup("MatMul").unwrap();
    let attrs = Attrs::new();
    let na = ndarray::Array2::from_shape_vec((n, n), av.clone()).unwrap();
    let nb = ndarray::Array2::from_shape_vec((n, n), bv.clone()).unwrap();
    let mut nc = ndarray::Array2::<f32>::zeros((n, n));
    let mut fc = vec![0f32; n * n];
    let mut g = c.benchmark_group("matmul_1024_f32");
    g.throughput(Throughput::Elements(2 * (n as u64).pow(3)));
    g.sample_size(20)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1));
    g.bench_function("eagerflow MatMul (faer, new output)", |bch| {
        bch.iter(|| exec_free(&s, mm, &[a, b], &attrs))
    });
    g.bench_function("faer matmul direct, 2 threads, existing output", |bch| {
        bch.iter(|| {
            faer::linalg::matmul::matmul(
                faer::MatMut::from_row_major_slice_mut(&mut fc, n, n),
                faer::Accum::Replace,
                faer::MatRef::from_row_major_slice(&av, n, n),
                faer::MatRef::from_row_major_slice(&bv, n, n),
                1.0,
                faer::Par::rayon(2),
            )
        })
    });
    g.bench_function("ndarray general_mat_mul (matrixmultiply)", |bch| {
        bch.iter(|| ndarray::linalg::general_mat_mul(1.0, &na, &nb, 0.0, &mut nc))
    });
    g.finish();
}

fn transpose_4096(c: &mut Criterion) {
    let s = session();
    let xv: Vec<f32> = (0..N16M).map(|i| i as f32).collect();
    let x = put(&s, &[4096, 4096], &xv);
    let perm = s
        .insert(Tensor::from_slice(s.account(), &[2], &[1i32, 0]).unwrap())
        .unwrap();
    let tr = Registry::global().lookup("Transpose").unwrap();
    let attrs = Attrs::new();
    let mut g = c.benchmark_group("transpose_4096x4096_f32");
    g.throughput(Throughput::BytesDecimal(2 * 4 * N16M as u64));
    g.sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1));
    g.bench_function("eagerflow Transpose", |bch| {
        bch.iter(|| exec_free(&s, tr, &[x, perm], &attrs))
    });
    g.finish();
}

fn sum_sizes(c: &mut Criterion) {
    let s = session();
    let axis = s
        .insert(Tensor::scalar(s.account(), 0i32).unwrap())
        .unwrap();
    let sum = Registry::global().lookup("Sum").unwrap();
    let attrs = Attrs::new();
    let mut g = c.benchmark_group("sum_sizes");
    g.sample_size(30)
        .measurement_time(Duration::from_secs(1))
        .warm_up_time(Duration::from_millis(300));
    for n in [1usize << 16, 1 << 17, 1 << 18, 1 << 19, 1 << 20, 1 << 21] {
        let xv: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
        let x = put(&s, &[n], &xv);
        g.throughput(Throughput::BytesDecimal(4 * n as u64));
        g.bench_function(format!("Sum {n}"), |bch| {
            bch.iter(|| exec_free(&s, sum, &[x, axis], &attrs))
        });
        g.bench_function(format!("read 1 thread {n}"), |bch| {
            bch.iter(|| read_lanes(black_box(&xv)))
        });
    }
    g.finish();
}

/// The buffer pool under three allocation patterns of 1-2 MiB outputs: the
/// same size freed at once (every output recycled), eight sizes between 1 and
/// 2 MiB in turn (one size class each since the classes are eighths of a
/// power of two; one power-of-two bucket before), and 64 outputs freed in one
/// batch, as a cleanup after a collection frees them. Each iteration is one
/// `AddV2`; each benchmark prints the pool's hits and misses during it.
fn pool_reuse(c: &mut Criterion) {
    let s = session();
    let add = Registry::global().lookup("AddV2").unwrap();
    let attrs = Attrs::new();
    let mib = 1usize << 18;
    let sizes: Vec<usize> = (0..8).map(|k| mib + 1 + k * (mib / 8)).collect();
    let inputs: Vec<u64> = sizes
        .iter()
        .map(|&n| put(&s, &[n], &vec![1f32; n]))
        .collect();
    let one = put(&s, &[mib], &vec![1f32; mib]);
    let mut g = c.benchmark_group("pool_reuse");
    g.sample_size(20)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    let hit_rate = |name: &str, f: &mut dyn FnMut()| {
        let (h0, m0) = eagerflow::pool::hits_and_misses();
        f();
        let (h, m) = eagerflow::pool::hits_and_misses();
        let (h, m) = (h - h0, m - m0);
        println!(
            "pool_reuse/{name}: {h} hits, {m} misses ({:.1}% hits)",
            100.0 * h as f64 / (h + m).max(1) as f64
        );
    };
    hit_rate("same size", &mut || {
        g.bench_function("AddV2 1 MiB, freed at once", |bch| {
            bch.iter(|| exec_free(&s, add, &[one, one], &attrs))
        });
    });
    let mut k = 0;
    hit_rate("8 sizes", &mut || {
        g.bench_function("AddV2 over 8 sizes in (1, 2] MiB, freed at once", |bch| {
            bch.iter(|| {
                k = (k + 1) % inputs.len();
                exec_free(&s, add, &[inputs[k], inputs[k]], &attrs)
            })
        });
    });
    let mut held = Vec::with_capacity(64);
    hit_rate("batches of 64", &mut || {
        g.bench_function("AddV2 1 MiB, freed 64 at a time", |bch| {
            bch.iter(|| {
                held.extend(s.execute(add, &[one, one], None, &attrs).unwrap());
                if held.len() == 64 {
                    s.free_many(&held, FreeReason::Cleanup);
                    held.clear();
                }
            })
        });
    });
    s.free_many(&held, FreeReason::Cleanup);
    g.finish();
}

criterion_group!(
    benches,
    pool_reuse,
    sum_sizes,
    per_op_overhead,
    session_lookup,
    add_16m,
    sum_16m,
    matmul_1024,
    transpose_4096
);
criterion_main!(benches);
