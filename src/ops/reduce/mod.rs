//! Reductions: `Sum`, `Prod`, `Max`, `Min`, `Mean`, `All`, `Any` over any set
//! of axes, `ArgMax`/`ArgMin` along one axis, and the running sum `Cumsum`.
//!
//! Every reduction is brought down to one primitive over a row-major block
//! `[outer, len, inner]` reduced over `len`: adjacent axes that are both
//! reduced or both kept are merged first, so the common cases (all axes, the
//! inner axes, the outer axes) run as contiguous loops with no per-element
//! index arithmetic. A pattern like `[reduced, kept, reduced]` takes one pass
//! per reduced group.
//!
//! Float semantics: sums are pairwise over blocks of a multi-lane loop (close
//! to NumPy's accuracy, and independent of the thread count); `Max`/`Min`
//! propagate NaN; `ArgMax`/`ArgMin` return the first NaN if there is one, as
//! NumPy does, and the first of equal extremes otherwise.
//!
//! Files: `axes` checks the axes and runs the passes, `lanes` holds the
//! vectorized folding loops, and the kernels are grouped by family: `sums`
//! (Sum, Prod, Mean), `min_max` (Max, Min, ArgMax, ArgMin), `logical`
//! (All, Any) and `cumulative` (Cumsum, a running sum). This file registers
//! them and defines the element traits and the `Fold` interface they share.

pub(super) mod axes;
mod cumulative;
pub(super) mod lanes;
mod logical;
pub(super) mod min_max;
pub(super) mod sums;

use super::infer::{InferFn, reduce as infer};
use super::{Kernel, OpDef, Registry};
use crate::dtype::Element;

use cumulative::{cumprod, cumsum};
use logical::{all, any};
use min_max::{arg_max, arg_min, max, min};
use sums::{mean, prod, sum};

/// A reduction of `input` over the axes `axis`.
const fn reduction(name: &'static str, kernel: Kernel, infer: InferFn) -> OpDef {
    OpDef::new(name, &["input", "axis"], &["output"], kernel)
        .attrs(&["keep_dims"])
        .infer(infer)
}

pub(super) fn register(r: &mut Registry) {
    r.add(
        [
            reduction("Sum", sum, infer::numeric),
            reduction("Prod", prod, infer::numeric),
            reduction("Max", max, infer::numeric),
            reduction("Min", min, infer::numeric),
            reduction("Mean", mean, infer::numeric),
            reduction("All", all, infer::logical),
            reduction("Any", any, infer::logical),
            OpDef::new("ArgMax", &["input", "dimension"], &["output"], arg_max)
                .attrs(&["output_type"]),
            OpDef::new("ArgMin", &["input", "dimension"], &["output"], arg_min)
                .attrs(&["output_type"]),
            OpDef::new("Cumsum", &["x", "axis"], &["out"], cumsum).attrs(&["exclusive", "reverse"]),
            OpDef::new("Cumprod", &["x", "axis"], &["out"], cumprod)
                .attrs(&["exclusive", "reverse"]),
        ]
        .map(OpDef::halves),
    );
}

// ---------------------------------------------------------------------------
// Element traits and the fold interface, shared with the other kernel files
// of this family.

/// Elements with an order (every dtype; `false < true`).
pub(super) trait Ordered: Element + PartialOrd {
    /// The identity of `Max`.
    const LOWEST: Self;
    /// The identity of `Min`.
    const HIGHEST: Self;
    fn nan(self) -> bool;
}

/// Numeric elements. Integer arithmetic wraps, as TensorFlow's does.
pub(super) trait Num: Ordered {
    const ZERO: Self;
    const ONE: Self;
    fn add(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    /// `self / n`; integers truncate, and 0 when `n` is 0 or does not fit
    /// (the sum of an empty integer reduction is 0).
    fn div_count(self, n: usize) -> Self;
}

macro_rules! float_elem {
    ($t:ty) => {
        impl Ordered for $t {
            const LOWEST: Self = <$t>::NEG_INFINITY;
            const HIGHEST: Self = <$t>::INFINITY;
            #[inline(always)]
            fn nan(self) -> bool {
                self.is_nan()
            }
        }
        impl Num for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                self + o
            }
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                self * o
            }
            fn div_count(self, n: usize) -> Self {
                self / n as $t
            }
        }
    };
}

macro_rules! int_elem {
    ($t:ty) => {
        impl Ordered for $t {
            const LOWEST: Self = <$t>::MIN;
            const HIGHEST: Self = <$t>::MAX;
            #[inline(always)]
            fn nan(self) -> bool {
                false
            }
        }
        impl Num for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                self.wrapping_add(o)
            }
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                self.wrapping_mul(o)
            }
            fn div_count(self, n: usize) -> Self {
                match <$t>::try_from(n) {
                    Ok(d) if d != 0 => self / d,
                    _ => 0,
                }
            }
        }
    };
}

float_elem!(f32);

float_elem!(f64);

int_elem!(i32);

int_elem!(i64);

int_elem!(u8);

int_elem!(u16);

/// HALF and BFLOAT16 are ordered (`ArgMax` reads them as they are); their
/// arithmetic runs in FLOAT (see `OpDef::halves`).
macro_rules! half_ordered {
    ($t:ty) => {
        impl Ordered for $t {
            const LOWEST: Self = <$t>::NEG_INFINITY;
            const HIGHEST: Self = <$t>::INFINITY;
            fn nan(self) -> bool {
                self.is_nan()
            }
        }
    };
}

half_ordered!(crate::dtype::f16);

half_ordered!(crate::dtype::bf16);

impl Ordered for bool {
    const LOWEST: Self = false;
    const HIGHEST: Self = true;
    fn nan(self) -> bool {
        false
    }
}

/// An associative fold: `step` takes one element into an accumulator,
/// `merge` combines two accumulators.
pub(super) trait Fold<T: Copy>: Copy + Send + Sync {
    fn identity(self) -> T;
    fn step(self, acc: T, x: T) -> T;
    fn merge(self, a: T, b: T) -> T {
        self.step(a, b)
    }
}
