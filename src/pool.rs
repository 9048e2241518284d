//! A bounded pool of large freed buffers, bucketed by dtype and power-of-two
//! capacity. Reused pages are already faulted in, which is what makes a new
//! output of a streaming op as cheap as writing into an existing array.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::dtype::{DataType, Element};
use crate::tensor::Storage;

/// Buffers smaller than this come from the ordinary allocator.
pub const MIN_POOLED_BYTES: usize = 1 << 20;
/// Idle bytes the pool may hold.
pub const MAX_IDLE_BYTES: u64 = 256 << 20;
/// Idle buffers per bucket.
const MAX_PER_BUCKET: usize = 4;

type Buckets = HashMap<(DataType, usize), Vec<Storage>>;
static IDLE: Mutex<Option<Buckets>> = Mutex::new(None);
static IDLE_BYTES: AtomicU64 = AtomicU64::new(0);

pub fn idle_bytes() -> u64 {
    IDLE_BYTES.load(Ordering::Relaxed)
}

/// The capacity to reserve for `n` elements of `T`: a power of two for
/// pooled sizes (untouched tail pages never become resident).
pub fn capacity_for<T: Element>(n: usize) -> usize {
    if n.saturating_mul(T::DTYPE.size()) >= MIN_POOLED_BYTES {
        n.checked_next_power_of_two().unwrap_or(n)
    } else {
        n
    }
}

/// A pooled vector with room for `n` elements, its old contents kept.
pub fn take<T: Element>(n: usize) -> Option<Vec<T>> {
    let cap = capacity_for::<T>(n);
    if cap == n && n.saturating_mul(T::DTYPE.size()) < MIN_POOLED_BYTES {
        return None;
    }
    let storage = {
        let mut idle = IDLE.lock().unwrap_or_else(|p| p.into_inner());
        idle.as_mut()?.get_mut(&(T::DTYPE, cap))?.pop()?
    };
    IDLE_BYTES.fetch_sub((cap * T::DTYPE.size()) as u64, Ordering::Relaxed);
    T::from_storage(storage)
}

pub(crate) fn recycle(storage: Storage) {
    let bytes = storage.capacity_bytes();
    if bytes < MIN_POOLED_BYTES {
        return;
    }
    let cap = bytes / storage.dtype().size();
    if !cap.is_power_of_two() {
        return;
    }
    if IDLE_BYTES.load(Ordering::Relaxed) + bytes as u64 > MAX_IDLE_BYTES {
        return;
    }
    let mut idle = IDLE.lock().unwrap_or_else(|p| p.into_inner());
    let bucket = idle
        .get_or_insert_with(HashMap::new)
        .entry((storage.dtype(), cap))
        .or_default();
    if bucket.len() < MAX_PER_BUCKET {
        bucket.push(storage);
        IDLE_BYTES.fetch_add(bytes as u64, Ordering::Relaxed);
    }
}
