//! Extremes: `Max` and `Min` over any set of axes, and `ArgMax`/`ArgMin`
//! along one axis. NaN propagates; the arg ops return the first NaN if there
//! is one, and the first of equal extremes otherwise.

use super::axes::{Kind, reduction};
use super::lanes::{fold, product};
use super::{Fold, Ordered};
use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::ops::parallel::{par_chunks, threads, worth_threads};
use crate::ops::{KernelOutputs, OpContext, int_values, normalize_axis, outputs};
use crate::tensor::Tensor;

/// Maximum that propagates NaN; written as one select so that it vectorizes.
#[derive(Clone, Copy)]
pub(in crate::ops) struct MaxF;

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

pub(super) fn max(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    reduction(ctx, Kind::Max)
}

pub(super) fn min(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    reduction(ctx, Kind::Min)
}

pub(super) fn arg_max(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    arg(ctx, true)
}

pub(super) fn arg_min(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
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
    Ok(outputs([out]))
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
