//! Views and shape queries. `Identity` (and `StopGradient`), `Reshape`,
//! `ExpandDims` and `Squeeze` return their input's buffer under another
//! shape, without a copy; `Shape`, `Size` and `Rank` describe it.

use super::{check_rank, internal};
use crate::alloc;
use crate::bail;
use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::ops::{KernelOutputs, OpContext, int_values_of, normalize_axis, outputs};
use crate::tensor::{self, Tensor};

pub(super) fn identity(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    Ok(outputs([ctx.input(0).clone()]))
}

pub(super) fn reshape(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let input = ctx.input(0);
    let shape = reshaped(ctx.account(), input.shape(), ctx.input(1), ctx.arg_name(1))?;
    Ok(outputs([input.reshaped(shape)?]))
}

/// The shape `Reshape` gives an input of shape `input` when its shape
/// argument (named `arg`) is `sizes_t`; shared with build-time inference.
pub(in crate::ops) fn reshaped(
    account: &std::sync::Arc<crate::memory::MemoryAccount>,
    input: &[usize],
    sizes_t: &Tensor,
    arg: &str,
) -> Result<Vec<usize>> {
    // The element count of a tensor of that shape (which exists or will).
    let count = input.iter().fold(1usize, |n, &d| n.saturating_mul(d));
    // A scalar is TF's legacy spelling of a one-dimensional shape.
    if sizes_t.rank() > 1 {
        bail!("shape must be 1-D but has shape {:?}", sizes_t.shape());
    }
    let sizes = int_values_of(account, sizes_t, arg)?;
    check_rank(sizes.len(), "the output")?;
    let mut shape = alloc::with_room(sizes.len())?;
    let mut unknown = None;
    let mut known = 1usize;
    let mut has_zero = false;
    for (d, &s) in sizes.iter().enumerate() {
        match s {
            -1 => {
                if let Some(u) = unknown {
                    bail!("only one dimension of shape may be -1, not both {u} and {d}");
                }
                unknown = Some(d);
                shape.push(1);
            }
            0 => {
                has_zero = true;
                shape.push(0);
            }
            s => {
                let dim = usize::try_from(s).map_err(|_| {
                    Error::invalid(format!("shape[{d}] = {s} must be non-negative or -1"))
                })?;
                known = known.checked_mul(dim).ok_or_else(|| {
                    Error::invalid(format!("shape {sizes:?} has too many elements"))
                })?;
                shape.push(dim);
            }
        }
    }
    if let Some(u) = unknown {
        // As TF: zero dims are left out of both products when the requested
        // shape has one, so that the -1 can still be inferred from the rest.
        let mut values = 1usize;
        let mut input_has_zero = false;
        for &d in input {
            if d == 0 && has_zero {
                input_has_zero = true;
            } else {
                values = values
                    .checked_mul(d)
                    .ok_or_else(|| Error::invalid(format!("input shape {input:?} is too large")))?;
            }
        }
        let missing = values / known;
        if !input_has_zero && missing * known != values {
            bail!(
                "cannot reshape a tensor of shape {:?} ({} values) to {sizes:?}: \
                 {values} is not a multiple of {known}",
                input,
                count
            );
        }
        shape[u] = missing;
    }
    let n = tensor::num_elements(&shape)?;
    if n != count {
        bail!(
            "cannot reshape a tensor of shape {:?} ({} values) to {sizes:?} ({n} values)",
            input,
            count
        );
    }
    Ok(shape)
}

pub(super) fn expand_dims(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let input = ctx.input(0);
    let shape = expanded(ctx.account(), input.shape(), ctx.input(1), ctx.arg_name(1))?;
    Ok(outputs([input.reshaped(shape)?]))
}

/// `ExpandDims`'s check that its axis argument, of shape `axis`, holds one
/// value.
pub(in crate::ops) fn check_expand_axis(axis: &[usize]) -> Result<()> {
    // TF accepts any tensor holding exactly one value here.
    if axis.iter().product::<usize>() != 1 {
        bail!("axis must hold exactly one value but has shape {axis:?}");
    }
    Ok(())
}

/// The shape `ExpandDims` gives an input of shape `input` when its axis
/// argument (named `arg`) is `axis_t`; shared with build-time inference.
pub(in crate::ops) fn expanded(
    account: &std::sync::Arc<crate::memory::MemoryAccount>,
    input: &[usize],
    axis_t: &Tensor,
    arg: &str,
) -> Result<Vec<usize>> {
    check_expand_axis(axis_t.shape())?;
    let axis = int_values_of(account, axis_t, arg)?
        .first()
        .copied()
        .ok_or_else(|| internal("axis without a value"))?;
    let rank = input.len();
    check_rank(rank + 1, "the output")?;
    let r = rank as i64;
    if axis < -r - 1 || axis > r {
        bail!(
            "axis {axis} is out of range for a tensor of rank {rank} (valid: [{}, {r}])",
            -r - 1
        );
    }
    let at = if axis < 0 { axis + r + 1 } else { axis } as usize;
    let mut shape = alloc::copied(input)?;
    shape.insert(at, 1);
    Ok(shape)
}

pub(super) fn squeeze(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let input = ctx.input(0);
    let kept = squeezed(input.shape(), ctx.attrs)?;
    Ok(outputs([input.reshaped(kept)?]))
}

/// The shape `Squeeze` gives an input of shape `shape`; shared with
/// build-time inference.
pub(in crate::ops) fn squeezed(shape: &[usize], attrs: &crate::ops::Attrs) -> Result<Vec<usize>> {
    let dims = attrs.ints("squeeze_dims")?.unwrap_or(&[]);
    if dims.is_empty() {
        return Ok(shape.iter().copied().filter(|&s| s != 1).collect());
    }
    let mut drop = alloc::filled(shape.len(), false)?;
    for &d in dims {
        let a = normalize_axis(d, shape.len(), "squeeze_dims entry")?;
        if shape[a] != 1 {
            bail!(
                "cannot squeeze dimension {d} of shape {shape:?}: its size is {}, not 1",
                shape[a]
            );
        }
        drop[a] = true;
    }
    Ok(shape
        .iter()
        .zip(&drop)
        .filter(|&(_, &dropped)| !dropped)
        .map(|(&s, _)| s)
        .collect())
}

pub(super) fn shape(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let dims = ctx.input(0).shape();
    Ok(outputs([index_tensor(
        ctx,
        out_type(ctx)?,
        Vec::from([dims.len()]),
        dims,
    )?]))
}

pub(super) fn size(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let n = ctx.input(0).num_elements();
    Ok(outputs([index_tensor(
        ctx,
        out_type(ctx)?,
        Vec::new(),
        &[n],
    )?]))
}

pub(super) fn rank(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let r = ctx.input(0).rank();
    Ok(outputs([index_tensor(
        ctx,
        DataType::Int32,
        Vec::new(),
        &[r],
    )?]))
}

/// An INT32 or INT64 tensor holding `values`.
fn index_tensor(
    ctx: &OpContext<'_>,
    dtype: DataType,
    shape: Vec<usize>,
    values: &[usize],
) -> Result<Tensor> {
    fn build<T: Element + TryFrom<usize>>(
        ctx: &OpContext<'_>,
        shape: Vec<usize>,
        values: &[usize],
    ) -> Result<Tensor> {
        let mut out = ctx.alloc::<T>(values.len())?;
        for &v in values {
            out.data.push(T::try_from(v).map_err(|_| {
                Error::invalid(format!(
                    "{v} does not fit in {}; set out_type to INT64",
                    T::DTYPE
                ))
            })?);
        }
        out.into_tensor(shape)
    }
    match dtype {
        DataType::Int32 => build::<i32>(ctx, shape, values),
        _ => build::<i64>(ctx, shape, values),
    }
}

/// The `out_type` attribute of Shape and Size: INT32 (default) or INT64.
fn out_type(ctx: &OpContext<'_>) -> Result<DataType> {
    match ctx.attrs.dtype("out_type")?.unwrap_or(DataType::Int32) {
        d @ (DataType::Int32 | DataType::Int64) => Ok(d),
        d => bail!("attribute 'out_type' must be INT32 or INT64 but is {d}"),
    }
}
