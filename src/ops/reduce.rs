//! reduce ops.

use super::Registry;

pub(super) fn register(_r: &mut Registry) {}
