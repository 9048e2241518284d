//! Matrix decompositions and what they solve (issue 24's linalg part):
//! `MatrixDeterminant`, `MatrixInverse`, `MatrixSolve` (LU with partial
//! pivoting, `lu`), `Cholesky` and `MatrixTriangularSolve` (`tri`), `Qr` and
//! `Svd` (`qr_svd`), each over the batch dimensions `[..., M, N]`.
//!
//! Every kernel computes in f64 on faer's decompositions, whatever its
//! input's dtype (FLOAT is widened, the result rounded back once): one
//! instantiation of faer's large generic routines instead of one per dtype
//! keeps the crate's build time down, and FLOAT results are at least as
//! accurate as TensorFlow's, which factor in f32. faer's workspaces and the
//! f64 copies are reserved fallibly and counted (`Work`).

mod infer;
mod lu;
mod qr_svd;
mod tri;

use std::mem::MaybeUninit;

use faer::dyn_stack::{MemStack, StackReq};

use super::{OpDef, Registry};
use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::ops::OpContext;
use crate::scratch::Scratch;

pub(super) fn register(r: &mut Registry) {
    r.add([
        OpDef::new(
            "MatrixDeterminant",
            &["input"],
            &["output"],
            lu::determinant,
        )
        .infer(infer::determinant),
        OpDef::new("MatrixInverse", &["input"], &["output"], lu::inverse)
            .attrs(&["adjoint"])
            .infer(infer::square_same)
            .halves(),
        OpDef::new("MatrixSolve", &["matrix", "rhs"], &["output"], lu::solve)
            .attrs(&["adjoint"])
            .infer(infer::solve),
        OpDef::new("Cholesky", &["input"], &["output"], tri::cholesky).infer(infer::square_same),
        OpDef::new(
            "MatrixTriangularSolve",
            &["matrix", "rhs"],
            &["output"],
            tri::triangular_solve,
        )
        .attrs(&["lower", "adjoint"])
        .infer(infer::triangular_solve),
        // Two and three outputs: these run when built (no inference).
        OpDef::new("Qr", &["input"], &["q", "r"], qr_svd::qr)
            .attrs(&["full_matrices"])
            .halves(),
        OpDef::new("Svd", &["input"], &["s", "u", "v"], qr_svd::svd)
            .attrs(&["compute_uv", "full_matrices"]),
    ]);
}

/// The dtypes these kernels take (HALF too where the `OpDef` says `halves`,
/// through FLOAT).
pub(super) const FLOATS: &[DataType] = &[DataType::Float, DataType::Double];

/// An element these kernels read and write; arithmetic runs in f64.
pub(super) trait Real: Element {
    fn to64(self) -> f64;
    fn from64(v: f64) -> Self;
}

impl Real for f32 {
    fn to64(self) -> f64 {
        f64::from(self)
    }
    fn from64(v: f64) -> f32 {
        v as f32
    }
}

impl Real for f64 {
    fn to64(self) -> f64 {
        self
    }
    fn from64(v: f64) -> f64 {
        v
    }
}

/// The batch dimensions and `(rows, cols)` of the input named `arg`, which
/// must have rank 2 or more.
pub(super) fn matrices<'s>(arg: &str, shape: &'s [usize]) -> Result<(&'s [usize], usize, usize)> {
    match shape {
        [batch @ .., r, c] => Ok((batch, *r, *c)),
        _ => Err(Error::invalid(format!(
            "input '{arg}' must have rank >= 2 ([..., M, N]) but has shape {shape:?}"
        ))),
    }
}

/// The batch dimensions and size `M` of the input named `arg`, which must be
/// a batch of square matrices `[..., M, M]`.
pub(super) fn square<'s>(arg: &str, shape: &'s [usize]) -> Result<(&'s [usize], usize)> {
    let (batch, r, c) = matrices(arg, shape)?;
    if r != c {
        return Err(Error::invalid(format!(
            "input '{arg}' must be a batch of square matrices ([..., M, M]) but has shape {shape:?}"
        )));
    }
    Ok((batch, r))
}

/// `shape` without its last two dimensions, then `dims`.
pub(super) fn batch_then(batch: &[usize], dims: &[usize]) -> Result<Vec<usize>> {
    let mut out = crate::alloc::with_room(batch.len() + dims.len())?;
    out.extend_from_slice(batch);
    out.extend_from_slice(dims);
    Ok(out)
}

/// Checks that input `i` is FLOAT or DOUBLE.
pub(super) fn float_dtype(ctx: &OpContext<'_>, i: usize) -> Result<DataType> {
    ctx.expect_dtype(i, FLOATS)
}

/// A kernel's f64 temporaries: counted against the session while they live.
pub(super) fn work(ctx: &OpContext<'_>, n: usize) -> Result<Scratch<f64>> {
    Scratch::filled(ctx.account(), n, 0.0)
}

/// Room for faer's workspace `req`, reserved fallibly.
pub(super) fn stack_room(req: StackReq) -> Result<Vec<MaybeUninit<u8>>> {
    crate::alloc::filled(req.unaligned_bytes_required(), MaybeUninit::uninit())
}

/// A faer stack over `room`.
pub(super) fn stack(room: &mut [MaybeUninit<u8>]) -> &mut MemStack {
    MemStack::new(room)
}

/// Reads row-major `rows x cols` matrix `src` into `dst` as f64 (transposed
/// when `transpose`, so `dst` is `cols x rows`).
pub(super) fn load<T: Real>(src: &[T], rows: usize, cols: usize, transpose: bool, dst: &mut [f64]) {
    if transpose {
        for (i, row) in src.chunks_exact(cols.max(1)).take(rows).enumerate() {
            for (j, &v) in row.iter().enumerate() {
                dst[j * rows + i] = v.to64();
            }
        }
    } else {
        for (d, &v) in dst.iter_mut().zip(src) {
            *d = v.to64();
        }
    }
}

/// Writes f64 values into `dst`, rounded to `T`.
pub(super) fn store<T: Real>(src: &[f64], dst: &mut [T]) {
    for (d, &v) in dst.iter_mut().zip(src) {
        *d = T::from64(v);
    }
}
