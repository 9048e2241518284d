//! Matrix products and transposition: `MatMul`, `BatchMatMulV2` (also as
//! `BatchMatMul` and `BatchMatMulV3`), `Transpose`.
//!
//! FLOAT and DOUBLE products run on `faer` (packed, cache-blocked AVX2/AVX-512
//! kernels chosen at run time, on every core for large products); INT32 and
//! INT64 use a plain loop with wrapping arithmetic, as TensorFlow's do.

use super::KernelOutputs;
use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};

use super::broadcast::broadcast_shapes;
use super::reduce::{Num, par_chunks, threads, worth_threads};
use super::{OpContext, OpDef, Registry, int_values};
use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::tensor::{Tensor, num_elements};

pub(super) fn register(r: &mut Registry) {
    r.add(
        OpDef {
            name: "MatMul",
            inputs: &["a", "b"],
            attrs: &["transpose_a", "transpose_b"],
            kernel: mat_mul,
        },
        &[],
    );
    r.add(
        OpDef {
            name: "BatchMatMulV2",
            inputs: &["x", "y"],
            attrs: &["adj_x", "adj_y"],
            kernel: batch_mat_mul,
        },
        // V1 requires equal batch dimensions; broadcasting them is a superset.
        &["BatchMatMul"],
    );
    r.add(
        OpDef {
            name: "BatchMatMulV3",
            inputs: &["x", "y"],
            attrs: &["adj_x", "adj_y", "Ta", "Tb", "Tout"],
            kernel: batch_mat_mul_v3,
        },
        &[],
    );
    r.add(
        OpDef {
            name: "Transpose",
            inputs: &["x", "perm"],
            attrs: &[],
            kernel: transpose,
        },
        &[],
    );
}

// ---------------------------------------------------------------------------
// Products.

/// Products of at least this many multiply-adds use every core; below it the
/// hand-off to other threads costs more than it saves.
const PAR_MIN_MACS: usize = 1 << 21;

/// One matrix product `op(a) · op(b)` of `m×k` by `k×n`, each operand stored
/// row-major and transposed first when its flag says so.
#[derive(Clone, Copy)]
struct Product<'a, T> {
    a: &'a [T],
    ta: bool,
    b: &'a [T],
    tb: bool,
    m: usize,
    k: usize,
    n: usize,
}

trait MatElem: Num {
    /// Writes every element of `out` (`m×n`, row-major).
    fn gemm(p: Product<'_, Self>, out: &mut [Self], parallel: bool);
}

macro_rules! faer_gemm {
    ($t:ty) => {
        impl MatElem for $t {
            fn gemm(p: Product<'_, $t>, out: &mut [$t], parallel: bool) {
                let Product {
                    a,
                    ta,
                    b,
                    tb,
                    m,
                    k,
                    n,
                } = p;
                let a = if ta {
                    MatRef::from_row_major_slice(a, k, m).transpose()
                } else {
                    MatRef::from_row_major_slice(a, m, k)
                };
                let b = if tb {
                    MatRef::from_row_major_slice(b, n, k).transpose()
                } else {
                    MatRef::from_row_major_slice(b, k, n)
                };
                let par = if parallel {
                    Par::rayon(threads())
                } else {
                    Par::Seq
                };
                // `Replace` never reads `out`, which may be a recycled buffer.
                let dst = MatMut::from_row_major_slice_mut(out, m, n);
                matmul(dst, Accum::Replace, a, b, 1.0, par);
            }
        }
    };
}
faer_gemm!(f32);
faer_gemm!(f64);

macro_rules! int_gemm {
    ($t:ty) => {
        impl MatElem for $t {
            fn gemm(p: Product<'_, $t>, out: &mut [$t], parallel: bool) {
                int_product(p, out, parallel)
            }
        }
    };
}
int_gemm!(i32);
int_gemm!(i64);

/// Integer products: rows of the output, each an axpy over rows of `b` (or a
/// dot product with rows of `b` when `b` is transposed).
fn int_product<T: Num>(p: Product<'_, T>, out: &mut [T], parallel: bool) {
    let Product {
        a,
        ta,
        b,
        tb,
        m,
        k,
        n,
    } = p;
    if n == 0 {
        return;
    }
    let rows = |start: usize, dst: &mut [T]| {
        for (r, row) in dst.chunks_exact_mut(n).enumerate() {
            let i = start / n + r;
            let a_at = |q: usize| if ta { a[q * m + i] } else { a[i * k + q] };
            row.fill(T::ZERO);
            if tb {
                for (bj, o) in b.chunks_exact(k.max(1)).zip(row.iter_mut()) {
                    *o = (0..k).fold(T::ZERO, |s, q| s.add(a_at(q).mul(bj[q])));
                }
            } else {
                for (q, bq) in b.chunks_exact(n).enumerate().take(k) {
                    let aq = a_at(q);
                    for (o, &v) in row.iter_mut().zip(bq) {
                        *o = o.add(aq.mul(v));
                    }
                }
            }
        }
    };
    par_chunks(out, n, if parallel { threads() } else { 1 }, rows);
}

/// `(rows, cols)` of a stored matrix after the optional transpose.
fn op_dims(shape: &[usize], transposed: bool) -> (usize, usize) {
    let (r, c) = match shape {
        [.., r, c] => (*r, *c),
        _ => (0, 0),
    };
    if transposed { (c, r) } else { (r, c) }
}

fn mat_mul(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (a, b) = (ctx.input(0), ctx.input(1));
    for i in 0..2 {
        let t = ctx.input(i);
        if t.rank() != 2 {
            return Err(Error::invalid(format!(
                "input '{}' must be a matrix (rank 2) but has shape {:?}",
                ctx.arg_name(i),
                t.shape()
            )));
        }
    }
    let dtype = ctx.same_dtype(0, 1)?;
    let ta = ctx.attrs.bool("transpose_a", false)?;
    let tb = ctx.attrs.bool("transpose_b", false)?;
    let (m, k) = op_dims(a.shape(), ta);
    let (k2, n) = op_dims(b.shape(), tb);
    if k != k2 {
        return Err(Error::invalid(format!(
            "inner dimensions differ: 'a' has shape {:?}{} and 'b' has shape {:?}{} ({k} vs {k2})",
            a.shape(),
            if ta { " (transposed)" } else { "" },
            b.shape(),
            if tb { " (transposed)" } else { "" },
        )));
    }
    let out = dispatch(ctx, dtype, a, ta, b, tb, &[], (m, k, n))?;
    Ok(smallvec::smallvec![out])
}

fn batch_mat_mul(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (x, y) = (ctx.input(0), ctx.input(1));
    for i in 0..2 {
        let t = ctx.input(i);
        if t.rank() < 2 {
            return Err(Error::invalid(format!(
                "input '{}' must have rank >= 2 but has shape {:?}",
                ctx.arg_name(i),
                t.shape()
            )));
        }
    }
    let dtype = ctx.same_dtype(0, 1)?;
    let adj_x = ctx.attrs.bool("adj_x", false)?;
    let adj_y = ctx.attrs.bool("adj_y", false)?;
    let (m, k) = op_dims(x.shape(), adj_x);
    let (k2, n) = op_dims(y.shape(), adj_y);
    if k != k2 {
        return Err(Error::invalid(format!(
            "inner dimensions differ: 'x' has shape {:?}{} and 'y' has shape {:?}{} ({k} vs {k2})",
            x.shape(),
            if adj_x { " (adjoint)" } else { "" },
            y.shape(),
            if adj_y { " (adjoint)" } else { "" },
        )));
    }
    let (xb, yb) = (&x.shape()[..x.rank() - 2], &y.shape()[..y.rank() - 2]);
    let batch = broadcast_shapes(xb, yb).ok_or_else(|| {
        Error::invalid(format!(
            "batch dimensions do not broadcast: 'x' has shape {:?} and 'y' has shape {:?}",
            x.shape(),
            y.shape()
        ))
    })?;
    let out = dispatch(ctx, dtype, x, adj_x, y, adj_y, &batch, (m, k, n))?;
    Ok(smallvec::smallvec![out])
}

fn batch_mat_mul_v3(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    if let Some(out) = ctx.attrs.dtype("Tout")? {
        let d = ctx.input(0).dtype();
        if out != d {
            return Err(Error::invalid(format!(
                "attribute 'Tout' is {out} but only the inputs' dtype {d} is supported"
            )));
        }
    }
    batch_mat_mul(ctx)
}

#[allow(clippy::too_many_arguments)]
fn dispatch(
    ctx: &OpContext<'_>,
    dtype: DataType,
    x: &Tensor,
    tx: bool,
    y: &Tensor,
    ty: bool,
    batch: &[usize],
    mkn: (usize, usize, usize),
) -> Result<Tensor> {
    match dtype {
        DataType::Float => batched::<f32>(ctx, x, tx, y, ty, batch, mkn),
        DataType::Double => batched::<f64>(ctx, x, tx, y, ty, batch, mkn),
        DataType::Int32 => batched::<i32>(ctx, x, tx, y, ty, batch, mkn),
        DataType::Int64 => batched::<i64>(ctx, x, tx, y, ty, batch, mkn),
        _ => Err(ctx.unsupported_dtype(0)),
    }
}

/// For each batch dimension of the output, how many matrices one step moves
/// through an operand whose batch dimensions are `dims` (right-aligned; 0
/// where the operand is broadcast).
fn batch_strides(dims: &[usize], out: &[usize]) -> Vec<usize> {
    let mut strides = vec![0; out.len()];
    let mut step = 1;
    for (s, &d) in strides.iter_mut().rev().zip(dims.iter().rev()) {
        *s = if d == 1 { 0 } else { step };
        step *= d;
    }
    strides
}

fn batched<T: MatElem>(
    ctx: &OpContext<'_>,
    x: &Tensor,
    tx: bool,
    y: &Tensor,
    ty: bool,
    batch: &[usize],
    (m, k, n): (usize, usize, usize),
) -> Result<Tensor> {
    let (xs, ys) = (x.as_slice::<T>()?, y.as_slice::<T>()?);
    let mut out_shape = batch.to_vec();
    out_shape.extend([m, n]);
    let total = num_elements(&out_shape)?;
    let mut out = ctx.alloc_initialized::<T>(total)?;
    if total == 0 {
        return out.into_tensor(out_shape);
    }
    let (xsz, ysz, osz) = (m * k, k * n, m * n);
    let xst = batch_strides(&x.shape()[..x.rank() - 2], batch);
    let yst = batch_strides(&y.shape()[..y.rank() - 2], batch);
    // The operands of output matrix `i`: one division per matrix, not per element.
    let operands = |mut i: usize| {
        let (mut xo, mut yo) = (0, 0);
        for ((&d, &sx), &sy) in batch.iter().zip(&xst).zip(&yst).rev() {
            let c = i % d;
            i /= d;
            xo += c * sx;
            yo += c * sy;
        }
        let a = xs.get(xo * xsz..(xo + 1) * xsz).unwrap_or(&[]);
        let b = ys.get(yo * ysz..(yo + 1) * ysz).unwrap_or(&[]);
        Product {
            a,
            ta: tx,
            b,
            tb: ty,
            m,
            k,
            n,
        }
    };
    let macs = m.saturating_mul(n).saturating_mul(k);
    let matrices = total / osz;
    let one = |start: usize, dst: &mut [T], parallel: bool| {
        for (j, o) in dst.chunks_exact_mut(osz).enumerate() {
            let p = operands(start / osz + j);
            if p.a.len() == xsz && p.b.len() == ysz {
                T::gemm(p, o, parallel);
            }
        }
    };
    if macs >= PAR_MIN_MACS && threads() > 1 {
        one(0, &mut out.data, true);
    } else if matrices > 1 && worth_threads(macs.saturating_add(256).saturating_mul(matrices)) {
        // Many small products (each with a fixed cost of a few hundred
        // element visits): whole matrices to each thread.
        par_chunks(&mut out.data, osz, threads(), |s, d| one(s, d, false));
    } else {
        one(0, &mut out.data, false);
    }
    out.into_tensor(out_shape)
}

// ---------------------------------------------------------------------------
// Transpose.

fn transpose(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let p = ctx.input(1);
    if p.rank() != 1 {
        return Err(Error::invalid(format!(
            "'perm' must be a vector but has shape {:?}",
            p.shape()
        )));
    }
    let rank = x.rank();
    if p.num_elements() != rank {
        return Err(Error::invalid(format!(
            "'perm' has {} entries, but a permutation of the axes of input 'x' (shape {:?}) has {rank}",
            p.num_elements(),
            x.shape()
        )));
    }
    let perm = int_values(ctx, 1)?;
    let mut seen = vec![false; rank];
    let valid = perm.len() == rank
        && perm.iter().all(|&a| {
            usize::try_from(a)
                .ok()
                .and_then(|a| seen.get_mut(a))
                .is_some_and(|s| !std::mem::replace(s, true))
        });
    if !valid {
        return Err(Error::invalid(format!(
            "'perm' {perm:?} is not a permutation of 0..{rank} (input 'x' has shape {:?})",
            x.shape()
        )));
    }
    let perm: Vec<usize> = perm.iter().map(|&a| a as usize).collect();
    let shape = x.shape();
    let out_shape: Vec<usize> = perm.iter().map(|&a| shape[a]).collect();
    // Moving only axes of size 1 keeps the memory order: share the buffer.
    let moved = perm.iter().filter(|&&a| shape[a] != 1);
    if moved.clone().zip(moved.skip(1)).all(|(a, b)| a < b) {
        return Ok(smallvec::smallvec![x.reshaped(out_shape)?]);
    }
    let out = crate::with_dtype!(x.dtype(), T => transpose_typed::<T>(ctx, x, &perm, out_shape)?);
    Ok(smallvec::smallvec![out])
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
    let mut in_strides = vec![1usize; shape.len()];
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
    let mut dst_strides = vec![1usize; r];
    for a in (0..last).rev() {
        dst_strides[a] = dst_strides[a + 1] * dims[a + 1];
    }
    let others: Vec<usize> = (0..last).filter(|&a| a != q).collect();
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
