//! Tensors: a dtype, a shape and a shared, contiguous row-major buffer whose
//! bytes are accounted exactly once, however many tensors share it. The
//! accounting itself lives in `memory`, buffer reuse in `pool`.

use std::fmt;
use std::sync::Arc;

use ndarray::{ArrayViewD, IxDyn};

use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::memory::{BufferGuard, MemoryAccount};
use crate::pool;

/// Typed element storage of one buffer.
#[derive(Clone, PartialEq)]
pub enum Storage {
    F32(Vec<f32>),
    F64(Vec<f64>),
    I32(Vec<i32>),
    U8(Vec<u8>),
    I64(Vec<i64>),
    Bool(Vec<bool>),
    Str(crate::strings::Strings),
    F16(Vec<crate::dtype::f16>),
    BF16(Vec<crate::dtype::bf16>),
    U16(Vec<u16>),
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
            Storage::Str(_) => DataType::String,
            Storage::F16(_) => DataType::Half,
            Storage::BF16(_) => DataType::BFloat16,
            Storage::U16(_) => DataType::UInt16,
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
            Storage::Str(v) => v.len(),
            Storage::F16(v) => v.len(),
            Storage::BF16(v) => v.len(),
            Storage::U16(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub(crate) fn capacity_bytes(&self) -> usize {
        let cap = match self {
            Storage::F32(v) => v.capacity(),
            Storage::F64(v) => v.capacity(),
            Storage::I32(v) => v.capacity(),
            Storage::U8(v) => v.capacity(),
            Storage::I64(v) => v.capacity(),
            Storage::Bool(v) => v.capacity(),
            Storage::Str(v) => return v.capacity_bytes(),
            Storage::F16(v) => v.capacity(),
            Storage::BF16(v) => v.capacity(),
            Storage::U16(v) => v.capacity(),
        };
        cap * self.dtype().size()
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

/// The largest dimension or element count a shape may have: Java reads
/// shapes as `long`s (TensorFlow's limit too).
pub const MAX_DIM: usize = i64::MAX as usize;

/// Number of elements of `shape`. Every tensor's shape passes here, so this
/// is where a shape Java could not hold is refused: a rank past
/// [`MAX_RANK`](crate::alloc::MAX_RANK), a dimension or an element count past
/// `i64::MAX` is an error, even with zero elements (a product that overflows
/// on the way to a zero is refused as well, as TensorFlow does).
pub fn num_elements(shape: &[usize]) -> Result<usize> {
    if shape.len() > crate::alloc::MAX_RANK {
        return Err(Error::invalid(format!(
            "a shape of rank {} is more than the maximum of {}",
            shape.len(),
            crate::alloc::MAX_RANK
        )));
    }
    let mut n = 1usize;
    for &d in shape {
        n = n
            .checked_mul(d)
            .filter(|&n| n <= MAX_DIM)
            .ok_or_else(|| Error::invalid(format!("shape {shape:?} has too many elements")))?;
        if d > MAX_DIM {
            return Err(Error::invalid(format!(
                "shape {shape:?} has a dimension larger than {MAX_DIM}, the largest a tensor may have"
            )));
        }
    }
    Ok(n)
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
    /// values, so every element must be written; a fresh one is zeroed. Under
    /// test (`pool::poison`) every element holds the poison pattern instead,
    /// fresh or recycled, so an element a kernel skips shows in its output.
    pub fn new_initialized(account: &Arc<MemoryAccount>, n: usize) -> Result<Allocation<T>> {
        let mut a = Self::obtain(account, n)?;
        #[cfg(any(test, feature = "testing"))]
        if let Some(pattern) = pool::poison::pattern() {
            a.data.clear();
            crate::alloc::fill_within(&mut a.data, n, T::poison(pattern));
            return Ok(a);
        }
        if a.data.len() >= n {
            a.data.truncate(n);
        } else {
            crate::alloc::fill_within(&mut a.data, n, T::default());
        }
        Ok(a)
    }

    fn obtain(account: &Arc<MemoryAccount>, n: usize) -> Result<Allocation<T>> {
        let bytes = byte_size(T::DTYPE, n)?;
        if let Some(limit) = account.limit() {
            pool::fit_under(limit, || account.held_bytes().saturating_add(bytes));
        }
        let guard = account.reserve(bytes)?;
        let data = if crate::faults::allocation_refused() {
            None
        } else {
            pool::obtain::<T>(n).or_else(|| {
                // Idle buffers are the one reserve the allocator may lack.
                pool::trim();
                pool::obtain::<T>(n)
            })
        }
        .ok_or_else(|| Error::MemoryExhausted {
            requested: bytes,
            live: account.live_bytes().saturating_sub(bytes),
            limit: None,
        })?;
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
        a.into_tensor(crate::alloc::copied(shape)?)
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
        crate::alloc::fill_within(&mut a.data, n, value);
        a.into_tensor(crate::alloc::copied(shape)?)
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
        match &self.buffer.storage {
            Storage::Str(s) => crate::strings::held_bytes(s.len(), s.bytes().len()).unwrap_or(0),
            _ => (self.num_elements() * self.dtype.size()) as u64,
        }
    }

    /// A tensor of `storage`, whose bytes `guard` accounts.
    pub(crate) fn from_storage(
        dtype: DataType,
        shape: Vec<usize>,
        storage: Storage,
        guard: BufferGuard,
    ) -> Result<Tensor> {
        Ok(Tensor {
            dtype,
            shape,
            buffer: Arc::new(Buffer {
                storage,
                _guard: guard,
            }),
        })
    }

    /// The elements of a STRING tensor.
    pub fn strings(&self) -> Result<&crate::strings::Strings> {
        match &self.buffer.storage {
            Storage::Str(s) => Ok(s),
            _ => Err(Error::invalid(format!(
                "expected a STRING tensor but got {}",
                self.dtype
            ))),
        }
    }

    pub fn storage(&self) -> &Storage {
        &self.buffer.storage
    }

    /// Whether this tensor's bytes are counted on `account` (a view of
    /// another session's tensor is counted on that session's).
    pub fn counted_by(&self, account: &Arc<MemoryAccount>) -> bool {
        Arc::ptr_eq(self.buffer._guard.account(), account)
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
        if let Storage::Str(s) = &self.buffer.storage {
            let mut a = crate::strings::StringAllocation::new(account, s.len(), s.bytes().len())?;
            for e in s.iter() {
                a.push(e)?;
            }
            return a.into_tensor(self.shape.clone());
        }
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
        let _pool = pool::TEST_LOCK.lock().unwrap_or_else(|p| p.into_inner());
        let acc = MemoryAccount::new(Some(100));
        let ok = Tensor::filled(&acc, &[20], 0f32);
        assert!(ok.is_ok());
        let err = Tensor::filled(&acc, &[20], 0f32);
        assert!(matches!(err, Err(Error::MemoryExhausted { .. })));
        assert_eq!(acc.live_bytes(), 80);
    }

    #[test]
    fn shapes_java_cannot_hold_are_refused() {
        let big = MAX_DIM + 1;
        for shape in [
            vec![0, big],
            vec![big],
            vec![big, 0],
            vec![1 << 40, 1 << 40, 0],
        ] {
            assert!(num_elements(&shape).is_err(), "{shape:?}");
        }
        assert_eq!(num_elements(&[0, MAX_DIM]), Ok(0));
        assert_eq!(num_elements(&[1, MAX_DIM]), Ok(MAX_DIM));
        let acc = MemoryAccount::new(None);
        let empty = Tensor::from_slice::<f32>(&acc, &[0, 1 << 62], &[]);
        assert!(empty.is_ok_and(|t| t.reshaped(vec![0, big]).is_err()));
    }

    #[test]
    fn absurd_sizes_are_errors() {
        let _pool = pool::TEST_LOCK.lock().unwrap_or_else(|p| p.into_inner());
        let acc = MemoryAccount::new(None);
        assert!(Tensor::filled(&acc, &[usize::MAX / 2, 4], 0f32).is_err());
        assert!(Tensor::filled(&acc, &[1 << 60], 0u8).is_err());
        assert_eq!(acc.live_bytes(), 0);
    }
}
