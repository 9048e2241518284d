//! `Where` with one input: the coordinates of the true (non-zero) elements,
//! in row-major order, as an INT64 matrix `[count, rank]`. NaN is non-zero;
//! `-0.0` is zero. The output's shape depends on the values, so there is no
//! build-time inference.

use crate::alloc;
use crate::dtype::Element;
use crate::error::Result;
use crate::ops::{KernelOutputs, OpContext, outputs};
use crate::tensor::Tensor;
use crate::with_dtype;

pub(super) fn where_true(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    with_dtype!(x.dtype(), T => Ok(outputs([coordinates::<T>(ctx, x)?])))
}

fn coordinates<T: Element>(ctx: &OpContext<'_>, x: &Tensor) -> Result<Tensor> {
    let xs = x.as_slice::<T>()?;
    let zero = T::default();
    let count = xs.iter().filter(|&&v| v != zero).count();
    let shape = x.shape();
    let rank = shape.len();
    let mut out = ctx.alloc::<i64>(count.saturating_mul(rank))?;
    if rank > 0 && count > 0 {
        // The coordinates of element `i`, advanced as `i` grows.
        let mut at = alloc::filled(rank, 0usize)?;
        for &v in xs {
            if v != zero {
                out.data.extend(at.iter().map(|&c| c as i64));
            }
            for d in (0..rank).rev() {
                at[d] += 1;
                if at[d] < shape[d] {
                    break;
                }
                at[d] = 0;
            }
        }
    }
    out.into_tensor(Vec::from([count, rank]))
}
