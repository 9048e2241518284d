//! Temporaries whose size a caller decides: copies of index inputs, the
//! intermediate passes and partial rows of reductions, Java arrays decoded at
//! the boundary. Each is reserved fallibly (on stable Rust a failed infallible
//! allocation aborts the process, JVM included) and, from
//! [`COUNTED_SCRATCH_BYTES`] on, counted against the session's limit next to
//! its tensors while it lives. Temporaries are never tensor bytes:
//! `live_bytes` and `peak_bytes` do not see them.

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::memory::{GlobalMemory, MemoryAccount, ScratchGuard};
use crate::pool;

/// Temporaries from this size on are counted against the limit; smaller ones
/// are only reserved fallibly (counting them would cost more than they hold,
/// on paths every op with attributes takes).
pub const COUNTED_SCRATCH_BYTES: u64 = 64 << 10;

/// The error for `n` elements of `elem_size` bytes the allocator refused.
fn refused(n: usize, elem_size: usize, limit: Option<u64>) -> Error {
    Error::MemoryExhausted {
        requested: (n as u64).saturating_mul(elem_size as u64),
        live: GlobalMemory::get().live_bytes(),
        limit,
    }
}

/// A kernel's temporary vector: reserved fallibly, counted against the
/// account's limit while it lives when large, and recycled through the pool.
pub struct Scratch<T: Element> {
    data: Vec<T>,
    _guard: Option<ScratchGuard>,
}

impl<T: Element> Scratch<T> {
    /// An empty temporary with room for `n` elements; fill it with
    /// [`Scratch::extend_within`].
    pub fn with_capacity(account: &Arc<MemoryAccount>, n: usize) -> Result<Scratch<T>> {
        let bytes = (n as u64)
            .checked_mul(T::DTYPE.size() as u64)
            .ok_or_else(|| Error::invalid(format!("a temporary of {n} elements is too large")))?;
        let guard = if bytes >= COUNTED_SCRATCH_BYTES {
            Some(account.reserve_scratch(bytes)?)
        } else {
            None
        };
        let mut data = pool::obtain::<T>(n)
            .or_else(|| {
                pool::trim();
                pool::obtain::<T>(n)
            })
            .ok_or_else(|| refused(n, T::DTYPE.size(), account.limit()))?;
        data.clear();
        Ok(Scratch {
            data,
            _guard: guard,
        })
    }

    /// `n` copies of `value`.
    pub fn filled(account: &Arc<MemoryAccount>, n: usize, value: T) -> Result<Scratch<T>> {
        let mut s = Self::with_capacity(account, n)?;
        crate::alloc::fill_within(&mut s.data, n, value);
        Ok(s)
    }

    /// The elements of `values`, copied.
    pub fn from_slice(account: &Arc<MemoryAccount>, values: &[T]) -> Result<Scratch<T>> {
        let mut s = Self::with_capacity(account, values.len())?;
        s.data.extend_from_slice(values);
        Ok(s)
    }

    /// Appends items while there is room: never grows past what was reserved
    /// (and counted); returns how many were appended.
    pub fn extend_within(&mut self, items: impl IntoIterator<Item = T>) -> usize {
        let room = self.data.capacity() - self.data.len();
        let before = self.data.len();
        self.data.extend(items.into_iter().take(room));
        self.data.len() - before
    }
}

impl<T: Element> Deref for Scratch<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.data
    }
}

impl<T: Element> DerefMut for Scratch<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.data
    }
}

impl<T: Element> fmt::Debug for Scratch<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.data[..], f)
    }
}

impl<'a, T: Element> IntoIterator for &'a Scratch<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.data.iter()
    }
}

impl<T: Element> Drop for Scratch<T> {
    fn drop(&mut self) {
        pool::recycle(T::into_storage(std::mem::take(&mut self.data)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_temporaries_count_against_the_limit_but_not_as_live() -> Result<()> {
        let _pool = pool::TEST_LOCK.lock().unwrap_or_else(|p| p.into_inner());
        let acc = MemoryAccount::new(Some(1 << 20));
        let s = Scratch::<f32>::filled(&acc, 100_000, 1.0)?;
        assert_eq!(acc.scratch_bytes(), 400_000);
        assert_eq!((acc.live_bytes(), acc.peak_bytes()), (0, 0));
        // Tensors and temporaries share the limit.
        let t = crate::Tensor::filled(&acc, &[200_000], 0f32);
        assert!(matches!(t, Err(Error::MemoryExhausted { .. })));
        assert!(Scratch::<f64>::with_capacity(&acc, 100_000).is_err());
        drop(s);
        assert_eq!(acc.scratch_bytes(), 0);
        assert!(crate::Tensor::filled(&acc, &[200_000], 0f32).is_ok());
        Ok(())
    }

    #[test]
    fn small_temporaries_are_not_counted() -> Result<()> {
        let _pool = pool::TEST_LOCK.lock().unwrap_or_else(|p| p.into_inner());
        let acc = MemoryAccount::new(Some(16));
        let s = Scratch::<i64>::from_slice(&acc, &[1, 2, 3, 4, 5, 6, 7, 8, 9])?;
        assert_eq!(&s[..], &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!(acc.scratch_bytes(), 0);
        Ok(())
    }

    #[test]
    fn sizes_no_machine_holds_are_errors_not_aborts() {
        let _pool = pool::TEST_LOCK.lock().unwrap_or_else(|p| p.into_inner());
        let acc = MemoryAccount::new(None);
        // 2^41 elements: 8-16 TiB, past any allocator here, yet a valid size.
        let n = 1usize << 41;
        assert!(matches!(
            Scratch::<f64>::with_capacity(&acc, n),
            Err(Error::MemoryExhausted { .. })
        ));
        assert_eq!(acc.scratch_bytes(), 0);
        assert!(crate::alloc::collect(n, 0..3u32).is_err());
        assert!(Scratch::<f64>::with_capacity(&acc, usize::MAX).is_err());
    }

    #[test]
    fn extend_within_never_grows_past_the_reservation() -> Result<()> {
        let acc = MemoryAccount::new(None);
        let mut s = Scratch::<i32>::with_capacity(&acc, 3)?;
        assert_eq!(s.extend_within(0..10), 3);
        assert_eq!(&s[..], &[0, 1, 2]);
        Ok(())
    }
}
