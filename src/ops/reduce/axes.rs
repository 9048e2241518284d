//! Reductions over a set of axes (`Sum`, `Prod`, `Max`, `Min`, `Mean`,
//! `All`, `Any`): the axis checks, the choice of fold for each kind, and the
//! passes that each remove one group of merged reduced axes.

use super::lanes::{product, reduce_axis};
use super::logical::{AndF, OrF};
use super::min_max::{MaxF, MinF};
use super::sums::{ProdF, SumF};
use super::{Fold, Num};
use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::ops::{KernelOutputs, OpContext, int_values, normalize_axis};
use crate::scratch::Scratch;
use crate::tensor::Tensor;

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Kind {
    Sum,
    Prod,
    Max,
    Min,
    Mean,
    All,
    Any,
}

/// Which axes input `i` (an INT32/INT64 scalar or vector) selects, checked
/// like TensorFlow: in `[-rank, rank)` and no axis twice.
fn axis_mask(ctx: &OpContext<'_>, i: usize, shape: &[usize]) -> Result<Vec<bool>> {
    let axis = ctx.input(i);
    if axis.rank() > 1 {
        return Err(Error::invalid(format!(
            "'{}' must be a scalar or a vector but has shape {:?}",
            ctx.arg_name(i),
            axis.shape()
        )));
    }
    let rank = shape.len();
    if axis.num_elements() > rank.max(1) {
        return Err(Error::invalid(format!(
            "'{}' lists {} axes but input '{}' has shape {shape:?}: some axis is out of range or repeated",
            ctx.arg_name(i),
            axis.num_elements(),
            ctx.arg_name(0)
        )));
    }
    let mut mask = vec![false; rank];
    let axes = int_values(ctx, i)?;
    for &a in &axes {
        let d = normalize_axis(a, rank, "axis").map_err(|e| {
            Error::invalid(format!(
                "{e} (input '{}' has shape {shape:?})",
                ctx.arg_name(0)
            ))
        })?;
        if std::mem::replace(&mut mask[d], true) {
            return Err(Error::invalid(format!(
                "axis {a} names dimension {d}, which is already reduced (duplicate axes in {axes:?})"
            )));
        }
    }
    Ok(mask)
}

pub(super) fn reduction(ctx: &OpContext<'_>, kind: Kind) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let keep_dims = ctx.attrs.bool("keep_dims", false)?;
    let mask = axis_mask(ctx, 1, x.shape())?;
    let out_shape: Vec<usize> = x
        .shape()
        .iter()
        .zip(&mask)
        .filter_map(|(&d, &r)| match (r, keep_dims) {
            (false, _) => Some(d),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect();
    let dtype = x.dtype();
    let out = match kind {
        Kind::All | Kind::Any => {
            ctx.expect_dtype(0, &[DataType::Bool])?;
            if kind == Kind::All {
                run(ctx, AndF, &mask, out_shape, |_| ())?
            } else {
                run(ctx, OrF, &mask, out_shape, |_| ())?
            }
        }
        _ => crate::with_numeric_dtype!(dtype, T => numeric::<T>(ctx, kind, &mask, out_shape)?,
            bool => return Err(ctx.unsupported_dtype(0))),
    };
    Ok(smallvec::smallvec![out])
}

fn numeric<T: Num>(
    ctx: &OpContext<'_>,
    kind: Kind,
    mask: &[bool],
    out_shape: Vec<usize>,
) -> Result<Tensor> {
    let none = |_: &mut [T]| ();
    match kind {
        Kind::Sum => run(ctx, SumF, mask, out_shape, none),
        Kind::Prod => run(ctx, ProdF, mask, out_shape, none),
        Kind::Max => run(ctx, MaxF, mask, out_shape, none),
        Kind::Min => run(ctx, MinF, mask, out_shape, none),
        _ => {
            let reduced: Vec<usize> = ctx
                .input(0)
                .shape()
                .iter()
                .zip(mask)
                .filter(|(_, r)| **r)
                .map(|(&d, _)| d)
                .collect();
            let count = product(&reduced);
            run(ctx, SumF, mask, out_shape, |out: &mut [T]| {
                for v in out {
                    *v = v.div_count(count);
                }
            })
        }
    }
}

/// Reduces input 0 over the `mask` axes with `f`, then applies `finish` to
/// the reduced values.
fn run<T: Element, F: Fold<T>>(
    ctx: &OpContext<'_>,
    f: F,
    mask: &[bool],
    out_shape: Vec<usize>,
    finish: impl Fn(&mut [T]),
) -> Result<Tensor> {
    let x = ctx.input(0);
    let xs = x.as_slice::<T>()?;
    let n_out = crate::tensor::num_elements(&out_shape)?;
    if xs.is_empty() {
        let mut out = ctx.alloc::<T>(n_out)?;
        out.data.resize(n_out, f.identity());
        finish(&mut out.data);
        return out.into_tensor(out_shape);
    }
    // Merge adjacent axes of one kind; axes of size 1 change nothing.
    let mut groups: Vec<(usize, bool)> = Vec::new();
    for (&d, &r) in x.shape().iter().zip(mask) {
        match groups.last_mut() {
            _ if d == 1 => {}
            Some(last) if last.1 == r => last.0 *= d,
            _ => groups.push((d, r)),
        }
    }
    // Passes before the last write temporaries (never counted as live tensor
    // bytes); the last pass writes the output.
    let mut current: Option<Scratch<T>> = None;
    // Each pass removes the largest reduced group, which shrinks the data most.
    while let Some(g) = groups
        .iter()
        .enumerate()
        .filter(|(_, g)| g.1)
        .max_by_key(|(_, g)| g.0)
        .map(|(i, _)| i)
    {
        let outer: usize = groups[..g].iter().map(|g| g.0).product();
        let inner: usize = groups[g + 1..].iter().map(|g| g.0).product();
        let src: &[T] = current.as_deref().unwrap_or(xs);
        if groups.iter().filter(|g| g.1).count() == 1 {
            let mut out = ctx.alloc_initialized::<T>(outer * inner)?;
            reduce_axis(f, src, groups[g].0, inner, &mut out.data, ctx.account())?;
            finish(&mut out.data);
            return out.into_tensor(out_shape);
        }
        let mut out = Scratch::filled(ctx.account(), outer * inner, f.identity())?;
        reduce_axis(f, src, groups[g].0, inner, &mut out, ctx.account())?;
        current = Some(out);
        groups.remove(g);
        if g > 0 && g < groups.len() {
            let next = groups.remove(g);
            groups[g - 1].0 *= next.0;
        }
    }
    // Only axes of size 1 were reduced: the values are the input's.
    x.reshaped(out_shape)
}
