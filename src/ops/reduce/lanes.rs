//! The folding loops under every reduction: a multi-lane pairwise fold of a
//! contiguous run (`fold`, and `fold_par` on several threads), and the fold
//! of the middle axis of a row-major `[outer, len, inner]` block
//! (`reduce_axis`), split across threads when large.

use std::sync::Arc;

use super::Fold;
use crate::dtype::Element;
use crate::error::Result;
use crate::memory::MemoryAccount;
use crate::ops::parallel::{PAR_MIN_WORK, join, par_chunks, threads, worth_threads};
use crate::scratch::Scratch;

/// Independent accumulators: enough for the adds to pipeline and for LLVM to
/// vectorize the loop.
const LANES: usize = 16;

/// Leaf size of the pairwise fold.
const BLOCK: usize = 2048;

#[inline]
fn fold_lanes<T: Copy, F: Fold<T>>(f: F, xs: &[T]) -> T {
    let mut acc = [f.identity(); LANES];
    let mut chunks = xs.chunks_exact(LANES);
    for c in &mut chunks {
        for (a, &x) in acc.iter_mut().zip(c) {
            *a = f.step(*a, x);
        }
    }
    let mut tail = f.identity();
    for &x in chunks.remainder() {
        tail = f.step(tail, x);
    }
    // Constant indices only: a merge tree indexed by a loop variable keeps
    // `acc` in memory and halves the loop's speed.
    acc.iter().fold(tail, |s, &a| f.merge(s, a))
}

/// Where the pairwise fold splits a run of `n > BLOCK` elements.
fn pairwise_split(n: usize) -> usize {
    (n / 2).div_ceil(BLOCK) * BLOCK
}

/// Pairwise fold of a contiguous run.
pub(in crate::ops) fn fold<T: Copy, F: Fold<T>>(f: F, xs: &[T]) -> T {
    if xs.len() <= BLOCK {
        return fold_lanes(f, xs);
    }
    let (a, b) = xs.split_at(pairwise_split(xs.len()));
    f.merge(fold(f, a), fold(f, b))
}

/// [`fold`] on several threads for large runs, with the same result: the
/// threads take the halves the sequential fold would take.
pub(in crate::ops) fn fold_par<T: Element, F: Fold<T>>(f: F, xs: &[T]) -> T {
    fn go<T: Element, F: Fold<T>>(f: F, xs: &[T], threads: usize) -> T {
        if threads <= 1 || xs.len() < PAR_MIN_WORK {
            return fold(f, xs);
        }
        let (a, b) = xs.split_at(pairwise_split(xs.len()));
        let left = threads / 2;
        let (ra, rb) = join(&|| go(f, a, left), &|| go(f, b, threads - left));
        f.merge(ra, rb)
    }
    go(f, xs, threads())
}

/// Output columns folded together by the column loop: each input row is read
/// in runs this long (long enough for the prefetchers) while the accumulators
/// stay in L2.
const TILE: usize = 16 * 1024;

/// The widest output row a thread folds into a private partial row; a bound
/// on that scratch memory.
const PARTIAL_MAX: usize = 64 * 1024;

/// Reduces the rows of `block` (`len` rows of `inner` elements) into `dst`,
/// which holds columns `j0..j0 + dst.len()`.
fn fold_columns<T: Copy, F: Fold<T>>(f: F, block: &[T], inner: usize, j0: usize, dst: &mut [T]) {
    if j0 == 0 && dst.len() == inner && inner < LANES {
        // A narrow row: fold runs of whole rows in a lane array whose length is
        // a multiple of `inner`, so lane `i` always holds column `i % inner`.
        let width = inner * (2 * LANES / inner);
        let mut acc = [f.identity(); 2 * LANES];
        let mut chunks = block.chunks_exact(width);
        for c in &mut chunks {
            for (a, &x) in acc.iter_mut().zip(c) {
                *a = f.step(*a, x);
            }
        }
        for (a, &x) in acc.iter_mut().zip(chunks.remainder()) {
            *a = f.step(*a, x);
        }
        for (j, d) in dst.iter_mut().enumerate() {
            *d = acc[j..width]
                .iter()
                .step_by(inner)
                .fold(f.identity(), |s, &a| f.merge(s, a));
        }
        return;
    }
    for (t, d) in dst.chunks_mut(TILE).enumerate() {
        let c0 = j0 + t * TILE;
        d.fill(f.identity());
        for row in block.chunks_exact(inner) {
            if let Some(src) = row.get(c0..c0 + d.len()) {
                for (a, &x) in d.iter_mut().zip(src) {
                    *a = f.step(*a, x);
                }
            }
        }
    }
}

/// Reduces `xs`, a row-major `[outer, len, inner]` block with `outer =
/// out.len() / inner`, over its middle axis into `out` (`[outer, inner]`).
/// Threads' partial rows are temporaries counted against `account`.
pub(super) fn reduce_axis<T: Element, F: Fold<T>>(
    f: F,
    xs: &[T],
    len: usize,
    inner: usize,
    out: &mut [T],
    account: &Arc<MemoryAccount>,
) -> Result<()> {
    if len == 0 || inner == 0 || xs.is_empty() {
        out.fill(f.identity());
        return Ok(());
    }
    let big = worth_threads(xs.len());
    if inner == 1 {
        let rows = |start: usize, dst: &mut [T]| {
            for (d, row) in dst.iter_mut().zip(xs.chunks_exact(len).skip(start)) {
                *d = fold(f, row);
            }
        };
        match out {
            [single] => *single = if big { fold_par(f, xs) } else { fold(f, xs) },
            _ if big => par_chunks(out, 1, threads(), rows),
            _ => rows(0, out),
        }
        return Ok(());
    }
    let block_len = len * inner;
    // Output elements `start..start + dst.len()` of the flat `[outer, inner]`
    // output, walked one outer block at a time.
    let columns = |start: usize, dst: &mut [T]| {
        let mut pos = start;
        let mut rest = dst;
        while !rest.is_empty() {
            let (o, j0) = (pos / inner, pos % inner);
            let w = (inner - j0).min(rest.len());
            let (seg, tail) = rest.split_at_mut(w);
            if let Some(block) = xs.get(o * block_len..(o + 1) * block_len) {
                fold_columns(f, block, inner, j0, seg);
            }
            pos += w;
            rest = tail;
        }
    };
    let outer = out.len() / inner;
    if !big {
        columns(0, out);
    } else if outer >= threads() {
        par_chunks(out, inner, threads(), columns);
    } else if inner <= PARTIAL_MAX {
        // Few, not too wide output rows: each thread streams a band of input
        // rows into a partial row of its own, then the partials merge. This
        // reads memory strictly in order, unlike splitting the columns.
        for (block, dst) in xs.chunks_exact(block_len).zip(out.chunks_exact_mut(inner)) {
            let band = len.div_ceil(threads()) * inner;
            let mut bands = block.chunks(band);
            let mine = bands.next_back().unwrap_or(&[]);
            // At most `threads * PARTIAL_MAX` elements of scratch.
            let mut partials = bands
                .clone()
                .map(|_| Scratch::filled(account, inner, f.identity()))
                .collect::<Result<Vec<_>>>()?;
            rayon::scope(|s| {
                for (rows, p) in bands.zip(partials.iter_mut()) {
                    s.spawn(move |_| fold_columns(f, rows, inner, 0, p));
                }
                fold_columns(f, mine, inner, 0, dst);
            });
            for p in &partials {
                for (d, &v) in dst.iter_mut().zip(p.iter()) {
                    *d = f.merge(*d, v);
                }
            }
        }
    } else {
        // Very wide rows: split the columns; each thread still reads runs of
        // at least `PARTIAL_MAX / threads` elements.
        par_chunks(out, 1, threads(), columns);
    }
    Ok(())
}

/// The product of `dims`, 0 if any is 0 (then the others may be huge and
/// their product meaningless), saturating otherwise.
pub(super) fn product(dims: &[usize]) -> usize {
    if dims.contains(&0) {
        return 0;
    }
    dims.iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .unwrap_or(usize::MAX)
}
