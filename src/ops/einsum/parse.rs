//! `Einsum`'s equation, and what it makes of the input shapes: the checks
//! the kernel and build-time inference share, so both fail alike.
//!
//! The grammar is TensorFlow's op's, not its Python wrapper's: exactly one
//! `->` (no implicit output), one or two input subscripts, labels that are
//! ASCII letters, at most one `...` per subscript. A label repeated within an
//! input takes a diagonal; one repeated in the output places values on a
//! diagonal (zeros elsewhere), as TensorFlow's kernel does.

use crate::alloc;
use crate::error::{Error, Result};
use crate::tensor::num_elements;

/// Most operands TensorFlow's kernel takes.
pub(super) const MAX_OPERANDS: usize = 2;

/// Distinct named labels an equation can have: the ASCII letters.
const MAX_LABELS: usize = 52;

/// One subscript: its labels in order (as logical label indices once the
/// equation is read) and where its ellipsis sits among them.
pub(super) struct Subscript {
    pub labels: Vec<usize>,
    /// How many labels come before the `...`, if there is one.
    pub ellipsis: Option<usize>,
}

/// A parsed equation: the subscripts of the inputs and of the output, over
/// `names.len()` distinct labels numbered in order of first appearance.
pub(super) struct Equation {
    pub text: String,
    pub inputs: Vec<Subscript>,
    pub output: Subscript,
    /// The letter of each label, for messages.
    pub names: Vec<char>,
}

impl Equation {
    /// Reads `text` (the `equation` attribute).
    pub(super) fn parse(text: &str) -> Result<Equation> {
        let shown = alloc::quoted(text.as_bytes());
        let Some((lhs, rhs)) = text.split_once("->").filter(|(_, r)| !r.contains("->")) else {
            return Err(Error::invalid(format!(
                "equation '{shown}' must contain exactly one '->' (the op has no implicit \
                 output form; write the output subscript, e.g. 'ij,jk->ik')"
            )));
        };
        let count = lhs.split(',').count();
        if count == 0 || count > MAX_OPERANDS {
            return Err(Error::invalid(format!(
                "equation '{shown}' has {count} input subscripts, but the op takes 1 or 2 \
                 operands (as TensorFlow's kernel)"
            )));
        }
        let mut names = alloc::with_room(MAX_LABELS)?;
        let mut inputs = alloc::with_room(count)?;
        for (i, s) in lhs.split(',').enumerate() {
            inputs.push(subscript(
                s,
                &format!("input subscript {i}"),
                &shown,
                &mut names,
            )?);
        }
        let known = names.len();
        let output = subscript(rhs, "the output subscript", &shown, &mut names)?;
        if let Some(&c) = names.get(known) {
            return Err(Error::invalid(format!(
                "equation '{shown}': output label '{c}' appears in no input subscript"
            )));
        }
        Ok(Equation {
            text: shown,
            inputs,
            output,
            names,
        })
    }
}

/// Reads one subscript, numbering new labels in `names`.
fn subscript(s: &str, what: &str, shown: &str, names: &mut Vec<char>) -> Result<Subscript> {
    let mut labels = alloc::with_room(s.len())?;
    let mut ellipsis = None;
    let mut chars = s.char_indices();
    while let Some((at, c)) = chars.next() {
        if c == '.' {
            if s.get(at..at + 3) != Some("...") {
                return Err(Error::invalid(format!(
                    "equation '{shown}': {what} '{}' has a '.' that does not begin an ellipsis \
                     '...'",
                    alloc::quoted(s.as_bytes())
                )));
            }
            if ellipsis.is_some() {
                return Err(Error::invalid(format!(
                    "equation '{shown}': {what} '{}' has more than one ellipsis '...'",
                    alloc::quoted(s.as_bytes())
                )));
            }
            ellipsis = Some(labels.len());
            chars.next();
            chars.next();
            continue;
        }
        if !c.is_ascii_alphabetic() {
            return Err(Error::invalid(format!(
                "equation '{shown}': {what} '{}' has '{c}', which is neither a label (an ASCII \
                 letter) nor part of an ellipsis '...'",
                alloc::quoted(s.as_bytes())
            )));
        }
        let label = match names.iter().position(|&n| n == c) {
            Some(l) => l,
            None => {
                names.push(c);
                names.len() - 1
            }
        };
        labels.push(label);
    }
    Ok(Subscript { labels, ellipsis })
}

/// What the equation makes of given input shapes: one logical axis per
/// named label (numbered as in the equation), then one per dimension the
/// ellipses cover (broadcast, right-aligned, as NumPy and TensorFlow do).
pub(super) struct Plan {
    /// Size of each logical axis.
    pub sizes: Vec<usize>,
    /// Per input: the size of each logical axis in that input (1 where it
    /// lacks the axis or broadcasts it).
    pub extents: Vec<Vec<usize>>,
    /// Per input: each logical axis's step through its row-major elements
    /// (the sum of its dimensions' strides for a repeated label; 0 where the
    /// input lacks the axis or broadcasts it).
    pub strides: Vec<Vec<usize>>,
    /// Per input: whether its subscript names each logical axis (the
    /// ellipsis axes count as named by every input).
    pub has: Vec<Vec<bool>>,
    /// The output's dimensions as logical axes, in order (repeats possible).
    pub out_axes: Vec<usize>,
    pub out_shape: Vec<usize>,
}

/// Row-major strides of `shape`.
fn row_major(shape: &[usize]) -> Result<Vec<usize>> {
    let mut strides = alloc::filled(shape.len(), 0usize)?;
    let mut step = 1usize;
    for (s, &d) in strides.iter_mut().zip(shape).rev() {
        *s = step;
        step = step.saturating_mul(d);
    }
    Ok(strides)
}

/// Which input a message names: TensorFlow's `inputs[i]`.
fn named(i: usize) -> String {
    format!("inputs[{i}]")
}

impl Equation {
    /// Checks that `n` inputs were given for the equation's subscripts.
    pub(super) fn check_count(&self, n: usize) -> Result<()> {
        if n != self.inputs.len() {
            return Err(Error::invalid(format!(
                "equation '{}' has {} input subscript(s) but {n} input(s) were given",
                self.text,
                self.inputs.len()
            )));
        }
        Ok(())
    }

    /// Checks `shapes` (one per input) against the equation and lays out the
    /// computation, in TensorFlow's order of checks: the input count, then
    /// per input its rank and its labels' sizes, then the ellipses.
    pub(super) fn plan(&self, shapes: &[&[usize]]) -> Result<Plan> {
        let eq = &self.text;
        self.check_count(shapes.len())?;
        let named_count = self.names.len();
        let mut label_size: Vec<Option<(usize, usize)>> = alloc::filled(named_count, None)?;
        let mut covered = alloc::with_room(shapes.len())?;
        for (i, (sub, &shape)) in self.inputs.iter().zip(shapes).enumerate() {
            let n = sub.labels.len();
            let rank_ok = match sub.ellipsis {
                None => shape.len() == n,
                Some(_) => shape.len() >= n,
            };
            if !rank_ok {
                return Err(Error::invalid(format!(
                    "{} has shape {shape:?} (rank {}) but its subscript in equation '{eq}' \
                     needs rank {}{n}",
                    named(i),
                    shape.len(),
                    if sub.ellipsis.is_some() {
                        "at least "
                    } else {
                        ""
                    }
                )));
            }
            let nb = shape.len() - n;
            covered.push(nb);
            for (pos, &label) in sub.labels.iter().enumerate() {
                let axis = match sub.ellipsis {
                    Some(e) if pos >= e => pos + nb,
                    _ => pos,
                };
                let size = shape[axis];
                match label_size[label] {
                    Some((seen, j)) if seen != size => {
                        let c = self.names[label];
                        return Err(Error::invalid(format!(
                            "label '{c}' of equation '{eq}' has size {seen} in {} (shape {:?}) \
                             but size {size} at axis {axis} of {} (shape {shape:?})",
                            named(j),
                            shapes[j],
                            named(i)
                        )));
                    }
                    Some(_) => {}
                    None => label_size[label] = Some((size, i)),
                }
            }
        }
        // The ellipsis axes: as many as the most any input's ellipsis covers.
        let nb = covered.iter().copied().max().unwrap_or(0);
        if nb > 0 && self.output.ellipsis.is_none() {
            return Err(Error::invalid(format!(
                "the ellipses of equation '{eq}' cover {nb} dimension(s) of the inputs but the \
                 output subscript has no ellipsis '...' to hold them"
            )));
        }
        let axes = named_count + nb;
        let mut sizes = alloc::filled(axes, 1usize)?;
        for (s, l) in sizes.iter_mut().zip(&label_size) {
            *s = l.map_or(1, |(size, _)| size);
        }
        // Broadcast the ellipsis dimensions, right-aligned.
        for b in 0..nb {
            for (i, (sub, &shape)) in self.inputs.iter().zip(shapes).enumerate() {
                let Some(e) = sub.ellipsis else { continue };
                let Some(j) = (b + covered[i]).checked_sub(nb) else {
                    continue;
                };
                let d = shape[e + j];
                let s = &mut sizes[named_count + b];
                if *s == 1 {
                    *s = d;
                } else if d != 1 && d != *s {
                    return Err(self.no_broadcast(shapes, &covered));
                }
            }
        }
        let mut extents = alloc::with_room(shapes.len())?;
        let mut strides = alloc::with_room(shapes.len())?;
        let mut has = alloc::with_room(shapes.len())?;
        for (i, (sub, &shape)) in self.inputs.iter().zip(shapes).enumerate() {
            let own = row_major(shape)?;
            let mut ext = alloc::filled(axes, 1usize)?;
            let mut st = alloc::filled(axes, 0usize)?;
            let mut named_here = alloc::filled(axes, false)?;
            let e = sub.ellipsis.unwrap_or(sub.labels.len());
            for (axis, (&d, &step)) in shape.iter().zip(&own).enumerate() {
                let logical = if axis < e {
                    sub.labels[axis]
                } else if axis < e + covered[i] {
                    named_count + nb - covered[i] + (axis - e)
                } else {
                    sub.labels[axis - covered[i]]
                };
                ext[logical] = d;
                if d == sizes[logical] && d != 1 {
                    st[logical] += step;
                }
                named_here[logical] = true;
            }
            for flag in &mut named_here[named_count..] {
                *flag = true;
            }
            extents.push(ext);
            strides.push(st);
            has.push(named_here);
        }
        let out = &self.output;
        let mut out_axes = alloc::with_room(out.labels.len() + nb)?;
        let e = out.ellipsis.unwrap_or(out.labels.len());
        out_axes.extend_from_slice(&out.labels[..e]);
        out_axes.extend(named_count..named_count + nb);
        out_axes.extend_from_slice(&out.labels[e..]);
        let mut out_shape = alloc::with_room(out_axes.len())?;
        out_shape.extend(out_axes.iter().map(|&a| sizes[a]));
        num_elements(&out_shape)?;
        Ok(Plan {
            sizes,
            extents,
            strides,
            has,
            out_axes,
            out_shape,
        })
    }

    fn no_broadcast(&self, shapes: &[&[usize]], covered: &[usize]) -> Error {
        let part = |i: usize| {
            let e = self.inputs[i].ellipsis.unwrap_or(0);
            shapes[i].get(e..e + covered[i]).unwrap_or(&[])
        };
        Error::invalid(format!(
            "the dimensions the ellipses of equation '{}' cover do not broadcast: {:?} in {} \
             (shape {:?}) and {:?} in {} (shape {:?})",
            self.text,
            part(0),
            named(0),
            shapes[0],
            part(1),
            named(1),
            shapes.get(1).copied().unwrap_or(&[])
        ))
    }
}
