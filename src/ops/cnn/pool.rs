//! `MaxPool` (window and strides as attributes), `MaxPoolV2` (as INT32
//! inputs: TensorFlow Java's `tf.nn.maxPool`) and `AvgPool`, over the rows
//! and columns of an NHWC batch.
//!
//! As TensorFlow's CPU kernels: a window's padded positions are left out
//! (the average divides by the in-bounds count), NCHW and pooling over the
//! batch are refused, and a max-pool output starts at the dtype's lowest
//! finite value (so a window holding only -inf gives that value, and a NaN
//! never replaces a number). Pooling across depth is not supported.

use super::window::{self, Dim, Padding};
use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::ops::parallel::{par_chunks, threads, worth_threads};
use crate::ops::{Attrs, KernelOutputs, OpContext, outputs};
use crate::tensor::Tensor;

/// Which pooling op, for its checks and messages.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(in crate::ops) enum Kind {
    Max,
    Avg,
}

/// The dtypes `AvgPool` takes; `MaxPool` takes every numeric one.
pub(in crate::ops) const AVG_DTYPES: &[DataType] = &[DataType::Float, DataType::Double];

/// Everything one pooling call's shapes and attributes decide.
#[derive(Clone, Debug)]
pub(in crate::ops) struct Pool {
    pub batch: usize,
    pub in_rows: usize,
    pub in_cols: usize,
    pub depth: usize,
    pub window: (usize, usize),
    pub stride: (usize, usize),
    pub rows: Dim,
    pub cols: Dim,
}

impl Pool {
    pub fn out_shape(&self) -> Vec<usize> {
        Vec::from([self.batch, self.rows.out, self.cols.out, self.depth])
    }
}

/// The attribute checks TensorFlow's kernels make when built: data format
/// (NHWC only on the CPU) and padding. Returns the padding and its explicit
/// amounts.
pub(in crate::ops) fn pool_attrs(
    kind: Kind,
    attrs: &Attrs,
) -> Result<(Padding, [(usize, usize); 2])> {
    if !window::nhwc(attrs)? {
        return Err(Error::invalid(format!(
            "the CPU kernel supports only the NHWC data format, as TensorFlow's {} does; the op was given NCHW",
            match kind {
                Kind::Max => "MaxPool",
                Kind::Avg => "AvgPool",
            }
        )));
    }
    let padding = window::padding(attrs, kind == Kind::Max)?;
    let explicit = window::explicit_paddings(attrs, padding, true)?;
    Ok((padding, explicit))
}

/// The window and stride checks and the output geometry for an input of
/// shape `input`, named `arg`.
pub(in crate::ops) fn pool_geometry(
    arg: &str,
    input: &[usize],
    ksize: &[i64],
    strides: &[i64],
    padding: Padding,
    explicit: [(usize, usize); 2],
) -> Result<Pool> {
    let four = |name: &str, v: &[i64]| -> Result<[i64; 4]> {
        v.try_into()
            .map_err(|_| Error::invalid(format!("'{name}' must specify 4 dimensions but is {v:?}")))
    };
    let (k, s) = (four("ksize", ksize)?, four("strides", strides)?);
    if k[0] != 1 || s[0] != 1 {
        return Err(Error::Unsupported(format!(
            "pooling over the batch dimension is not supported (ksize {k:?}, strides {s:?})"
        )));
    }
    window::positive("ksize", &k)?;
    window::positive("strides", &s)?;
    let &[n, h, w, c] = input else {
        return Err(Error::invalid(format!(
            "'{arg}' must be 4-dimensional but has shape {input:?}"
        )));
    };
    if k[3] != 1 {
        return Err(Error::Unsupported(format!(
            "pooling across depth is not supported (ksize {k:?})"
        )));
    }
    let rows = window::output_dim("rows", h, k[1] as usize, 1, s[1], padding, explicit[0])?;
    let cols = window::output_dim("cols", w, k[2] as usize, 1, s[2], padding, explicit[1])?;
    Ok(Pool {
        batch: n,
        in_rows: h,
        in_cols: w,
        depth: c,
        window: (k[1] as usize, k[2] as usize),
        stride: (s[1] as usize, s[2] as usize),
        rows,
        cols,
    })
}

/// `ksize` and `strides` of `MaxPool` and `AvgPool`, from attributes.
pub(in crate::ops) fn attr_windows(attrs: &Attrs) -> Result<(&[i64], &[i64])> {
    let get = |name: &str| {
        attrs
            .ints(name)?
            .ok_or_else(|| Error::invalid(format!("attribute '{name}' is required (4 entries)")))
    };
    Ok((get("ksize")?, get("strides")?))
}

pub(super) fn max_pool(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    ctx.expect_dtype(0, MAX_DTYPES)?;
    let (padding, explicit) = pool_attrs(Kind::Max, ctx.attrs)?;
    let (k, s) = attr_windows(ctx.attrs)?;
    let g = pool_geometry(
        ctx.arg_name(0),
        ctx.input(0).shape(),
        k,
        s,
        padding,
        explicit,
    )?;
    Ok(outputs([max_typed(ctx, &g)?]))
}

pub(super) fn max_pool_v2(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    ctx.expect_dtype(0, MAX_DTYPES)?;
    let (padding, explicit) = pool_attrs(Kind::Max, ctx.attrs)?;
    let k = v2_window(ctx, 1)?;
    let s = v2_window(ctx, 2)?;
    let g = pool_geometry(
        ctx.arg_name(0),
        ctx.input(0).shape(),
        &k,
        &s,
        padding,
        explicit,
    )?;
    Ok(outputs([max_typed(ctx, &g)?]))
}

/// `MaxPoolV2`'s 'ksize' or 'strides' input: an INT32 vector.
fn v2_window(ctx: &OpContext<'_>, i: usize) -> Result<crate::scratch::Scratch<i64>> {
    v2_window_of(ctx.account(), ctx.input(i), ctx.arg_name(i))
}

/// [`v2_window`] of tensor `t`, the input named `arg` (also for inference).
pub(in crate::ops) fn v2_window_of(
    account: &std::sync::Arc<crate::memory::MemoryAccount>,
    t: &Tensor,
    arg: &str,
) -> Result<crate::scratch::Scratch<i64>> {
    crate::ops::expect_dtype(arg, t.dtype(), &[DataType::Int32])?;
    if t.rank() != 1 {
        return Err(Error::invalid(format!(
            "'{arg}' must be a vector but has shape {:?}",
            t.shape()
        )));
    }
    crate::ops::int_values_of(account, t, arg)
}

/// The dtypes `MaxPool` takes.
pub(in crate::ops) const MAX_DTYPES: &[DataType] = &[
    DataType::Float,
    DataType::Double,
    DataType::Int32,
    DataType::Int64,
    DataType::UInt8,
];

fn max_typed(ctx: &OpContext<'_>, g: &Pool) -> Result<Tensor> {
    let x = ctx.input(0);
    match x.dtype() {
        DataType::Float => pool_typed::<f32>(ctx, g, x, MaxOp),
        DataType::Double => pool_typed::<f64>(ctx, g, x, MaxOp),
        DataType::Int32 => pool_typed::<i32>(ctx, g, x, MaxOp),
        DataType::Int64 => pool_typed::<i64>(ctx, g, x, MaxOp),
        DataType::UInt8 => pool_typed::<u8>(ctx, g, x, MaxOp),
        _ => Err(ctx.unsupported_dtype(0)),
    }
}

pub(super) fn avg_pool(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let dtype = ctx.expect_dtype(0, AVG_DTYPES)?;
    let (padding, explicit) = pool_attrs(Kind::Avg, ctx.attrs)?;
    let (k, s) = attr_windows(ctx.attrs)?;
    let g = pool_geometry(ctx.arg_name(0), x.shape(), k, s, padding, explicit)?;
    let out = match dtype {
        DataType::Float => pool_typed::<f32>(ctx, &g, x, AvgOp)?,
        _ => pool_typed::<f64>(ctx, &g, x, AvgOp)?,
    };
    Ok(outputs([out]))
}

/// A pooling reduction over a window's rows of `depth` values.
trait PoolOp<T>: Sync {
    fn start(&self, out: &mut [T]);
    fn step(&self, out: &mut [T], row: &[T]);
    fn finish(&self, out: &mut [T], count: usize);
}

struct MaxOp;
struct AvgOp;

/// The lowest finite value of each numeric dtype.
trait Lowest: Element + PartialOrd {
    const LOWEST_FINITE: Self;
}
macro_rules! lowest {
    ($($t:ty),*) => {$(impl Lowest for $t { const LOWEST_FINITE: Self = <$t>::MIN; })*};
}
lowest!(f32, f64, i32, i64, u8);

impl<T: Lowest> PoolOp<T> for MaxOp {
    fn start(&self, out: &mut [T]) {
        out.fill(T::LOWEST_FINITE);
    }
    #[inline]
    fn step(&self, out: &mut [T], row: &[T]) {
        for (o, &v) in out.iter_mut().zip(row) {
            if *o < v {
                *o = v;
            }
        }
    }
    fn finish(&self, _: &mut [T], _: usize) {}
}

/// Floats averaged by `AvgPool`.
trait Avg: Element + std::ops::AddAssign + std::ops::Div<Output = Self> {
    fn of(n: usize) -> Self;
}
impl Avg for f32 {
    fn of(n: usize) -> f32 {
        n as f32
    }
}
impl Avg for f64 {
    fn of(n: usize) -> f64 {
        n as f64
    }
}

impl<T: Avg> PoolOp<T> for AvgOp {
    fn start(&self, out: &mut [T]) {
        out.fill(T::default());
    }
    #[inline]
    fn step(&self, out: &mut [T], row: &[T]) {
        for (o, &v) in out.iter_mut().zip(row) {
            *o += v;
        }
    }
    fn finish(&self, out: &mut [T], count: usize) {
        let n = T::of(count);
        for o in out {
            *o = *o / n;
        }
    }
}

fn pool_typed<T: Element>(
    ctx: &OpContext<'_>,
    g: &Pool,
    x: &Tensor,
    op: impl PoolOp<T>,
) -> Result<Tensor> {
    let xs = x.as_slice::<T>()?;
    let shape = g.out_shape();
    let n = crate::tensor::num_elements(&shape)?;
    let mut out = ctx.alloc_initialized::<T>(n)?;
    let c = g.depth;
    if n == 0 {
        return out.into_tensor(shape);
    }
    let (oh, ow) = (g.rows.out, g.cols.out);
    let work = n.saturating_mul(g.window.0.saturating_mul(g.window.1));
    let parts = if worth_threads(work) { threads() } else { 1 };
    par_chunks(&mut out.data, c, parts, |start, dst| {
        for (i, o) in dst.chunks_exact_mut(c).enumerate() {
            let pos = start / c + i;
            let (b, oy, ox) = (pos / (oh * ow), (pos / ow) % oh, pos % ow);
            let range = |o: usize, s: usize, k: usize, pad: usize, len: usize| {
                let lo = (o * s) as i64 - pad as i64;
                let hi = (lo + k as i64).min(len as i64);
                (lo.max(0) as usize, hi.max(0) as usize)
            };
            let (y0, y1) = range(oy, g.stride.0, g.window.0, g.rows.pad, g.in_rows);
            let (x0, x1) = range(ox, g.stride.1, g.window.1, g.cols.pad, g.in_cols);
            op.start(o);
            for iy in y0..y1 {
                for ix in x0..x1 {
                    let s = ((b * g.in_rows + iy) * g.in_cols + ix) * c;
                    op.step(o, &xs[s..s + c]);
                }
            }
            op.finish(o, y1.saturating_sub(y0) * x1.saturating_sub(x0));
        }
    });
    out.into_tensor(shape)
}
