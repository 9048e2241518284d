//! Output dtype and shape inference from input dtypes and shapes, without
//! values: what an asynchronous session checks when an op is built, so that
//! errors decidable then are thrown by `build()` (with the message a
//! synchronous run gives), and so that a pending output's dtype and shape
//! are known before its op runs. Synchronous sessions never call it: their
//! kernels make the same checks on the tensors.
//!
//! An inference function follows its kernel's checks in the kernel's order
//! (through the same helpers, so the messages match) and stops at the first
//! one that needs something unknown (a pending input's unknown shape, or
//! values), leaving the rest to the run. What it returns describes the
//! output if the op succeeds; the executor checks that the output agrees.
//! Ops without a function here, or whose output depends on values (`GatherV2`'s
//! range check, `Reshape` with a computed shape, `Where`), are known at run.
//!
//! Which ops have a function: those whose [`OpDef`](super::OpDef) sets
//! `infer`, in their family's `register`; the functions live here, one file
//! per op family.

pub(super) mod array;
pub(super) mod elementwise;
pub(super) mod linalg;
pub(super) mod lists;
pub(super) mod nn;
pub(super) mod reduce;
pub(super) mod shape;
pub(super) mod special;
pub(super) mod ternary;

use std::sync::Arc;

use super::attrs::Attrs;
use super::{OpDef, Ranges};
use crate::dtype::DataType;
use crate::error::Result;
use crate::memory::MemoryAccount;
use crate::tensor::Tensor;

/// What is known of an output before its op runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Meta {
    pub dtype: Option<DataType>,
    pub shape: Option<Box<[usize]>>,
}

impl Meta {
    /// Nothing known until the op runs.
    pub const UNKNOWN: Meta = Meta {
        dtype: None,
        shape: None,
    };

    fn new(dtype: Option<DataType>, shape: Option<Vec<usize>>) -> Meta {
        Meta {
            dtype,
            shape: shape.map(Vec::into_boxed_slice),
        }
    }

    /// The dtype and shape, when both are known.
    pub fn known(&self) -> Option<(DataType, &[usize])> {
        Some((self.dtype?, self.shape.as_deref()?))
    }

    /// Whether `t` agrees with what is known.
    pub fn admits(&self, t: &Tensor) -> bool {
        self.dtype.is_none_or(|d| d == t.dtype())
            && self.shape.as_deref().is_none_or(|s| s == t.shape())
    }
}

/// An input at build time: a tensor (values and all), or a pending output.
#[derive(Clone, Copy)]
pub enum Input<'a> {
    Ready(&'a Tensor),
    Pending(&'a Meta),
}

impl<'a> Input<'a> {
    pub fn dtype(self) -> Option<DataType> {
        match self {
            Input::Ready(t) => Some(t.dtype()),
            Input::Pending(m) => m.dtype,
        }
    }

    pub fn shape(self) -> Option<&'a [usize]> {
        match self {
            Input::Ready(t) => Some(t.shape()),
            Input::Pending(m) => m.shape.as_deref(),
        }
    }

    /// The tensor, if it exists already (its values may be read).
    pub fn value(self) -> Option<&'a Tensor> {
        match self {
            Input::Ready(t) => Some(t),
            Input::Pending(_) => None,
        }
    }
}

/// What an inference function sees: the op, its inputs (laid out in
/// arguments as for kernels), attributes.
pub struct InferCtx<'a> {
    def: &'a OpDef,
    inputs: &'a [Input<'a>],
    ranges: Ranges,
    pub attrs: &'a Attrs,
    /// For temporaries reading a ready input's values.
    pub account: &'a Arc<MemoryAccount>,
}

impl<'a> InferCtx<'a> {
    pub fn arg_name(&self, i: usize) -> &'static str {
        self.def
            .inputs
            .get(i)
            .map_or("?", |a| a.trim_end_matches("[]"))
    }

    /// The inputs of argument `i` (a list, or one input).
    pub fn list(&self, i: usize) -> &'a [Input<'a>] {
        self.ranges.slice(self.inputs, i)
    }

    /// The single input of argument `i` (the registry checked arity; a
    /// missing one reads as unknown).
    pub fn input(&self, i: usize) -> Input<'a> {
        self.list(i)
            .first()
            .copied()
            .unwrap_or(Input::Pending(&Meta::UNKNOWN))
    }

    /// Input `i`'s name and dtype, if known.
    pub fn named_dtype(&self, i: usize) -> Option<(&'static str, DataType)> {
        Some((self.arg_name(i), self.input(i).dtype()?))
    }

    /// Input `i`'s name and shape, if known.
    pub fn named_shape(&self, i: usize) -> Option<(&'static str, &'a [usize])> {
        Some((self.arg_name(i), self.input(i).shape()?))
    }
}

/// An inference function: the output's [`Meta`], or the error the kernel
/// would give (the registry prefixes the op's name, as for kernels).
pub type InferFn = fn(&InferCtx<'_>) -> Result<Meta>;

/// Runs `f` on `inputs` for op `def`.
pub(super) fn run(
    f: InferFn,
    def: &OpDef,
    inputs: &[Input<'_>],
    ranges: Ranges,
    attrs: &Attrs,
    account: &Arc<MemoryAccount>,
) -> Result<Meta> {
    f(&InferCtx {
        def,
        inputs,
        ranges,
        attrs,
        account,
    })
}
