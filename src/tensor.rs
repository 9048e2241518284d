//! Tensors: a dtype, a shape and a shared, contiguous row-major buffer whose
//! bytes are accounted exactly once, however many tensors share it.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use ndarray::{ArrayViewD, IxDyn};

use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};

/// Typed element storage of one buffer.
#[derive(Clone, PartialEq)]
pub enum Storage {
    F32(Vec<f32>),
    F64(Vec<f64>),
    I32(Vec<i32>),
    U8(Vec<u8>),
    I64(Vec<i64>),
    Bool(Vec<bool>),
}

impl Storage {
    pub fn dtype(&self) -> DataType {
        match self {
            Storage::F32(_) => DataType::Float,
            Storage::F64(_) => DataType::Double,
            Storage::I32(_) => DataType::Int32,
            Storage::U8(_) => DataType::UInt8,
            Storage::I64(_) => DataType::Int64,
            Storage::Bool(_) => DataType::Bool,
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Storage::F32(v) => v.len(),
            Storage::F64(v) => v.len(),
            Storage::I32(v) => v.len(),
            Storage::U8(v) => v.len(),
            Storage::I64(v) => v.len(),
            Storage::Bool(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn capacity_bytes(&self) -> usize {
        let cap = match self {
            Storage::F32(v) => v.capacity(),
            Storage::F64(v) => v.capacity(),
            Storage::I32(v) => v.capacity(),
            Storage::U8(v) => v.capacity(),
            Storage::I64(v) => v.capacity(),
            Storage::Bool(v) => v.capacity(),
        };
        cap * self.dtype().size()
    }
}

/// Process-wide counters behind `NativeMemory`.
pub struct GlobalMemory {
    live_bytes: AtomicU64,
    peak_bytes: AtomicU64,
}

static GLOBAL: GlobalMemory = GlobalMemory {
    live_bytes: AtomicU64::new(0),
    peak_bytes: AtomicU64::new(0),
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
    /// Tensors held by every session, summed over their handle tables on
    /// demand (a rare read) instead of a shared counter bumped by every op.
    pub fn live_tensors(&self) -> u64 {
        crate::session::live_tensors_everywhere()
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
}

impl fmt::Debug for MemoryAccount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryAccount")
            .field("live_bytes", &self.live_bytes())
            .field("peak_bytes", &self.peak_bytes())
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
                let mut live = self.live_bytes.load(Ordering::Relaxed);
                loop {
                    let next = live.checked_add(bytes).filter(|&n| n <= limit).ok_or(
                        Error::MemoryExhausted {
                            requested: bytes,
                            live,
                            limit: Some(limit),
                        },
                    )?;
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

/// Bytes counted against an account for as long as it lives.
pub struct BufferGuard {
    bytes: u64,
    account: Arc<MemoryAccount>,
}

impl BufferGuard {
    /// Records the peaks once the memory really exists, so a reservation that
    /// the allocator refuses never shows up as a peak.
    fn allocated(&self) {
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

/// Storage and the guard that accounts for it. Large storage goes back to the
/// pool when the last tensor sharing it is dropped.
pub struct Buffer {
    storage: Storage,
    _guard: BufferGuard,
}

impl Drop for Buffer {
    fn drop(&mut self) {
        let storage = std::mem::replace(&mut self.storage, Storage::U8(Vec::new()));
        pool::recycle(storage);
    }
}

/// A bounded pool of large freed buffers, bucketed by dtype and power-of-two
/// capacity. Reused pages are already faulted in, which is what makes a new
/// output of a streaming op as cheap as writing into an existing array.
pub mod pool {
    use super::Storage;
    use crate::dtype::{DataType, Element};
    use std::collections::HashMap;
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicU64, Ordering};

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

    pub(super) fn recycle(storage: Storage) {
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
}

/// A vector whose capacity is reserved and accounted, to be filled by a kernel
/// and turned into a tensor. Dropping it unfilled gives the bytes back.
pub struct Allocation<T: Element> {
    pub data: Vec<T>,
    guard: BufferGuard,
}

/// Bytes needed for `n` elements of `dtype`, with overflow reported as an error.
pub fn byte_size(dtype: DataType, n: usize) -> Result<u64> {
    n.checked_mul(dtype.size())
        .map(|b| b as u64)
        .ok_or_else(|| Error::invalid(format!("a {dtype} tensor of {n} elements is too large")))
}

/// Number of elements of `shape`, with overflow reported as an error.
pub fn num_elements(shape: &[usize]) -> Result<usize> {
    shape
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .ok_or_else(|| Error::invalid(format!("shape {shape:?} has too many elements")))
}

impl<T: Element> Allocation<T> {
    /// Reserves room for `n` elements, accounted against `account`, fallibly:
    /// a size the machine cannot satisfy is an error, never an abort.
    /// The vector is empty; fill it with `extend`, which will not reallocate.
    pub fn new(account: &Arc<MemoryAccount>, n: usize) -> Result<Allocation<T>> {
        let mut a = Self::obtain(account, n)?;
        a.data.clear();
        Ok(a)
    }

    /// Room for `n` elements with `len == n` already, for kernels that write
    /// by index or from several threads. A recycled buffer keeps its old
    /// values, so every element must be written; a fresh one is zeroed.
    pub fn new_initialized(account: &Arc<MemoryAccount>, n: usize) -> Result<Allocation<T>> {
        let mut a = Self::obtain(account, n)?;
        if a.data.len() >= n {
            a.data.truncate(n);
        } else {
            a.data.resize(n, T::default());
        }
        Ok(a)
    }

    fn obtain(account: &Arc<MemoryAccount>, n: usize) -> Result<Allocation<T>> {
        let bytes = byte_size(T::DTYPE, n)?;
        let guard = account.reserve(bytes)?;
        let data = match pool::take::<T>(n) {
            Some(v) => v,
            None => {
                let mut v = Vec::new();
                v.try_reserve_exact(pool::capacity_for::<T>(n))
                    .map_err(|_| Error::MemoryExhausted {
                        requested: bytes,
                        live: account.live_bytes().saturating_sub(bytes),
                        limit: None,
                    })?;
                v
            }
        };
        guard.allocated();
        Ok(Allocation { data, guard })
    }

    /// Wraps the filled data as a tensor of `shape`.
    pub fn into_tensor(self, shape: Vec<usize>) -> Result<Tensor> {
        let n = num_elements(&shape)?;
        if n != self.data.len() {
            return Err(Error::invalid(format!(
                "internal: {} elements filled for shape {shape:?}",
                self.data.len()
            )));
        }
        Ok(Tensor {
            dtype: T::DTYPE,
            shape,
            buffer: Arc::new(Buffer {
                storage: T::into_storage(self.data),
                _guard: self.guard,
            }),
        })
    }
}

/// An immutable tensor. Clones and reshapes share the buffer.
#[derive(Clone)]
pub struct Tensor {
    dtype: DataType,
    shape: Vec<usize>,
    buffer: Arc<Buffer>,
}

impl fmt::Debug for Tensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tensor({} {:?})", self.dtype, self.shape)
    }
}

impl Tensor {
    /// A tensor holding a copy of `data`, accounted against `account`.
    pub fn from_slice<T: Element>(
        account: &Arc<MemoryAccount>,
        shape: &[usize],
        data: &[T],
    ) -> Result<Tensor> {
        let n = num_elements(shape)?;
        if n != data.len() {
            return Err(Error::invalid(format!(
                "shape {shape:?} needs {n} elements but {} were given",
                data.len()
            )));
        }
        let mut a = Allocation::<T>::new(account, n)?;
        a.data.extend_from_slice(data);
        a.into_tensor(shape.to_vec())
    }

    /// A scalar tensor.
    pub fn scalar<T: Element>(account: &Arc<MemoryAccount>, value: T) -> Result<Tensor> {
        Tensor::from_slice(account, &[], &[value])
    }

    /// A tensor of `shape` with every element `value`.
    pub fn filled<T: Element>(
        account: &Arc<MemoryAccount>,
        shape: &[usize],
        value: T,
    ) -> Result<Tensor> {
        let n = num_elements(shape)?;
        let mut a = Allocation::<T>::new(account, n)?;
        a.data.resize(n, value);
        a.into_tensor(shape.to_vec())
    }

    pub fn dtype(&self) -> DataType {
        self.dtype
    }

    pub fn shape(&self) -> &[usize] {
        // An empty Vec's pointer is dangling (0x8), and glibc's AVX-512 memcmp
        // takes a slow fault-suppression assist on it (~180 ns per scalar
        // shape comparison on EPYC). A scalar's shape points at real memory.
        static SCALAR: [usize; 1] = [0];
        if self.shape.is_empty() {
            &SCALAR[..0]
        } else {
            &self.shape
        }
    }

    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    pub fn num_elements(&self) -> usize {
        self.buffer.storage.len()
    }

    /// Bytes of the (possibly shared) buffer.
    pub fn byte_size(&self) -> u64 {
        (self.num_elements() * self.dtype.size()) as u64
    }

    pub fn storage(&self) -> &Storage {
        &self.buffer.storage
    }

    /// Whether two tensors share one buffer.
    pub fn shares_buffer(&self, other: &Tensor) -> bool {
        Arc::ptr_eq(&self.buffer, &other.buffer)
    }

    /// The elements as a slice, if `T` is this tensor's element type.
    pub fn as_slice<T: Element>(&self) -> Result<&[T]> {
        T::slice(&self.buffer.storage).ok_or_else(|| {
            Error::invalid(format!(
                "expected a {} tensor but got {}",
                T::DTYPE,
                self.dtype
            ))
        })
    }

    /// An `ndarray` view of the elements.
    pub fn view<T: Element>(&self) -> Result<ArrayViewD<'_, T>> {
        let data = self.as_slice::<T>()?;
        ArrayViewD::from_shape(IxDyn(&self.shape), data)
            .map_err(|e| Error::invalid(format!("internal: bad view {:?}: {e}", self.shape)))
    }

    /// The single element of a tensor with one element (any rank).
    pub fn scalar_value<T: Element>(&self) -> Result<T> {
        let s = self.as_slice::<T>()?;
        match s {
            [v] => Ok(*v),
            _ => Err(Error::invalid(format!(
                "expected a scalar but got shape {:?}",
                self.shape
            ))),
        }
    }

    /// The same buffer under another shape with the same number of elements.
    pub fn reshaped(&self, shape: Vec<usize>) -> Result<Tensor> {
        let n = num_elements(&shape)?;
        if n != self.num_elements() {
            return Err(Error::invalid(format!(
                "cannot reshape a tensor with {} elements to shape {shape:?} ({n} elements)",
                self.num_elements()
            )));
        }
        Ok(Tensor {
            dtype: self.dtype,
            shape,
            buffer: Arc::clone(&self.buffer),
        })
    }

    /// The elements for writing. A buffer shared with another tensor (or held
    /// by a concurrent reader) is copied first, against `account`.
    pub fn make_mut<T: Element>(&mut self, account: &Arc<MemoryAccount>) -> Result<&mut [T]> {
        self.as_slice::<T>()?;
        if Arc::get_mut(&mut self.buffer).is_none() {
            let copy = self.deep_copy(account)?;
            self.buffer = copy.buffer;
        }
        Arc::get_mut(&mut self.buffer)
            .and_then(|b| T::slice_mut(&mut b.storage))
            .ok_or_else(|| Error::state("tensor buffer is shared and cannot be written"))
    }

    /// A copy of this tensor's data accounted against `account` (snapshots).
    pub fn deep_copy(&self, account: &Arc<MemoryAccount>) -> Result<Tensor> {
        crate::with_dtype!(self.dtype, T => {
            Tensor::from_slice::<T>(account, &self.shape, self.as_slice::<T>()?)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accounting_counts_each_buffer_once() -> Result<()> {
        let acc = MemoryAccount::new(None);
        let t = Tensor::from_slice(&acc, &[2, 2], &[1f32, 2., 3., 4.])?;
        assert_eq!(acc.live_bytes(), 16);
        let r = t.reshaped(vec![4])?;
        assert_eq!(acc.live_bytes(), 16);
        assert!(r.shares_buffer(&t));
        drop(t);
        assert_eq!(acc.live_bytes(), 16);
        drop(r);
        assert_eq!(acc.live_bytes(), 0);
        assert_eq!(acc.peak_bytes(), 16);
        Ok(())
    }

    #[test]
    fn limit_is_checked_before_allocating() {
        let acc = MemoryAccount::new(Some(100));
        let ok = Tensor::filled(&acc, &[20], 0f32);
        assert!(ok.is_ok());
        let err = Tensor::filled(&acc, &[20], 0f32);
        assert!(matches!(err, Err(Error::MemoryExhausted { .. })));
        assert_eq!(acc.live_bytes(), 80);
    }

    #[test]
    fn absurd_sizes_are_errors() {
        let acc = MemoryAccount::new(None);
        assert!(Tensor::filled(&acc, &[usize::MAX / 2, 4], 0f32).is_err());
        assert!(Tensor::filled(&acc, &[1 << 60], 0u8).is_err());
        assert_eq!(acc.live_bytes(), 0);
    }
}
