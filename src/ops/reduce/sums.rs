//! Sums: `Sum`, `Prod` and `Mean` (a sum divided by the count), and the
//! sum folds, one of which (`SumSqF`) serves `L2Loss`.

use super::axes::{Kind, reduction};
use super::{Fold, Num};
use crate::error::Result;
use crate::ops::{KernelOutputs, OpContext};

#[derive(Clone, Copy)]
pub(super) struct SumF;

impl<T: Num> Fold<T> for SumF {
    fn identity(self) -> T {
        T::ZERO
    }
    #[inline(always)]
    fn step(self, acc: T, x: T) -> T {
        acc.add(x)
    }
}

/// Sum of squares (`L2Loss`).
#[derive(Clone, Copy)]
pub(in crate::ops) struct SumSqF;

impl<T: Num> Fold<T> for SumSqF {
    fn identity(self) -> T {
        T::ZERO
    }
    #[inline(always)]
    fn step(self, acc: T, x: T) -> T {
        acc.add(x.mul(x))
    }
    #[inline(always)]
    fn merge(self, a: T, b: T) -> T {
        a.add(b)
    }
}

#[derive(Clone, Copy)]
pub(super) struct ProdF;

impl<T: Num> Fold<T> for ProdF {
    fn identity(self) -> T {
        T::ONE
    }
    #[inline(always)]
    fn step(self, acc: T, x: T) -> T {
        acc.mul(x)
    }
}

pub(super) fn sum(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    reduction(ctx, Kind::Sum)
}

pub(super) fn prod(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    reduction(ctx, Kind::Prod)
}

pub(super) fn mean(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    reduction(ctx, Kind::Mean)
}
