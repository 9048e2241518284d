//! Neural-network ops: `Relu`, `Relu6`, `Elu`, `Selu`, `Softmax`,
//! `LogSoftmax`, `BiasAdd`, `SoftmaxCrossEntropyWithLogits`,
//! `SparseSoftmaxCrossEntropyWithLogits`, `L2Loss`.
//!
//! Softmax-style ops work row by row over the last axis and subtract the
//! row's maximum before `exp`, so large logits do not overflow.

use super::broadcast::{broadcast_shapes, unary_map};
use super::infer;
use super::parallel::{par_chunks, threads, worth_threads};
use super::reduce::lanes::{fold, fold_par};
use super::reduce::min_max::MaxF;
use super::reduce::sums::SumSqF;
use super::reduce::{Fold, Num};
use super::{KernelOutputs, outputs};
use super::{OpContext, OpDef, Registry};
use crate::alloc;
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

pub(super) fn register(r: &mut Registry) {
    let same = infer::elementwise::same_as_input;
    const XENT: &[&str] = &["features", "labels"];
    r.add(
        [
            OpDef::new("Relu", &["features"], &["activations"], relu).infer(same),
            OpDef::new("Relu6", &["features"], &["activations"], relu6).infer(same),
            OpDef::new("Elu", &["features"], &["activations"], elu).infer(same),
            OpDef::new("Selu", &["features"], &["activations"], selu).infer(same),
            OpDef::new("Softmax", &["logits"], &["softmax"], softmax).infer(infer::nn::softmax),
            OpDef::new("LogSoftmax", &["logits"], &["logsoftmax"], log_softmax)
                .infer(infer::nn::softmax),
            OpDef::new("BiasAdd", &["value", "bias"], &["output"], bias_add)
                .attrs(&["data_format"])
                .aliases(&["BiasAddV1"])
                .infer(infer::nn::bias_add),
            OpDef::new(
                "SoftmaxCrossEntropyWithLogits",
                XENT,
                &["loss", "backprop"],
                softmax_xent,
            ),
            OpDef::new(
                "SparseSoftmaxCrossEntropyWithLogits",
                XENT,
                &["loss", "backprop"],
                sparse_softmax_xent,
            ),
            OpDef::new("L2Loss", &["t"], &["output"], l2_loss),
        ]
        .map(OpDef::halves),
    );
}

/// An `exp` costs about as much as streaming 16 elements: the weight of
/// softmax-style work when deciding on threads.
const EXP_COST: usize = 16;

/// Floating-point elements.
trait Float:
    Num + std::ops::Sub<Output = Self> + std::ops::Div<Output = Self> + std::ops::Neg<Output = Self>
{
    fn exp(self) -> Self;
    fn exp_m1(self) -> Self;
    fn ln(self) -> Self;
    fn lit(v: f64) -> Self;
}

macro_rules! float {
    ($t:ty) => {
        impl Float for $t {
            #[inline(always)]
            fn exp(self) -> Self {
                <$t>::exp(self)
            }
            #[inline(always)]
            fn exp_m1(self) -> Self {
                <$t>::exp_m1(self)
            }
            #[inline(always)]
            fn ln(self) -> Self {
                <$t>::ln(self)
            }
            #[inline(always)]
            fn lit(v: f64) -> Self {
                v as $t
            }
        }
    };
}
float!(f32);
float!(f64);

// ---------------------------------------------------------------------------
// Activations.

/// `v < 0` is false for NaN, which passes through.
fn relu_of<T: Num>(v: T) -> T {
    if v < T::ZERO { T::ZERO } else { v }
}

fn relu(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let out = crate::with_numeric_dtype!(x.dtype(), T => unary_map(ctx, x, relu_of::<T>)?,
        bool => return Err(ctx.unsupported_dtype(0)));
    Ok(outputs([out]))
}

fn relu6(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let out = crate::with_numeric_dtype!(x.dtype(), T => {
        let six = (0..6).fold(T::ZERO, |s, _| s.add(T::ONE));
        unary_map(ctx, x, move |v: T| if v > six { six } else { relu_of(v) })?
    }, bool => return Err(ctx.unsupported_dtype(0)));
    Ok(outputs([out]))
}

fn float_unary(
    ctx: &OpContext<'_>,
    f32_fn: impl Fn(f32) -> f32 + Sync,
    f64_fn: impl Fn(f64) -> f64 + Sync,
) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let out = match ctx.expect_dtype(0, &[DataType::Float, DataType::Double])? {
        DataType::Float => unary_map(ctx, x, f32_fn)?,
        _ => unary_map(ctx, x, f64_fn)?,
    };
    Ok(outputs([out]))
}

fn elu_of<T: Float>(v: T) -> T {
    if v < T::ZERO { v.exp_m1() } else { v }
}

fn elu(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    float_unary(ctx, elu_of::<f32>, elu_of::<f64>)
}

fn selu_of<T: Float>(v: T) -> T {
    const ALPHA: f64 = 1.673_263_242_354_377_3;
    const SCALE: f64 = 1.050_700_987_355_480_5;
    if v < T::ZERO {
        T::lit(SCALE * ALPHA).mul(v.exp_m1())
    } else {
        T::lit(SCALE).mul(v)
    }
}

fn selu(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    float_unary(ctx, selu_of::<f32>, selu_of::<f64>)
}

// ---------------------------------------------------------------------------
// Softmax, LogSoftmax.

fn softmax(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    softmax_op(ctx, false)
}

fn log_softmax(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    softmax_op(ctx, true)
}

fn softmax_op(ctx: &OpContext<'_>, log: bool) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    check_logits(x.shape())?;
    let out = match ctx.expect_dtype(0, FLOATS)? {
        DataType::Float => softmax_typed::<f32>(ctx, x, log)?,
        _ => softmax_typed::<f64>(ctx, x, log)?,
    };
    Ok(outputs([out]))
}

/// The dtypes `Softmax` and `LogSoftmax` take.
pub(super) const FLOATS: &[DataType] = &[DataType::Float, DataType::Double];

/// `Softmax`'s and `LogSoftmax`'s check that 'logits' (of shape `shape`)
/// has rank >= 1; shared with build-time inference.
pub(super) fn check_logits(shape: &[usize]) -> Result<()> {
    if shape.is_empty() {
        return Err(Error::invalid(format!(
            "'logits' must have rank >= 1 but has shape {shape:?}"
        )));
    }
    Ok(())
}

/// Writes the softmax (or log-softmax) of `row` into `out` and returns the
/// row's maximum and `ln Σ exp(x - max)`.
fn softmax_row<T: Float>(row: &[T], out: &mut [T], log: bool) -> (T, T) {
    let m: T = fold(MaxF, row);
    let mut sum = T::ZERO;
    for (o, &v) in out.iter_mut().zip(row) {
        let e = (v - m).exp();
        *o = e;
        sum = sum.add(e);
    }
    let lse = sum.ln();
    if log {
        for (o, &v) in out.iter_mut().zip(row) {
            *o = v - m - lse;
        }
    } else {
        for o in out.iter_mut() {
            *o = *o / sum;
        }
    }
    (m, lse)
}

fn softmax_typed<T: Float>(ctx: &OpContext<'_>, x: &Tensor, log: bool) -> Result<Tensor> {
    let xs = x.as_slice::<T>()?;
    let c = x.shape().last().copied().unwrap_or(1);
    let mut out = ctx.alloc_initialized::<T>(xs.len())?;
    if c > 0 {
        let parts = if worth_threads(xs.len().saturating_mul(EXP_COST)) {
            threads()
        } else {
            1
        };
        par_chunks(&mut out.data, c, parts, |start, dst| {
            for (o, row) in dst
                .chunks_exact_mut(c)
                .zip(xs.chunks_exact(c).skip(start / c))
            {
                softmax_row(row, o, log);
            }
        });
    }
    out.into_tensor(alloc::copied(x.shape())?)
}

// ---------------------------------------------------------------------------
// BiasAdd.

/// `BiasAdd`'s shape checks on 'value' (of shape `shape`) and 'bias' (of
/// shape `bias`): the channel axis and its size. Shared with build-time
/// inference.
pub(super) fn bias_channel(
    shape: &[usize],
    bias: &[usize],
    attrs: &super::Attrs,
) -> Result<(usize, usize)> {
    if shape.len() < 2 {
        return Err(Error::invalid(format!(
            "'value' must have rank >= 2 but has shape {shape:?}"
        )));
    }
    if bias.len() != 1 {
        return Err(Error::invalid(format!(
            "'bias' must be a vector but has shape {bias:?}"
        )));
    }
    let channel = match attrs.string("data_format")? {
        None | Some("NHWC") => shape.len() - 1,
        Some("NCHW") => 1,
        Some(other) => {
            return Err(Error::invalid(format!(
                "attribute 'data_format' must be \"NHWC\" or \"NCHW\" but is \"{other}\""
            )));
        }
    };
    let c = shape[channel];
    if bias[0] != c {
        return Err(Error::invalid(format!(
            "'bias' has shape {bias:?} but must match dimension {channel} of 'value', which has shape {shape:?}"
        )));
    }
    Ok((channel, c))
}

fn bias_add(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (value, bias) = (ctx.input(0), ctx.input(1));
    let shape = value.shape();
    let (channel, c) = bias_channel(shape, bias.shape(), ctx.attrs)?;
    let dtype = ctx.same_dtype(0, 1)?;
    // With no elements the other dimensions may be huge: their product is
    // only meaningful (and only free of overflow) for a non-empty value.
    let inner: usize = if value.num_elements() == 0 {
        0
    } else {
        shape[channel + 1..].iter().product()
    };
    let out = crate::with_numeric_dtype!(dtype, T => {
        let (xs, bs) = (value.as_slice::<T>()?, bias.as_slice::<T>()?);
        let mut out = ctx.alloc_initialized::<T>(xs.len())?;
        let unit = c * inner;
        if unit > 0 {
            let parts = if worth_threads(xs.len()) { threads() } else { 1 };
            par_chunks(&mut out.data, unit, parts, |start, dst| {
                let src = xs.get(start..start + dst.len()).unwrap_or(&[]);
                if inner == 1 {
                    // Chunks start at a row boundary, so the bias cycles in step.
                    for (o, (&v, &b)) in dst.iter_mut().zip(src.iter().zip(bs.iter().cycle())) {
                        *o = v.add(b);
                    }
                } else {
                    let runs = dst.chunks_exact_mut(inner).zip(src.chunks_exact(inner));
                    for ((o, s), &b) in runs.zip(bs.iter().cycle()) {
                        for (o, &v) in o.iter_mut().zip(s) {
                            *o = v.add(b);
                        }
                    }
                }
            });
        }
        out.into_tensor(alloc::copied(shape)?)?
    }, bool => return Err(ctx.unsupported_dtype(0)));
    Ok(outputs([out]))
}

// ---------------------------------------------------------------------------
// Cross-entropy losses.

/// Runs `f(first_row, loss_rows, backprop_rows)` over row bands of both
/// outputs, on several threads when the work is large.
fn par_rows2<T: Float>(
    loss: &mut [T],
    backprop: &mut [T],
    c: usize,
    f: impl Fn(usize, &mut [T], &mut [T]) + Sync,
) {
    let rows = loss.len();
    let parts = if worth_threads(backprop.len().saturating_mul(EXP_COST)) {
        threads()
    } else {
        1
    };
    let per = rows.div_ceil(parts).max(1);
    if parts <= 1 || c == 0 {
        f(0, loss, backprop);
        return;
    }
    rayon::scope(|s| {
        let bands = loss.chunks_mut(per).zip(backprop.chunks_mut(per * c));
        for (i, (l, b)) in bands.enumerate() {
            let f = &f;
            s.spawn(move |_| f(i * per, l, b));
        }
    });
}

fn softmax_xent(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (f, l) = (ctx.input(0), ctx.input(1));
    let dtype = ctx.same_dtype(0, 1)?;
    ctx.expect_dtype(0, &[DataType::Float, DataType::Double])?;
    let shape = broadcast_shapes(f.shape(), l.shape()).ok_or_else(|| {
        Error::invalid(format!(
            "'features' has shape {:?} and 'labels' has shape {:?}, which do not broadcast",
            f.shape(),
            l.shape()
        ))
    })?;
    if shape.len() != 2 {
        return Err(Error::invalid(format!(
            "'features' (shape {:?}) and 'labels' (shape {:?}) must be matrices [batch, classes], or broadcast to one",
            f.shape(),
            l.shape()
        )));
    }
    match dtype {
        DataType::Float => xent_typed::<f32>(ctx, f, l, shape[0], shape[1]),
        _ => xent_typed::<f64>(ctx, f, l, shape[0], shape[1]),
    }
}

/// Row and column strides of a tensor broadcast to `[rows, cols]`.
fn strides2(shape: &[usize]) -> (usize, usize) {
    match shape {
        [r, c] => (if *r == 1 { 0 } else { *c }, usize::from(*c != 1)),
        [c] => (0, usize::from(*c != 1)),
        _ => (0, 0),
    }
}

fn xent_typed<T: Float>(
    ctx: &OpContext<'_>,
    f: &Tensor,
    l: &Tensor,
    b: usize,
    c: usize,
) -> Result<KernelOutputs> {
    let (fs, ls) = (f.as_slice::<T>()?, l.as_slice::<T>()?);
    let n = crate::tensor::num_elements(&[b, c])?;
    let mut loss = ctx.alloc_initialized::<T>(b)?;
    let mut backprop = ctx.alloc_initialized::<T>(n)?;
    let ((frs, fcs), (lrs, lcs)) = (strides2(f.shape()), strides2(l.shape()));
    let same = f.shape() == l.shape();
    // With no classes there are no rows to visit: every loss is an empty sum.
    loss.data.fill(T::ZERO);
    par_rows2(&mut loss.data, &mut backprop.data, c, |first, loss, bp| {
        let bp_rows = bp.chunks_exact_mut(c.max(1));
        for (r, (lo, bp)) in loss.iter_mut().zip(bp_rows).enumerate() {
            let i = first + r;
            let frow: &[T] = if same {
                fs.get(i * c..(i + 1) * c).unwrap_or(&[])
            } else {
                &[]
            };
            let at = |xs: &[T], rs: usize, cs: usize, j: usize| {
                xs.get(i * rs + j * cs).copied().unwrap_or(T::ZERO)
            };
            // The softmax goes into `bp` first; labels are subtracted after.
            let (m, lse) = if same {
                softmax_row(frow, bp, false)
            } else {
                let m = (0..c).fold(T::LOWEST, |m, j| MaxF.step(m, at(fs, frs, fcs, j)));
                let mut sum = T::ZERO;
                for (j, o) in bp.iter_mut().enumerate() {
                    *o = (at(fs, frs, fcs, j) - m).exp();
                    sum = sum.add(*o);
                }
                for o in bp.iter_mut() {
                    *o = *o / sum;
                }
                (m, sum.ln())
            };
            let mut total = T::ZERO;
            for (j, o) in bp.iter_mut().enumerate() {
                let label = if same {
                    ls.get(i * c + j).copied().unwrap_or(T::ZERO)
                } else {
                    at(ls, lrs, lcs, j)
                };
                let logit = if same {
                    frow.get(j).copied().unwrap_or(T::ZERO)
                } else {
                    at(fs, frs, fcs, j)
                };
                total = total.add(label.mul(lse - (logit - m)));
                *o = *o - label;
            }
            *lo = total;
        }
    });
    Ok(outputs([
        loss.into_tensor(Vec::from([b]))?,
        backprop.into_tensor(Vec::from([b, c]))?,
    ]))
}

fn sparse_softmax_xent(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (f, l) = (ctx.input(0), ctx.input(1));
    let dtype = ctx.expect_dtype(0, &[DataType::Float, DataType::Double])?;
    ctx.expect_dtype(1, &[DataType::Int32, DataType::Int64])?;
    let (b, c) = match f.shape() {
        [b, c] => (*b, *c),
        s => {
            return Err(Error::invalid(format!(
                "'features' must be a matrix [batch, classes] but has shape {s:?}"
            )));
        }
    };
    if l.shape() != [b] {
        return Err(Error::invalid(format!(
            "'labels' must have shape [{b}] to match 'features' of shape {:?}, but has shape {:?}",
            f.shape(),
            l.shape()
        )));
    }
    // Labels are read in place (no copy), as INT32 or INT64.
    let labels = match l.dtype() {
        DataType::Int32 => Labels::I32(l.as_slice::<i32>()?),
        _ => Labels::I64(l.as_slice::<i64>()?),
    };
    if let Some(bad) = (0..b)
        .map(|i| labels.get(i))
        .find(|&v| v < 0 || v as u64 >= c as u64)
    {
        return Err(Error::invalid(format!(
            "label value {bad} is outside the valid range [0, {c}) of 'features' with shape {:?}",
            f.shape()
        )));
    }
    match dtype {
        DataType::Float => sparse_typed::<f32>(ctx, f, labels, b, c),
        _ => sparse_typed::<f64>(ctx, f, labels, b, c),
    }
}

/// Class indices as given.
#[derive(Clone, Copy)]
enum Labels<'a> {
    I32(&'a [i32]),
    I64(&'a [i64]),
}

impl Labels<'_> {
    fn get(self, i: usize) -> i64 {
        match self {
            Labels::I32(v) => v.get(i).map_or(-1, |&x| i64::from(x)),
            Labels::I64(v) => v.get(i).copied().unwrap_or(-1),
        }
    }
}

fn sparse_typed<T: Float>(
    ctx: &OpContext<'_>,
    f: &Tensor,
    labels: Labels<'_>,
    b: usize,
    c: usize,
) -> Result<KernelOutputs> {
    let fs = f.as_slice::<T>()?;
    let mut loss = ctx.alloc_initialized::<T>(b)?;
    let mut backprop = ctx.alloc_initialized::<T>(fs.len())?;
    par_rows2(&mut loss.data, &mut backprop.data, c, |first, loss, bp| {
        let rows = fs.chunks_exact(c.max(1)).skip(first);
        let bp_rows = bp.chunks_exact_mut(c.max(1));
        for (r, ((lo, bp), row)) in loss.iter_mut().zip(bp_rows).zip(rows).enumerate() {
            let (m, lse) = softmax_row(row, bp, false);
            // Checked to be in [0, c) before any work.
            let j = labels.get(first + r) as usize;
            if let (Some(o), Some(&logit)) = (bp.get_mut(j), row.get(j)) {
                *o = *o - T::ONE;
                *lo = lse - (logit - m);
            }
        }
    });
    Ok(outputs([
        loss.into_tensor(Vec::from([b]))?,
        backprop.into_tensor(Vec::from([b, c]))?,
    ]))
}

// ---------------------------------------------------------------------------
// L2Loss.

fn l2_loss(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let t = ctx.input(0);
    let out = match ctx.expect_dtype(0, &[DataType::Float, DataType::Double])? {
        DataType::Float => {
            let v: f32 = fold_par(SumSqF, t.as_slice::<f32>()?);
            Tensor::scalar(ctx.account(), v / 2.0)?
        }
        _ => {
            let v: f64 = fold_par(SumSqF, t.as_slice::<f64>()?);
            Tensor::scalar(ctx.account(), v / 2.0)?
        }
    };
    Ok(outputs([out]))
}
