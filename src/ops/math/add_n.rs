//! `AddN`: the element-wise sum of one or more tensors of one shape, and
//! the `Accumulate` addition it shares with `Cumsum`.

use crate::alloc;
use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::ops::broadcast::fill_indexed;
use crate::ops::{KernelOutputs, OpContext, outputs};
use crate::tensor::{Tensor, num_elements};

/// Addition as the numeric kernels do it: IEEE for floats, wrapping for ints.
pub(in crate::ops) trait Accumulate: Element {
    fn accumulate(self, other: Self) -> Self;
}

macro_rules! accumulate {
    ($($t:ty: $f:expr),*) => {
        $(impl Accumulate for $t {
            fn accumulate(self, other: Self) -> Self {
                $f(self, other)
            }
        })*
    };
}

accumulate!(
    f32: |a: f32, b: f32| a + b,
    f64: |a: f64, b: f64| a + b,
    i32: i32::wrapping_add,
    i64: i64::wrapping_add,
    u8: u8::wrapping_add,
    u16: u16::wrapping_add
);

// `AddN`'s checks, shared with build-time inference (`infer`).

/// The first of the inputs, which must exist.
pub(in crate::ops) fn add_n_head<T>(first: Option<T>) -> Result<T> {
    first.ok_or_else(|| Error::invalid("needs at least one input in 'inputs'"))
}

/// Checks that `inputs[i]`, of dtype `d`, has the dtype `first` of `inputs[0]`.
pub(in crate::ops) fn add_n_same_dtype(i: usize, first: DataType, d: DataType) -> Result<()> {
    if d != first {
        return Err(Error::invalid(format!(
            "all inputs must have the same dtype, but inputs[0] is {first} and inputs[{i}] is {d}"
        )));
    }
    Ok(())
}

/// Checks that `inputs[i]`, of shape `s`, has the shape `first` of `inputs[0]`.
pub(in crate::ops) fn add_n_same_shape(i: usize, first: &[usize], s: &[usize]) -> Result<()> {
    if s != first {
        return Err(Error::invalid(format!(
            "all inputs must have the same shape, but inputs[0] has shape {first:?} and inputs[{i}] has shape {s:?}"
        )));
    }
    Ok(())
}

/// The element-wise sum of one or more tensors of one dtype and shape (no
/// broadcasting, as in TensorFlow). A single input is returned as is.
pub(super) fn add_n(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let inputs = ctx.list(0);
    let first = add_n_head(inputs.first().map(|t| &**t))?;
    for (i, t) in inputs.iter().enumerate().skip(1) {
        add_n_same_dtype(i, first.dtype(), t.dtype())?;
        add_n_same_shape(i, first.shape(), t.shape())?;
    }
    if first.dtype() == DataType::Bool {
        return Err(ctx.unsupported_dtype(0));
    }
    if inputs.len() == 1 {
        return Ok(outputs([first.clone()]));
    }
    let out = crate::with_numeric_dtype!(first.dtype(), T => sum_all::<T>(ctx, inputs, first.shape())?,
        bool => return Err(ctx.unsupported_dtype(0)));
    Ok(outputs([out]))
}

fn sum_all<T: Accumulate>(
    ctx: &OpContext<'_>,
    inputs: &[std::sync::Arc<Tensor>],
    shape: &[usize],
) -> Result<Tensor> {
    let slices = inputs
        .iter()
        .map(|t| t.as_slice::<T>())
        .collect::<Result<Vec<_>>>()?;
    let n = num_elements(shape)?;
    let mut out = ctx.alloc_initialized::<T>(n)?;
    // Each slice has `n` elements (shapes were checked equal).
    fill_indexed(&mut out.data, |i| {
        let mut values = slices.iter().filter_map(|s| s.get(i).copied());
        let first = values.next().unwrap_or_default();
        values.fold(first, T::accumulate)
    });
    out.into_tensor(alloc::copied(shape)?)
}
