//! String ops: `StringJoin`, `Substr`, `StringLength`, and the string case
//! of `Equal`/`NotEqual` (called from `compare`). Strings are bytes; the
//! `UTF8_CHAR` unit counts UTF-8 characters by their lead bytes, as
//! TensorFlow does, without validating the rest of the encoding.

use super::broadcast::broadcast_checked;
use super::{KernelOutputs, OpContext, OpDef, Registry, int_values, outputs};
use crate::alloc;
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::strings::{StringAllocation, Strings};
use crate::tensor::{Tensor, num_elements};

pub(super) fn register(r: &mut Registry) {
    r.add([
        OpDef::new("StringJoin", &["inputs[]"], &["output"], string_join)
            .attrs(&["separator"])
            .strings(),
        OpDef::new("Substr", &["input", "pos", "len"], &["output"], substr)
            .attrs(&["unit"])
            .strings(),
        OpDef::new("StringLength", &["input"], &["output"], string_length)
            .attrs(&["unit"])
            .strings(),
    ]);
}

/// The unit of `Substr` and `StringLength`.
#[derive(Clone, Copy, PartialEq)]
enum Unit {
    Byte,
    Utf8Char,
}

fn unit(ctx: &OpContext<'_>) -> Result<Unit> {
    match ctx.attrs.string("unit")? {
        None | Some("BYTE") => Ok(Unit::Byte),
        Some("UTF8_CHAR") => Ok(Unit::Utf8Char),
        Some(other) => Err(Error::invalid(format!(
            "attribute 'unit' is '{other}' but must be BYTE or UTF8_CHAR"
        ))),
    }
}

/// The strings of `t`, which must be STRING (`what` names it).
fn strings_of<'a>(t: &'a Tensor, what: &str) -> Result<&'a Strings> {
    if t.dtype() != DataType::String {
        return Err(Error::invalid(format!(
            "{what} has dtype {} but must be STRING",
            t.dtype()
        )));
    }
    t.strings()
}

/// Whether `b` starts a UTF-8 character (is not a continuation byte).
fn is_lead(b: u8) -> bool {
    b & 0xC0 != 0x80
}

fn string_length(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let s = strings_of(x, "input 'input'")?;
    let unit = unit(ctx)?;
    let lengths = s.iter().map(|e| match unit {
        Unit::Byte => e.len(),
        Unit::Utf8Char => e.iter().filter(|&&b| is_lead(b)).count(),
    });
    let mut out = ctx.alloc::<i32>(s.len())?;
    for l in lengths {
        out.data.push(i32::try_from(l).map_err(|_| {
            Error::invalid(format!(
                "a string of {l} units is longer than INT32 can count"
            ))
        })?);
    }
    Ok(outputs([out.into_tensor(alloc::copied(x.shape())?)?]))
}

/// `StringJoin`: the inputs joined element-wise with `separator` between
/// them; every input has one shape, or is a scalar used for every element.
fn string_join(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let inputs = ctx.list(0);
    if inputs.is_empty() {
        return Err(Error::invalid("'inputs' must have at least one tensor"));
    }
    let sep = ctx.attrs.string("separator")?.unwrap_or("").as_bytes();
    let mut shape: Option<&[usize]> = None;
    let mut parts = alloc::with_room(inputs.len())?;
    for (i, t) in inputs.iter().enumerate() {
        parts.push(strings_of(t, &format!("inputs[{i}]"))?);
        if t.rank() == 0 {
            continue;
        }
        match shape {
            None => shape = Some(t.shape()),
            Some(s) if s == t.shape() => {}
            Some(s) => {
                return Err(Error::invalid(format!(
                    "inputs must have one shape or be scalars, but got {s:?} and {:?} (inputs[{i}])",
                    t.shape()
                )));
            }
        }
    }
    let shape = alloc::copied(shape.unwrap_or(&[]))?;
    let n = num_elements(&shape)?;
    let seps = sep.len().saturating_mul(inputs.len() - 1);
    let mut total = 0usize;
    for j in 0..n {
        let len = parts.iter().map(|p| element_at(p, j).len()).sum::<usize>();
        total = total
            .checked_add(len)
            .and_then(|t| t.checked_add(seps))
            .ok_or_else(|| Error::invalid("the joined strings are too large"))?;
    }
    let mut out = StringAllocation::new(ctx.account(), n, total)?;
    let mut pieces: Vec<&[u8]> = alloc::with_room(2 * parts.len())?;
    for j in 0..n {
        pieces.clear();
        for (k, p) in parts.iter().enumerate() {
            if k > 0 {
                pieces.push(sep);
            }
            pieces.push(element_at(p, j));
        }
        out.push_parts(&pieces)?;
    }
    Ok(outputs([out.into_tensor(shape)?]))
}

/// Element `j` of a joined input: its own, or a scalar's one element.
fn element_at(p: &Strings, j: usize) -> &[u8] {
    p.get(if p.len() == 1 { 0 } else { j }).unwrap_or_default()
}

/// The byte range of `Substr(s, pos, len)`, as TensorFlow computes it: a
/// negative `pos` counts from the end, `|pos|` may be at most the length, and
/// the substring stops at the end (a negative `len` reaches it).
fn substr_range(s: &[u8], pos: i64, len: i64, unit: Unit, at: usize) -> Result<(usize, usize)> {
    // Unit boundaries: byte offsets where each unit starts, then the end.
    let units = match unit {
        Unit::Byte => s.len(),
        Unit::Utf8Char => s.iter().filter(|&&b| is_lead(b)).count(),
    };
    let offset_of = |u: usize| -> usize {
        match unit {
            Unit::Byte => u,
            Unit::Utf8Char => s
                .iter()
                .enumerate()
                .filter(|&(_, &b)| is_lead(b))
                .map(|(i, _)| i)
                .nth(u)
                .unwrap_or(s.len()),
        }
    };
    if pos.unsigned_abs() > units as u64 {
        return Err(Error::invalid(format!(
            "pos {pos} out of range for string b'{}' at index {at}",
            alloc::quoted(s)
        )));
    }
    let start = if pos < 0 {
        units - pos.unsigned_abs() as usize
    } else {
        pos as usize
    };
    let count = usize::try_from(len).map_or(units - start, |l| l.min(units - start));
    Ok((offset_of(start), offset_of(start + count)))
}

/// `Substr`: `len` units of each string from `pos`; `pos` and `len` have one
/// integer dtype and one shape, the input's or a scalar's.
fn substr(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let x = ctx.input(0);
    let s = strings_of(x, "input 'input'")?;
    let unit = unit(ctx)?;
    ctx.same_dtype(1, 2)?;
    let (p, l) = (ctx.input(1), ctx.input(2));
    if p.shape() != l.shape() {
        return Err(Error::invalid(format!(
            "'pos' and 'len' must have the same shape, but got {:?} and {:?}",
            p.shape(),
            l.shape()
        )));
    }
    if p.rank() != 0 && p.shape() != x.shape() {
        return Err(Error::invalid(format!(
            "'pos' and 'len' must be scalars or of the input's shape {:?}, but got {:?}",
            x.shape(),
            p.shape()
        )));
    }
    let (pos, len) = (int_values(ctx, 1)?, int_values(ctx, 2)?);
    let pick = |v: &[i64], j: usize| {
        v.get(if v.len() == 1 { 0 } else { j })
            .copied()
            .unwrap_or(0)
    };
    let mut ranges = alloc::with_room(s.len())?;
    let mut total = 0usize;
    for (j, e) in s.iter().enumerate() {
        let (a, b) = substr_range(e, pick(&pos, j), pick(&len, j), unit, j)?;
        total += b - a;
        ranges.push((a, b));
    }
    let mut out = StringAllocation::new(ctx.account(), s.len(), total)?;
    for (e, &(a, b)) in s.iter().zip(&ranges) {
        out.push(e.get(a..b).unwrap_or_default())?;
    }
    Ok(outputs([out.into_tensor(alloc::copied(x.shape())?)?]))
}

/// `Equal` (`want_equal`) or `NotEqual` on two STRING tensors, broadcast.
pub(super) fn equality(
    ctx: &OpContext<'_>,
    x: &Tensor,
    y: &Tensor,
    want_equal: bool,
) -> Result<Tensor> {
    let (a, b) = (x.strings()?, y.strings()?);
    let shape = broadcast_checked(x.shape(), y.shape())?;
    let n = num_elements(&shape)?;
    let (ia, ib) = (
        Broadcast::new(x.shape(), &shape),
        Broadcast::new(y.shape(), &shape),
    );
    let mut out = ctx.alloc::<bool>(n)?;
    for j in 0..n {
        let (ea, eb) = (a.get(ia.source(j)), b.get(ib.source(j)));
        out.data.push((ea == eb) == want_equal);
    }
    out.into_tensor(shape)
}

/// Maps flat indices of a broadcast result back to one input's.
struct Broadcast {
    /// Per output dimension: its size and the input's stride (0 when broadcast).
    dims: Vec<(usize, usize)>,
}

impl Broadcast {
    fn new(input: &[usize], out: &[usize]) -> Broadcast {
        let lead = out.len() - input.len();
        let mut stride = 1;
        // One entry per axis: at most alloc::MAX_RANK.
        #[allow(clippy::disallowed_macros, clippy::disallowed_methods)]
        let mut dims = vec![(0, 0); out.len()];
        for k in (0..out.len()).rev() {
            let d = if k < lead { 1 } else { input[k - lead] };
            dims[k] = (out[k], if d == 1 { 0 } else { stride });
            stride *= d;
        }
        Broadcast { dims }
    }

    fn source(&self, mut flat: usize) -> usize {
        let mut at = 0;
        for &(size, stride) in self.dims.iter().rev() {
            if size > 0 {
                at += (flat % size) * stride;
                flat /= size;
            }
        }
        at
    }
}
