//! `OneHot`: indices spread into a new axis of `depth` entries.

use super::{check_rank, int_scalar, require_scalar};
use crate::alloc;
use crate::bail;
use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::ops::{KernelOutputs, OpContext, outputs};
use crate::tensor::{self, Tensor};
use crate::with_dtype;

pub(super) fn one_hot(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let indices = ctx.input(0);
    ctx.expect_dtype(0, &[DataType::UInt8, DataType::Int32, DataType::Int64])?;
    ctx.expect_dtype(1, &[DataType::Int32])?;
    let depth = int_scalar(ctx, 1)?;
    let depth = usize::try_from(depth)
        .map_err(|_| Error::invalid(format!("depth must be non-negative but is {depth}")))?;
    let on = require_scalar(ctx, 2)?;
    let off = require_scalar(ctx, 3)?;
    ctx.same_dtype(2, 3)?;
    let ishape = indices.shape();
    let irank = ishape.len();
    let axis = ctx.attrs.int("axis", -1)?;
    let at = match axis {
        -1 => irank,
        a if (0..=irank as i64).contains(&a) => a as usize,
        a => {
            bail!("axis must be -1 or in [0, {irank}] for indices of shape {ishape:?}, but is {a}")
        }
    };
    check_rank(irank + 1, "the output")?;
    let mut out_shape = alloc::copied(ishape)?;
    out_shape.insert(at, depth);
    let h = OneHotShape {
        depth,
        suffix: tensor::num_elements(&ishape[at..])?,
    };
    let out = match indices.dtype() {
        DataType::UInt8 => {
            with_dtype!(on.dtype(), T => h.run::<T, u8>(ctx, indices, on, off, out_shape))
        }
        DataType::Int32 => {
            with_dtype!(on.dtype(), T => h.run::<T, i32>(ctx, indices, on, off, out_shape))
        }
        _ => with_dtype!(on.dtype(), T => h.run::<T, i64>(ctx, indices, on, off, out_shape)),
    }?;
    Ok(outputs([out]))
}

/// OneHot's output viewed as `[prefix, depth, suffix]`, indices as `[prefix, suffix]`.
struct OneHotShape {
    depth: usize,
    suffix: usize,
}

impl OneHotShape {
    fn run<T: Element, I: Element + Into<i64>>(
        &self,
        ctx: &OpContext<'_>,
        indices: &Tensor,
        on: &Tensor,
        off: &Tensor,
        shape: Vec<usize>,
    ) -> Result<Tensor> {
        let (on, off) = (on.scalar_value::<T>()?, off.scalar_value::<T>()?);
        let n = tensor::num_elements(&shape)?;
        let mut out = ctx.alloc::<T>(n)?;
        alloc::fill_within(&mut out.data, n, off);
        if n > 0 {
            // Non-empty output: depth >= 1 and suffix >= 1.
            for (flat, &i) in indices.as_slice::<I>()?.iter().enumerate() {
                // Out-of-range indices leave their row all off_value, as in TF.
                let Some(v) = usize::try_from(i.into()).ok().filter(|&v| v < self.depth) else {
                    continue;
                };
                let (p, s) = (flat / self.suffix, flat % self.suffix);
                if let Some(slot) = out.data.get_mut((p * self.depth + v) * self.suffix + s) {
                    *slot = on;
                }
            }
        }
        out.into_tensor(shape)
    }
}
