//! NumPy broadcasting and the element-wise loops every family shares:
//! same-shape and scalar fast paths, and rayon's pool for large tensors.

use ndarray::IxDyn;

use super::OpContext;
use super::parallel::par_fixed_chunks;
use crate::alloc;
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// Element count from which element-wise kernels split work across threads.
pub const PARALLEL_MIN_ELEMENTS: usize = 1 << 18;

/// The broadcast shape of `a` and `b` under NumPy rules.
pub fn broadcast_shapes(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let rank = a.len().max(b.len());
    // One entry per axis: at most alloc::MAX_RANK.
    #[allow(clippy::disallowed_macros, clippy::disallowed_methods)]
    let mut out = vec![0; rank];
    for i in 0..rank {
        let da = if i < rank - a.len() {
            1
        } else {
            a[i - (rank - a.len())]
        };
        let db = if i < rank - b.len() {
            1
        } else {
            b[i - (rank - b.len())]
        };
        out[i] = match (da, db) {
            (x, y) if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            _ => return None,
        };
    }
    Some(out)
}

/// The broadcast shape of inputs `i` and `j`, or an error naming both shapes.
pub fn broadcast_inputs(ctx: &OpContext<'_>, i: usize, j: usize) -> Result<Vec<usize>> {
    broadcast_named(
        (ctx.arg_name(i), ctx.input(i).shape()),
        (ctx.arg_name(j), ctx.input(j).shape()),
    )
}

/// The broadcast shape of two named shapes, or the error naming both
/// (kernels and build-time inference share it).
pub fn broadcast_named((i, a): (&str, &[usize]), (j, b): (&str, &[usize])) -> Result<Vec<usize>> {
    broadcast_shapes(a, b).ok_or_else(|| {
        Error::invalid(format!(
            "incompatible shapes: '{i}' has shape {a:?} and '{j}' has shape {b:?}"
        ))
    })
}

/// The broadcast shape of `a` and `b`, or the error naming both shapes.
pub fn broadcast_checked(a: &[usize], b: &[usize]) -> Result<Vec<usize>> {
    broadcast_shapes(a, b).ok_or_else(|| {
        Error::invalid(format!(
            "incompatible shapes for broadcasting: {a:?} and {b:?}"
        ))
    })
}

/// Elements per task when a large element-wise loop is split over rayon's
/// pool: big enough to amortise the hand-off, small enough to balance.
const CHUNK: usize = 1 << 16;

/// Fills `out` with `f(i)` for each index, on several threads when large.
pub fn fill_indexed<O: Element>(out: &mut [O], f: impl Fn(usize) -> O + Sync) {
    if out.len() < PARALLEL_MIN_ELEMENTS {
        for (i, o) in out.iter_mut().enumerate() {
            *o = f(i);
        }
        return;
    }
    par_fixed_chunks(out, CHUNK, &|base, part: &mut [O]| {
        for (i, o) in part.iter_mut().enumerate() {
            *o = f(base + i);
        }
    });
}

/// `out[i] = f(xs[i])`. Zipped slices (no indexing) so the loop vectorises.
pub fn map_into<A: Element, O: Element>(out: &mut [O], xs: &[A], f: impl Fn(A) -> O + Sync) {
    let run = |o: &mut [O], a: &[A]| {
        for (o, &a) in o.iter_mut().zip(a) {
            *o = f(a);
        }
    };
    if out.len() < PARALLEL_MIN_ELEMENTS {
        run(out, xs);
    } else {
        par_fixed_chunks(out, CHUNK, &|start, o: &mut [O]| {
            run(o, &xs[start..start + o.len()]);
        });
    }
}

/// `out[i] = f(xs[i], ys[i])`. Zipped slices (no indexing) so the loop vectorises.
pub fn zip_into<A: Element, B: Element, O: Element>(
    out: &mut [O],
    xs: &[A],
    ys: &[B],
    f: impl Fn(A, B) -> O + Sync,
) {
    let run = |o: &mut [O], a: &[A], b: &[B]| {
        for ((o, &a), &b) in o.iter_mut().zip(a).zip(b) {
            *o = f(a, b);
        }
    };
    if out.len() < PARALLEL_MIN_ELEMENTS {
        run(out, xs, ys);
    } else {
        par_fixed_chunks(out, CHUNK, &|start, o: &mut [O]| {
            let end = start + o.len();
            run(o, &xs[start..end], &ys[start..end]);
        });
    }
}

/// Applies `f` to every element of `x`.
pub fn unary_map<A: Element, O: Element>(
    ctx: &OpContext<'_>,
    x: &Tensor,
    f: impl Fn(A) -> O + Sync,
) -> Result<Tensor> {
    let xs = x.as_slice::<A>()?;
    let n = xs.len();
    if n < PARALLEL_MIN_ELEMENTS {
        let mut out = ctx.alloc::<O>(n)?;
        out.data.extend(xs.iter().map(|&a| f(a)));
        return out.into_tensor(alloc::copied(x.shape())?);
    }
    let mut out = ctx.alloc_initialized::<O>(n)?;
    map_into(&mut out.data, xs, f);
    out.into_tensor(alloc::copied(x.shape())?)
}

/// Applies `f` element-wise to `x` and `y` broadcast together.
pub fn binary_map<A: Element, B: Element, O: Element>(
    ctx: &OpContext<'_>,
    x: &Tensor,
    y: &Tensor,
    f: impl Fn(A, B) -> O + Sync,
) -> Result<Tensor> {
    let xs = x.as_slice::<A>()?;
    let ys = y.as_slice::<B>()?;
    if x.shape() == y.shape() {
        let n = xs.len();
        if n < PARALLEL_MIN_ELEMENTS {
            let mut out = ctx.alloc::<O>(n)?;
            out.data.extend(xs.iter().zip(ys).map(|(&a, &b)| f(a, b)));
            return out.into_tensor(alloc::copied(x.shape())?);
        }
        let mut out = ctx.alloc_initialized::<O>(n)?;
        zip_into(&mut out.data, xs, ys, f);
        return out.into_tensor(alloc::copied(x.shape())?);
    }
    let shape = broadcast_checked(x.shape(), y.shape())?;
    let n = crate::tensor::num_elements(&shape)?;
    if let [b] = ys
        && shape == x.shape()
    {
        let b = *b;
        let mut out = ctx.alloc_initialized::<O>(n)?;
        map_into(&mut out.data, xs, |a| f(a, b));
        return out.into_tensor(shape);
    }
    if let [a] = xs
        && shape == y.shape()
    {
        let a = *a;
        let mut out = ctx.alloc_initialized::<O>(n)?;
        map_into(&mut out.data, ys, |b| f(a, b));
        return out.into_tensor(shape);
    }
    let (xv, yv) = (x.view::<A>()?, y.view::<B>()?);
    let cannot = || {
        Error::invalid(format!(
            "cannot broadcast {:?} and {:?}",
            x.shape(),
            y.shape()
        ))
    };
    let xv = xv.broadcast(IxDyn(&shape)).ok_or_else(cannot)?;
    let yv = yv.broadcast(IxDyn(&shape)).ok_or_else(cannot)?;
    let mut out = ctx.alloc::<O>(n)?;
    // `iter` visits each view in logical (row-major) order; `Zip` would follow
    // the memory layout, which is column-major for views like [3,1] -> [2,3,1].
    out.data
        .extend(xv.iter().zip(yv.iter()).map(|(&a, &b)| f(a, b)));
    out.into_tensor(shape)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numpy_rules() {
        assert_eq!(broadcast_shapes(&[2, 3], &[3]), Some(vec![2, 3]));
        assert_eq!(broadcast_shapes(&[], &[4]), Some(vec![4]));
        assert_eq!(broadcast_shapes(&[2, 1], &[1, 5]), Some(vec![2, 5]));
        assert_eq!(broadcast_shapes(&[0, 1], &[1, 5]), Some(vec![0, 5]));
        assert_eq!(broadcast_shapes(&[2, 3], &[2]), None);
        assert_eq!(broadcast_shapes(&[4, 1, 3], &[2, 1]), Some(vec![4, 2, 3]));
    }
}
