//! Reductions: `Sum`, `Prod`, `Max`, `Min`, `Mean`, `All`, `Any` over any set
//! of axes, and `ArgMax`/`ArgMin` along one axis.
//!
//! Every reduction is brought down to one primitive over a row-major block
//! `[outer, len, inner]` reduced over `len`: adjacent axes that are both
//! reduced or both kept are merged first, so the common cases (all axes, the
//! inner axes, the outer axes) run as contiguous loops with no per-element
//! index arithmetic. A pattern like `[reduced, kept, reduced]` takes one pass
//! per reduced group.
//!
//! Float semantics: sums are pairwise over blocks of a multi-lane loop (close
//! to NumPy's accuracy, and independent of the thread count); `Max`/`Min`
//! propagate NaN; `ArgMax`/`ArgMin` return the first NaN if there is one, as
//! NumPy does, and the first of equal extremes otherwise.

use super::KernelOutputs;
use std::sync::OnceLock;

use super::{OpContext, OpDef, Registry, int_values, normalize_axis};
use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::tensor::Tensor;

pub(super) fn register(r: &mut Registry) {
    let reductions: [(&'static str, super::Kernel); 7] = [
        ("Sum", sum),
        ("Prod", prod),
        ("Max", max),
        ("Min", min),
        ("Mean", mean),
        ("All", all),
        ("Any", any),
    ];
    for (name, kernel) in reductions {
        r.add(
            OpDef {
                name,
                inputs: &["input", "axis"],
                attrs: &["keep_dims"],
                kernel,
            },
            &[],
        );
    }
    r.add(
        OpDef {
            name: "ArgMax",
            inputs: &["input", "dimension"],
            attrs: &["output_type"],
            kernel: arg_max,
        },
        &[],
    );
    r.add(
        OpDef {
            name: "ArgMin",
            inputs: &["input", "dimension"],
            attrs: &["output_type"],
            kernel: arg_min,
        },
        &[],
    );
}

// ---------------------------------------------------------------------------
// Element traits and folds, shared with the other kernel files of this family.

/// Elements with an order (every dtype; `false < true`).
pub(super) trait Ordered: Element + PartialOrd {
    /// The identity of `Max`.
    const LOWEST: Self;
    /// The identity of `Min`.
    const HIGHEST: Self;
    fn nan(self) -> bool;
}

/// Numeric elements. Integer arithmetic wraps, as TensorFlow's does.
pub(super) trait Num: Ordered {
    const ZERO: Self;
    const ONE: Self;
    fn add(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    /// `self / n`; integers truncate, and 0 when `n` is 0 or does not fit
    /// (the sum of an empty integer reduction is 0).
    fn div_count(self, n: usize) -> Self;
}

macro_rules! float_elem {
    ($t:ty) => {
        impl Ordered for $t {
            const LOWEST: Self = <$t>::NEG_INFINITY;
            const HIGHEST: Self = <$t>::INFINITY;
            #[inline(always)]
            fn nan(self) -> bool {
                self.is_nan()
            }
        }
        impl Num for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                self + o
            }
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                self * o
            }
            fn div_count(self, n: usize) -> Self {
                self / n as $t
            }
        }
    };
}

macro_rules! int_elem {
    ($t:ty) => {
        impl Ordered for $t {
            const LOWEST: Self = <$t>::MIN;
            const HIGHEST: Self = <$t>::MAX;
            #[inline(always)]
            fn nan(self) -> bool {
                false
            }
        }
        impl Num for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                self.wrapping_add(o)
            }
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                self.wrapping_mul(o)
            }
            fn div_count(self, n: usize) -> Self {
                match <$t>::try_from(n) {
                    Ok(d) if d != 0 => self / d,
                    _ => 0,
                }
            }
        }
    };
}

float_elem!(f32);
float_elem!(f64);
int_elem!(i32);
int_elem!(i64);
int_elem!(u8);

impl Ordered for bool {
    const LOWEST: Self = false;
    const HIGHEST: Self = true;
    fn nan(self) -> bool {
        false
    }
}

/// An associative fold: `step` takes one element into an accumulator,
/// `merge` combines two accumulators.
pub(super) trait Fold<T: Copy>: Copy + Send + Sync {
    fn identity(self) -> T;
    fn step(self, acc: T, x: T) -> T;
    fn merge(self, a: T, b: T) -> T {
        self.step(a, b)
    }
}

#[derive(Clone, Copy)]
pub(super) struct SumF;
impl<T: Num> Fold<T> for SumF {
    fn identity(self) -> T {
        T::ZERO
    }
    #[inline(always)]
    fn step(self, acc: T, x: T) -> T {
        acc.add(x)
    }
}

/// Sum of squares (`L2Loss`).
#[derive(Clone, Copy)]
pub(super) struct SumSqF;
impl<T: Num> Fold<T> for SumSqF {
    fn identity(self) -> T {
        T::ZERO
    }
    #[inline(always)]
    fn step(self, acc: T, x: T) -> T {
        acc.add(x.mul(x))
    }
    #[inline(always)]
    fn merge(self, a: T, b: T) -> T {
        a.add(b)
    }
}

#[derive(Clone, Copy)]
struct ProdF;
impl<T: Num> Fold<T> for ProdF {
    fn identity(self) -> T {
        T::ONE
    }
    #[inline(always)]
    fn step(self, acc: T, x: T) -> T {
        acc.mul(x)
    }
}

/// Maximum that propagates NaN; written as one select so that it vectorizes.
#[derive(Clone, Copy)]
pub(super) struct MaxF;
impl<T: Ordered> Fold<T> for MaxF {
    fn identity(self) -> T {
        T::LOWEST
    }
    #[inline(always)]
    fn step(self, acc: T, x: T) -> T {
        // A larger x or a NaN x wins; a NaN acc stays.
        if (x > acc || x.nan()) && !acc.nan() {
            x
        } else {
            acc
        }
    }
}

#[derive(Clone, Copy)]
pub(super) struct MinF;
impl<T: Ordered> Fold<T> for MinF {
    fn identity(self) -> T {
        T::HIGHEST
    }
    #[inline(always)]
    fn step(self, acc: T, x: T) -> T {
        if (x < acc || x.nan()) && !acc.nan() {
            x
        } else {
            acc
        }
    }
}

#[derive(Clone, Copy)]
struct AndF;
impl Fold<bool> for AndF {
    fn identity(self) -> bool {
        true
    }
    #[inline(always)]
    fn step(self, acc: bool, x: bool) -> bool {
        acc & x
    }
}

#[derive(Clone, Copy)]
struct OrF;
impl Fold<bool> for OrF {
    fn identity(self) -> bool {
        false
    }
    #[inline(always)]
    fn step(self, acc: bool, x: bool) -> bool {
        acc | x
    }
}

// ---------------------------------------------------------------------------
// Threads.

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
            let f = &f;
            s.spawn(move |_| f(i * per, chunk));
        }
        if let Some((i, chunk)) = last {
            f(i * per, chunk);
        }
    });
}

// ---------------------------------------------------------------------------
// The loops.

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
pub(super) fn fold<T: Copy, F: Fold<T>>(f: F, xs: &[T]) -> T {
    if xs.len() <= BLOCK {
        return fold_lanes(f, xs);
    }
    let (a, b) = xs.split_at(pairwise_split(xs.len()));
    f.merge(fold(f, a), fold(f, b))
}

/// [`fold`] on several threads for large runs, with the same result: the
/// threads take the halves the sequential fold would take.
pub(super) fn fold_par<T: Element, F: Fold<T>>(f: F, xs: &[T]) -> T {
    fn go<T: Element, F: Fold<T>>(f: F, xs: &[T], threads: usize) -> T {
        if threads <= 1 || xs.len() < PAR_MIN_WORK {
            return fold(f, xs);
        }
        let (a, b) = xs.split_at(pairwise_split(xs.len()));
        let left = threads / 2;
        let (ra, rb) = rayon::join(|| go(f, a, left), || go(f, b, threads - left));
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
pub(super) fn reduce_axis<T: Element, F: Fold<T>>(
    f: F,
    xs: &[T],
    len: usize,
    inner: usize,
    out: &mut [T],
) {
    if len == 0 || inner == 0 || xs.is_empty() {
        out.fill(f.identity());
        return;
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
        return;
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
            let mut partials: Vec<Vec<T>> =
                bands.clone().map(|_| vec![f.identity(); inner]).collect();
            rayon::scope(|s| {
                for (rows, p) in bands.zip(partials.iter_mut()) {
                    s.spawn(move |_| fold_columns(f, rows, inner, 0, p));
                }
                fold_columns(f, mine, inner, 0, dst);
            });
            for p in &partials {
                for (d, &v) in dst.iter_mut().zip(p) {
                    *d = f.merge(*d, v);
                }
            }
        }
    } else {
        // Very wide rows: split the columns; each thread still reads runs of
        // at least `PARTIAL_MAX / threads` elements.
        par_chunks(out, 1, threads(), columns);
    }
}

/// The product of `dims`, 0 if any is 0 (then the others may be huge and
/// their product meaningless), saturating otherwise.
fn product(dims: &[usize]) -> usize {
    if dims.contains(&0) {
        return 0;
    }
    dims.iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .unwrap_or(usize::MAX)
}

// ---------------------------------------------------------------------------
// Sum, Prod, Max, Min, Mean, All, Any.

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Sum,
    Prod,
    Max,
    Min,
    Mean,
    All,
    Any,
}

fn sum(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    reduction(ctx, Kind::Sum)
}
fn prod(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    reduction(ctx, Kind::Prod)
}
fn max(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    reduction(ctx, Kind::Max)
}
fn min(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    reduction(ctx, Kind::Min)
}
fn mean(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    reduction(ctx, Kind::Mean)
}
fn all(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    reduction(ctx, Kind::All)
}
fn any(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    reduction(ctx, Kind::Any)
}

/// Which axes input `i` (an INT32/INT64 scalar or vector) selects, checked
/// like TensorFlow: in `[-rank, rank)` and no axis twice.
fn axis_mask(ctx: &OpContext<'_>, i: usize, shape: &[usize]) -> Result<Vec<bool>> {
    let axis = ctx.input(i);
    if axis.rank() > 1 {
        return Err(Error::invalid(format!(
            "'{}' must be a scalar or a vector but has shape {:?}",
            ctx.arg_name(i),
            axis.shape()
        )));
    }
    let rank = shape.len();
    if axis.num_elements() > rank.max(1) {
        return Err(Error::invalid(format!(
            "'{}' lists {} axes but input '{}' has shape {shape:?}: some axis is out of range or repeated",
            ctx.arg_name(i),
            axis.num_elements(),
            ctx.arg_name(0)
        )));
    }
    let mut mask = vec![false; rank];
    for a in int_values(ctx, i)? {
        let d = normalize_axis(a, rank, "axis").map_err(|e| {
            Error::invalid(format!(
                "{e} (input '{}' has shape {shape:?})",
                ctx.arg_name(0)
            ))
        })?;
        if std::mem::replace(&mut mask[d], true) {
            return Err(Error::invalid(format!(
                "axis {a} names dimension {d}, which is already reduced (duplicate axes in {:?})",
                int_values(ctx, i)?
            )));
        }
    }
    Ok(mask)
}

fn reduction(ctx: &OpContext<'_>, kind: Kind) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let keep_dims = ctx.attrs.bool("keep_dims", false)?;
    let mask = axis_mask(ctx, 1, x.shape())?;
    let out_shape: Vec<usize> = x
        .shape()
        .iter()
        .zip(&mask)
        .filter_map(|(&d, &r)| match (r, keep_dims) {
            (false, _) => Some(d),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect();
    let dtype = x.dtype();
    let out = match kind {
        Kind::All | Kind::Any => {
            ctx.expect_dtype(0, &[DataType::Bool])?;
            if kind == Kind::All {
                run(ctx, AndF, &mask, out_shape, |_| ())?
            } else {
                run(ctx, OrF, &mask, out_shape, |_| ())?
            }
        }
        _ => crate::with_numeric_dtype!(dtype, T => numeric::<T>(ctx, kind, &mask, out_shape)?,
            bool => return Err(ctx.unsupported_dtype(0))),
    };
    Ok(smallvec::smallvec![out])
}

fn numeric<T: Num>(
    ctx: &OpContext<'_>,
    kind: Kind,
    mask: &[bool],
    out_shape: Vec<usize>,
) -> Result<Tensor> {
    let none = |_: &mut [T]| ();
    match kind {
        Kind::Sum => run(ctx, SumF, mask, out_shape, none),
        Kind::Prod => run(ctx, ProdF, mask, out_shape, none),
        Kind::Max => run(ctx, MaxF, mask, out_shape, none),
        Kind::Min => run(ctx, MinF, mask, out_shape, none),
        _ => {
            let reduced: Vec<usize> = ctx
                .input(0)
                .shape()
                .iter()
                .zip(mask)
                .filter(|(_, r)| **r)
                .map(|(&d, _)| d)
                .collect();
            let count = product(&reduced);
            run(ctx, SumF, mask, out_shape, |out: &mut [T]| {
                for v in out {
                    *v = v.div_count(count);
                }
            })
        }
    }
}

/// Reduces input 0 over the `mask` axes with `f`, then applies `finish` to
/// the reduced values.
fn run<T: Element, F: Fold<T>>(
    ctx: &OpContext<'_>,
    f: F,
    mask: &[bool],
    out_shape: Vec<usize>,
    finish: impl Fn(&mut [T]),
) -> Result<Tensor> {
    let x = ctx.input(0);
    let xs = x.as_slice::<T>()?;
    let n_out = crate::tensor::num_elements(&out_shape)?;
    if xs.is_empty() {
        let mut out = ctx.alloc::<T>(n_out)?;
        out.data.resize(n_out, f.identity());
        finish(&mut out.data);
        return out.into_tensor(out_shape);
    }
    // Merge adjacent axes of one kind; axes of size 1 change nothing.
    let mut groups: Vec<(usize, bool)> = Vec::new();
    for (&d, &r) in x.shape().iter().zip(mask) {
        match groups.last_mut() {
            _ if d == 1 => {}
            Some(last) if last.1 == r => last.0 *= d,
            _ => groups.push((d, r)),
        }
    }
    let mut current: Option<crate::tensor::Allocation<T>> = None;
    // Each pass removes the largest reduced group, which shrinks the data most.
    while let Some(g) = groups
        .iter()
        .enumerate()
        .filter(|(_, g)| g.1)
        .max_by_key(|(_, g)| g.0)
        .map(|(i, _)| i)
    {
        let outer: usize = groups[..g].iter().map(|g| g.0).product();
        let inner: usize = groups[g + 1..].iter().map(|g| g.0).product();
        let mut out = ctx.alloc_initialized::<T>(outer * inner)?;
        let src: &[T] = current.as_ref().map_or(xs, |a| &a.data);
        reduce_axis(f, src, groups[g].0, inner, &mut out.data);
        current = Some(out);
        groups.remove(g);
        if g > 0 && g < groups.len() {
            let next = groups.remove(g);
            groups[g - 1].0 *= next.0;
        }
    }
    match current {
        Some(mut out) => {
            finish(&mut out.data);
            out.into_tensor(out_shape)
        }
        // Only axes of size 1 were reduced: the values are the input's.
        None => x.reshaped(out_shape),
    }
}

// ---------------------------------------------------------------------------
// ArgMax, ArgMin.

fn arg_max(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    arg(ctx, true)
}
fn arg_min(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    arg(ctx, false)
}

/// An index output type (`output_type`).
trait Index: Element {
    fn from_usize(i: usize) -> Self;
}
impl Index for i32 {
    fn from_usize(i: usize) -> Self {
        i32::try_from(i).unwrap_or(i32::MAX)
    }
}
impl Index for i64 {
    fn from_usize(i: usize) -> Self {
        i64::try_from(i).unwrap_or(i64::MAX)
    }
}

fn arg(ctx: &OpContext<'_>, want_max: bool) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let dim = ctx.input(1);
    if dim.rank() != 0 {
        return Err(Error::invalid(format!(
            "'dimension' must be a scalar but has shape {:?}",
            dim.shape()
        )));
    }
    let shape = x.shape();
    let a = int_values(ctx, 1)?.first().copied().unwrap_or(0);
    let axis = normalize_axis(a, shape.len(), "dimension")
        .map_err(|e| Error::invalid(format!("{e} (input has shape {shape:?})")))?;
    let len = shape[axis];
    if len == 0 {
        return Err(Error::invalid(format!(
            "dimension {a} is empty in input shape {shape:?}: no index to return"
        )));
    }
    let out_type = ctx.attrs.dtype("output_type")?.unwrap_or(DataType::Int64);
    if out_type == DataType::Int32 && i32::try_from(len).is_err() {
        return Err(Error::invalid(format!(
            "dimension {a} has {len} elements, too many for an INT32 index"
        )));
    }
    let inner = product(&shape[axis + 1..]);
    let out_shape: Vec<usize> = shape
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != axis)
        .map(|(_, &d)| d)
        .collect();
    let out = crate::with_dtype!(x.dtype(), T => match out_type {
        DataType::Int64 => arg_typed::<T, i64>(ctx, x, len, inner, out_shape, want_max)?,
        DataType::Int32 => arg_typed::<T, i32>(ctx, x, len, inner, out_shape, want_max)?,
        d => return Err(Error::invalid(format!(
            "attribute 'output_type' must be INT32 or INT64 but is {d}"
        ))),
    });
    Ok(smallvec::smallvec![out])
}

/// Whether `x` replaces `best`: strictly better, or the first NaN.
#[inline(always)]
fn better<T: Ordered>(want_max: bool, x: T, best: T) -> bool {
    let beyond = if want_max { x > best } else { x < best };
    (beyond || x.nan()) && !best.nan()
}

/// The index of the extreme of a non-empty run: find the value with a
/// vectorized fold, then its first position.
fn arg_of_run<T: Ordered>(want_max: bool, row: &[T]) -> usize {
    let m: T = if want_max {
        fold(MaxF, row)
    } else {
        fold(MinF, row)
    };
    row.iter()
        .position(|&v| if m.nan() { v.nan() } else { v == m })
        .unwrap_or(0)
}

fn arg_typed<T: Ordered, O: Index>(
    ctx: &OpContext<'_>,
    x: &Tensor,
    len: usize,
    inner: usize,
    out_shape: Vec<usize>,
    want_max: bool,
) -> Result<Tensor> {
    let xs = x.as_slice::<T>()?;
    let n_out = crate::tensor::num_elements(&out_shape)?;
    let mut out = ctx.alloc_initialized::<O>(n_out)?;
    let parts = if worth_threads(xs.len()) {
        threads()
    } else {
        1
    };
    if n_out == 0 {
        // Nothing to do.
    } else if inner == 1 {
        par_chunks(&mut out.data, 1, parts, |start, dst| {
            for (d, row) in dst.iter_mut().zip(xs.chunks_exact(len).skip(start)) {
                *d = O::from_usize(arg_of_run(want_max, row));
            }
        });
    } else {
        let block_len = len * inner;
        par_chunks(&mut out.data, 1, parts, |start, dst| {
            let mut pos = start;
            for seg in dst.chunks_mut(256) {
                // A segment may cross outer blocks; split it where it does.
                let mut done = 0;
                while done < seg.len() {
                    let (o, j0) = ((pos + done) / inner, (pos + done) % inner);
                    let w = (inner - j0).min(seg.len() - done).min(256);
                    let Some(block) = xs.get(o * block_len..(o + 1) * block_len) else {
                        return;
                    };
                    let mut best = [T::default(); 256];
                    let idx = &mut seg[done..done + w];
                    idx.fill(O::from_usize(0));
                    if let Some(first) = block.get(j0..j0 + w) {
                        best[..w].copy_from_slice(first);
                    }
                    for (i, row) in block.chunks_exact(inner).enumerate().skip(1) {
                        let Some(cols) = row.get(j0..j0 + w) else {
                            continue;
                        };
                        for ((b, d), &v) in best.iter_mut().zip(idx.iter_mut()).zip(cols) {
                            if better(want_max, v, *b) {
                                *b = v;
                                *d = O::from_usize(i);
                            }
                        }
                    }
                    done += w;
                }
                pos += seg.len();
            }
        });
    }
    out.into_tensor(out_shape)
}
