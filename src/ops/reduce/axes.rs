//! Reductions over a set of axes (`Sum`, `Prod`, `Max`, `Min`, `Mean`,
//! `All`, `Any`): the axis checks, the choice of fold for each kind, and the
//! passes that each remove one group of merged reduced axes.

use super::lanes::{product, reduce_axis};
use super::logical::{AndF, OrF};
use super::min_max::{MaxF, MinF};
use super::sums::{ProdF, SumF};
use super::{Fold, Num};
use crate::alloc;
use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::ops::{
    KernelOutputs, OpContext, expect_dtype, int_values_of, normalize_axis, outputs,
    unsupported_dtype,
};
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

// The checks of `reduction`, shared with build-time inference (`infer`):
// the axis argument's shape, its values, the output shape, the dtype.

/// Checks the shape `axis` of the axis argument (named `arg`) against input
/// `x` (named `x_name`, of shape `shape`): a scalar or a vector of at most
/// `rank` axes.
pub(in crate::ops) fn check_axis_shape(
    (arg, axis): (&str, &[usize]),
    (x_name, shape): (&str, &[usize]),
) -> Result<()> {
    if axis.len() > 1 {
        return Err(Error::invalid(format!(
            "'{arg}' must be a scalar or a vector but has shape {axis:?}"
        )));
    }
    let n: usize = axis.iter().product();
    if n > shape.len().max(1) {
        return Err(Error::invalid(format!(
            "'{arg}' lists {n} axes but input '{x_name}' has shape {shape:?}: some axis is out of range or repeated"
        )));
    }
    Ok(())
}

/// Which axes `axis_t` (the axis argument, an INT32/INT64 scalar or vector
/// that [`check_axis_shape`] accepted, named `arg`) selects, checked like
/// TensorFlow: in `[-rank, rank)` and no axis twice.
pub(in crate::ops) fn axis_mask(
    account: &std::sync::Arc<crate::memory::MemoryAccount>,
    (arg, axis_t): (&str, &Tensor),
    (x_name, shape): (&str, &[usize]),
) -> Result<Vec<bool>> {
    let rank = shape.len();
    let mut mask = alloc::filled(rank, false)?;
    let axes = int_values_of(account, axis_t, arg)?;
    for (i, &a) in axes.iter().enumerate() {
        let d = normalize_axis(a, rank, "axis")
            .map_err(|e| Error::invalid(format!("{e} (input '{x_name}' has shape {shape:?})")))?;
        if std::mem::replace(&mut mask[d], true) {
            // The first duplicate is at most `rank` entries in: quote up to it.
            return Err(Error::invalid(format!(
                "axis {a} names dimension {d}, which is already reduced (duplicate axes in {:?}{})",
                &axes[..=i],
                if i + 1 < axes.len() { " ..." } else { "" }
            )));
        }
    }
    Ok(mask)
}

/// The output shape of a reduction of `shape` over `mask`.
pub(in crate::ops) fn reduced_shape(shape: &[usize], mask: &[bool], keep_dims: bool) -> Vec<usize> {
    shape
        .iter()
        .zip(mask)
        .filter_map(|(&d, &r)| match (r, keep_dims) {
            (false, _) => Some(d),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect()
}

/// The dtype check of a reduction of kind `logical` (`All`, `Any`: BOOL
/// only) or not (numeric only), on input 'input' (named `x`) of dtype `d`.
pub(in crate::ops) fn check_reduced_dtype(logical: bool, x: &str, d: DataType) -> Result<()> {
    if logical {
        expect_dtype(x, d, &[DataType::Bool])?;
    } else if d == DataType::Bool {
        return Err(unsupported_dtype(x, d));
    }
    Ok(())
}

pub(super) fn reduction(ctx: &OpContext<'_>, kind: Kind) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let keep_dims = ctx.attrs.bool("keep_dims", false)?;
    let (xn, an) = (ctx.arg_name(0), ctx.arg_name(1));
    check_axis_shape((an, ctx.input(1).shape()), (xn, x.shape()))?;
    let mask = axis_mask(ctx.account(), (an, ctx.input(1)), (xn, x.shape()))?;
    let out_shape = reduced_shape(x.shape(), &mask, keep_dims);
    let dtype = x.dtype();
    check_reduced_dtype(matches!(kind, Kind::All | Kind::Any), xn, dtype)?;
    let out = match kind {
        Kind::All | Kind::Any => {
            ctx.expect_dtype(0, &[DataType::Bool])?;
            if kind == Kind::All {
                run(ctx, x, AndF, &mask, out_shape, |_| ())?
            } else {
                run(ctx, x, OrF, &mask, out_shape, |_| ())?
            }
        }
        Kind::Mean if dtype == DataType::UInt8 => narrow_mean::<u8>(ctx, &mask, out_shape)?,
        Kind::Mean if dtype == DataType::UInt16 => narrow_mean::<u16>(ctx, &mask, out_shape)?,
        Kind::Mean if dtype == DataType::Int32 => narrow_mean::<i32>(ctx, &mask, out_shape)?,
        _ => crate::with_numeric_dtype!(dtype, T => numeric::<T>(ctx, kind, &mask, out_shape)?,
            bool => return Err(ctx.unsupported_dtype(0))),
    };
    Ok(outputs([out]))
}

fn numeric<T: Num>(
    ctx: &OpContext<'_>,
    kind: Kind,
    mask: &[bool],
    out_shape: Vec<usize>,
) -> Result<Tensor> {
    let none = |_: &mut [T]| ();
    let x = ctx.input(0);
    match kind {
        Kind::Sum => run(ctx, x, SumF, mask, out_shape, none),
        Kind::Prod => run(ctx, x, ProdF, mask, out_shape, none),
        Kind::Max => run(ctx, x, MaxF, mask, out_shape, none),
        Kind::Min => run(ctx, x, MinF, mask, out_shape, none),
        _ => mean_of::<T>(ctx, x, mask, out_shape),
    }
}

/// The sum of `x` over the `mask` axes divided by the count of reduced elements.
fn mean_of<T: Num>(
    ctx: &OpContext<'_>,
    x: &Tensor,
    mask: &[bool],
    out_shape: Vec<usize>,
) -> Result<Tensor> {
    let reduced: Vec<usize> = x
        .shape()
        .iter()
        .zip(mask)
        .filter(|(_, r)| **r)
        .map(|(&d, _)| d)
        .collect();
    let count = product(&reduced);
    run(ctx, x, SumF, mask, out_shape, |out: &mut [T]| {
        for v in out {
            *v = v.div_count(count);
        }
    })
}

/// `Mean` of UINT8, UINT16 and INT32 sums in INT64, as TensorFlow does (the
/// mean of 200 and 100 is 150, not the wrapped sum 44 halved; INT64's own
/// sum wraps in both); the mean of values of a type always fits it.
fn narrow_mean<T: Num + Into<i64> + TryFrom<i64>>(
    ctx: &OpContext<'_>,
    mask: &[bool],
    out_shape: Vec<usize>,
) -> Result<Tensor> {
    let x = ctx.input(0);
    let xs = x.as_slice::<T>()?;
    let mut wide = ctx.alloc::<i64>(xs.len())?;
    wide.data.extend(xs.iter().map(|&v| v.into()));
    let wide = wide.into_tensor(alloc::copied(x.shape())?)?;
    let means = mean_of::<i64>(ctx, &wide, mask, out_shape.clone())?;
    let ms = means.as_slice::<i64>()?;
    let mut out = ctx.alloc::<T>(ms.len())?;
    out.data
        .extend(ms.iter().map(|&m| T::try_from(m).unwrap_or(T::ZERO)));
    out.into_tensor(out_shape)
}

/// Reduces input 0 over the `mask` axes with `f`, then applies `finish` to
/// the reduced values.
fn run<T: Element, F: Fold<T>>(
    ctx: &OpContext<'_>,
    x: &Tensor,
    f: F,
    mask: &[bool],
    out_shape: Vec<usize>,
    finish: impl Fn(&mut [T]),
) -> Result<Tensor> {
    let xs = x.as_slice::<T>()?;
    let n_out = crate::tensor::num_elements(&out_shape)?;
    if xs.is_empty() {
        let mut out = ctx.alloc::<T>(n_out)?;
        alloc::fill_within(&mut out.data, n_out, f.identity());
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
