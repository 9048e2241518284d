//! String tensors' storage: every element's bytes back to back in one
//! buffer, and where each element ends.
//!
//! One buffer plus offsets rather than a box per element: a tensor of any
//! number of strings is two allocations, whose capacities are exactly the
//! bytes its account counts (a box per element would add an allocation and
//! 16 bytes of pointer per string, and allocator overhead no account sees);
//! the bytes cross JNI in one region copy each way; and kernels read
//! contiguous memory. Strings are bytes, as in TensorFlow: Java decodes them
//! with the charset it chooses.

use std::sync::Arc;

use crate::alloc;
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::memory::{BufferGuard, MemoryAccount};
use crate::tensor::{Storage, Tensor, num_elements};

/// The elements of a string tensor.
#[derive(Clone, PartialEq, Default)]
pub struct Strings {
    bytes: Vec<u8>,
    /// `ends[i]` is where element `i` ends in `bytes` (and `i + 1` starts).
    ends: Vec<usize>,
}

impl Strings {
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Element `i`'s bytes.
    pub fn get(&self, i: usize) -> Option<&[u8]> {
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        self.bytes.get(start..end)
    }

    /// Every element's bytes, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        (0..self.len()).map(|i| self.get(i).unwrap_or_default())
    }

    /// Every element's bytes back to back.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Each element's length in bytes.
    pub fn lengths(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        (0..self.len()).map(|i| self.get(i).map_or(0, <[u8]>::len))
    }

    /// The bytes this storage holds.
    pub(crate) fn capacity_bytes(&self) -> usize {
        self.bytes.capacity() + self.ends.capacity() * std::mem::size_of::<usize>()
    }
}

/// The bytes a string tensor of `n` elements holding `total` bytes is
/// counted for: the bytes and one offset per element.
pub fn held_bytes(n: usize, total: usize) -> Result<u64> {
    n.checked_mul(std::mem::size_of::<usize>())
        .and_then(|o| o.checked_add(total))
        .map(|b| b as u64)
        .ok_or_else(|| Error::invalid(format!("a STRING tensor of {n} elements is too large")))
}

/// Room for a string tensor's elements, reserved and accounted before it is
/// allocated, to be filled with [`push`](StringAllocation::push) and turned
/// into a tensor. Dropping it unfilled gives the bytes back.
pub struct StringAllocation {
    strings: Strings,
    n: usize,
    total: usize,
    guard: BufferGuard,
}

impl StringAllocation {
    /// Reserves room for `n` strings of `total` bytes in all, accounted
    /// against `account` (and its limit) first, then allocated fallibly.
    pub fn new(account: &Arc<MemoryAccount>, n: usize, total: usize) -> Result<StringAllocation> {
        let bytes = held_bytes(n, total)?;
        if let Some(limit) = account.limit() {
            crate::pool::fit_under(limit, || account.held_bytes().saturating_add(bytes));
        }
        let guard = account.reserve(bytes)?;
        let refused = || Error::MemoryExhausted {
            requested: bytes,
            live: account.live_bytes().saturating_sub(bytes),
            limit: None,
        };
        if crate::faults::allocation_refused() {
            return Err(refused());
        }
        let strings = Strings {
            bytes: alloc::with_room(total).map_err(|_| refused())?,
            ends: alloc::with_room(n).map_err(|_| refused())?,
        };
        guard.allocated();
        Ok(StringAllocation {
            strings,
            n,
            total,
            guard,
        })
    }

    /// Appends one element; more elements or bytes than reserved is an error.
    pub fn push(&mut self, s: &[u8]) -> Result<()> {
        self.push_parts(&[s])
    }

    /// Appends one element made of `parts` joined.
    pub fn push_parts(&mut self, parts: &[&[u8]]) -> Result<()> {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        if self.strings.ends.len() == self.n || self.strings.bytes.len() + len > self.total {
            return Err(Error::invalid(format!(
                "internal: more than the {} strings of {} bytes reserved",
                self.n, self.total
            )));
        }
        for p in parts {
            self.strings.bytes.extend_from_slice(p);
        }
        self.strings.ends.push(self.strings.bytes.len());
        Ok(())
    }

    /// Fills every element at once and makes the tensor of `shape`: `fill`
    /// writes all `total` bytes, which `lengths` (one per element, summing
    /// to `total`) split.
    pub fn fill_raw<E: From<Error>>(
        mut self,
        shape: Vec<usize>,
        lengths: &[i32],
        fill: impl FnOnce(&mut [u8]) -> std::result::Result<(), E>,
    ) -> std::result::Result<Tensor, E> {
        if lengths.len() != self.n {
            return Err(Error::invalid(format!(
                "{} string lengths for {} strings",
                lengths.len(),
                self.n
            ))
            .into());
        }
        let mut end = 0usize;
        for &l in lengths {
            let l = usize::try_from(l)
                .map_err(|_| Error::invalid(format!("negative string length {l}")))?;
            end = end
                .checked_add(l)
                .filter(|&e| e <= self.total)
                .ok_or_else(|| {
                    Error::invalid(format!(
                        "string lengths add up to more than the {} bytes given",
                        self.total
                    ))
                })?;
            self.strings.ends.push(end);
        }
        if end != self.total {
            return Err(Error::invalid(format!(
                "string lengths add up to {end} bytes but {} were given",
                self.total
            ))
            .into());
        }
        alloc::fill_within(&mut self.strings.bytes, self.total, 0);
        fill(&mut self.strings.bytes)?;
        Ok(self.into_tensor(shape)?)
    }

    /// Wraps the filled elements as a tensor of `shape`.
    pub fn into_tensor(self, shape: Vec<usize>) -> Result<Tensor> {
        let n = num_elements(&shape)?;
        if n != self.strings.len() || n != self.n {
            return Err(Error::invalid(format!(
                "internal: {} strings filled for shape {shape:?}",
                self.strings.len()
            )));
        }
        Tensor::from_storage(
            DataType::String,
            shape,
            Storage::Str(self.strings),
            self.guard,
        )
    }
}
