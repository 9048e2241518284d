//! A bounded pool of large freed buffers, bucketed by dtype and size class.
//! Reused pages are already faulted in, which is what makes a new output of a
//! streaming op as cheap as writing into an existing array.
//!
//! Size classes: eight per power of two (`2^k`, `2^k + 2^(k-3)`, ...), so a
//! buffer's capacity is less than 1/8 above the length it was reserved for.
//! The slack is memory no tensor counts; idle buffers are reported apart
//! ([`idle_bytes`]) and released by [`trim`], and by [`fit_under`] when a
//! session with a limit comes near it.
//!
//! Bounds: idle bytes in all (per bucket the same, but at least four
//! buffers) at most 256 MiB, or while sessions that free by collection are
//! open, the largest of their [`BatchAllowance`]s: the batch a cleanup frees
//! after a collection must be reused, not faulted in afresh (with four per
//! bucket, a loop of 1 MiB outputs freed 64 at a time hit the pool 6% of the
//! time and ran 6x slower per op than one that frees each output at once; on
//! a 2 GiB Java heap, where a collection frees about 750 MiB, a 256 MiB pool
//! left the loop between collections 2.5x slower than explicit release).
//! Idle buffers only ever were live ones, so the pool never raises the
//! process's footprint above what it already was; it delays giving it back.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::dtype::{DataType, Element};
use crate::tensor::Storage;

/// Buffers smaller than this come from the ordinary allocator.
pub const MIN_POOLED_BYTES: usize = 1 << 20;
/// Idle bytes the pool may hold while no [`BatchAllowance`] asks for more.
pub const MAX_IDLE_BYTES: u64 = 256 << 20;
/// Idle buffers a bucket may hold whatever their size.
const MIN_PER_BUCKET: usize = 4;
/// log2 of the size classes per power of two.
const SUB_CLASS_BITS: u32 = 3;

type Buckets = HashMap<(DataType, usize), Vec<Storage>>;
static IDLE: Mutex<Option<Buckets>> = Mutex::new(None);
static IDLE_BYTES: AtomicU64 = AtomicU64::new(0);
/// The current bound on idle bytes: [`MAX_IDLE_BYTES`] or the largest
/// allowance of an open session.
static IDLE_LIMIT: AtomicU64 = AtomicU64::new(MAX_IDLE_BYTES);
/// The allowances held now, as a multiset (bytes -> how many).
static ALLOWANCES: Mutex<BTreeMap<u64, usize>> = Mutex::new(BTreeMap::new());
static HITS: AtomicU64 = AtomicU64::new(0);
static MISSES: AtomicU64 = AtomicU64::new(0);

/// Bytes of idle buffers the pool holds.
pub fn idle_bytes() -> u64 {
    IDLE_BYTES.load(Ordering::Relaxed)
}

/// The most idle bytes the pool holds now.
pub fn idle_limit() -> u64 {
    IDLE_LIMIT.load(Ordering::Relaxed)
}

/// What a session that frees in batches after collections lets the pool
/// hold while it is open: about the bytes one collection frees (its pacing
/// lets at most `limit / wire::HEADROOM_DIVISOR` accumulate). Dropping it lowers the
/// bound again and releases idle buffers above it.
pub struct BatchAllowance(u64);

impl BatchAllowance {
    pub fn new(bytes: u64) -> BatchAllowance {
        let mut all = ALLOWANCES.lock().unwrap_or_else(|p| p.into_inner());
        *all.entry(bytes).or_default() += 1;
        set_limit(&all);
        BatchAllowance(bytes)
    }
}

impl Drop for BatchAllowance {
    fn drop(&mut self) {
        let limit = {
            let mut all = ALLOWANCES.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(n) = all.get_mut(&self.0) {
                *n -= 1;
                if *n == 0 {
                    all.remove(&self.0);
                }
            }
            set_limit(&all)
        };
        if idle_bytes() > limit {
            trim_to(limit);
        }
    }
}

fn set_limit(all: &BTreeMap<u64, usize>) -> u64 {
    let largest = all.keys().next_back().copied().unwrap_or(0);
    let limit = largest.max(MAX_IDLE_BYTES);
    IDLE_LIMIT.store(limit, Ordering::Relaxed);
    limit
}

/// Requests for pooled sizes since the process started: `(hits, misses)`.
pub fn hits_and_misses() -> (u64, u64) {
    (HITS.load(Ordering::Relaxed), MISSES.load(Ordering::Relaxed))
}

/// The smallest size class holding `n` elements: `n` rounded up to a multiple
/// of `2^(k-3)` where `2^k <= n < 2^(k+1)`, hence less than `n + n/8`.
pub fn size_class(n: usize) -> usize {
    let Some(k) = n.checked_ilog2() else {
        return 0;
    };
    let step = 1usize << k.saturating_sub(SUB_CLASS_BITS);
    n.checked_next_multiple_of(step).unwrap_or(n)
}

fn pooled<T: Element>(n: usize) -> bool {
    n.saturating_mul(T::DTYPE.size()) >= MIN_POOLED_BYTES
}

/// The capacity to reserve for `n` elements of `T`: its size class for pooled
/// sizes (untouched tail pages never become resident), `n` otherwise.
pub fn capacity_for<T: Element>(n: usize) -> usize {
    if pooled::<T>(n) { size_class(n) } else { n }
}

/// A vector with room for `n` elements: a pooled one (its old contents kept;
/// see `poison`) or a fresh one, reserved fallibly. `None` if the allocator
/// refuses.
pub(crate) fn obtain<T: Element>(n: usize) -> Option<Vec<T>> {
    if let Some(v) = take(n) {
        return Some(v);
    }
    crate::alloc::with_room(capacity_for::<T>(n)).ok()
}

/// A pooled vector with room for `n` elements, its old contents kept.
pub fn take<T: Element>(n: usize) -> Option<Vec<T>> {
    if !pooled::<T>(n) {
        return None;
    }
    let cap = size_class(n);
    let storage = {
        let mut idle = IDLE.lock().unwrap_or_else(|p| p.into_inner());
        idle.as_mut()
            .and_then(|b| b.get_mut(&(T::DTYPE, cap)))
            .and_then(Vec::pop)
    };
    let Some(storage) = storage else {
        MISSES.fetch_add(1, Ordering::Relaxed);
        return None;
    };
    HITS.fetch_add(1, Ordering::Relaxed);
    IDLE_BYTES.fetch_sub(storage.capacity_bytes() as u64, Ordering::Relaxed);
    T::from_storage(storage)
}

pub(crate) fn recycle(storage: Storage) {
    let bytes = storage.capacity_bytes();
    // String storage has no fixed element size to pool by.
    if bytes < MIN_POOLED_BYTES || storage.dtype().size() == 0 {
        return;
    }
    let cap = bytes / storage.dtype().size();
    if size_class(cap) != cap {
        return;
    }
    let limit = idle_limit();
    if IDLE_BYTES.load(Ordering::Relaxed) + bytes as u64 > limit {
        return;
    }
    let mut idle = IDLE.lock().unwrap_or_else(|p| p.into_inner());
    let bucket = idle
        .get_or_insert_with(HashMap::new)
        .entry((storage.dtype(), cap))
        .or_default();
    let per_bucket = usize::try_from(limit).unwrap_or(usize::MAX) / bytes;
    if bucket.len() < per_bucket.max(MIN_PER_BUCKET) {
        bucket.push(storage);
        IDLE_BYTES.fetch_add(bytes as u64, Ordering::Relaxed);
    }
}

/// Releases idle buffers, largest first, until at most `keep` idle bytes
/// remain; returns the bytes released. The buffers are freed after the pool's
/// lock is let go.
pub fn trim_to(keep: u64) -> u64 {
    let released: Vec<Storage> = {
        let mut idle = IDLE.lock().unwrap_or_else(|p| p.into_inner());
        let Some(buckets) = idle.as_mut() else {
            return 0;
        };
        let mut keys: Vec<(DataType, usize)> = buckets.keys().copied().collect();
        keys.sort_unstable_by_key(|&(d, cap)| std::cmp::Reverse(cap * d.size()));
        let mut out = Vec::new();
        for key in keys {
            let Some(bucket) = buckets.get_mut(&key) else {
                continue;
            };
            while IDLE_BYTES.load(Ordering::Relaxed) > keep {
                let Some(s) = bucket.pop() else { break };
                IDLE_BYTES.fetch_sub(s.capacity_bytes() as u64, Ordering::Relaxed);
                out.push(s);
            }
        }
        buckets.retain(|_, b| !b.is_empty());
        out
    };
    released.iter().map(|s| s.capacity_bytes() as u64).sum()
}

/// Releases every idle buffer; returns the bytes released.
pub fn trim() -> u64 {
    trim_to(0)
}

/// Keeps what a session holds (`held`: live tensors and temporaries) plus
/// the idle buffers within the session's `limit`: a session near its cap
/// should not also keep memory in reserve. One load when the pool is empty.
pub(crate) fn fit_under(limit: u64, held: impl FnOnce() -> u64) {
    let idle = idle_bytes();
    if idle == 0 {
        return;
    }
    let held = held();
    if held.saturating_add(idle) > limit {
        trim_to(limit.saturating_sub(held));
    }
}

/// Test support: buffers handed to kernels for index-wise writes filled with a
/// recognisable pattern, so that an element a kernel forgets to write shows up
/// in its output instead of a previous tensor's value (see
/// `Allocation::new_initialized`). It exists, and is on by default, only in the
/// crate's unit tests and in builds with the `testing` feature (which the
/// integration tests require): the published library never reads it.
#[cfg(any(test, feature = "testing"))]
pub mod poison {
    use std::cell::Cell;
    use std::sync::atomic::{AtomicBool, Ordering};

    static ENABLED: AtomicBool = AtomicBool::new(true);

    /// The pattern of the test builds: `0xA5` bytes, a signalling NaN with that
    /// payload for floats, `true` for BOOL.
    pub const DEFAULT_PATTERN: u8 = 0xA5;

    thread_local! {
        static PATTERN: Cell<u8> = const { Cell::new(DEFAULT_PATTERN) };
    }

    /// Turns poisoning on or off for the whole process.
    #[doc(hidden)]
    pub fn enable(on: bool) {
        ENABLED.store(on, Ordering::Relaxed);
    }

    /// Sets the pattern for buffers this thread obtains (each element type
    /// turns it into a value with [`Element::poison`](crate::Element::poison)).
    #[doc(hidden)]
    pub fn set_pattern(pattern: u8) {
        PATTERN.with(|p| p.set(pattern));
    }

    /// The pattern to fill with, if poisoning is on.
    pub(crate) fn pattern() -> Option<u8> {
        ENABLED
            .load(Ordering::Relaxed)
            .then(|| PATTERN.with(Cell::get))
    }
}

/// Unit tests that read the pool's state or counters, or may trim it (any
/// allocation in a session with a limit, or one the allocator refuses), run
/// one at a time.
#[cfg(test)]
pub(crate) static TEST_LOCK: Mutex<()> = Mutex::new(());

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_classes_stay_within_an_eighth() {
        assert_eq!(size_class(0), 0);
        for n in (1..5000).chain([1 << 20, (1 << 20) + 1, 3 << 19, usize::MAX / 3]) {
            let c = size_class(n);
            assert!(c >= n, "class {c} below {n}");
            assert!(c - n <= n / 8, "class {c} of {n} wastes more than 1/8");
            assert_eq!(size_class(c), c, "class {c} is not its own class");
        }
        // Eight classes from one power of two to the next.
        let classes: std::collections::BTreeSet<usize> = ((1 << 20)..=(1 << 21))
            .step_by(4096)
            .map(size_class)
            .collect();
        assert_eq!(classes.len(), 9);
        assert_eq!(size_class(usize::MAX), usize::MAX);
    }

    #[test]
    fn the_largest_open_allowance_bounds_the_idle_bytes() {
        let _pool = TEST_LOCK.lock().unwrap_or_else(|p| p.into_inner());
        trim();
        let one_mib_of_floats = || crate::Element::into_storage(vec![0f32; 1 << 18]);
        let large = BatchAllowance::new(300 << 20);
        let small = BatchAllowance::new(270 << 20);
        assert!(idle_limit() >= 300 << 20);
        for _ in 0..290 {
            recycle(one_mib_of_floats());
        }
        assert_eq!(
            idle_bytes(),
            290 << 20,
            "one bucket may take the whole bound"
        );
        drop(large);
        assert!(
            idle_bytes() <= idle_limit(),
            "trimmed to the smaller allowance"
        );
        assert!(idle_bytes() >= 256 << 20);
        drop(small);
        assert!(idle_bytes() <= idle_limit());
        trim();
    }
}
