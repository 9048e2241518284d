//! `Transpose`: a permutation of the axes. A permutation that moves only
//! axes of size 1 shares the input's buffer; other copies merge axes that
//! stay adjacent, then copy rows, or square tiles when the contiguous axis
//! moves, on several threads for large tensors.

use crate::alloc;
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::ops::parallel::{par_chunks, threads, worth_threads};
use crate::ops::{KernelOutputs, OpContext, int_values_of, outputs};
use crate::tensor::Tensor;

pub(super) fn transpose(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let p = ctx.input(1);
    check_perm_shape(p.shape(), x.shape())?;
    let perm = permutation(ctx.account(), x.shape(), p, ctx.arg_name(1))?;
    let shape = x.shape();
    let out_shape: Vec<usize> = perm.iter().map(|&a| shape[a]).collect();
    // Moving only axes of size 1 keeps the memory order: share the buffer.
    let moved = perm.iter().filter(|&&a| shape[a] != 1);
    if moved.clone().zip(moved.skip(1)).all(|(a, b)| a < b) {
        return Ok(outputs([x.reshaped(out_shape)?]));
    }
    let out = crate::with_dtype!(x.dtype(), T => transpose_typed::<T>(ctx, x, &perm, out_shape)?);
    Ok(outputs([out]))
}

// `Transpose`'s checks, shared with build-time inference (`infer`).

/// Checks that 'perm' (of shape `p`) is a vector of one entry per axis of
/// input 'x' (of shape `x`).
pub(in crate::ops) fn check_perm_shape(p: &[usize], x: &[usize]) -> Result<()> {
    if p.len() != 1 {
        return Err(Error::invalid(format!(
            "'perm' must be a vector but has shape {p:?}"
        )));
    }
    let rank = x.len();
    if p[0] != rank {
        return Err(Error::invalid(format!(
            "'perm' has {} entries, but a permutation of the axes of input 'x' (shape {x:?}) has {rank}",
            p[0]
        )));
    }
    Ok(())
}

/// The values of 'perm' (the tensor `p`, named `arg`, of a shape
/// [`check_perm_shape`] accepted), if they permute the axes of `x`.
pub(in crate::ops) fn permutation(
    account: &std::sync::Arc<crate::memory::MemoryAccount>,
    x: &[usize],
    p: &Tensor,
    arg: &str,
) -> Result<Vec<usize>> {
    let rank = x.len();
    let perm = int_values_of(account, p, arg)?;
    let mut seen = alloc::filled(rank, false)?;
    let valid = perm.len() == rank
        && perm.iter().all(|&a| {
            usize::try_from(a)
                .ok()
                .and_then(|a| seen.get_mut(a))
                .is_some_and(|s| !std::mem::replace(s, true))
        });
    if !valid {
        return Err(Error::invalid(format!(
            "'perm' {perm:?} is not a permutation of 0..{rank} (input 'x' has shape {x:?})"
        )));
    }
    Ok(perm.iter().map(|&a| a as usize).collect())
}

fn transpose_typed<T: Element>(
    ctx: &OpContext<'_>,
    x: &Tensor,
    perm: &[usize],
    out_shape: Vec<usize>,
) -> Result<Tensor> {
    let src = x.as_slice::<T>()?;
    if src.is_empty() {
        // Nothing to move; strides of an empty shape may overflow.
        return ctx.alloc::<T>(0)?.into_tensor(out_shape);
    }
    let shape = x.shape();
    let mut in_strides = alloc::filled(shape.len(), 1usize)?;
    for d in (0..shape.len().saturating_sub(1)).rev() {
        in_strides[d] = in_strides[d + 1] * shape[d + 1];
    }
    // Output axes as (size, input stride), without axes of size 1, and with
    // neighbours that are also neighbours in the input merged.
    let mut dims: Vec<usize> = Vec::new();
    let mut strides: Vec<usize> = Vec::new();
    for &a in perm {
        let (d, s) = (shape[a], in_strides[a]);
        if d == 1 {
            continue;
        }
        match (dims.last_mut(), strides.last_mut()) {
            (Some(ld), Some(ls)) if *ls == s * d => {
                *ld *= d;
                *ls = s;
            }
            _ => {
                dims.push(d);
                strides.push(s);
            }
        }
    }
    let n = src.len();
    let mut out = ctx.alloc_initialized::<T>(n)?;
    if dims.is_empty() {
        out.data.copy_from_slice(src);
        return out.into_tensor(out_shape);
    }
    let inner0: usize = dims[1..].iter().product();
    // Strided reads cost a few streaming visits each.
    let parts = if worth_threads(n.saturating_mul(4)) {
        threads()
    } else {
        1
    };
    par_chunks(&mut out.data, inner0, parts, |start, chunk| {
        let mut d = dims.clone();
        d[0] = chunk.len() / inner0;
        copy_strided(src, start / inner0 * strides[0], &d, &strides, chunk);
    });
    out.into_tensor(out_shape)
}

/// Side of the square tiles of a transposing copy: 32x32 elements of both
/// source and destination stay in L1.
const TILE: usize = 32;

/// Transposes one 8x8 block: eight contiguous source runs (stride `sl`
/// apart) become eight contiguous destination runs (stride `dsq` apart).
/// Fixed sizes let the compiler keep the block in registers with no bounds
/// checks per element. `false` if a run is out of range (never, for valid
/// strides).
fn block8<T: Copy + Default>(
    src: &[T],
    s: usize,
    sl: usize,
    dst: &mut [T],
    d: usize,
    dsq: usize,
) -> bool {
    let mut blk = [[T::default(); 8]; 8];
    for (j, b) in blk.iter_mut().enumerate() {
        let Some(run) = src.get(s + j * sl..s + j * sl + 8) else {
            return false;
        };
        b.copy_from_slice(run);
    }
    for i in 0..8 {
        let Some(run) = dst.get_mut(d + i * dsq..d + i * dsq + 8) else {
            return false;
        };
        for (o, b) in run.iter_mut().zip(&blk) {
            *o = b[i];
        }
    }
    true
}

/// Writes `dst`, row-major of `dims`, where element `(i0, i1, ..)` comes from
/// `src[base + Σ i_a * strides[a]]`.
fn copy_strided<T: Copy + Default>(
    src: &[T],
    base: usize,
    dims: &[usize],
    strides: &[usize],
    dst: &mut [T],
) {
    let r = dims.len();
    let Some(last) = r.checked_sub(1) else { return };
    if strides[last] == 1 {
        // Whole runs are contiguous in the source: copy row by row.
        let row = dims[last];
        // One entry per axis: at most alloc::MAX_RANK.
        #[allow(clippy::disallowed_macros, clippy::disallowed_methods)]
        let mut idx = vec![0usize; last];
        let mut off = base;
        for d in dst.chunks_exact_mut(row) {
            if let Some(s) = src.get(off..off + row) {
                d.copy_from_slice(s);
            }
            for a in (0..last).rev() {
                idx[a] += 1;
                off += strides[a];
                if idx[a] < dims[a] {
                    break;
                }
                idx[a] = 0;
                off -= strides[a] * dims[a];
            }
        }
        return;
    }
    // The source's contiguous axis `q` and the destination's `last` trade
    // places: copy square tiles so that both sides stay in cache.
    let q = strides.iter().position(|&s| s == 1).unwrap_or(0);
    // One entry per axis: at most alloc::MAX_RANK.
    #[allow(clippy::disallowed_macros, clippy::disallowed_methods)]
    let mut dst_strides = vec![1usize; r];
    for a in (0..last).rev() {
        dst_strides[a] = dst_strides[a + 1] * dims[a + 1];
    }
    let others: Vec<usize> = (0..last).filter(|&a| a != q).collect();
    // One entry per axis: at most alloc::MAX_RANK.
    #[allow(clippy::disallowed_macros, clippy::disallowed_methods)]
    let mut idx = vec![0usize; others.len()];
    let (dq, dl) = (dims[q], dims[last]);
    let (sq, sl, dsq) = (strides[q], strides[last], dst_strides[q]);
    let (mut s_off, mut d_off) = (base, 0usize);
    loop {
        for i0 in (0..dq).step_by(TILE) {
            for j0 in (0..dl).step_by(TILE) {
                let j1 = (j0 + TILE).min(dl);
                if sq == 1 && i0 + TILE <= dq && j1 - j0 == TILE {
                    let done = (0..TILE).step_by(8).all(|bi| {
                        (0..TILE).step_by(8).all(|bj| {
                            let (i, j) = (i0 + bi, j0 + bj);
                            block8(src, s_off + i + j * sl, sl, dst, d_off + i * dsq + j, dsq)
                        })
                    });
                    if done {
                        continue;
                    }
                }
                for i in i0..(i0 + TILE).min(dq) {
                    let s_row = s_off + i * sq;
                    let d_row = d_off + i * dsq;
                    let Some(d) = dst.get_mut(d_row + j0..d_row + j1) else {
                        continue;
                    };
                    for (j, v) in (j0..j1).zip(d.iter_mut()) {
                        if let Some(s) = src.get(s_row + j * sl) {
                            *v = *s;
                        }
                    }
                }
            }
        }
        // Next combination of the other axes.
        let mut k = others.len();
        loop {
            let Some(kk) = k.checked_sub(1) else {
                return;
            };
            k = kk;
            let a = others[k];
            idx[k] += 1;
            s_off += strides[a];
            d_off += dst_strides[a];
            if idx[k] < dims[a] {
                break;
            }
            idx[k] = 0;
            s_off -= strides[a] * dims[a];
            d_off -= dst_strides[a] * dims[a];
        }
    }
}
