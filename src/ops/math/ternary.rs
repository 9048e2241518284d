//! Three broadcast operands: `ClipByValue`, and the shape check and
//! element-wise map it shares with `SelectV2` (in `compare`).

use ndarray::IxDyn;

use crate::alloc;
use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::ops::broadcast::{PARALLEL_MIN_ELEMENTS, broadcast_shapes, fill_indexed};
use crate::ops::{KernelOutputs, OpContext, outputs};
use crate::tensor::{Tensor, num_elements};

/// The broadcast shape of three inputs, or an error naming all three shapes.
pub(in crate::ops) fn broadcast3(ctx: &OpContext<'_>) -> Result<Vec<usize>> {
    let named = |i| (ctx.arg_name(i), ctx.input(i).shape());
    broadcast3_named([named(0), named(1), named(2)])
}

/// [`broadcast3`] of three named shapes; shared with build-time inference.
pub(in crate::ops) fn broadcast3_named([a, b, c]: [(&str, &[usize]); 3]) -> Result<Vec<usize>> {
    broadcast_shapes(a.1, b.1)
        .and_then(|ab| broadcast_shapes(&ab, c.1))
        .ok_or_else(|| {
            Error::invalid(format!(
                "incompatible shapes: '{}' has shape {:?}, '{}' has shape {:?} and '{}' has shape {:?}",
                a.0, a.1, b.0, b.1, c.0, c.1
            ))
        })
}

/// Applies `f` element-wise to `a`, `b` and `c` broadcast to `shape` (which
/// the caller has checked with [`broadcast3`]). Inputs that are full-size or
/// single-element take the indexed path, on two threads when large; other
/// broadcasts walk `ndarray` views in row-major order on this thread.
pub(in crate::ops) fn ternary_map<A: Element, B: Element, C: Element, O: Element>(
    ctx: &OpContext<'_>,
    (a, b, c): (&Tensor, &Tensor, &Tensor),
    shape: Vec<usize>,
    f: impl Fn(A, B, C) -> O + Sync,
) -> Result<Tensor> {
    let n = num_elements(&shape)?;
    let (xs, ys, zs) = (a.as_slice::<A>()?, b.as_slice::<B>()?, c.as_slice::<C>()?);
    let direct = |t: &Tensor| t.num_elements() == 1 || t.shape() == shape.as_slice();
    if direct(a) && direct(b) && direct(c) {
        // A single element is read at index 0; a full-size input at `i`.
        let at = |len: usize, i: usize| if len == 1 { 0 } else { i };
        let (la, lb, lc) = (xs.len(), ys.len(), zs.len());
        let g = |i: usize| -> O {
            match (xs.get(at(la, i)), ys.get(at(lb, i)), zs.get(at(lc, i))) {
                (Some(&x), Some(&y), Some(&z)) => f(x, y, z),
                _ => O::default(),
            }
        };
        if n < PARALLEL_MIN_ELEMENTS {
            let mut out = ctx.alloc::<O>(n)?;
            out.data.extend((0..n).map(g));
            return out.into_tensor(shape);
        }
        let mut out = ctx.alloc_initialized::<O>(n)?;
        fill_indexed(&mut out.data, g);
        return out.into_tensor(shape);
    }
    let cannot = || Error::invalid(format!("cannot broadcast to {shape:?}"));
    let dim = IxDyn(&shape);
    let av = a.view::<A>()?;
    let bv = b.view::<B>()?;
    let cv = c.view::<C>()?;
    let av = av.broadcast(dim.clone()).ok_or_else(cannot)?;
    let bv = bv.broadcast(dim.clone()).ok_or_else(cannot)?;
    let cv = cv.broadcast(dim).ok_or_else(cannot)?;
    let mut out = ctx.alloc::<O>(n)?;
    // `iter` walks each view in logical row-major order.
    out.data.extend(
        av.iter()
            .zip(bv.iter())
            .zip(cv.iter())
            .map(|((&x, &y), &z)| f(x, y, z)),
    );
    out.into_tensor(shape)
}

/// `min(max(t, lo), hi)` in TensorFlow's order: `max(min(t, hi), lo)`, so
/// `lo` wins when `lo > hi`, and NaN in `t` stays NaN. TensorFlow's kernel
/// takes bounds that are scalars or of `t`'s shape; any bounds that broadcast
/// to `t`'s shape are accepted here (as `tf.clip_by_value` in Python does).
/// `ClipByValue`'s check that a bound broadcasts to the clipped input's
/// shape (each as (name, shape)); shared with build-time inference.
pub(in crate::ops) fn check_bound(
    (t, shape): (&str, &[usize]),
    (arg, bound): (&str, &[usize]),
) -> Result<()> {
    if broadcast_shapes(shape, bound).as_deref() != Some(shape) {
        return Err(Error::invalid(format!(
            "'{arg}' has shape {bound:?}, which does not broadcast to the shape {shape:?} of '{t}'"
        )));
    }
    Ok(())
}

pub(super) fn clip_by_value(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let dtype = ctx.same_dtype(0, 1)?;
    ctx.same_dtype(0, 2)?;
    let t = ctx.input(0);
    for i in [1, 2] {
        check_bound(
            (ctx.arg_name(0), t.shape()),
            (ctx.arg_name(i), ctx.input(i).shape()),
        )?;
    }
    let inputs = (t, ctx.input(1), ctx.input(2));
    let shape = alloc::copied(t.shape())?;
    let out = by_dtype!(dtype, T,
        float => ternary_map(ctx, inputs, shape, |v: T, lo: T, hi: T| {
            let v = if hi < v { hi } else { v };
            if v < lo { lo } else { v }
        })?,
        int => ternary_map(ctx, inputs, shape, |v: T, lo: T, hi: T| v.min(hi).max(lo))?,
        bool => return Err(ctx.unsupported_dtype(0)),
    );
    Ok(outputs([out]))
}
