//! Byte accounting: every tensor buffer's bytes are counted against one
//! owner's [`MemoryAccount`] (a session, or the account of standalone tensors)
//! and against the process-wide [`GlobalMemory`], for as long as the buffer's
//! [`BufferGuard`] lives.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use crate::error::{Error, Result};
use crate::handles::{Counts, REMOVE_KINDS};

/// Process-wide counters behind `NativeMemory`.
pub struct GlobalMemory {
    live_bytes: AtomicU64,
    peak_bytes: AtomicU64,
    /// Collections requested by any session (rare: one per collection).
    gc_requests: AtomicU64,
    /// `NativeMemoryExhaustedException`s thrown to callers (counted by Java).
    limit_exhaustions: AtomicU64,
}

static GLOBAL: GlobalMemory = GlobalMemory {
    live_bytes: AtomicU64::new(0),
    peak_bytes: AtomicU64::new(0),
    gc_requests: AtomicU64::new(0),
    limit_exhaustions: AtomicU64::new(0),
};

impl GlobalMemory {
    pub fn get() -> &'static GlobalMemory {
        &GLOBAL
    }
    pub fn live_bytes(&self) -> u64 {
        self.live_bytes.load(Ordering::Relaxed)
    }
    pub fn peak_bytes(&self) -> u64 {
        self.peak_bytes.load(Ordering::Relaxed)
    }
    /// Tensor counts of every table [`count_tensors_of`] registered, those
    /// retired included, summed on demand (a rare read) instead of shared
    /// counters bumped by every op: each table counts under the lock its
    /// inserts and removes take anyway. Each table's snapshot is consistent,
    /// so the sum is too: `inserted == removed.sum() + live`.
    pub fn tensor_counts(&self) -> Counts {
        let holders = HOLDERS.lock().unwrap_or_else(|p| p.into_inner());
        holders
            .live
            .iter()
            .filter_map(Weak::upgrade)
            .fold(holders.retired, |sum, h| add(sum, h.counts()))
    }

    /// Collections requested by every session so far.
    pub fn gc_requests(&self) -> u64 {
        self.gc_requests.load(Ordering::Relaxed)
    }

    pub(crate) fn count_gc_request(&self) {
        self.gc_requests.fetch_add(1, Ordering::Relaxed);
    }

    /// Times the hard limit's exception reached a caller (after any retry).
    pub fn limit_exhaustions(&self) -> u64 {
        self.limit_exhaustions.load(Ordering::Relaxed)
    }

    pub fn count_limit_exhaustion(&self) {
        self.limit_exhaustions.fetch_add(1, Ordering::Relaxed);
    }
}

fn add(a: Counts, b: Counts) -> Counts {
    let mut removed = a.removed;
    for (sum, n) in removed.iter_mut().zip(b.removed) {
        *sum += n;
    }
    Counts {
        inserted: a.inserted + b.inserted,
        removed,
        live: a.live + b.live,
    }
}

/// What holds tensors and counts them itself (a session's handle table).
pub(crate) trait TensorHolder: Send + Sync {
    fn counts(&self) -> Counts;
}

/// The tables counted in [`GlobalMemory::tensor_counts`]: those alive, and
/// the final counts of those retired.
struct Holders {
    live: Vec<Weak<dyn TensorHolder>>,
    retired: Counts,
}

static HOLDERS: Mutex<Holders> = Mutex::new(Holders {
    live: Vec::new(),
    retired: Counts {
        inserted: 0,
        removed: [0; REMOVE_KINDS],
        live: 0,
    },
});

/// Counts `holder`'s tensors in [`GlobalMemory::tensor_counts`] until
/// [`retire`] (which its owner calls before letting it go).
pub(crate) fn count_tensors_of(holder: Weak<dyn TensorHolder>) {
    let mut holders = HOLDERS.lock().unwrap_or_else(|p| p.into_inner());
    holders.live.retain(|h| h.strong_count() > 0);
    holders.live.push(holder);
}

/// Moves `holder`'s counts, final now (its table is closed or about to be
/// dropped), into the retired sum, so process-wide counts never go down.
/// Under the one lock readers take: a reader sees them in one place or the
/// other, never both. Does nothing the second time.
pub(crate) fn retire(holder: &dyn TensorHolder) {
    let mut holders = HOLDERS.lock().unwrap_or_else(|p| p.into_inner());
    let at = holders
        .live
        .iter()
        .position(|h| std::ptr::addr_eq(h.as_ptr(), holder as *const dyn TensorHolder));
    if let Some(at) = at {
        holders.live.swap_remove(at);
        holders.retired = add(holders.retired, holder.counts());
    }
}

/// One owner's byte account (a session, or the pool of standalone tensors):
/// live and peak bytes, and an optional hard limit checked before allocating.
pub struct MemoryAccount {
    live_bytes: AtomicU64,
    peak_bytes: AtomicU64,
    /// Every byte ever allocated: the clock that rate-limits GC requests.
    /// Kept only when `clocked` (the owner signals memory pressure), which
    /// spares every other op an atomic read-modify-write.
    allocated_bytes: AtomicU64,
    clocked: bool,
    limit: Option<u64>,
    /// Kernels' large temporaries in flight ([`ScratchGuard`]): held next to
    /// the tensors, so checked against the limit with them, but never live
    /// tensor bytes.
    scratch_bytes: AtomicU64,
}

impl fmt::Debug for MemoryAccount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryAccount")
            .field("live_bytes", &self.live_bytes())
            .field("peak_bytes", &self.peak_bytes())
            .field("scratch_bytes", &self.scratch_bytes())
            .field("limit", &self.limit)
            .finish()
    }
}

impl MemoryAccount {
    pub fn new(limit: Option<u64>) -> Arc<MemoryAccount> {
        Self::with_clock(limit, true)
    }

    /// An account that keeps [`allocated_bytes`](Self::allocated_bytes) only
    /// if `clocked` (otherwise it stays 0).
    pub fn with_clock(limit: Option<u64>, clocked: bool) -> Arc<MemoryAccount> {
        Arc::new(MemoryAccount {
            live_bytes: AtomicU64::new(0),
            peak_bytes: AtomicU64::new(0),
            allocated_bytes: AtomicU64::new(0),
            clocked,
            limit,
            scratch_bytes: AtomicU64::new(0),
        })
    }

    pub fn live_bytes(&self) -> u64 {
        self.live_bytes.load(Ordering::Relaxed)
    }

    pub fn peak_bytes(&self) -> u64 {
        self.peak_bytes.load(Ordering::Relaxed)
    }

    /// Bytes allocated over the account's life (0 for an unclocked account).
    pub fn allocated_bytes(&self) -> u64 {
        self.allocated_bytes.load(Ordering::Relaxed)
    }

    pub fn limit(&self) -> Option<u64> {
        self.limit
    }

    /// Bytes of kernel temporaries in flight (not part of the live bytes).
    pub fn scratch_bytes(&self) -> u64 {
        self.scratch_bytes.load(Ordering::Relaxed)
    }

    /// Live tensor bytes plus temporaries in flight: what the limit bounds.
    pub fn held_bytes(&self) -> u64 {
        self.live_bytes().saturating_add(self.scratch_bytes())
    }

    /// Counts `bytes` against this account (failing past the limit) and the
    /// process; the returned guard gives them back when dropped.
    pub fn reserve(self: &Arc<Self>, bytes: u64) -> Result<BufferGuard> {
        match self.limit {
            // No limit: one atomic add, no retry loop (this is on every op's path).
            None => {
                let before = self.live_bytes.fetch_add(bytes, Ordering::Relaxed);
                if before.checked_add(bytes).is_none() {
                    self.live_bytes.fetch_sub(bytes, Ordering::Relaxed);
                    return Err(Error::MemoryExhausted {
                        requested: bytes,
                        live: before,
                        limit: None,
                    });
                }
            }
            Some(limit) => {
                // Temporaries in flight count against the limit too; they are
                // read once, so a concurrent temporary can overshoot the limit
                // by its own size at most, never the tensors alone.
                let scratch = self.scratch_bytes();
                let mut live = self.live_bytes.load(Ordering::Relaxed);
                loop {
                    let next = live
                        .checked_add(bytes)
                        .filter(|&n| n.saturating_add(scratch) <= limit)
                        .ok_or(Error::MemoryExhausted {
                            requested: bytes,
                            live,
                            limit: Some(limit),
                        })?;
                    match self.live_bytes.compare_exchange_weak(
                        live,
                        next,
                        Ordering::Relaxed,
                        Ordering::Relaxed,
                    ) {
                        Ok(_) => break,
                        Err(actual) => live = actual,
                    }
                }
            }
        }
        GLOBAL.live_bytes.fetch_add(bytes, Ordering::Relaxed);
        Ok(BufferGuard {
            bytes,
            account: Arc::clone(self),
        })
    }
}

impl MemoryAccount {
    /// Counts `bytes` of a kernel's temporary against the limit, next to the
    /// live tensors and other temporaries, until the guard drops. Temporaries
    /// are not tensor bytes: `live_bytes` and `peak_bytes` never see them.
    pub fn reserve_scratch(self: &Arc<Self>, bytes: u64) -> Result<ScratchGuard> {
        let live = self.live_bytes();
        let mut scratch = self.scratch_bytes.load(Ordering::Relaxed);
        loop {
            let next = scratch
                .checked_add(bytes)
                .filter(|&n| self.limit.is_none_or(|l| n.saturating_add(live) <= l))
                .ok_or(Error::MemoryExhausted {
                    requested: bytes,
                    live: live.saturating_add(scratch),
                    limit: self.limit,
                })?;
            match self.scratch_bytes.compare_exchange_weak(
                scratch,
                next,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => break,
                Err(actual) => scratch = actual,
            }
        }
        Ok(ScratchGuard {
            bytes,
            account: Arc::clone(self),
        })
    }
}

impl MemoryAccount {
    /// Counts `bytes` as held (like [`reserve_scratch`](Self::reserve_scratch))
    /// without checking the limit: for what the caller bounds otherwise, such
    /// as the bookkeeping of an asynchronous session's queued ops.
    pub fn hold_scratch(self: &Arc<Self>, bytes: u64) -> ScratchGuard {
        self.scratch_bytes.fetch_add(bytes, Ordering::Relaxed);
        ScratchGuard {
            bytes,
            account: Arc::clone(self),
        }
    }
}

/// Temporary bytes counted against an account's limit for as long as it lives.
pub struct ScratchGuard {
    bytes: u64,
    account: Arc<MemoryAccount>,
}

impl Drop for ScratchGuard {
    fn drop(&mut self) {
        self.account
            .scratch_bytes
            .fetch_sub(self.bytes, Ordering::Relaxed);
    }
}

/// Bytes counted against an account for as long as it lives.
pub struct BufferGuard {
    bytes: u64,
    account: Arc<MemoryAccount>,
}

impl BufferGuard {
    /// The account these bytes are counted on.
    pub(crate) fn account(&self) -> &Arc<MemoryAccount> {
        &self.account
    }

    /// Records the peaks once the memory really exists, so a reservation that
    /// the allocator refuses never shows up as a peak.
    pub(crate) fn allocated(&self) {
        if self.account.clocked {
            self.account
                .allocated_bytes
                .fetch_add(self.bytes, Ordering::Relaxed);
        }
        // Plain loads first: a new peak is rare, a read-modify-write on every op is not.
        let live = self.account.live_bytes();
        if live > self.account.peak_bytes() {
            self.account.peak_bytes.fetch_max(live, Ordering::Relaxed);
        }
        let global = GLOBAL.live_bytes();
        if global > GLOBAL.peak_bytes() {
            GLOBAL.peak_bytes.fetch_max(global, Ordering::Relaxed);
        }
    }
}

impl Drop for BufferGuard {
    fn drop(&mut self) {
        self.account
            .live_bytes
            .fetch_sub(self.bytes, Ordering::Relaxed);
        GLOBAL.live_bytes.fetch_sub(self.bytes, Ordering::Relaxed);
    }
}
