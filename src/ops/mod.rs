//! The op registry: TensorFlow op type names mapped to kernels. Java resolves a
//! name to its index once and then calls by index.

mod array;
mod attrs;
pub mod broadcast;
mod cast;
mod cnn;
mod compare;
mod decomp;
mod einsum;
mod halves;
mod infer;
mod linalg;
mod math;
#[cfg(test)]
mod memory_tests;
mod nn;
mod parallel;
mod random;
mod reduce;
mod segment;
mod shape;
mod special;
mod strings;
#[cfg(any(test, feature = "testing"))]
mod testing;

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, LazyLock};

pub use attrs::{AttrValue, Attrs, TensorOwner};
pub use infer::{Input, Meta};

use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::memory::MemoryAccount;
use crate::scratch::Scratch;
use crate::tensor::{Allocation, Tensor};

/// A kernel's outputs; one or two need no heap allocation.
pub type KernelOutputs = smallvec::SmallVec<[Tensor; 2]>;

pub type Kernel = fn(&OpContext<'_>) -> Result<KernelOutputs>;

/// A kernel's `N` outputs (a constant count; one or two stay inline).
pub fn outputs<const N: usize>(tensors: [Tensor; N]) -> KernelOutputs {
    KernelOutputs::from_iter(tensors)
}

/// Everything the registry knows of an op; adding an op is one of these in
/// its family's `register`. Build it with [`OpDef::new`] and the setters.
pub struct OpDef {
    pub name: &'static str,
    /// Other names it answers to (older versions of the op that this one
    /// serves).
    pub aliases: &'static [&'static str],
    /// Input argument names in order, as TensorFlow's op definition has
    /// them; a name ending in `[]` is a list argument (`addInputList` in Java).
    pub inputs: &'static [&'static str],
    /// Output argument names, likewise (Java's `outputListLength(name)`).
    /// Exactly one output that is not a list lets Java run the op on its
    /// single-output fast path; any other count (or a list) makes it a
    /// multi-output op (see [`OpDef::single_output`]).
    pub outputs: &'static [&'static str],
    /// Attributes the caller may set; anything else is rejected. Type and count
    /// attributes (`T`, `N`, `Tidx`, ...) are inferred and need not be listed.
    pub attrs: &'static [&'static str],
    pub kernel: Kernel,
    /// Build-time output inference for asynchronous sessions (`ops::infer`);
    /// without it the output is known when the op runs.
    pub infer: Option<infer::InferFn>,
    /// Whether its kernel reads STRING inputs. Every other op refuses them
    /// before its kernel runs, naming itself, the input and the dtype.
    pub takes_strings: bool,
    /// Whether HALF and BFLOAT16 inputs run through its FLOAT kernel
    /// (widened, then FLOAT outputs rounded back; see `halves`). Ops that
    /// only move elements serve the 2-byte types directly instead.
    pub halves: bool,
    /// An op of `testing` that misbehaves on purpose: left out of
    /// [`Registry::names`].
    pub test_only: bool,
}

impl OpDef {
    /// An op without attributes, aliases or inference that refuses STRING
    /// inputs; the setters below add the rest.
    pub const fn new(
        name: &'static str,
        inputs: &'static [&'static str],
        outputs: &'static [&'static str],
        kernel: Kernel,
    ) -> OpDef {
        OpDef {
            name,
            aliases: &[],
            inputs,
            outputs,
            attrs: &[],
            kernel,
            infer: None,
            takes_strings: false,
            halves: false,
            test_only: false,
        }
    }

    pub const fn attrs(self, attrs: &'static [&'static str]) -> OpDef {
        OpDef { attrs, ..self }
    }

    pub const fn aliases(self, aliases: &'static [&'static str]) -> OpDef {
        OpDef { aliases, ..self }
    }

    pub const fn infer(self, f: infer::InferFn) -> OpDef {
        OpDef {
            infer: Some(f),
            ..self
        }
    }

    /// Lets STRING inputs reach the kernel.
    pub const fn strings(self) -> OpDef {
        OpDef {
            takes_strings: true,
            ..self
        }
    }

    /// Serves HALF and BFLOAT16 through the FLOAT kernel (see `halves`).
    pub const fn halves(self) -> OpDef {
        OpDef {
            halves: true,
            ..self
        }
    }

    pub const fn test_only(self) -> OpDef {
        OpDef {
            test_only: true,
            ..self
        }
    }

    /// Whether the op always yields exactly one output.
    pub fn single_output(&self) -> bool {
        matches!(self.outputs, [one] if !is_list(one))
    }
}

/// The set of ops, built once.
pub struct Registry {
    ops: Vec<OpDef>,
    by_name: HashMap<&'static str, usize>,
    /// Per op: the names an attribute may have, its own then [`INFERRED_ATTRS`];
    /// Java sends an attribute's name as its position here.
    attr_names: Vec<Vec<&'static str>>,
}

static REGISTRY: LazyLock<Registry> = LazyLock::new(|| {
    let mut r = Registry {
        ops: Vec::new(),
        by_name: HashMap::new(),
        attr_names: Vec::new(),
    };
    math::register(&mut r);
    compare::register(&mut r);
    reduce::register(&mut r);
    cast::register(&mut r);
    shape::register(&mut r);
    linalg::register(&mut r);
    decomp::register(&mut r);
    einsum::register(&mut r);
    nn::register(&mut r);
    cnn::register(&mut r);
    random::register(&mut r);
    strings::register(&mut r);
    array::register(&mut r);
    special::register(&mut r);
    segment::register(&mut r);
    #[cfg(any(test, feature = "testing"))]
    testing::register(&mut r);
    r
});

/// Type and count attributes TensorFlow infers from the inputs. Callers may
/// set them (TensorFlow Java never does); they are accepted and ignored.
const INFERRED_ATTRS: &[&str] = &[
    "T",
    "N",
    "Tidx",
    "Tshape",
    "Tdim",
    "Tindices",
    "Tparams",
    "Taxis",
    "TI",
    "Tmultiples",
    "Tperm",
    "Index",
    "index_type",
    "SrcT",
    "Tpaddings",
    "Tlabels",
];

impl Registry {
    pub fn global() -> &'static Registry {
        &REGISTRY
    }

    /// Adds ops under their names and aliases.
    pub fn add(&mut self, defs: impl IntoIterator<Item = OpDef>) {
        for def in defs {
            let index = self.ops.len();
            self.by_name.insert(def.name, index);
            for alias in def.aliases {
                self.by_name.insert(alias, index);
            }
            self.attr_names
                .push(def.attrs.iter().chain(INFERRED_ATTRS).copied().collect());
            self.ops.push(def);
        }
    }

    /// The attribute names op `index` accepts, by id: its own, then the
    /// inferred ones (see [`Attrs::decode`]).
    pub fn attr_names(&self, index: usize) -> &[&'static str] {
        self.attr_names.get(index).map_or(&[], Vec::as_slice)
    }

    /// The output argument names of op `index` (a list's ends in `[]`).
    pub fn output_names(&self, index: usize) -> Result<&'static [&'static str]> {
        Ok(self.def(index)?.outputs)
    }

    /// Whether op `index` always yields exactly one output.
    pub fn single_output(&self, index: usize) -> bool {
        self.def(index).is_ok_and(OpDef::single_output)
    }

    /// The op's canonical name, for messages (`"op"` for a bad index).
    pub fn name(&self, index: usize) -> &'static str {
        self.def(index).map_or("op", |d| d.name)
    }

    /// The index of an op type name (or alias).
    pub fn lookup(&self, name: &str) -> Result<usize> {
        crate::alloc::within(
            "an op type name's length in bytes",
            name.len(),
            crate::alloc::MAX_NAME_BYTES,
        )?;
        self.by_name
            .get(name)
            .copied()
            .ok_or_else(|| Error::invalid(format!("unknown op type '{name}'")))
    }

    pub fn def(&self, index: usize) -> Result<&OpDef> {
        self.ops
            .get(index)
            .ok_or_else(|| Error::invalid(format!("unknown op index {index}")))
    }

    /// Every name the registry answers to, aliases included, except those of
    /// the test-only ops, which misbehave on purpose.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.by_name
            .iter()
            .filter(|&(_, &i)| self.ops.get(i).is_some_and(|d| !d.test_only))
            .map(|(&n, _)| n)
    }

    /// Checks what needs no values: that op `index` exists, takes
    /// `n_inputs` inputs laid out as `list_lens` says, and knows every
    /// attribute in `attrs` (an asynchronous session's build-time checks).
    pub fn check(
        &self,
        index: usize,
        n_inputs: usize,
        list_lens: Option<&[i32]>,
        attrs: &Attrs,
    ) -> Result<()> {
        let def = self.def(index)?;
        arg_ranges(def, n_inputs, list_lens).map_err(|e| e.in_op(def.name))?;
        check_attrs(def, attrs)
    }

    /// What op `index` will output given what is known of its `inputs`
    /// (see [`infer`]), laid out as `list_lens` says (as for [`run`](Self::run)),
    /// or the error its kernel would give for them. Call after
    /// [`check`](Self::check). Ops without an inference function output
    /// something [`Meta::UNKNOWN`].
    pub fn infer(
        &self,
        index: usize,
        inputs: &[Input<'_>],
        list_lens: Option<&[i32]>,
        attrs: &Attrs,
        account: &Arc<MemoryAccount>,
    ) -> Result<Meta> {
        let def = self.def(index)?;
        let ranges = arg_ranges(def, inputs.len(), list_lens).map_err(|e| e.in_op(def.name))?;
        // What `run` refuses before any kernel check.
        if !def.takes_strings {
            let string_arg = (0..def.inputs.len()).find(|&i| {
                ranges
                    .slice(inputs, i)
                    .iter()
                    .any(|x| x.dtype() == Some(DataType::String))
            });
            if let Some(i) = string_arg {
                return Err(strings_refused(arg_name(def.inputs[i])).in_op(def.name));
            }
        }
        match def.infer {
            Some(f) if def.halves => {
                halves::infer(f, def, inputs, ranges, attrs, account).map_err(|e| e.in_op(def.name))
            }
            Some(f) => {
                infer::run(f, def, inputs, ranges, attrs, account).map_err(|e| e.in_op(def.name))
            }
            None => Ok(Meta::UNKNOWN),
        }
    }

    /// Checks the inputs and attributes against the op's signature, then runs it.
    /// `list_lens[i]` is the length of argument `i` when given as a list, or -1
    /// for a single tensor; `None` means every argument is a single tensor.
    pub fn run(
        &self,
        index: usize,
        account: &Arc<MemoryAccount>,
        inputs: &[Arc<Tensor>],
        list_lens: Option<&[i32]>,
        attrs: &Attrs,
    ) -> Result<KernelOutputs> {
        let def = self.def(index)?;
        let ranges = arg_ranges(def, inputs.len(), list_lens).map_err(|e| e.in_op(def.name))?;
        check_attrs(def, attrs)?;
        let ctx = OpContext {
            def,
            inputs,
            ranges,
            attrs,
            account,
        };
        if !def.takes_strings {
            ctx.refuse_strings().map_err(|e| e.in_op(def.name))?;
        }
        // Costs nothing until a kernel panics; then the panic is re-raised
        // with the op and its inputs, which only this frame knows.
        #[cfg(any(test, feature = "testing"))]
        let fault = crate::faults::enter(def.name);
        let kernel = || {
            #[cfg(any(test, feature = "testing"))]
            if fault.panic {
                panic!("fault injected for test");
            }
            if def.halves {
                halves::run(&ctx)
            } else {
                (def.kernel)(&ctx)
            }
        };
        let outputs = std::panic::catch_unwind(AssertUnwindSafe(kernel))
            .unwrap_or_else(|payload| {
                let inputs = (0..def.inputs.len()).flat_map(|i| {
                    let list = ctx.list(i);
                    let name = ctx.arg_name(i);
                    let listed = def.inputs.get(i).is_some_and(|a| is_list(a));
                    list.iter().enumerate().map(move |(j, t)| {
                        let n = if listed {
                            format!("{name}[{j}]")
                        } else {
                            name.to_string()
                        };
                        (n, &**t)
                    })
                });
                std::panic::resume_unwind(Box::new(crate::panics::in_kernel(
                    def.name,
                    inputs,
                    payload.as_ref(),
                )))
            })
            .map_err(|e| e.in_op(def.name))?;
        debug_assert!(
            outputs.len() == 1 || !def.single_output(),
            "{} made {} outputs but its OpDef declares one",
            def.name,
            outputs.len()
        );
        Ok(outputs)
    }
}

/// Refuses an attribute the op does not know.
fn check_attrs(def: &OpDef, attrs: &Attrs) -> Result<()> {
    for (name, _) in attrs.iter() {
        if !def.attrs.contains(&name) && !INFERRED_ATTRS.contains(&name) {
            return Err(Error::invalid(format!(
                "{}: unknown attribute '{name}' (known: {})",
                def.name,
                if def.attrs.is_empty() {
                    "none".to_string()
                } else {
                    def.attrs.join(", ")
                }
            )));
        }
    }
    Ok(())
}

fn is_list(arg: &str) -> bool {
    arg.ends_with("[]")
}

fn arg_name(arg: &str) -> &str {
    arg.strip_suffix("[]").unwrap_or(arg)
}

/// The error for a STRING input to an op without a string kernel.
fn strings_refused(arg: &str) -> Error {
    Error::invalid(format!(
        "input '{arg}' has dtype STRING, which this op does not support"
    ))
}

enum Ranges {
    /// Every argument is one tensor, argument `i` at input `i`.
    Singles,
    Explicit(Vec<(usize, usize)>),
}

impl Ranges {
    /// A copy (its size is the op's argument count).
    fn try_clone(&self) -> Result<Ranges> {
        Ok(match self {
            Ranges::Singles => Ranges::Singles,
            Ranges::Explicit(r) => Ranges::Explicit(crate::alloc::copied(r)?),
        })
    }

    /// The argument input `k` belongs to.
    fn arg_of(&self, k: usize) -> usize {
        match self {
            Ranges::Singles => k,
            Ranges::Explicit(r) => r
                .iter()
                .position(|&(s, n)| (s..s + n).contains(&k))
                .unwrap_or(0),
        }
    }

    /// The items of argument `i` (tensors, or what is known of them).
    #[inline]
    fn slice<'s, T>(&self, items: &'s [T], i: usize) -> &'s [T] {
        match self {
            Ranges::Singles => items.get(i..i + 1).unwrap_or(&[]),
            Ranges::Explicit(r) => r
                .get(i)
                .and_then(|&(s, n)| items.get(s..s + n))
                .unwrap_or(&[]),
        }
    }
}

fn arg_ranges(def: &OpDef, n_inputs: usize, list_lens: Option<&[i32]>) -> Result<Ranges> {
    let expected = def.inputs.len();
    let describe = || def.inputs.join(", ");
    match list_lens {
        None => {
            if let Some(a) = def.inputs.iter().find(|a| is_list(a)) {
                return Err(Error::invalid(format!(
                    "input '{}' must be given as a list (addInputList); expected inputs ({})",
                    arg_name(a),
                    describe()
                )));
            }
            if n_inputs != expected {
                return Err(Error::invalid(format!(
                    "expected {expected} inputs ({}) but got {n_inputs}",
                    describe()
                )));
            }
            Ok(Ranges::Singles)
        }
        Some(lens) => {
            if lens.len() != expected {
                return Err(Error::invalid(format!(
                    "expected {expected} input arguments ({}) but got {}",
                    describe(),
                    lens.len()
                )));
            }
            let mut ranges = crate::alloc::with_room(expected)?;
            let mut start = 0usize;
            for (arg, &len) in def.inputs.iter().zip(lens) {
                let n = match (is_list(arg), len) {
                    (false, -1) => 1,
                    (true, n) if n >= 0 => n as usize,
                    (false, _) => {
                        return Err(Error::invalid(format!(
                            "input '{}' takes one tensor, not a list",
                            arg_name(arg)
                        )));
                    }
                    (true, _) => {
                        return Err(Error::invalid(format!(
                            "input '{}' must be given as a list (addInputList)",
                            arg_name(arg)
                        )));
                    }
                };
                ranges.push((start, n));
                start += n;
            }
            if start != n_inputs {
                return Err(Error::invalid(format!(
                    "argument lengths add up to {start} inputs but {n_inputs} were given"
                )));
            }
            Ok(Ranges::Explicit(ranges))
        }
    }
}

/// What a kernel sees: its inputs, attributes, and where to allocate outputs.
pub struct OpContext<'a> {
    def: &'a OpDef,
    inputs: &'a [Arc<Tensor>],
    ranges: Ranges,
    pub attrs: &'a Attrs,
    account: &'a Arc<MemoryAccount>,
}

impl<'a> OpContext<'a> {
    /// The op's canonical type name.
    pub fn op(&self) -> &'static str {
        self.def.name
    }

    /// The declared name of argument `i`, for messages.
    pub fn arg_name(&self, i: usize) -> &'static str {
        self.def.inputs.get(i).map_or("?", |a| arg_name(a))
    }

    /// The tensors of argument `i`.
    pub fn list(&self, i: usize) -> &'a [Arc<Tensor>] {
        self.ranges.slice(self.inputs, i)
    }

    /// The single tensor of argument `i` (the registry has checked arity).
    pub fn input(&self, i: usize) -> &'a Tensor {
        match self.list(i).first() {
            Some(t) => t,
            None => &EMPTY_INPUT,
        }
    }

    /// Room for `n` elements of an output, accounted against the session.
    pub fn alloc<T: Element>(&self, n: usize) -> Result<Allocation<T>> {
        Allocation::new(self.account, n)
    }

    /// Room for `n` elements with `len == n`, for index-wise or parallel writes;
    /// every element must be written (a recycled buffer holds old values).
    pub fn alloc_initialized<T: Element>(&self, n: usize) -> Result<Allocation<T>> {
        Allocation::new_initialized(self.account, n)
    }

    /// The account outputs are charged to.
    pub fn account(&self) -> &'a Arc<MemoryAccount> {
        self.account
    }

    /// An output built from an iterator of exactly `shape`'s element count.
    pub fn collect<T: Element>(
        &self,
        shape: Vec<usize>,
        values: impl Iterator<Item = T>,
    ) -> Result<Tensor> {
        let n = crate::tensor::num_elements(&shape)?;
        let mut out = self.alloc::<T>(n)?;
        out.data.extend(values.take(n));
        out.into_tensor(shape)
    }

    /// Checks that input `i` has one of `allowed` dtypes.
    pub fn expect_dtype(&self, i: usize, allowed: &[DataType]) -> Result<DataType> {
        expect_dtype(self.arg_name(i), self.input(i).dtype(), allowed)
    }

    /// Refuses a STRING input (ops without a string kernel).
    fn refuse_strings(&self) -> Result<()> {
        for i in 0..self.def.inputs.len() {
            if self.list(i).iter().any(|t| t.dtype() == DataType::String) {
                return Err(strings_refused(self.arg_name(i)));
            }
        }
        Ok(())
    }

    /// The error for input `i` having a dtype this op does not support.
    pub fn unsupported_dtype(&self, i: usize) -> Error {
        unsupported_dtype(self.arg_name(i), self.input(i).dtype())
    }

    /// Checks that inputs `i` and `j` have the same dtype.
    pub fn same_dtype(&self, i: usize, j: usize) -> Result<DataType> {
        same_dtype(
            (self.arg_name(i), self.input(i).dtype()),
            (self.arg_name(j), self.input(j).dtype()),
        )
    }
}

// The dtype checks kernels and build-time inference (`infer`) share, so both
// fail with the same message.

/// Checks that the input named `arg`, of dtype `d`, has one of `allowed`.
pub(crate) fn expect_dtype(arg: &str, d: DataType, allowed: &[DataType]) -> Result<DataType> {
    if allowed.contains(&d) {
        Ok(d)
    } else {
        Err(Error::invalid(format!(
            "input '{arg}' has dtype {d} but must be one of {}",
            allowed
                .iter()
                .map(|d| d.name())
                .collect::<Vec<_>>()
                .join(", ")
        )))
    }
}

/// The error for the input named `arg` having a dtype the op does not support.
pub(crate) fn unsupported_dtype(arg: &str, d: DataType) -> Error {
    Error::invalid(format!(
        "input '{arg}' has dtype {d}, which this op does not support"
    ))
}

/// Checks that two named inputs have the same dtype.
pub(crate) fn same_dtype((i, a): (&str, DataType), (j, b): (&str, DataType)) -> Result<DataType> {
    if a == b {
        Ok(a)
    } else {
        Err(Error::invalid(format!(
            "inputs '{i}' and '{j}' must have the same dtype, but got {a} and {b}"
        )))
    }
}

/// Stands in for a missing input, which the registry's arity check rules out;
/// it keeps `input` total without a panic path.
static EMPTY_INPUT: LazyLock<Tensor> = LazyLock::new(|| {
    let account = MemoryAccount::new(None);
    // An empty f32 vector needs no memory; this cannot fail.
    Tensor::from_slice::<f32>(&account, &[0], &[])
        .unwrap_or_else(|_| unreachable!("an empty tensor needs no memory"))
});

/// Reads an integer input (INT32 or INT64) as `i64` values, naming it on
/// error. The copy is a temporary the input's size decides: reserved
/// fallibly and counted against the session's limit (see `scratch`).
pub fn int_values(ctx: &OpContext<'_>, i: usize) -> Result<Scratch<i64>> {
    int_values_of(ctx.account, ctx.input(i), ctx.arg_name(i))
}

/// [`int_values`] of tensor `t`, the input named `arg`.
pub(crate) fn int_values_of(
    account: &Arc<MemoryAccount>,
    t: &Tensor,
    arg: &str,
) -> Result<Scratch<i64>> {
    match t.dtype() {
        DataType::Int32 => {
            let src = t.as_slice::<i32>()?;
            let mut out = Scratch::with_capacity(account, src.len())?;
            out.extend_within(src.iter().map(|&v| i64::from(v)));
            Ok(out)
        }
        DataType::Int64 => Scratch::from_slice(account, t.as_slice::<i64>()?),
        d => Err(Error::invalid(format!(
            "input '{arg}' must be INT32 or INT64 but is {d}"
        ))),
    }
}

/// Resolves a possibly negative axis against `rank` (`[-rank, rank)`).
pub fn normalize_axis(axis: i64, rank: usize, what: &str) -> Result<usize> {
    let r = rank as i64;
    if axis < -r || axis >= r {
        return Err(Error::invalid(format!(
            "{what} {axis} is out of range for a tensor of rank {rank} (valid: [{}, {}))",
            -r, r
        )));
    }
    Ok(if axis < 0 {
        (axis + r) as usize
    } else {
        axis as usize
    })
}

#[cfg(test)]
mod tests {
    use super::Registry;

    #[test]
    fn every_op_declares_its_outputs_with_at_most_one_list() {
        let r = Registry::global();
        for name in r.names() {
            let def = r
                .def(r.lookup(name).expect("listed names resolve"))
                .expect("a def");
            let lists = def.outputs.iter().filter(|n| super::is_list(n)).count();
            assert!(
                !def.outputs.is_empty() && lists <= 1,
                "{name}: {:?}",
                def.outputs
            );
        }
    }
}
