//! `Qr` (faer's blocked Householder QR, Q formed by applying the reflectors
//! to the identity) and `Svd` (faer's SVD), one matrix of the batch at a
//! time. Neither factorization is unique (the signs of Q's columns and R's
//! rows, of singular vector pairs): these match TensorFlow's up to those
//! signs, not bit for bit.

use faer::linalg::householder::{
    apply_block_householder_sequence_on_the_left_in_place_scratch as apply_scratch,
    apply_block_householder_sequence_on_the_left_in_place_with_conj as apply_reflectors,
};
use faer::linalg::qr::no_pivoting::factor::{
    qr_in_place, qr_in_place_scratch, recommended_block_size,
};
use faer::linalg::svd::{ComputeSvdVectors, svd as faer_svd, svd_scratch};
use faer::{Conj, MatMut, MatRef};

use super::lu::par;
use super::{Real, batch_then, float_dtype, load, matrices, stack, stack_room, store, work};
use crate::dtype::DataType;
use crate::error::Result;
use crate::ops::{KernelOutputs, OpContext};
use crate::tensor::{Tensor, num_elements};

pub(super) fn qr(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let d = float_dtype(ctx, 0)?;
    matrices(ctx.arg_name(0), x.shape())?;
    let full = ctx.attrs.bool("full_matrices", false)?;
    let (q, r) = match d {
        DataType::Float => qr_all::<f32>(ctx, x, full),
        _ => qr_all::<f64>(ctx, x, full),
    }?;
    Ok(KernelOutputs::from_iter([q, r]))
}

/// Writes the `rows x cols` identity (row-major) into `dst`.
fn identity(dst: &mut [f64], rows: usize, cols: usize) {
    dst.fill(0.0);
    for i in 0..rows.min(cols) {
        dst[i * cols + i] = 1.0;
    }
}

fn qr_all<T: Real>(ctx: &OpContext<'_>, x: &Tensor, full: bool) -> Result<(Tensor, Tensor)> {
    let xs = x.as_slice::<T>()?;
    let (batch, m, n) = matrices(ctx.arg_name(0), x.shape())?;
    let p = m.min(n);
    let (q_cols, r_rows) = if full { (m, m) } else { (p, p) };
    let q_shape = batch_then(batch, &[m, q_cols])?;
    let r_shape = batch_then(batch, &[r_rows, n])?;
    let mut q_out = ctx.alloc_initialized::<T>(num_elements(&q_shape)?)?;
    let mut r_out = ctx.alloc_initialized::<T>(num_elements(&r_shape)?)?;
    let count = num_elements(batch)?;
    let block = if p == 0 {
        1
    } else {
        recommended_block_size::<f64>(m, n)
    };
    let mut a = work(ctx, m * n)?;
    let mut coeff = work(ctx, block * p)?;
    let mut q = work(ctx, m * q_cols)?;
    let mut r = work(ctx, r_rows * n)?;
    let req = qr_in_place_scratch::<f64>(m, n, block, par(m.max(n)), Default::default())
        .or(apply_scratch::<f64>(m, block, q_cols));
    let mut room = stack_room(req)?;
    for i in 0..count {
        let src = &xs[i * m * n..(i + 1) * m * n];
        load(src, m, n, false, &mut a);
        identity(&mut q, m, q_cols);
        r.fill(0.0);
        if p > 0 {
            let f = MatMut::from_row_major_slice_mut(&mut a[..m * n], m, n);
            let c = MatMut::from_column_major_slice_mut(&mut coeff[..block * p], block, p);
            qr_in_place(f, c, par(m.max(n)), stack(&mut room), Default::default());
            // R: the upper trapezoid (rows past `p` stay zero).
            for row in 0..p {
                for col in row..n {
                    r[row * n + col] = a[row * n + col];
                }
            }
            // The reflectors: below the diagonal of the first `p` columns,
            // with an explicit unit diagonal.
            for row in 0..m {
                for col in row..p {
                    a[row * n + col] = if col == row { 1.0 } else { 0.0 };
                }
            }
            let basis = MatRef::from_row_major_slice(&a[..m * n], m, n).get(.., ..p);
            let c = MatRef::from_column_major_slice(&coeff[..block * p], block, p);
            let dst = MatMut::from_row_major_slice_mut(&mut q[..m * q_cols], m, q_cols);
            apply_reflectors(basis, c, Conj::No, dst, par(m.max(n)), stack(&mut room));
        }
        store(&q, &mut q_out.data[i * m * q_cols..(i + 1) * m * q_cols]);
        store(&r, &mut r_out.data[i * r_rows * n..(i + 1) * r_rows * n]);
    }
    Ok((q_out.into_tensor(q_shape)?, r_out.into_tensor(r_shape)?))
}

pub(super) fn svd(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let d = float_dtype(ctx, 0)?;
    matrices(ctx.arg_name(0), x.shape())?;
    let uv = ctx.attrs.bool("compute_uv", true)?;
    let full = ctx.attrs.bool("full_matrices", false)?;
    let [s, u, v] = match d {
        DataType::Float => svd_all::<f32>(ctx, x, uv, full),
        _ => svd_all::<f64>(ctx, x, uv, full),
    }?;
    Ok(KernelOutputs::from_iter([s, u, v]))
}

fn svd_all<T: Real>(ctx: &OpContext<'_>, x: &Tensor, uv: bool, full: bool) -> Result<[Tensor; 3]> {
    let xs = x.as_slice::<T>()?;
    let (batch, m, n) = matrices(ctx.arg_name(0), x.shape())?;
    let p = m.min(n);
    let (u_cols, v_cols) = match (uv, full) {
        (false, _) => (0, 0),
        (true, true) => (m, n),
        (true, false) => (p, p),
    };
    let s_shape = batch_then(batch, &[p])?;
    // Without vectors, `u` and `v` are empty, as TensorFlow's kernel makes them.
    let (u_shape, v_shape) = if uv {
        (
            batch_then(batch, &[m, u_cols])?,
            batch_then(batch, &[n, v_cols])?,
        )
    } else {
        (Vec::from([0]), Vec::from([0]))
    };
    let mut s_out = ctx.alloc_initialized::<T>(num_elements(&s_shape)?)?;
    let mut u_out = ctx.alloc_initialized::<T>(num_elements(&u_shape)?)?;
    let mut v_out = ctx.alloc_initialized::<T>(num_elements(&v_shape)?)?;
    let count = num_elements(batch)?;
    let kind = match (uv, full) {
        (false, _) => ComputeSvdVectors::No,
        (true, true) => ComputeSvdVectors::Full,
        (true, false) => ComputeSvdVectors::Thin,
    };
    let mut a = work(ctx, m * n)?;
    let mut s = work(ctx, p)?;
    let (mut u, mut v) = if uv {
        (work(ctx, m * u_cols)?, work(ctx, n * v_cols)?)
    } else {
        (work(ctx, 0)?, work(ctx, 0)?)
    };
    let par = par(m.max(n));
    let mut room = stack_room(svd_scratch::<f64>(
        m,
        n,
        kind,
        kind,
        par,
        Default::default(),
    ))?;
    for i in 0..count {
        load(&xs[i * m * n..(i + 1) * m * n], m, n, false, &mut a);
        if p == 0 {
            // No singular values; the full bases are identities.
            identity(&mut u, m, u_cols);
            identity(&mut v, n, v_cols);
        } else {
            let am = MatRef::from_row_major_slice(&a[..m * n], m, n);
            let sd = faer::diag::DiagMut::from_slice_mut(&mut s[..p]);
            let um = uv.then(|| MatMut::from_row_major_slice_mut(&mut u[..m * u_cols], m, u_cols));
            let vm = uv.then(|| MatMut::from_row_major_slice_mut(&mut v[..n * v_cols], n, v_cols));
            if faer_svd(am, sd, um, vm, par, stack(&mut room), Default::default()).is_err() {
                // No convergence (NaN or infinite elements): NaN, as Eigen's
                // SVD gives for them.
                s.fill(f64::NAN);
                u.fill(f64::NAN);
                v.fill(f64::NAN);
            }
        }
        store(&s, &mut s_out.data[i * p..(i + 1) * p]);
        if uv {
            store(&u, &mut u_out.data[i * m * u_cols..(i + 1) * m * u_cols]);
            store(&v, &mut v_out.data[i * n * v_cols..(i + 1) * n * v_cols]);
        }
    }
    Ok([
        s_out.into_tensor(s_shape)?,
        u_out.into_tensor(u_shape)?,
        v_out.into_tensor(v_shape)?,
    ])
}
