//! Shape ops: constants, views that share their input's buffer (Reshape,
//! ExpandDims, Squeeze, Identity), and the copying kernels (Slice,
//! StridedSlice, ConcatV2, Pack, Unpack, Split, GatherV2, Tile, BroadcastTo,
//! OneHot, Range, Fill).
//!
//! Every size that comes from a user is checked before anything is allocated,
//! and loops over outer dimensions run only when the output is non-empty, so
//! their trip counts are bounded by the output's (accounted) size.

use super::KernelOutputs;
use std::sync::Arc;

use super::{Kernel, OpContext, OpDef, Registry, int_values, normalize_axis};
use crate::bail;
use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::tensor::{self, Tensor};
use crate::with_dtype;

/// TensorFlow's limit on a tensor's rank (`TensorShape::MaxDimensions`).
const MAX_RANK: usize = 254;

/// Most outputs Unpack or Split may produce. A zero-size dimension "divides"
/// into any number of empty tensors, whose bookkeeping no byte limit sees.
const MAX_OUTPUTS: usize = 1 << 20;

pub(super) fn register(r: &mut Registry) {
    let mut add = |name: &'static str,
                   inputs: &'static [&'static str],
                   attrs: &'static [&'static str],
                   kernel: Kernel| {
        r.add(
            OpDef {
                name,
                inputs,
                attrs,
                kernel,
            },
            &[],
        )
    };
    add("Const", &[], &["value", "dtype"], constant);
    add("Identity", &["input"], &[], identity);
    add("StopGradient", &["input"], &[], identity);
    add("Reshape", &["tensor", "shape"], &[], reshape);
    add("Shape", &["input"], &["out_type"], shape);
    add("Size", &["input"], &["out_type"], size);
    add("Rank", &["input"], &[], rank);
    add("Fill", &["dims", "value"], &[], fill);
    add("ZerosLike", &["x"], &[], zeros_like);
    add("OnesLike", &["x"], &[], ones_like);
    add("ExpandDims", &["input", "axis"], &[], expand_dims);
    add("Squeeze", &["input"], &["squeeze_dims"], squeeze);
    add("Slice", &["input", "begin", "size"], &[], slice);
    add(
        "StridedSlice",
        &["input", "begin", "end", "strides"],
        &[
            "begin_mask",
            "end_mask",
            "ellipsis_mask",
            "new_axis_mask",
            "shrink_axis_mask",
        ],
        strided_slice,
    );
    add("ConcatV2", &["values[]", "axis"], &[], concat);
    add("Pack", &["values[]"], &["axis"], pack);
    add("Unpack", &["value"], &["num", "axis"], unpack);
    add("Split", &["split_dim", "value"], &["num_split"], split);
    add(
        "GatherV2",
        &["params", "indices", "axis"],
        &["batch_dims"],
        gather,
    );
    add("Tile", &["input", "multiples"], &[], tile);
    add("BroadcastTo", &["input", "shape"], &[], broadcast_to);
    add(
        "OneHot",
        &["indices", "depth", "on_value", "off_value"],
        &["axis"],
        one_hot,
    );
    add("Range", &["start", "limit", "delta"], &[], range);
}

// ---------------------------------------------------------------------------
// Argument helpers

fn internal(what: &str) -> Error {
    Error::invalid(format!("internal: {what}"))
}

fn check_rank(rank: usize, what: &str) -> Result<()> {
    if rank > MAX_RANK {
        bail!("{what} would have rank {rank}, more than the maximum of {MAX_RANK}");
    }
    Ok(())
}

/// Input `i` as an integer scalar (rank 0, INT32 or INT64).
fn int_scalar(ctx: &OpContext<'_>, i: usize) -> Result<i64> {
    require_scalar(ctx, i)?;
    int_values(ctx, i)?
        .first()
        .copied()
        .ok_or_else(|| internal("scalar without a value"))
}

/// Input `i` as an integer vector (rank 1, INT32 or INT64).
fn int_vector(ctx: &OpContext<'_>, i: usize) -> Result<Vec<i64>> {
    let t = ctx.input(i);
    if t.rank() != 1 {
        bail!(
            "input '{}' must be a vector but has shape {:?}",
            ctx.arg_name(i),
            t.shape()
        );
    }
    int_values(ctx, i)
}

/// Input `i` as the dimensions of a shape: a vector of non-negative values.
fn shape_arg(ctx: &OpContext<'_>, i: usize) -> Result<Vec<usize>> {
    let values = int_vector(ctx, i)?;
    check_rank(values.len(), "the output")?;
    let name = ctx.arg_name(i);
    let dims = values
        .iter()
        .enumerate()
        .map(|(d, &v)| {
            usize::try_from(v)
                .map_err(|_| Error::invalid(format!("{name}[{d}] = {v} must be non-negative")))
        })
        .collect::<Result<Vec<_>>>()?;
    tensor::num_elements(&dims)?;
    Ok(dims)
}

fn require_scalar<'a>(ctx: &OpContext<'a>, i: usize) -> Result<&'a Tensor> {
    let t = ctx.input(i);
    if t.rank() != 0 {
        bail!(
            "input '{}' must be a scalar but has shape {:?}",
            ctx.arg_name(i),
            t.shape()
        );
    }
    Ok(t)
}

/// `count` elements starting at `offset`, or an internal error (never a panic).
fn chunk<T>(src: &[T], offset: usize, count: usize) -> Result<&[T]> {
    offset
        .checked_add(count)
        .and_then(|end| src.get(offset..end))
        .ok_or_else(|| internal("copy out of bounds"))
}

/// A tensor of `shape` whose elements are all `value`.
fn filled<T: Element>(ctx: &OpContext<'_>, shape: Vec<usize>, value: T) -> Result<Tensor> {
    let n = tensor::num_elements(&shape)?;
    let mut out = ctx.alloc::<T>(n)?;
    out.data.resize(n, value);
    out.into_tensor(shape)
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

// ---------------------------------------------------------------------------
// Strided selection: the copy behind Slice, StridedSlice, Split and Unpack.

/// Which indices of one input axis a selection takes: `count` of them,
/// from `start`, `step` apart. When `count > 1`, `|step| < dim`.
#[derive(Clone, Copy, Debug)]
struct Axis {
    start: usize,
    count: usize,
    step: i64,
}

impl Axis {
    fn whole(dim: usize) -> Axis {
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
fn select(ctx: &OpContext<'_>, input: &Tensor, axes: &[Axis], shape: Vec<usize>) -> Result<Tensor> {
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
    let mut strides = vec![1usize; in_shape.len()];
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
    let mut idx = vec![0usize; odometer.len()];
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

// ---------------------------------------------------------------------------
// Kernels

fn constant(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let value = ctx
        .attrs
        .tensor("value")?
        .ok_or_else(|| Error::invalid("attribute 'value' is required"))?;
    if let Some(d) = ctx.attrs.dtype("dtype")?
        && d != value.dtype()
    {
        bail!(
            "attribute 'dtype' is {d} but 'value' is a {} tensor",
            value.dtype()
        );
    }
    // A copy, so that the session owns (and accounts) its constant however
    // long the attribute's tensor lives elsewhere.
    Ok(smallvec::smallvec![value.deep_copy(ctx.account())?])
}

fn identity(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    Ok(smallvec::smallvec![ctx.input(0).clone()])
}

fn reshape(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let input = ctx.input(0);
    let sizes_t = ctx.input(1);
    // A scalar is TF's legacy spelling of a one-dimensional shape.
    if sizes_t.rank() > 1 {
        bail!("shape must be 1-D but has shape {:?}", sizes_t.shape());
    }
    let sizes = int_values(ctx, 1)?;
    check_rank(sizes.len(), "the output")?;
    let mut shape = Vec::with_capacity(sizes.len());
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
        for &d in input.shape() {
            if d == 0 && has_zero {
                input_has_zero = true;
            } else {
                values = values.checked_mul(d).ok_or_else(|| {
                    Error::invalid(format!("input shape {:?} is too large", input.shape()))
                })?;
            }
        }
        let missing = values / known;
        if !input_has_zero && missing * known != values {
            bail!(
                "cannot reshape a tensor of shape {:?} ({} values) to {sizes:?}: \
                 {values} is not a multiple of {known}",
                input.shape(),
                input.num_elements()
            );
        }
        shape[u] = missing;
    }
    let n = tensor::num_elements(&shape)?;
    if n != input.num_elements() {
        bail!(
            "cannot reshape a tensor of shape {:?} ({} values) to {sizes:?} ({n} values)",
            input.shape(),
            input.num_elements()
        );
    }
    Ok(smallvec::smallvec![input.reshaped(shape)?])
}

fn shape(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let dims = ctx.input(0).shape();
    Ok(smallvec::smallvec![index_tensor(
        ctx,
        out_type(ctx)?,
        vec![dims.len()],
        dims,
    )?])
}

fn size(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let n = ctx.input(0).num_elements();
    Ok(smallvec::smallvec![index_tensor(
        ctx,
        out_type(ctx)?,
        vec![],
        &[n]
    )?])
}

fn rank(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let r = ctx.input(0).rank();
    Ok(smallvec::smallvec![index_tensor(
        ctx,
        DataType::Int32,
        vec![],
        &[r]
    )?])
}

fn fill(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let shape = shape_arg(ctx, 0)?;
    let value = require_scalar(ctx, 1)?;
    with_dtype!(value.dtype(), T => {
        Ok(smallvec::smallvec![filled::<T>(ctx, shape, value.scalar_value::<T>()?)?])
    })
}

/// TF's `OnesLike` value for each element type.
trait One {
    const ONE: Self;
}
impl One for f32 {
    const ONE: f32 = 1.0;
}
impl One for f64 {
    const ONE: f64 = 1.0;
}
impl One for i32 {
    const ONE: i32 = 1;
}
impl One for i64 {
    const ONE: i64 = 1;
}
impl One for u8 {
    const ONE: u8 = 1;
}
impl One for bool {
    const ONE: bool = true;
}

fn zeros_like(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    with_dtype!(x.dtype(), T => Ok(smallvec::smallvec![filled::<T>(ctx, x.shape().to_vec(), T::default())?]))
}

fn ones_like(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    with_dtype!(x.dtype(), T => Ok(smallvec::smallvec![filled::<T>(ctx, x.shape().to_vec(), <T as One>::ONE)?]))
}

fn expand_dims(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let input = ctx.input(0);
    let axis_t = ctx.input(1);
    // TF accepts any tensor holding exactly one value here.
    if axis_t.num_elements() != 1 {
        bail!(
            "axis must hold exactly one value but has shape {:?}",
            axis_t.shape()
        );
    }
    let axis = int_values(ctx, 1)?
        .first()
        .copied()
        .ok_or_else(|| internal("axis without a value"))?;
    let rank = input.rank();
    check_rank(rank + 1, "the output")?;
    let r = rank as i64;
    if axis < -r - 1 || axis > r {
        bail!(
            "axis {axis} is out of range for a tensor of rank {rank} (valid: [{}, {r}])",
            -r - 1
        );
    }
    let at = if axis < 0 { axis + r + 1 } else { axis } as usize;
    let mut shape = input.shape().to_vec();
    shape.insert(at, 1);
    Ok(smallvec::smallvec![input.reshaped(shape)?])
}

fn squeeze(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let input = ctx.input(0);
    let shape = input.shape();
    let dims = ctx.attrs.ints("squeeze_dims")?.unwrap_or(&[]);
    if dims.is_empty() {
        let kept = shape.iter().copied().filter(|&s| s != 1).collect();
        return Ok(smallvec::smallvec![input.reshaped(kept)?]);
    }
    let mut drop = vec![false; shape.len()];
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
    let kept = shape
        .iter()
        .zip(&drop)
        .filter(|&(_, &dropped)| !dropped)
        .map(|(&s, _)| s)
        .collect();
    Ok(smallvec::smallvec![input.reshaped(kept)?])
}

fn slice(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let input = ctx.input(0);
    ctx.same_dtype(1, 2)?;
    let begin = int_vector(ctx, 1)?;
    let size = int_vector(ctx, 2)?;
    let shape = input.shape();
    if begin.len() != shape.len() || size.len() != shape.len() {
        bail!(
            "begin and size must have one entry per dimension of input shape {shape:?}, \
             but have {} and {}",
            begin.len(),
            size.len()
        );
    }
    let mut axes = Vec::with_capacity(shape.len());
    for (d, ((&b, &s), &dim)) in begin.iter().zip(&size).zip(shape).enumerate() {
        let (b, s, dim) = (i128::from(b), i128::from(s), dim as i128);
        if b < 0 || b > dim {
            bail!("begin[{d}] = {b} is not in [0, {dim}] for input shape {shape:?}");
        }
        let s = if s == -1 { dim - b } else { s };
        if s < 0 || b + s > dim {
            bail!(
                "size[{d}] = {s} is not in [0, {}] for input shape {shape:?} and begin[{d}] = {b}",
                dim - b
            );
        }
        // Both fit: 0 <= b, s <= dim.
        axes.push(Axis {
            start: b as usize,
            count: s as usize,
            step: 1,
        });
    }
    let out_shape = axes.iter().map(|a| a.count).collect();
    Ok(smallvec::smallvec![select(ctx, input, &axes, out_shape)?])
}

/// One entry of a StridedSlice spec before the ellipsis is expanded.
enum SparseEntry {
    Ellipsis,
    NewAxis,
    Range {
        begin: i64,
        end: i64,
        stride: i64,
        begin_masked: bool,
        end_masked: bool,
        shrink: bool,
        /// Position in the spec, for messages.
        index: usize,
    },
}

/// Where each output dimension of a StridedSlice comes from.
enum FinalDim {
    Input(usize),
    NewAxis,
}

fn strided_slice(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let input = ctx.input(0);
    ctx.same_dtype(1, 2)?;
    ctx.same_dtype(1, 3)?;
    let begin = int_vector(ctx, 1)?;
    let end = int_vector(ctx, 2)?;
    let strides = int_vector(ctx, 3)?;
    if begin.len() != end.len() || begin.len() != strides.len() {
        bail!(
            "begin, end and strides must have the same length, but have {}, {} and {}",
            begin.len(),
            end.len(),
            strides.len()
        );
    }
    let mask = |name: &str| ctx.attrs.int(name, 0).map(|m| m as u64);
    let bit = |m: u64, i: usize| i < 64 && (m >> i) & 1 == 1;
    let (begin_mask, end_mask) = (mask("begin_mask")?, mask("end_mask")?);
    let (ellipsis_mask, new_axis_mask) = (mask("ellipsis_mask")?, mask("new_axis_mask")?);
    let shrink_mask = mask("shrink_axis_mask")?;
    if ellipsis_mask.count_ones() > 1 {
        bail!("multiple ellipses in slice spec not allowed (ellipsis_mask {ellipsis_mask:#b})");
    }

    // Step 1: the sparse spec, with an implicit ellipsis at the end if none is given.
    let mut sparse = Vec::with_capacity(begin.len() + 1);
    let mut ellipsis_at = None;
    let mut new_axes_after_ellipsis = 0usize;
    for i in 0..begin.len() {
        if ellipsis_at.is_some() && bit(new_axis_mask, i) {
            new_axes_after_ellipsis += 1;
        }
        if bit(ellipsis_mask, i) {
            ellipsis_at = Some(i);
            sparse.push(SparseEntry::Ellipsis);
        } else if bit(new_axis_mask, i) {
            sparse.push(SparseEntry::NewAxis);
        } else {
            sparse.push(SparseEntry::Range {
                begin: begin[i],
                end: end[i],
                stride: strides[i],
                begin_masked: bit(begin_mask, i),
                end_masked: bit(end_mask, i),
                shrink: bit(shrink_mask, i),
                index: i,
            });
        }
    }
    if ellipsis_at.is_none() {
        sparse.push(SparseEntry::Ellipsis);
    }

    // Step 2: one axis per input dimension; the ellipsis takes whole the
    // dimensions that the entries after it do not name.
    let shape = input.shape();
    let rank = shape.len();
    let mut axes: Vec<Axis> = Vec::with_capacity(rank);
    let mut final_dims = Vec::with_capacity(sparse.len() + rank);
    let n_sparse = sparse.len();
    for (i, entry) in sparse.iter().enumerate() {
        match *entry {
            SparseEntry::Ellipsis => {
                let after = n_sparse - i - 1;
                let next = (rank + new_axes_after_ellipsis + 1)
                    .saturating_sub(after + 1)
                    .min(rank);
                while axes.len() < next {
                    final_dims.push(FinalDim::Input(axes.len()));
                    axes.push(Axis::whole(shape[axes.len()]));
                }
            }
            SparseEntry::NewAxis => final_dims.push(FinalDim::NewAxis),
            SparseEntry::Range {
                begin,
                end,
                stride,
                begin_masked,
                end_masked,
                shrink,
                index,
            } => {
                let d = axes.len();
                let Some(&dim) = shape.get(d) else {
                    bail!(
                        "slice spec entry {index} indexes dimension {d}, \
                         but the input has shape {shape:?}"
                    );
                };
                if stride == 0 {
                    bail!("strides[{index}] must be non-zero");
                }
                let axis = if shrink {
                    if stride < 0 {
                        bail!("strides[{index}] = {stride}: a shrunk axis needs a positive stride");
                    }
                    let dim_i = dim as i128;
                    let b = i128::from(begin);
                    let at = if b < 0 { dim_i + b } else { b };
                    if at < 0 || at >= dim_i {
                        bail!(
                            "index {begin} (spec entry {index}) is out of bounds for dimension \
                             {d} of shape {shape:?}"
                        );
                    }
                    Axis {
                        start: at as usize,
                        count: 1,
                        step: 1,
                    }
                } else {
                    final_dims.push(FinalDim::Input(d));
                    range_axis(dim, begin, end, stride, begin_masked, end_masked)
                };
                axes.push(axis);
            }
        }
    }
    if axes.len() != rank {
        return Err(internal("slice spec does not cover the input"));
    }
    let out_shape: Vec<usize> = final_dims
        .iter()
        .map(|f| match f {
            FinalDim::Input(d) => axes.get(*d).map_or(1, |a| a.count),
            FinalDim::NewAxis => 1,
        })
        .collect();
    check_rank(out_shape.len(), "the output")?;
    Ok(smallvec::smallvec![select(ctx, input, &axes, out_shape)?])
}

/// TF's canonical form of `begin:end:stride` over a dimension of size `dim`:
/// negative indices count from the end, out-of-range ones are clamped.
fn range_axis(
    dim: usize,
    begin: i64,
    end: i64,
    stride: i64,
    begin_masked: bool,
    end_masked: bool,
) -> Axis {
    let (dim, s) = (dim as i128, i128::from(stride));
    // The first and one-past-last valid positions in the stride's direction.
    // Unmasked indices are clamped to [lo, hi]; masked ones start at the
    // first position in the stride's direction and end one past the last.
    let (lo, hi) = if s > 0 { (0, dim) } else { (-1, dim - 1) };
    let (first, past) = if s > 0 { (lo, hi) } else { (hi, lo) };
    let canonical = |x: i64, masked: bool, default: i128| {
        if masked {
            return default;
        }
        let x = i128::from(x);
        let x = if x < 0 { dim + x } else { x };
        x.clamp(lo, hi)
    };
    let b = canonical(begin, begin_masked, first);
    let e = canonical(end, end_masked, past);
    let interval = e - b;
    let count = if interval == 0 || (interval < 0) != (s < 0) {
        0
    } else {
        interval / s + i128::from(interval % s != 0)
    };
    if count == 0 {
        return Axis {
            start: 0,
            count: 0,
            step: 1,
        };
    }
    // count > 0: b is a valid index and count <= dim.
    Axis {
        start: b as usize,
        count: count as usize,
        step: stride,
    }
}

/// The first tensor of a non-empty list whose tensors share one dtype.
fn list_head(values: &[Arc<Tensor>]) -> Result<&Tensor> {
    let Some(first) = values.first() else {
        bail!("values must hold at least one tensor");
    };
    if let Some((i, v)) = values
        .iter()
        .enumerate()
        .find(|(_, v)| v.dtype() != first.dtype())
    {
        bail!(
            "values[{i}] has dtype {} but values[0] has dtype {}",
            v.dtype(),
            first.dtype()
        );
    }
    Ok(first)
}

fn concat(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let values = ctx.list(0);
    let first = list_head(values)?;
    let axis = int_scalar(ctx, 1)?;
    let rank = first.rank();
    if rank == 0 {
        bail!("cannot concatenate scalars (values[0] has shape []); use Pack");
    }
    let axis = normalize_axis(axis, rank, "axis")?;
    let mut out_shape = first.shape().to_vec();
    out_shape[axis] = 0;
    for (i, v) in values.iter().enumerate() {
        let matches = v.rank() == rank
            && v.shape()
                .iter()
                .zip(first.shape())
                .enumerate()
                .all(|(d, (a, b))| d == axis || a == b);
        if !matches {
            bail!(
                "values[{i}] has shape {:?}, which does not match values[0]'s shape {:?} \
                 outside dimension {axis}",
                v.shape(),
                first.shape()
            );
        }
        out_shape[axis] = out_shape[axis]
            .checked_add(v.shape()[axis])
            .ok_or_else(|| internal("concatenated size overflow"))?;
    }
    if values.len() == 1 {
        return Ok(smallvec::smallvec![first.clone()]);
    }
    let outer = tensor::num_elements(&first.shape()[..axis])?;
    let inner = tensor::num_elements(&first.shape()[axis + 1..])?;
    let blocks = values
        .iter()
        .map(|v| v.shape()[axis].checked_mul(inner))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| internal("block size overflow"))?;
    Ok(smallvec::smallvec![interleave(
        ctx, values, &blocks, outer, out_shape
    )?])
}

/// For each of `outer` steps, block `i` of each input `i` in turn: the copy
/// behind ConcatV2 and Pack.
fn interleave(
    ctx: &OpContext<'_>,
    values: &[Arc<Tensor>],
    blocks: &[usize],
    outer: usize,
    shape: Vec<usize>,
) -> Result<Tensor> {
    let dtype = values.first().map_or(DataType::Float, |v| v.dtype());
    with_dtype!(dtype, T => {
        let parts = values
            .iter()
            .map(|v| v.as_slice::<T>())
            .collect::<Result<Vec<_>>>()?;
        let n = tensor::num_elements(&shape)?;
        let mut out = ctx.alloc::<T>(n)?;
        // outer * sum(blocks) == n, so a non-empty output bounds the loop.
        if n > 0 {
            for o in 0..outer {
                for (src, &b) in parts.iter().zip(blocks) {
                    out.data.extend_from_slice(chunk(src, o * b, b)?);
                }
            }
        }
        out.into_tensor(shape)
    })
}

fn pack(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let values = ctx.list(0);
    let first = list_head(values)?;
    for (i, v) in values.iter().enumerate() {
        if v.shape() != first.shape() {
            bail!(
                "values[{i}] has shape {:?} but values[0] has shape {:?}; all must match",
                v.shape(),
                first.shape()
            );
        }
    }
    let rank = first.rank();
    check_rank(rank + 1, "the output")?;
    let axis = normalize_axis(ctx.attrs.int("axis", 0)?, rank + 1, "axis")?;
    let mut out_shape = first.shape().to_vec();
    out_shape.insert(axis, values.len());
    let outer = tensor::num_elements(&first.shape()[..axis])?;
    let block = tensor::num_elements(&first.shape()[axis..])?;
    let blocks = vec![block; values.len()];
    Ok(smallvec::smallvec![interleave(
        ctx, values, &blocks, outer, out_shape
    )?])
}

/// Checks an attribute-given output count against [`MAX_OUTPUTS`].
fn check_outputs(n: usize) -> Result<()> {
    if n > MAX_OUTPUTS {
        bail!("{n} outputs requested; at most {MAX_OUTPUTS} are supported");
    }
    Ok(())
}

fn unpack(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let value = ctx.input(0);
    let num = ctx.attrs.required_int("num")?;
    let shape = value.shape();
    let axis = normalize_axis(ctx.attrs.int("axis", 0)?, shape.len(), "axis")?;
    let dim = shape[axis];
    if usize::try_from(num).ok() != Some(dim) {
        bail!("attribute 'num' is {num} but dimension {axis} of value's shape {shape:?} is {dim}");
    }
    check_outputs(dim)?;
    let mut out_shape = shape.to_vec();
    out_shape.remove(axis);
    let mut axes: Vec<Axis> = shape.iter().map(|&d| Axis::whole(d)).collect();
    let mut outputs = Vec::with_capacity(dim);
    for i in 0..dim {
        axes[axis] = Axis {
            start: i,
            count: 1,
            step: 1,
        };
        outputs.push(select(ctx, value, &axes, out_shape.clone())?);
    }
    Ok(KernelOutputs::from_vec(outputs))
}

fn split(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    ctx.expect_dtype(0, &[DataType::Int32])?;
    let split_dim = int_scalar(ctx, 0)?;
    let value = ctx.input(1);
    let num = ctx.attrs.required_int("num_split")?;
    let shape = value.shape();
    let axis = normalize_axis(split_dim, shape.len(), "split_dim")?;
    let dim = shape[axis];
    let pieces = match usize::try_from(num) {
        Ok(n) if n >= 1 => n,
        _ => bail!("attribute 'num_split' must be at least 1 but is {num}"),
    };
    if !dim.is_multiple_of(pieces) {
        bail!(
            "num_split {pieces} does not evenly divide dimension {axis} of value's shape \
             {shape:?} (size {dim})"
        );
    }
    check_outputs(pieces)?;
    let piece = dim / pieces;
    let mut out_shape = shape.to_vec();
    out_shape[axis] = piece;
    let mut axes: Vec<Axis> = shape.iter().map(|&d| Axis::whole(d)).collect();
    let mut outputs = Vec::with_capacity(pieces);
    for k in 0..pieces {
        axes[axis] = Axis {
            start: k * piece,
            count: piece,
            step: 1,
        };
        outputs.push(select(ctx, value, &axes, out_shape.clone())?);
    }
    Ok(KernelOutputs::from_vec(outputs))
}

/// Formats a flat position of a tensor of `shape` as `[i, j, ...]`.
fn coords(mut flat: usize, shape: &[usize]) -> String {
    let mut c = vec![0usize; shape.len()];
    for (slot, &d) in c.iter_mut().zip(shape).rev() {
        if d > 0 {
            *slot = flat % d;
            flat /= d;
        }
    }
    let parts: Vec<String> = c.iter().map(|v| v.to_string()).collect();
    format!("[{}]", parts.join(", "))
}

fn gather(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let params = ctx.input(0);
    let indices = ctx.input(1);
    ctx.expect_dtype(1, &[DataType::Int32, DataType::Int64])?;
    let axis = int_scalar(ctx, 2)?;
    let (pshape, ishape) = (params.shape(), indices.shape());
    let axis = normalize_axis(axis, pshape.len(), "axis")?;
    let irank = ishape.len() as i64;
    let batch = ctx.attrs.int("batch_dims", 0)?;
    if batch < -irank || batch > irank {
        bail!(
            "batch_dims {batch} is out of range for indices of shape {ishape:?} \
             (valid: [{}, {irank}])",
            -irank
        );
    }
    let batch = if batch < 0 { batch + irank } else { batch } as usize;
    if batch > 0 {
        if batch >= pshape.len() {
            bail!("batch_dims {batch} must be less than the rank of params {pshape:?}");
        }
        if axis < batch {
            bail!("batch_dims {batch} must not exceed axis {axis}");
        }
        if pshape[..batch] != ishape[..batch] {
            bail!(
                "the first {batch} dimensions of params {pshape:?} and indices {ishape:?} \
                 must be equal (batch_dims)"
            );
        }
    }
    let mut out_shape = pshape[..axis].to_vec();
    out_shape.extend_from_slice(&ishape[batch..]);
    out_shape.extend_from_slice(&pshape[axis + 1..]);
    check_rank(out_shape.len(), "the output")?;
    let g = Gather {
        batch: tensor::num_elements(&pshape[..batch])?,
        outer: tensor::num_elements(&pshape[batch..axis])?,
        dim: pshape[axis],
        inner: tensor::num_elements(&pshape[axis + 1..])?,
        per_batch: tensor::num_elements(&ishape[batch..])?,
    };
    let out = match indices.dtype() {
        DataType::Int32 => with_dtype!(params.dtype(), T => {
            g.run::<T, i32>(ctx, params.as_slice()?, indices.as_slice()?, ishape, out_shape)
        }),
        _ => with_dtype!(params.dtype(), T => {
            g.run::<T, i64>(ctx, params.as_slice()?, indices.as_slice()?, ishape, out_shape)
        }),
    }?;
    Ok(smallvec::smallvec![out])
}

/// GatherV2's params viewed as `[batch, outer, dim, inner]` and its indices
/// as `[batch, per_batch]`.
struct Gather {
    batch: usize,
    outer: usize,
    dim: usize,
    inner: usize,
    per_batch: usize,
}

impl Gather {
    fn run<T: Element, I: Element + Into<i64>>(
        &self,
        ctx: &OpContext<'_>,
        src: &[T],
        idx: &[I],
        ishape: &[usize],
        shape: Vec<usize>,
    ) -> Result<Tensor> {
        // TF's CPU kernel rejects out-of-range indices (no zero fill).
        for (flat, &i) in idx.iter().enumerate() {
            let v: i64 = i.into();
            if usize::try_from(v).map_or(true, |v| v >= self.dim) {
                bail!(
                    "indices{} = {v} is not in [0, {})",
                    coords(flat, ishape),
                    self.dim
                );
            }
        }
        let n = tensor::num_elements(&shape)?;
        let mut out = ctx.alloc::<T>(n)?;
        // Non-empty output: every factor is >= 1 and params is non-empty, so
        // the offsets below stay within `src`.
        if n > 0 {
            for b in 0..self.batch {
                let ids = chunk(idx, b * self.per_batch, self.per_batch)?;
                for o in 0..self.outer {
                    let base = (b * self.outer + o) * self.dim;
                    for &i in ids {
                        let row = usize::try_from(i.into()).map_err(|_| internal("index"))?;
                        out.data.extend_from_slice(chunk(
                            src,
                            (base + row) * self.inner,
                            self.inner,
                        )?);
                    }
                }
            }
        }
        out.into_tensor(shape)
    }
}

fn tile(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let input = ctx.input(0);
    let multiples = int_vector(ctx, 1)?;
    let shape = input.shape();
    if multiples.len() != shape.len() {
        bail!(
            "multiples has {} entries but input has shape {shape:?}; one per dimension is needed",
            multiples.len()
        );
    }
    let mut reps = Vec::with_capacity(shape.len());
    let mut out_shape = Vec::with_capacity(shape.len());
    for (d, (&m, &s)) in multiples.iter().zip(shape).enumerate() {
        let m = usize::try_from(m)
            .map_err(|_| Error::invalid(format!("multiples[{d}] = {m} must be non-negative")))?;
        out_shape.push(s.checked_mul(m).ok_or_else(|| {
            Error::invalid(format!(
                "tiling shape {shape:?} by {multiples:?} has too many elements"
            ))
        })?);
        reps.push(m);
    }
    if reps.iter().all(|&m| m == 1) {
        return Ok(smallvec::smallvec![input.clone()]);
    }
    Ok(smallvec::smallvec![tile_copy(
        ctx, input, shape, &reps, out_shape
    )?])
}

/// `input` (viewed as `shape`) repeated `reps[d]` times along each axis `d`.
fn tile_copy(
    ctx: &OpContext<'_>,
    input: &Tensor,
    shape: &[usize],
    reps: &[usize],
    out_shape: Vec<usize>,
) -> Result<Tensor> {
    with_dtype!(input.dtype(), T => tile_typed::<T>(ctx, input.as_slice()?, shape, reps, out_shape))
}

fn tile_typed<T: Element>(
    ctx: &OpContext<'_>,
    src: &[T],
    shape: &[usize],
    reps: &[usize],
    out_shape: Vec<usize>,
) -> Result<Tensor> {
    let n = tensor::num_elements(&out_shape)?;
    let mut out = ctx.alloc::<T>(n)?;
    if n == 0 {
        return out.into_tensor(out_shape);
    }
    let (Some((&row, dims)), Some((&row_reps, dim_reps))) = (shape.split_last(), reps.split_last())
    else {
        // A scalar: nothing to repeat.
        out.data.extend_from_slice(src);
        return out.into_tensor(out_shape);
    };
    // Walk the input's rows in order, writing each row `row_reps` times.
    // When an axis has gone through its whole extent once, the block written
    // since it started is its first copy: append the other copies of it.
    let mut idx = vec![0usize; dims.len()];
    let mut starts = vec![0usize; dims.len()];
    let mut offset = 0usize;
    'rows: loop {
        let r = chunk(src, offset, row)?;
        for _ in 0..row_reps {
            out.data.extend_from_slice(r);
        }
        offset += row;
        let mut d = dims.len();
        loop {
            if d == 0 {
                break 'rows;
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < dims[d] {
                break;
            }
            idx[d] = 0;
            let block = starts[d]..out.data.len();
            for _ in 1..dim_reps[d] {
                out.data.extend_from_within(block.clone());
            }
        }
        let len = out.data.len();
        for s in &mut starts[d + 1..] {
            *s = len;
        }
    }
    out.into_tensor(out_shape)
}

fn broadcast_to(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let input = ctx.input(0);
    let target = shape_arg(ctx, 1)?;
    let shape = input.shape();
    if target == shape {
        return Ok(smallvec::smallvec![input.clone()]);
    }
    let cannot = || {
        Error::invalid(format!(
            "cannot broadcast a tensor of shape {shape:?} to shape {target:?}"
        ))
    };
    let lead = target.len().checked_sub(shape.len()).ok_or_else(cannot)?;
    // The input's shape padded with leading ones, and how often to repeat each axis.
    let mut padded = vec![1usize; lead];
    padded.extend_from_slice(shape);
    let reps = padded
        .iter()
        .zip(&target)
        .map(|(&s, &t)| match s {
            _ if s == t => Ok(1),
            1 => Ok(t),
            _ => Err(cannot()),
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(smallvec::smallvec![tile_copy(
        ctx, input, &padded, &reps, target
    )?])
}

fn one_hot(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let indices = ctx.input(0);
    ctx.expect_dtype(0, &[DataType::UInt8, DataType::Int32, DataType::Int64])?;
    ctx.expect_dtype(1, &[DataType::Int32])?;
    let depth = int_scalar(ctx, 1)?;
    let depth = usize::try_from(depth)
        .map_err(|_| Error::invalid(format!("depth must be non-negative but is {depth}")))?;
    let on = require_scalar(ctx, 2)?;
    let off = require_scalar(ctx, 3)?;
    ctx.same_dtype(2, 3)?;
    let ishape = indices.shape();
    let irank = ishape.len();
    let axis = ctx.attrs.int("axis", -1)?;
    let at = match axis {
        -1 => irank,
        a if (0..=irank as i64).contains(&a) => a as usize,
        a => {
            bail!("axis must be -1 or in [0, {irank}] for indices of shape {ishape:?}, but is {a}")
        }
    };
    check_rank(irank + 1, "the output")?;
    let mut out_shape = ishape.to_vec();
    out_shape.insert(at, depth);
    let h = OneHotShape {
        depth,
        suffix: tensor::num_elements(&ishape[at..])?,
    };
    let out = match indices.dtype() {
        DataType::UInt8 => {
            with_dtype!(on.dtype(), T => h.run::<T, u8>(ctx, indices, on, off, out_shape))
        }
        DataType::Int32 => {
            with_dtype!(on.dtype(), T => h.run::<T, i32>(ctx, indices, on, off, out_shape))
        }
        _ => with_dtype!(on.dtype(), T => h.run::<T, i64>(ctx, indices, on, off, out_shape)),
    }?;
    Ok(smallvec::smallvec![out])
}

/// OneHot's output viewed as `[prefix, depth, suffix]`, indices as `[prefix, suffix]`.
struct OneHotShape {
    depth: usize,
    suffix: usize,
}

impl OneHotShape {
    fn run<T: Element, I: Element + Into<i64>>(
        &self,
        ctx: &OpContext<'_>,
        indices: &Tensor,
        on: &Tensor,
        off: &Tensor,
        shape: Vec<usize>,
    ) -> Result<Tensor> {
        let (on, off) = (on.scalar_value::<T>()?, off.scalar_value::<T>()?);
        let n = tensor::num_elements(&shape)?;
        let mut out = ctx.alloc::<T>(n)?;
        out.data.resize(n, off);
        if n > 0 {
            // Non-empty output: depth >= 1 and suffix >= 1.
            for (flat, &i) in indices.as_slice::<I>()?.iter().enumerate() {
                // Out-of-range indices leave their row all off_value, as in TF.
                let Some(v) = usize::try_from(i.into()).ok().filter(|&v| v < self.depth) else {
                    continue;
                };
                let (p, s) = (flat / self.suffix, flat % self.suffix);
                if let Some(slot) = out.data.get_mut((p * self.depth + v) * self.suffix + s) {
                    *slot = on;
                }
            }
        }
        out.into_tensor(shape)
    }
}

fn range(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let dtype = ctx.same_dtype(0, 1)?;
    ctx.same_dtype(0, 2)?;
    for i in 0..3 {
        require_scalar(ctx, i)?;
    }
    let out = match dtype {
        DataType::Int32 => range_int::<i32>(ctx)?,
        DataType::Int64 => range_int::<i64>(ctx)?,
        DataType::Float => {
            let (s, l, d) = scalars::<f32>(ctx)?;
            range_float(ctx, (s, l, d), f64::from(((l - s) / d).abs().ceil()), |i| {
                s + i as f32 * d
            })?
        }
        DataType::Double => {
            let (s, l, d) = scalars::<f64>(ctx)?;
            range_float(ctx, (s, l, d), ((l - s) / d).abs().ceil(), |i| {
                s + i as f64 * d
            })?
        }
        _ => return Err(ctx.unsupported_dtype(0)),
    };
    Ok(smallvec::smallvec![out])
}

fn scalars<T: Element>(ctx: &OpContext<'_>) -> Result<(T, T, T)> {
    Ok((
        ctx.input(0).scalar_value()?,
        ctx.input(1).scalar_value()?,
        ctx.input(2).scalar_value()?,
    ))
}

/// TF's checks: a non-zero delta that moves from start towards limit.
fn check_direction<T: Element + PartialOrd>(start: T, limit: T, delta: T) -> Result<()> {
    let zero = T::default();
    if delta == zero {
        bail!("delta must be non-zero");
    }
    // A NaN start or limit fails these comparisons; a NaN delta makes the
    // size NaN, which the caller rejects.
    if delta > zero {
        if start <= limit {
            return Ok(());
        }
        bail!("start {start:?} must not exceed limit {limit:?} when delta {delta:?} is positive");
    }
    if start >= limit {
        return Ok(());
    }
    bail!("start {start:?} must not be below limit {limit:?} when delta {delta:?} is negative")
}

fn range_int<T: Element + PartialOrd + Into<i64> + TryFrom<i64>>(
    ctx: &OpContext<'_>,
) -> Result<Tensor> {
    let (s, l, d) = scalars::<T>(ctx)?;
    check_direction(s, l, d)?;
    // i128: limit - start overflows T (and i64) for wide ranges.
    let (s, l, d) = (
        i128::from(s.into()),
        i128::from(l.into()),
        i128::from(d.into()),
    );
    let step = d.abs();
    let n = usize::try_from(((l - s).abs() + step - 1) / step)
        .map_err(|_| Error::invalid("the range has too many elements"))?;
    let mut out = ctx.alloc::<T>(n)?;
    for i in 0..n {
        // Every value lies between start and limit, so it fits T.
        let v = i64::try_from(s + i as i128 * d)
            .ok()
            .and_then(|v| T::try_from(v).ok())
            .ok_or_else(|| internal("range value"))?;
        out.data.push(v);
    }
    out.into_tensor(vec![n])
}

fn range_float<T: Element + PartialOrd>(
    ctx: &OpContext<'_>,
    (start, limit, delta): (T, T, T),
    size: f64,
    at: impl Fn(usize) -> T,
) -> Result<Tensor> {
    check_direction(start, limit, delta)?;
    // Also rejects NaN and infinite sizes.
    if size.is_nan() || size > i64::MAX as f64 {
        bail!("the range from {start:?} to {limit:?} by {delta:?} has too many elements ({size})");
    }
    let n = size as usize;
    let mut out = ctx.alloc::<T>(n)?;
    out.data.extend((0..n).map(at));
    out.into_tensor(vec![n])
}
