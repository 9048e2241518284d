//! HALF and BFLOAT16 through the FLOAT kernels: for an op whose `OpDef` sets
//! [`halves`](super::OpDef::halves), every HALF or BFLOAT16 input is widened
//! to FLOAT (exactly), the FLOAT kernel runs, and every FLOAT output is
//! rounded back to nearest even. That is what TensorFlow's CPU kernels do in
//! effect: Eigen's `half` and `bfloat16` arithmetic converts each operand
//! to `float`, computes and rounds, element by element. Element-wise results
//! are therefore TensorFlow's bit for bit; reductions round once at the end,
//! where Eigen may round per partial sum (closer to the exact result here).
//!
//! A HALF or BFLOAT16 input beside a FLOAT one, or beside the other 2-byte
//! type, is refused as the kernels refuse mixed dtypes (the widened inputs
//! would otherwise all look like FLOAT). The widened copies are temporaries
//! counted against the session's limit like any output.

use std::sync::Arc;

use super::infer::{Input, Meta};
use super::{KernelOutputs, OpContext, OpDef, Ranges};
use crate::dtype::{DataType, bf16_from_f32, f16, f16_from_f32};
use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// The 2-byte float type among the inputs, after checking that no input
/// mixes it with FLOAT or with the other one. `None`: no 2-byte float input.
fn half_of(
    def: &OpDef,
    dtypes: impl Iterator<Item = (usize, Option<DataType>)>,
) -> Result<Option<DataType>> {
    let mut half: Option<(usize, DataType)> = None;
    let mut float: Option<(usize, DataType)> = None;
    for (arg, d) in dtypes {
        match d {
            Some(d) if d.is_half() => match half {
                Some((i, h)) if h != d => return Err(mixed(def, (i, h), (arg, d))),
                Some(_) => {}
                None => half = Some((arg, d)),
            },
            Some(DataType::Float) => float = float.or(Some((arg, DataType::Float))),
            _ => {}
        }
    }
    match (half, float) {
        (Some(h), Some(f)) => Err(mixed(def, h, f)),
        (h, _) => Ok(h.map(|(_, d)| d)),
    }
}

fn mixed(def: &OpDef, (i, a): (usize, DataType), (j, b): (usize, DataType)) -> Error {
    let name = |k: usize| def.inputs.get(k).map_or("?", |n| n.trim_end_matches("[]"));
    if i == j {
        Error::invalid(format!(
            "all of '{}' must have the same dtype, but got {a} and {b}",
            name(i)
        ))
    } else {
        Error::invalid(format!(
            "inputs '{}' and '{}' must have the same dtype, but got {a} and {b}",
            name(i.min(j)),
            name(i.max(j))
        ))
    }
}

/// Widens a HALF or BFLOAT16 tensor to FLOAT, exactly.
fn widen(ctx: &OpContext<'_>, t: &Tensor) -> Result<Tensor> {
    let shape = crate::alloc::copied(t.shape())?;
    match t.dtype() {
        DataType::Half => ctx.collect(shape, t.as_slice::<f16>()?.iter().map(|v| v.to_f32())),
        _ => ctx.collect(
            shape,
            t.as_slice::<crate::dtype::bf16>()?
                .iter()
                .map(|v| v.to_f32()),
        ),
    }
}

/// Rounds a FLOAT output to `half`.
fn narrow(ctx: &OpContext<'_>, t: &Tensor, half: DataType) -> Result<Tensor> {
    let shape = crate::alloc::copied(t.shape())?;
    let xs = t.as_slice::<f32>()?;
    match half {
        DataType::Half => ctx.collect(shape, xs.iter().map(|&v| f16_from_f32(v))),
        _ => ctx.collect(shape, xs.iter().map(|&v| bf16_from_f32(v))),
    }
}

/// Runs `ctx`'s kernel, through FLOAT if an input is HALF or BFLOAT16.
pub(super) fn run(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let def = ctx.def;
    let arg_dtypes =
        (0..def.inputs.len()).flat_map(|i| ctx.list(i).iter().map(move |t| (i, Some(t.dtype()))));
    let Some(half) = half_of(def, arg_dtypes)? else {
        return (def.kernel)(ctx);
    };
    let mut widened: Vec<Arc<Tensor>> = crate::alloc::with_room(ctx.inputs.len())?;
    for t in ctx.inputs {
        widened.push(if t.dtype() == half {
            Arc::new(widen(ctx, t)?)
        } else {
            t.clone()
        });
    }
    let inner = OpContext {
        def,
        inputs: &widened,
        ranges: ctx.ranges.try_clone()?,
        attrs: ctx.attrs,
        account: ctx.account,
    };
    let outputs = (def.kernel)(&inner)?;
    let mut narrowed = KernelOutputs::new();
    for t in outputs {
        narrowed.push(if t.dtype() == DataType::Float {
            narrow(ctx, &t, half)?
        } else {
            t
        });
    }
    Ok(narrowed)
}

/// Build-time inference through FLOAT, as [`run`] runs the kernel: the
/// 2-byte float inputs are described as FLOAT, and a FLOAT output as the
/// 2-byte type.
pub(super) fn infer(
    f: super::infer::InferFn,
    def: &OpDef,
    inputs: &[Input<'_>],
    ranges: Ranges,
    attrs: &super::Attrs,
    account: &Arc<crate::memory::MemoryAccount>,
) -> Result<Meta> {
    let arg_of = |k: usize| ranges.arg_of(k);
    let half = half_of(
        def,
        inputs
            .iter()
            .enumerate()
            .map(|(k, x)| (arg_of(k), x.dtype())),
    )?;
    let Some(half) = half else {
        return super::infer::run(f, def, inputs, ranges, attrs, account);
    };
    let mut metas: Vec<Meta> = crate::alloc::with_room(inputs.len())?;
    for x in inputs {
        metas.push(Meta {
            dtype: Some(DataType::Float),
            shape: x
                .shape()
                .map(|s| crate::alloc::copied(s).map(Vec::into_boxed_slice))
                .transpose()?,
        });
    }
    let mut widened: Vec<Input<'_>> = crate::alloc::with_room(inputs.len())?;
    for (x, m) in inputs.iter().zip(&metas) {
        widened.push(if x.dtype() == Some(half) {
            Input::Pending(m)
        } else {
            *x
        });
    }
    let mut meta = super::infer::run(f, def, &widened, ranges, attrs, account)?;
    if meta.dtype == Some(DataType::Float) {
        meta.dtype = Some(half);
    }
    Ok(meta)
}
