//! Strided selection: the copy behind Slice, StridedSlice, Split and Unpack.
//! Each input axis contributes `count` indices `step` apart; runs that are
//! contiguous in the input are copied whole, and a selection of everything
//! shares the input's buffer.

use super::{chunk, internal};
use crate::alloc;
use crate::dtype::Element;
use crate::error::Result;
use crate::ops::OpContext;
use crate::tensor::{self, Tensor};
use crate::with_dtype;

/// Which indices of one input axis a selection takes: `count` of them,
/// from `start`, `step` apart. When `count > 1`, `|step| < dim`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Axis {
    pub(super) start: usize,
    pub(super) count: usize,
    pub(super) step: i64,
}

impl Axis {
    pub(super) fn whole(dim: usize) -> Axis {
        Axis {
            start: 0,
            count: dim,
            step: 1,
        }
    }

    /// Whether the axis is taken whole and in order.
    fn is_whole(&self, dim: usize) -> bool {
        self.start == 0 && self.count == dim && (self.step == 1 || dim <= 1)
    }
}

/// The elements `axes` pick from `input` (one per axis), in row-major
/// order, as a tensor of `shape`. A selection of everything shares the buffer.
pub(super) fn select(
    ctx: &OpContext<'_>,
    input: &Tensor,
    axes: &[Axis],
    shape: Vec<usize>,
) -> Result<Tensor> {
    if axes.len() != input.rank() {
        return Err(internal("selection rank"));
    }
    if axes.iter().zip(input.shape()).all(|(a, &d)| a.is_whole(d)) {
        return input.reshaped(shape);
    }
    with_dtype!(input.dtype(), T => {
        select_typed::<T>(ctx, input.as_slice::<T>()?, input.shape(), axes, shape)
    })
}

fn select_typed<T: Element>(
    ctx: &OpContext<'_>,
    src: &[T],
    in_shape: &[usize],
    axes: &[Axis],
    shape: Vec<usize>,
) -> Result<Tensor> {
    let n = tensor::num_elements(&shape)?;
    let mut out = ctx.alloc::<T>(n)?;
    if n == 0 {
        return out.into_tensor(shape);
    }
    // Non-empty output: every selected count, hence every input dim, is >= 1,
    // so all the products below are bounded by `src.len()`.
    let mut strides = alloc::filled(in_shape.len(), 1usize)?;
    for d in (1..in_shape.len()).rev() {
        strides[d - 1] = strides[d]
            .checked_mul(in_shape[d])
            .ok_or_else(|| internal("stride overflow"))?;
    }
    // Trailing axes taken whole form contiguous runs, and so does one more
    // axis before them if its step is 1: copy those with one memcpy each.
    let whole = axes
        .iter()
        .zip(in_shape)
        .rev()
        .take_while(|(a, d)| a.is_whole(**d))
        .count();
    let k = axes.len() - whole;
    let mut run = tensor::num_elements(&in_shape[k..])?;
    let mut outer = &axes[..k];
    if let Some((last, rest)) = outer.split_last()
        && last.step == 1
    {
        run = run
            .checked_mul(last.count)
            .ok_or_else(|| internal("run overflow"))?;
        outer = rest;
    }
    let mut base = 0usize;
    for (a, &s) in axes[..k].iter().zip(&strides) {
        base = a
            .start
            .checked_mul(s)
            .and_then(|o| o.checked_add(base))
            .ok_or_else(|| internal("offset overflow"))?;
    }
    // Signed distance between consecutive picks of each outer axis.
    let deltas = outer
        .iter()
        .zip(&strides)
        .map(|(a, &s)| {
            if a.count < 2 {
                return Ok(0);
            }
            i64::try_from(s)
                .ok()
                .and_then(|s| s.checked_mul(a.step))
                .and_then(|d| isize::try_from(d).ok())
                .ok_or_else(|| internal("step overflow"))
        })
        .collect::<Result<Vec<isize>>>()?;
    let (Some((inner_axis, odometer)), Some((&inner_delta, odometer_deltas))) =
        (outer.split_last(), deltas.split_last())
    else {
        out.data.extend_from_slice(chunk(src, base, run)?);
        return out.into_tensor(shape);
    };
    let mut idx = alloc::filled(odometer.len(), 0usize)?;
    let mut offset = base;
    'copy: loop {
        let mut at = offset;
        for _ in 0..inner_axis.count {
            out.data.extend_from_slice(chunk(src, at, run)?);
            at = at.wrapping_add_signed(inner_delta);
        }
        // Advance the odometer over the remaining outer axes.
        let mut d = odometer.len();
        loop {
            if d == 0 {
                break 'copy;
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < odometer[d].count {
                offset = offset.wrapping_add_signed(odometer_deltas[d]);
                break;
            }
            idx[d] = 0;
            let back = odometer_deltas[d].wrapping_mul((odometer[d].count - 1) as isize);
            offset = offset.wrapping_add_signed(back.wrapping_neg());
        }
    }
    out.into_tensor(shape)
}
