//! `Einsum` (issue 24's last linalg op): sums of products over the labels of
//! an equation (`parse`), for one or two operands as TensorFlow's kernel.
//!
//! As TensorFlow's kernel: each operand is first reduced on its own (labels
//! only it has that the output lacks are summed, repeated labels give their
//! diagonal) and laid out as a batch of matrices `[batch..., free, contract]`
//! (the second as `[batch..., contract, free]`); one operand then only needs
//! its result placed, two are multiplied as matrices through the crate's
//! matmul path (faer for FLOAT and DOUBLE, a wrapping loop for INT32 and
//! INT64), their batch dimensions broadcast. The result is then placed in
//! the output's order (zeros off the diagonal of a repeated output label).
//! A layout step is skipped where the data already has that layout (plain
//! `MatMul` and batch `MatMul` equations copy nothing).

mod parse;

use parse::{Equation, Plan};

use super::infer::{InferCtx, Meta};
use super::linalg::{MatElem, PAR_MIN_MACS, Product};
use super::parallel::{par_chunks, threads, worth_threads};
use super::{KernelOutputs, OpContext, OpDef, Registry, expect_dtype, outputs};
use crate::alloc;
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::scratch::Scratch;
use crate::tensor::{Tensor, num_elements};

pub(super) fn register(r: &mut Registry) {
    r.add([OpDef::new("Einsum", &["inputs[]"], &["output"], einsum)
        .attrs(&["equation"])
        .infer(infer)
        .halves()]);
}

/// The dtypes TensorFlow's CPU kernel takes that eagerflow has (HALF and
/// BFLOAT16 too, through FLOAT: `OpDef::halves`).
const DTYPES: &[DataType] = &[
    DataType::Float,
    DataType::Double,
    DataType::Int32,
    DataType::Int64,
];

/// The `equation` attribute, parsed.
fn equation(attrs: &super::Attrs) -> Result<Equation> {
    let text = attrs
        .string("equation")?
        .ok_or_else(|| Error::invalid("attribute 'equation' is required"))?;
    Equation::parse(text)
}

/// The one dtype of the inputs, checked (`None` while one is unknown).
fn list_dtype(dtypes: impl Iterator<Item = Option<DataType>>) -> Result<Option<DataType>> {
    let mut first: Option<DataType> = None;
    let mut unknown = false;
    for (i, d) in dtypes.enumerate() {
        let Some(d) = d else {
            unknown = true;
            continue;
        };
        match first {
            None if i == 0 => first = Some(expect_dtype("inputs", d, DTYPES)?),
            Some(f) if f != d => {
                return Err(Error::invalid(format!(
                    "inputs[{i}] has dtype {d} but inputs[0] has dtype {f}; all inputs must \
                     have one dtype"
                )));
            }
            _ => {}
        }
    }
    Ok(if unknown { None } else { first })
}

fn einsum(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let inputs = ctx.list(0);
    let eq = equation(ctx.attrs)?;
    let dtype = list_dtype(inputs.iter().map(|t| Some(t.dtype())))?;
    eq.check_count(inputs.len())?;
    let Some(dtype) = dtype else {
        return Err(eq
            .check_count(0)
            .err()
            .unwrap_or_else(|| Error::invalid("no inputs")));
    };
    let mut shapes: Vec<&[usize]> = alloc::with_room(inputs.len())?;
    shapes.extend(inputs.iter().map(|t| t.shape()));
    let plan = eq.plan(&shapes)?;
    let out = match dtype {
        DataType::Float => compute::<f32>(ctx, &plan, inputs)?,
        DataType::Double => compute::<f64>(ctx, &plan, inputs)?,
        DataType::Int32 => compute::<i32>(ctx, &plan, inputs)?,
        DataType::Int64 => compute::<i64>(ctx, &plan, inputs)?,
        _ => return Err(ctx.unsupported_dtype(0)),
    };
    Ok(outputs([out]))
}

/// Build-time inference: the dtype, the equation, then (with every shape
/// known) the kernel's shape checks and the output shape.
fn infer(ctx: &InferCtx<'_>) -> Result<Meta> {
    let inputs = ctx.list(0);
    let eq = equation(ctx.attrs)?;
    let dtype = list_dtype(inputs.iter().map(|x| x.dtype()))?;
    eq.check_count(inputs.len())?;
    let mut shapes: Vec<&[usize]> = alloc::with_room(inputs.len())?;
    for x in inputs {
        let Some(s) = x.shape() else {
            return Ok(Meta { dtype, shape: None });
        };
        shapes.push(s);
    }
    let plan = eq.plan(&shapes)?;
    Ok(Meta {
        dtype,
        shape: Some(plan.out_shape.into_boxed_slice()),
    })
}

/// One axis of [`place`]'s loop: its size and its step through the input
/// and through the output.
#[derive(Clone, Copy)]
struct Axis {
    size: usize,
    input: usize,
    output: usize,
}

/// For every index of the `kept` axes, writes to `out` at that index's
/// output offset the sum, over every index of the `summed` axes, of `input`
/// at their input offset: transposes, diagonals (an axis whose input step
/// spans several dimensions), reductions and placements on a diagonal (an
/// axis whose output step does) in one loop. Writes nothing else of `out`.
fn place<T: MatElem>(kept: &[Axis], summed: &[Axis], input: &[T], out: &mut [T]) {
    if kept.iter().chain(summed).any(|a| a.size == 0) {
        // An empty summed axis: sums of nothing.
        if kept.iter().all(|a| a.size > 0) {
            for_each_index(kept, |_, o| out[o] = T::ZERO);
        }
        return;
    }
    for_each_index(kept, |i, o| {
        let mut acc = T::ZERO;
        if summed.is_empty() {
            acc = input[i];
        } else {
            for_each_index(summed, |j, _| acc = acc.add(input[i + j]));
        }
        out[o] = acc;
    });
}

/// Calls `f(input offset, output offset)` for every index of `axes` (none
/// empty), the last axis fastest.
fn for_each_index(axes: &[Axis], mut f: impl FnMut(usize, usize)) {
    let Some((last, outer)) = axes.split_last() else {
        f(0, 0);
        return;
    };
    // A counter per outer axis: at most one per logical axis (alloc::MAX_RANK
    // plus the 52 letters), a few hundred bytes.
    #[allow(clippy::disallowed_macros, clippy::disallowed_methods)]
    let mut index = vec![0usize; outer.len()];
    let (mut i, mut o) = (0usize, 0usize);
    loop {
        let (mut ii, mut oo) = (i, o);
        for _ in 0..last.size {
            f(ii, oo);
            ii += last.input;
            oo += last.output;
        }
        // Advance the outer axes, last first.
        let mut k = outer.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            let a = outer[k];
            index[k] += 1;
            i += a.input;
            o += a.output;
            if index[k] < a.size {
                break;
            }
            i -= a.input * a.size;
            o -= a.output * a.size;
            index[k] = 0;
        }
    }
}

/// Row-major strides of the sizes of `axes` (logical axes) in `sizes`.
fn strides_of(axes: &[usize], sizes: &[usize]) -> Result<Vec<usize>> {
    let mut st = alloc::filled(axes.len(), 0usize)?;
    let mut step = 1usize;
    for (s, &a) in st.iter_mut().zip(axes).rev() {
        *s = step;
        step = step.saturating_mul(sizes[a]);
    }
    Ok(st)
}

/// The loop axes that write input data laid out by `strides` (per logical
/// axis) to an output whose dimensions are the logical axes `out_axes`
/// (repeats allowed), summing the axes in `summed`.
fn axes_for(
    out_axes: &[usize],
    out_sizes: &[usize],
    strides: &[usize],
    summed_axes: &[usize],
    sizes: &[usize],
) -> Result<(Vec<Axis>, Vec<Axis>)> {
    let out_strides = strides_of(out_axes, out_sizes)?;
    let mut kept: Vec<Axis> = alloc::with_room(out_axes.len())?;
    let mut kept_axes: Vec<usize> = alloc::with_room(out_axes.len())?;
    for (&a, &s) in out_axes.iter().zip(&out_strides) {
        match kept_axes.iter().position(|&b| b == a) {
            // A repeated output label: one loop axis along the diagonal.
            Some(k) => kept[k].output += s,
            None => {
                kept_axes.push(a);
                kept.push(Axis {
                    size: sizes[a],
                    input: strides[a],
                    output: s,
                });
            }
        }
    }
    let mut summed = alloc::with_room(summed_axes.len())?;
    summed.extend(summed_axes.iter().map(|&a| Axis {
        size: sizes[a],
        input: strides[a],
        output: 0,
    }));
    Ok((kept, summed))
}

/// The output's logical axes with each repeated label once, in order.
fn distinct(axes: &[usize]) -> Result<Vec<usize>> {
    let mut d: Vec<usize> = alloc::with_room(axes.len())?;
    for &a in axes {
        if !d.contains(&a) {
            d.push(a);
        }
    }
    Ok(d)
}

/// The output tensor: `out_shape`, made of `f` writing every element, or
/// zeros first where a repeated output label leaves elements unwritten.
fn output<T: MatElem>(
    ctx: &OpContext<'_>,
    plan: &Plan,
    f: impl FnOnce(&mut [T]) -> Result<()>,
) -> Result<Tensor> {
    let n = num_elements(&plan.out_shape)?;
    let mut out = ctx.alloc_initialized::<T>(n)?;
    if distinct(&plan.out_axes)?.len() != plan.out_axes.len() {
        out.data.fill(T::ZERO);
    }
    f(&mut out.data)?;
    out.into_tensor(alloc::copied(&plan.out_shape)?)
}

fn compute<T: MatElem>(
    ctx: &OpContext<'_>,
    plan: &Plan,
    inputs: &[std::sync::Arc<Tensor>],
) -> Result<Tensor> {
    let axes = plan.sizes.len();
    if let [x] = inputs {
        // One operand: every axis the output lacks is summed.
        let summed: Vec<usize> = (0..axes)
            .filter(|a| !plan.out_axes.contains(a))
            .collect::<Vec<_>>();
        let (kept, summed) = axes_for(
            &plan.out_axes,
            &plan.sizes,
            &plan.strides[0],
            &summed,
            &plan.sizes,
        )?;
        let xs = x.as_slice::<T>()?;
        return output(ctx, plan, |out| {
            place(&kept, &summed, xs, out);
            Ok(())
        });
    }
    let (xs, ys) = (inputs[0].as_slice::<T>()?, inputs[1].as_slice::<T>()?);
    contract(ctx, plan, xs, ys)
}

/// What each logical axis is to a contraction of two operands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// In both operands and the output (the ellipsis axes too).
    Batch,
    /// In one operand and the output.
    Free0,
    Free1,
    /// In both operands, not the output.
    Contract,
    /// In one operand only: summed before the product.
    Reduce,
}

fn contract<T: MatElem>(ctx: &OpContext<'_>, plan: &Plan, xs: &[T], ys: &[T]) -> Result<Tensor> {
    let axes = plan.sizes.len();
    let mut roles = alloc::with_room(axes)?;
    for a in 0..axes {
        let (in0, in1) = (plan.has[0][a], plan.has[1][a]);
        let out = plan.out_axes.contains(&a);
        roles.push(match (in0, in1, out) {
            (true, true, true) => Role::Batch,
            (true, true, false) => Role::Contract,
            (true, false, true) => Role::Free0,
            (false, true, true) => Role::Free1,
            _ => Role::Reduce,
        });
    }
    let pick = |r: Role| -> Result<Vec<usize>> {
        let mut v = alloc::with_room(axes)?;
        v.extend((0..axes).filter(|&a| roles[a] == r));
        Ok(v)
    };
    let (batch, free0, free1, contracted) = (
        pick(Role::Batch)?,
        pick(Role::Free0)?,
        pick(Role::Free1)?,
        pick(Role::Contract)?,
    );
    let product = |axes: &[usize]| {
        axes.iter()
            .fold(1usize, |p, &a| p.saturating_mul(plan.sizes[a]))
    };
    let (m, k, n) = (product(&free0), product(&contracted), product(&free1));
    // Each operand as a batch of matrices over its own batch extents.
    let mut layout0 = alloc::with_room(axes)?;
    layout0.extend(batch.iter().chain(&free0).chain(&contracted).copied());
    let mut layout1 = alloc::with_room(axes)?;
    layout1.extend(batch.iter().chain(&contracted).chain(&free1).copied());
    let a = arrange(ctx, plan, 0, &layout0, &roles, xs)?;
    let b = arrange(ctx, plan, 1, &layout1, &roles, ys)?;
    // The product's layout: [batch..., free0..., free1...].
    let mut result = alloc::with_room(axes)?;
    result.extend(batch.iter().chain(&free0).chain(&free1).copied());
    let mut batch_shape = alloc::with_room(batch.len())?;
    batch_shape.extend(batch.iter().map(|&a| plan.sizes[a]));
    let matrices = Matrices {
        shape: &batch_shape,
        a: batch_steps(&batch, &plan.extents[0], plan)?,
        b: batch_steps(&batch, &plan.extents[1], plan)?,
        m,
        k,
        n,
    };
    if result == plan.out_axes {
        return output(ctx, plan, |out| {
            matrices.multiply(&a, &b, out);
            Ok(())
        });
    }
    let mut result_shape = alloc::with_room(result.len())?;
    result_shape.extend(result.iter().map(|&a| plan.sizes[a]));
    let mut c = Scratch::<T>::filled(ctx.account(), num_elements(&result_shape)?, T::ZERO)?;
    matrices.multiply(&a, &b, &mut c);
    let c_strides = strides_of(&result, &plan.sizes)?;
    let mut by_axis = alloc::filled(axes, 0usize)?;
    for (&ax, &s) in result.iter().zip(&c_strides) {
        by_axis[ax] = s;
    }
    let (kept, summed) = axes_for(&plan.out_axes, &plan.sizes, &by_axis, &[], &plan.sizes)?;
    output(ctx, plan, |out| {
        place(&kept, &summed, &c, out);
        Ok(())
    })
}

/// For each batch axis, how many matrices one step moves through an
/// operand whose extents are `extents` (0 where it broadcasts).
fn batch_steps(batch: &[usize], extents: &[usize], plan: &Plan) -> Result<Vec<usize>> {
    let mut steps = alloc::filled(batch.len(), 0usize)?;
    let mut step = 1usize;
    for (s, &a) in steps.iter_mut().zip(batch).rev() {
        let e = extents[a];
        *s = if e == 1 && plan.sizes[a] != 1 {
            0
        } else {
            step
        };
        step = step.saturating_mul(e);
    }
    Ok(steps)
}

/// Operand `i` laid out as `layout` (logical axes over its own extents):
/// its reduce axes summed, diagonals taken. Borrowed when already so.
fn arrange<'x, T: MatElem>(
    ctx: &OpContext<'_>,
    plan: &Plan,
    i: usize,
    layout: &[usize],
    roles: &[Role],
    data: &'x [T],
) -> Result<Operand<'x, T>> {
    let extents = &plan.extents[i];
    let strides = &plan.strides[i];
    let mut summed = alloc::with_room(roles.len())?;
    summed.extend((0..roles.len()).filter(|&a| roles[a] == Role::Reduce && plan.has[i][a]));
    let target = strides_of(layout, extents)?;
    // Saturating: an empty extent makes 0 whatever the others.
    let size = layout
        .iter()
        .fold(1usize, |p, &a| p.saturating_mul(extents[a]));
    let same = summed.is_empty()
        && size == data.len()
        && layout
            .iter()
            .zip(&target)
            .all(|(&a, &s)| extents[a] == 1 || strides[a] == s);
    if same {
        return Ok(Operand::Input(data));
    }
    let (kept, summed) = axes_for(layout, extents, strides, &summed, extents)?;
    let mut out = Scratch::<T>::filled(ctx.account(), size, T::ZERO)?;
    place(&kept, &summed, data, &mut out);
    Ok(Operand::Arranged(out))
}

/// An operand as a batch of matrices: the input itself, or a copy.
enum Operand<'x, T: MatElem> {
    Input(&'x [T]),
    Arranged(Scratch<T>),
}

impl<T: MatElem> std::ops::Deref for Operand<'_, T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            Operand::Input(x) => x,
            Operand::Arranged(s) => s,
        }
    }
}

/// A batch of products `a[i] · b[i]` (`m×k` by `k×n`) over broadcast batch
/// dimensions `shape`.
struct Matrices<'s> {
    shape: &'s [usize],
    a: Vec<usize>,
    b: Vec<usize>,
    m: usize,
    k: usize,
    n: usize,
}

impl Matrices<'_> {
    /// Writes every element of `out` (`[shape..., m, n]`).
    fn multiply<T: MatElem>(&self, a: &[T], b: &[T], out: &mut [T]) {
        let (m, k, n) = (self.m, self.k, self.n);
        let osz = m.saturating_mul(n);
        if osz == 0 || out.is_empty() {
            return;
        }
        if k == 0 {
            out.fill(T::ZERO);
            return;
        }
        // Non-empty output and contraction: both operands hold these.
        let (asz, bsz) = (m.saturating_mul(k), k.saturating_mul(n));
        let operands = |mut i: usize| {
            let (mut ao, mut bo) = (0, 0);
            for ((&d, &sa), &sb) in self.shape.iter().zip(&self.a).zip(&self.b).rev() {
                let c = i % d;
                i /= d;
                ao += c * sa;
                bo += c * sb;
            }
            Product {
                a: a.get(ao * asz..(ao + 1) * asz).unwrap_or(&[]),
                ta: false,
                b: b.get(bo * bsz..(bo + 1) * bsz).unwrap_or(&[]),
                tb: false,
                m,
                k,
                n,
            }
        };
        let one = |start: usize, dst: &mut [T], parallel: bool| {
            for (j, o) in dst.chunks_exact_mut(osz).enumerate() {
                let p = operands(start / osz + j);
                if p.a.len() == asz && p.b.len() == bsz {
                    T::gemm(p, o, parallel);
                }
            }
        };
        let macs = m.saturating_mul(n).saturating_mul(k);
        let count = out.len() / osz;
        if macs >= PAR_MIN_MACS && threads() > 1 {
            one(0, out, true);
        } else if count > 1 && worth_threads(macs.saturating_add(256).saturating_mul(count)) {
            par_chunks(out, osz, threads(), |s, d| one(s, d, false));
        } else {
            one(0, out, false);
        }
    }
}
