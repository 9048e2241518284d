//! Logical reductions of BOOL tensors: `All` and `Any`.

use super::Fold;
use super::axes::{Kind, reduction};
use crate::error::Result;
use crate::ops::{KernelOutputs, OpContext};

#[derive(Clone, Copy)]
pub(super) struct AndF;

impl Fold<bool> for AndF {
    fn identity(self) -> bool {
        true
    }
    #[inline(always)]
    fn step(self, acc: bool, x: bool) -> bool {
        acc & x
    }
}

#[derive(Clone, Copy)]
pub(super) struct OrF;

impl Fold<bool> for OrF {
    fn identity(self) -> bool {
        false
    }
    #[inline(always)]
    fn step(self, acc: bool, x: bool) -> bool {
        acc | x
    }
}

pub(super) fn all(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    reduction(ctx, Kind::All)
}

pub(super) fn any(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    reduction(ctx, Kind::Any)
}
