//! Threads for large kernels: how many, from how much work a kernel splits,
//! and a helper that splits an output across rayon's pool. Shared by the
//! reductions, products, transposes, neural-network and random kernels.

use std::sync::OnceLock;

/// Work (in element visits of a streaming loop) from which a kernel splits
/// across threads. Measured here: handing work to rayon's pool costs about
/// 5 µs, a scoped thread spawn about 45 µs, and one core sums cache-resident
/// floats at ~100 GB/s, so two threads start to win near 1M floats. Kernels
/// that do more per element scale their work up (see the callers).
pub(super) const PAR_MIN_WORK: usize = 1 << 20;

/// Threads for large kernels. Cached: `available_parallelism` reads cgroup
/// files on Linux, too slow for every call.
pub(super) fn threads() -> usize {
    static N: OnceLock<usize> = OnceLock::new();
    *N.get_or_init(|| {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(rayon::current_num_threads())
            .clamp(1, 8)
    })
}

/// Whether `work` element visits are worth more than one thread.
pub(super) fn worth_threads(work: usize) -> bool {
    work >= PAR_MIN_WORK && threads() > 1
}

/// Calls `f(start, chunk)` for up to `parts` contiguous chunks of `out` on
/// rayon's pool (its threads persist, so a hand-off is cheap). Every chunk
/// but the last has a multiple of `unit` elements; `start` is the chunk's
/// first index. A panic in `f` resumes on the caller.
pub(super) fn par_chunks<T: Send>(
    out: &mut [T],
    unit: usize,
    parts: usize,
    f: impl Fn(usize, &mut [T]) + Sync,
) {
    split_into_parts(out, unit, parts, &f);
}

// The two drivers below take the kernel as a trait object, so rayon's join,
// scope and job machinery is compiled once per element type rather than once
// per kernel and element type: that machinery was almost half of the crate's
// generated code, and the crate's compile time with it. A dynamic call per
// chunk of thousands of elements costs nothing measurable.

fn split_into_parts<T: Send>(
    out: &mut [T],
    unit: usize,
    parts: usize,
    f: &(dyn Fn(usize, &mut [T]) + Sync),
) {
    let unit = unit.max(1);
    let units = out.len().div_ceil(unit);
    if parts <= 1 || units <= 1 {
        f(0, out);
        return;
    }
    let per = units.div_ceil(parts) * unit;
    rayon::scope(|s| {
        let mut chunks = out.chunks_mut(per).enumerate();
        let last = chunks.next_back();
        for (i, chunk) in chunks {
            s.spawn(move |_| f(i * per, chunk));
        }
        if let Some((i, chunk)) = last {
            f(i * per, chunk);
        }
    });
}

/// Calls `f(start, chunk)` for each chunk of `chunk` elements of `out` (the
/// last one shorter), spread over rayon's pool by work stealing; `start` is
/// the chunk's first index. A panic in `f` resumes on the caller.
pub(crate) fn par_fixed_chunks<T: Send>(
    out: &mut [T],
    chunk: usize,
    f: &(dyn Fn(usize, &mut [T]) + Sync),
) {
    use rayon::prelude::*;
    let chunk = chunk.max(1);
    out.par_chunks_mut(chunk)
        .enumerate()
        .for_each(|(c, part)| f(c * chunk, part));
}

/// `rayon::join` of two computations given as trait objects (see above).
pub(super) fn join<T: Send>(a: &(dyn Fn() -> T + Sync), b: &(dyn Fn() -> T + Sync)) -> (T, T) {
    rayon::join(a, b)
}
