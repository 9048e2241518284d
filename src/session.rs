//! A session: its handle table, its counters and its memory limit. Which Java
//! thread frees tensors is the cleanup strategy's business; Rust starts no
//! thread of its own. An asynchronous session also has an [`Executor`] whose
//! queue single-output ops go through; its handles may name a pending output.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, Weak};

use smallvec::SmallVec;

use crate::alloc::{self, MAX_INPUTS};
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::executor::{Entry, Executor, Job, Promise};
use crate::handles::{HandleTable, REMOVE_KINDS};
use crate::memory::{self, MemoryAccount, TensorHolder};
use crate::ops::{Attrs, Input, Registry};
use crate::tensor::Tensor;
use crate::wire::{self, MIN_GC_TRIGGER_BYTES};

/// Why a tensor is freed; each reason has its own counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FreeReason {
    /// `release` or closing a standalone tensor.
    Explicit,
    /// The cleanup strategy found its owner unreachable.
    Cleanup,
    /// The `EagerScope` that owned it closed.
    Scope,
}

impl FreeReason {
    pub fn from_code(code: i32) -> Result<FreeReason> {
        match code {
            wire::FREED_EXPLICITLY => Ok(FreeReason::Explicit),
            wire::FREED_BY_CLEANUP => Ok(FreeReason::Cleanup),
            wire::FREED_BY_SCOPE => Ok(FreeReason::Scope),
            _ => Err(Error::invalid(format!("unknown free reason {code}"))),
        }
    }

    /// The handle table's removal kind for this reason.
    fn kind(self) -> usize {
        match self {
            FreeReason::Explicit => REMOVED_EXPLICITLY,
            FreeReason::Cleanup => REMOVED_BY_CLEANUP,
            FreeReason::Scope => REMOVED_BY_SCOPE,
        }
    }
}

const _: () = assert!(REMOVED_AT_CLOSE < REMOVE_KINDS && REMOVED_BY_SCOPE < REMOVE_KINDS);

/// Settings fixed when a session is created.
#[derive(Clone, Debug, Default)]
pub struct SessionOptions {
    /// Hard limit on live tensor bytes; allocations beyond it fail.
    pub max_bytes: Option<u64>,
    /// Whether to signal memory pressure (the strategy can free unreachable tensors).
    pub gc_signals: bool,
    /// A fixed soft threshold; `None` adapts (see [`Pressure`]).
    pub gc_trigger_bytes: Option<u64>,
}

/// When to ask Java for a garbage collection: live bytes past the trigger,
/// and at least half a trigger's worth allocated since the last request, so a
/// steady working set above the trigger does not ask on every op. Unless
/// fixed, Java moves the trigger after each collection (`collected`): what
/// stayed live plus as many bytes as the session may allocate before the next
/// collection keeps collections within their share of wall time, never below
/// [`MIN_GC_TRIGGER_BYTES`]. Bytes freed by `release` leave live bytes at once, so a loop that
/// releases everything stays under the trigger and never asks.
struct Pressure {
    trigger: AtomicU64,
    fixed: bool,
    allocated_at_last_request: AtomicU64,
}

/// A snapshot of a session's counters. `created == freed_explicitly +
/// freed_by_scope + freed_by_cleanup + freed_at_close + live_tensors` by
/// construction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SessionStats {
    pub live_tensors: u64,
    pub live_bytes: u64,
    pub peak_bytes: u64,
    pub created: u64,
    pub freed_explicitly: u64,
    pub freed_by_cleanup: u64,
    pub freed_at_close: u64,
    pub gc_requests: u64,
    pub freed_by_scope: u64,
}

/// The process-wide counts behind `NativeMemory`: every session's and the
/// standalone tensors', over the library's life (sessions closed long ago
/// included). `created == freed_explicitly + freed_by_scope +
/// freed_by_cleanup + freed_at_close + live_tensors` in every snapshot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProcessStats {
    /// Sessions opened and not closed yet (see [`crate::sessions`]).
    pub open_sessions: u64,
    pub live_tensors: u64,
    pub created: u64,
    pub freed_explicitly: u64,
    pub freed_by_scope: u64,
    pub freed_by_cleanup: u64,
    pub freed_at_close: u64,
    pub gc_requests: u64,
    pub limit_exhaustions: u64,
}

impl ProcessStats {
    /// The counts now, with `open_sessions` as the caller knows it.
    pub fn now(open_sessions: u64) -> ProcessStats {
        let g = memory::GlobalMemory::get();
        let c = g.tensor_counts();
        ProcessStats {
            open_sessions,
            live_tensors: c.live,
            created: c.inserted,
            freed_explicitly: c.removed[REMOVED_EXPLICITLY],
            freed_by_scope: c.removed[REMOVED_BY_SCOPE],
            freed_by_cleanup: c.removed[REMOVED_BY_CLEANUP],
            freed_at_close: c.removed[REMOVED_AT_CLOSE],
            gc_requests: g.gc_requests(),
            limit_exhaustions: g.limit_exhaustions(),
        }
    }
}

/// Removal kinds of the handle table's counters.
const REMOVED_EXPLICITLY: usize = 0;
const REMOVED_BY_CLEANUP: usize = 1;
const REMOVED_AT_CLOSE: usize = 2;
const REMOVED_BY_SCOPE: usize = 3;

/// Handles of one op's outputs; ops with at most two need no heap allocation.
pub type Outputs = SmallVec<[u64; 2]>;

/// Tensor counts (created, freed per reason) live in the handle table, under
/// the lock every insert and remove already takes.
#[derive(Default)]
struct Counters {
    gc_requests: AtomicU64,
}

/// Tensors addressed by handle, with exact accounting.
pub struct Session {
    table: Arc<Table>,
    account: Arc<MemoryAccount>,
    counters: Counters,
    pressure: Option<Pressure>,
    /// Set once by [`close`](Session::close); read without a lock by the
    /// session registry's per-thread cache.
    closed: AtomicBool,
    /// Set for an asynchronous session.
    executor: Option<Arc<Executor>>,
    /// A session freed by collections lets the pool keep a collection's
    /// batch; given back at close.
    pool_allowance: Mutex<Option<crate::pool::BatchAllowance>>,
}

type Table = HandleTable<Entry>;

impl TensorHolder for Table {
    fn counts(&self) -> crate::handles::Counts {
        HandleTable::counts(self)
    }
}

/// The account of temporaries no session counts (see [`scratch_scalar`]).
static SCRATCH: LazyLock<Arc<MemoryAccount>> =
    LazyLock::new(|| MemoryAccount::with_clock(None, false));

/// A scalar of `dtype` holding `value` (converted as a cast would), for
/// [`Session::execute_single`]'s `extra`: `zeros` and `ones` fill with one
/// without making a constant that stats would count.
pub fn scratch_scalar(dtype: DataType, value: f64) -> Result<Tensor> {
    let a = &*SCRATCH;
    match dtype {
        DataType::Float => Tensor::scalar(a, value as f32),
        DataType::Double => Tensor::scalar(a, value),
        DataType::Int32 => Tensor::scalar(a, value as i32),
        DataType::Int64 => Tensor::scalar(a, value as i64),
        DataType::UInt8 => Tensor::scalar(a, value as u8),
        DataType::Bool => Tensor::scalar(a, value != 0.0),
        DataType::UInt16 => Tensor::scalar(a, value as u16),
        DataType::Half => Tensor::scalar(a, crate::dtype::f16_from_f32(value as f32)),
        DataType::BFloat16 => Tensor::scalar(a, crate::dtype::bf16_from_f32(value as f32)),
        DataType::String => Err(Error::invalid("a STRING scalar cannot hold a number")),
    }
}

/// `n`, if op `op` may take that many inputs ([`MAX_INPUTS`]). On every
/// op's path: the op's name is looked up only for the error.
pub fn check_inputs(op: usize, n: usize) -> Result<usize> {
    if n <= MAX_INPUTS {
        return Ok(n);
    }
    alloc::within(
        format_args!("{}: the number of inputs", Registry::global().name(op)),
        n,
        MAX_INPUTS,
    )
}

static STANDALONE: LazyLock<Session> = LazyLock::new(|| Session::new(SessionOptions::default()));

impl Session {
    pub fn new(options: SessionOptions) -> Session {
        let table = Arc::new(Table::new());
        let holder: Weak<Table> = Arc::downgrade(&table);
        memory::count_tensors_of(holder);
        Session {
            table,
            // The allocation clock only serves GC signals.
            account: MemoryAccount::with_clock(options.max_bytes, options.gc_signals),
            counters: Counters::default(),
            pressure: options.gc_signals.then(|| Pressure {
                trigger: AtomicU64::new(options.gc_trigger_bytes.unwrap_or(MIN_GC_TRIGGER_BYTES)),
                fixed: options.gc_trigger_bytes.is_some(),
                allocated_at_last_request: AtomicU64::new(0),
            }),
            closed: AtomicBool::new(false),
            executor: None,
            // As much garbage as pacing lets accumulate between collections.
            pool_allowance: Mutex::new(
                options
                    .max_bytes
                    .filter(|_| options.gc_signals)
                    .map(|cap| crate::pool::BatchAllowance::new(cap / wire::HEADROOM_DIVISOR)),
            ),
        }
    }

    /// An asynchronous session: single-output ops are queued (at most
    /// `capacity` at once, from 1 to [`crate::executor::MAX_QUEUE_CAPACITY`])
    /// for the executor that [`Executor::run`] drives.
    pub fn new_async(options: SessionOptions, capacity: usize) -> Result<Session> {
        // Checked before the session exists: a refused capacity leaves nothing behind.
        let executor = Executor::new(capacity)?;
        let mut s = Session::new(options);
        s.executor = Some(executor);
        Ok(s)
    }

    /// The executor of an asynchronous session.
    pub fn executor(&self) -> Option<&Arc<Executor>> {
        self.executor.as_ref()
    }

    /// Waits until every op queued so far has run, then returns the first
    /// error an op met since the previous call. Nothing to wait for on a
    /// synchronous session.
    pub fn sync(&self) -> Result<()> {
        match &self.executor {
            Some(e) => e.sync(),
            None => Ok(()),
        }
    }

    /// Whether the caller should request a garbage collection now; counts the
    /// request when it says yes. Cheap enough to ask after every allocation.
    pub fn take_gc_signal(&self) -> bool {
        let Some(p) = &self.pressure else {
            return false;
        };
        let trigger = p.trigger.load(Ordering::Relaxed);
        if self.account.live_bytes() < trigger {
            return false;
        }
        let allocated = self.account.allocated_bytes();
        let last = p.allocated_at_last_request.load(Ordering::Relaxed);
        if allocated.saturating_sub(last) < trigger / 2 {
            return false;
        }
        // Counted by Java once a collection has actually run (`collected`).
        p.allocated_at_last_request
            .compare_exchange(last, allocated, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }

    /// Called after a requested collection and cleanup: moves the trigger to
    /// `next` (Java's pacing, from what the collection cost and freed), or,
    /// without one, to twice what is still live. A fixed trigger never moves.
    pub fn collected(&self, next: Option<u64>) {
        if let Some(p) = &self.pressure
            && !p.fixed
        {
            let trigger = next.unwrap_or_else(|| self.account.live_bytes().saturating_mul(2));
            p.trigger
                .store(trigger.max(MIN_GC_TRIGGER_BYTES), Ordering::Relaxed);
        }
    }

    /// The process-wide table that holds standalone tensors (`TFloat32.scalarOf` ...).
    pub fn standalone() -> &'static Session {
        &STANDALONE
    }

    pub fn account(&self) -> &Arc<MemoryAccount> {
        &self.account
    }

    /// Stores a tensor made by the caller (a constant) and counts it.
    pub fn insert(&self, tensor: Tensor) -> Result<u64> {
        self.table.insert(Entry::Ready(Arc::new(tensor)))
    }

    /// The tensor behind `handle`; a pending output is waited for.
    pub fn tensor(&self, handle: u64) -> Result<Arc<Tensor>> {
        self.table.get(handle)?.resolve()
    }

    /// The dtype and shape of the tensor behind `handle`. A pending output
    /// is waited for, unless `wait` is false and its op's build inferred both.
    pub fn describe(&self, handle: u64, wait: bool) -> Result<(DataType, SmallVec<[usize; 4]>)> {
        let entry = self.table.get(handle)?;
        if !wait
            && let Entry::Pending(p) = &entry
            && let Some((dtype, shape)) = p.meta().known()
        {
            return Ok((dtype, SmallVec::from_slice(shape)));
        }
        let t = entry.resolve()?;
        Ok((t.dtype(), SmallVec::from_slice(t.shape())))
    }

    /// Overwrites elements of the tensor behind `handle` starting at flat
    /// index `offset` (standalone tensors; op outputs are read-only in Java).
    pub fn write<T: crate::dtype::Element>(
        &self,
        handle: u64,
        offset: usize,
        values: &[T],
    ) -> Result<()> {
        self.write_with(handle, offset, values.len(), |dst: &mut [T]| {
            dst.copy_from_slice(values);
            Ok::<(), Error>(())
        })
    }

    /// Lets `fill` write `len` elements of the tensor behind `handle` from
    /// flat index `offset`, once the range is checked (a caller copying from
    /// elsewhere needs no temporary). Runs under the table's lock.
    pub fn write_with<T: crate::dtype::Element, E: From<Error>>(
        &self,
        handle: u64,
        offset: usize,
        len: usize,
        fill: impl FnOnce(&mut [T]) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        self.table.update(handle, |entry| {
            let Entry::Ready(t) = entry else {
                return Err(Error::state("op outputs are read-only"));
            };
            let n = t.num_elements();
            let end = offset.checked_add(len).filter(|&e| e <= n).ok_or_else(|| {
                Error::OutOfRange(format!(
                    "writing {len} elements at offset {offset} into a tensor of {n} elements"
                ))
            })?;
            let tensor = Arc::make_mut(t);
            Ok(fill(&mut tensor.make_mut::<T>(&self.account)?[offset..end]))
        })?
    }

    /// Runs op `op` (a registry index) on the tensors behind `inputs` and
    /// stores its outputs. See [`Registry::run`] for `list_lens`.
    pub fn execute(
        &self,
        op: usize,
        inputs: &[u64],
        list_lens: Option<&[i32]>,
        attrs: &Attrs,
    ) -> Result<Outputs> {
        let registry = Registry::global();
        if let Some(executor) = &self.executor
            && registry.single_output(op)
        {
            let h = self.enqueue(executor, op, inputs, None, list_lens, attrs.clone())?;
            return Ok(Outputs::from_iter([h]));
        }
        let tensors = self.inputs(op, inputs, None)?;
        let outputs = registry.run(op, &self.account, &tensors, list_lens, attrs)?;
        drop(tensors);
        self.table
            .insert_all(outputs.into_iter().map(|t| Entry::Ready(Arc::new(t))))
    }

    /// Runs op `op` on `tensors`, which the caller resolved (inputs of other
    /// sessions included: each `Arc` keeps its tensor alive for the call while
    /// its bytes stay counted by its own session), and stores the outputs here.
    pub fn execute_tensors(
        &self,
        op: usize,
        tensors: &[Arc<Tensor>],
        list_lens: Option<&[i32]>,
        attrs: &Attrs,
    ) -> Result<Outputs> {
        check_inputs(op, tensors.len())?;
        let mut outputs = Registry::global().run(op, &self.account, tensors, list_lens, attrs)?;
        // A view (`Identity`, `Reshape`, ...) of another session's tensor
        // would stay counted there, past that session's close, and outside
        // this one's limit: it becomes a copy counted here.
        for t in outputs.iter_mut() {
            if !t.counted_by(&self.account) {
                *t = t.deep_copy(&self.account)?;
            }
        }
        self.table
            .insert_all(outputs.into_iter().map(|t| Entry::Ready(Arc::new(t))))
    }

    /// Runs an attribute-free op that yields one output (Java's fast path),
    /// on the tensors behind `inputs` followed by `extra`, a temporary input
    /// that never enters the table (see [`scratch_scalar`]). An op that yields
    /// any other number of outputs is an error, and they are dropped unseen:
    /// no handle is made, nothing is counted.
    pub fn execute_single(&self, op: usize, inputs: &[u64], extra: Option<Tensor>) -> Result<u64> {
        const NO_ATTRS: Attrs = Attrs::new();
        let registry = Registry::global();
        if let Some(executor) = &self.executor {
            return self.enqueue(executor, op, inputs, extra, None, Attrs::new());
        }
        let tensors = self.inputs(op, inputs, extra)?;
        let mut outputs = registry.run(op, &self.account, &tensors, None, &NO_ATTRS)?;
        drop(tensors);
        match outputs.pop() {
            Some(out) if outputs.is_empty() => self.table.insert(Entry::Ready(Arc::new(out))),
            last => Err(Error::state(format!(
                "{}: made {} outputs on the path for single-output ops; none was kept",
                registry.name(op),
                outputs.len() + usize::from(last.is_some())
            ))),
        }
    }

    /// The entries behind `inputs`, then `extra`, in an inline vector for
    /// up to four (no heap allocation on the common path); at most
    /// [`MAX_INPUTS`] in all.
    fn entries(
        &self,
        op: usize,
        inputs: &[u64],
        extra: Option<Tensor>,
    ) -> Result<SmallVec<[Entry; 4]>> {
        let n = check_inputs(op, inputs.len() + usize::from(extra.is_some()))?;
        let mut entries = alloc::small(n)?;
        self.table
            .get_many(inputs, &mut entries)
            .map_err(|e| e.in_op(Registry::global().name(op)))?;
        entries.extend(extra.map(|t| Entry::Ready(Arc::new(t))));
        Ok(entries)
    }

    /// The input tensors of a synchronous run; pending ones are waited for.
    fn inputs(
        &self,
        op: usize,
        inputs: &[u64],
        extra: Option<Tensor>,
    ) -> Result<SmallVec<[Arc<Tensor>; 4]>> {
        let entries = self.entries(op, inputs, extra)?;
        let mut tensors = alloc::small(entries.len())?;
        for e in entries {
            tensors.push(e.resolve()?);
        }
        Ok(tensors)
    }

    /// Checks what needs no values, stores a pending output and queues the
    /// op (blocking while the queue is full); returns the output's handle.
    fn enqueue(
        &self,
        executor: &Executor,
        op: usize,
        inputs: &[u64],
        extra: Option<Tensor>,
        list_lens: Option<&[i32]>,
        attrs: Attrs,
    ) -> Result<u64> {
        let n = inputs.len() + usize::from(extra.is_some());
        let registry = Registry::global();
        registry.check(op, n, list_lens, &attrs)?;
        let entries = self.entries(op, inputs, extra)?;
        let known: SmallVec<[Input<'_>; 4]> = entries
            .iter()
            .map(|e| match e {
                Entry::Ready(t) => Input::Ready(t),
                Entry::Pending(p) => Input::Pending(p.meta()),
            })
            .collect();
        let meta = registry.infer(op, &known, list_lens, &attrs, &self.account)?;
        drop(known);
        let admission = Executor::admit(
            &self.account,
            crate::executor::entry_bytes(&entries, list_lens, &attrs, &meta),
        )?;
        let output = Promise::new(meta);
        let handle = self.table.insert(Entry::Pending(Arc::clone(&output)))?;
        let job = Job {
            op,
            inputs: entries,
            list_lens: list_lens.map(Box::from),
            attrs,
            account: Arc::clone(&self.account),
            output,
            retry_after_collection: self.pressure.is_some(),
        };
        if let Err(e) = executor.enqueue(job, admission) {
            drop(self.table.remove(handle, REMOVED_AT_CLOSE));
            return Err(e);
        }
        Ok(handle)
    }

    /// Runs an op by type name; for tests and tools (Java calls by index).
    pub fn execute_named(&self, op: &str, inputs: &[u64], attrs: &Attrs) -> Result<Outputs> {
        self.execute(Registry::global().lookup(op)?, inputs, None, attrs)
    }

    /// Frees one tensor; `false` if it was already freed.
    pub fn free(&self, handle: u64, reason: FreeReason) -> bool {
        let freed = self.table.remove(handle, reason.kind());
        let found = freed.is_some();
        drop(freed);
        found
    }

    /// Frees a batch of tensors in one lock; returns how many were still live.
    pub fn free_many(&self, handles: &[u64], reason: FreeReason) -> usize {
        let freed = self.table.remove_many(handles, reason.kind());
        let n = freed.len();
        drop(freed);
        n
    }

    /// Closes the session: frees every tensor still held (counted as freed
    /// at close) and refuses every later insert, so its stats are final even
    /// if a call that raced with closing still holds it. Returns how many
    /// tensors it freed.
    pub fn close(&self) -> usize {
        self.closed.store(true, Ordering::Release);
        if let Some(e) = &self.executor {
            e.shutdown();
        }
        let all = self.table.close(REMOVED_AT_CLOSE);
        let n = all.len();
        drop(all);
        memory::retire(&*self.table);
        drop(
            self.pool_allowance
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .take(),
        );
        n
    }

    /// Whether [`close`](Session::close) has been called.
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Acquire)
    }

    /// Frees every tensor still held, counting them as freed at close.
    pub fn free_all(&self) -> usize {
        let all = self.table.drain(REMOVED_AT_CLOSE);
        let n = all.len();
        drop(all);
        n
    }

    /// Counts one request for a garbage collection.
    pub fn count_gc_request(&self) {
        self.counters.gc_requests.fetch_add(1, Ordering::Relaxed);
        memory::GlobalMemory::get().count_gc_request();
    }

    pub fn stats(&self) -> SessionStats {
        // One snapshot under the table's lock: consistent by construction.
        let c = self.table.counts();
        SessionStats {
            live_tensors: c.live,
            live_bytes: self.account.live_bytes(),
            peak_bytes: self.account.peak_bytes(),
            created: c.inserted,
            freed_explicitly: c.removed[REMOVED_EXPLICITLY],
            freed_by_cleanup: c.removed[REMOVED_BY_CLEANUP],
            freed_at_close: c.removed[REMOVED_AT_CLOSE],
            gc_requests: self.counters.gc_requests.load(Ordering::Relaxed),
            freed_by_scope: c.removed[REMOVED_BY_SCOPE],
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Some(e) = &self.executor {
            e.shutdown();
        }
        self.free_all();
        // Counts final now: nothing else holds the table.
        memory::retire(&*self.table);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int_scalar(s: &Session, v: i32) -> Result<u64> {
        s.insert(Tensor::scalar(s.account(), v)?)
    }

    #[test]
    fn the_single_output_path_keeps_nothing_of_other_counts() -> Result<()> {
        let s = Session::new(SessionOptions::default());
        let op = Registry::global().lookup("OutputsForTest")?;
        assert!(!Registry::global().single_output(op));
        let one = int_scalar(&s, 1)?;
        let two = int_scalar(&s, 2)?;
        let before = s.stats();
        let h = s.execute_single(op, &[one], None)?;
        assert_eq!(s.stats().created, before.created + 1);
        assert!(s.free(h, FreeReason::Explicit));
        let before = s.stats();
        for n in [two, int_scalar(&s, 0)?] {
            let before = s.stats();
            let e = s.execute_single(op, &[n], None).err();
            assert!(
                matches!(&e, Some(Error::IllegalState(m)) if m.starts_with("OutputsForTest: made")),
                "{e:?}"
            );
            assert_eq!(s.stats(), before, "nothing stored or counted");
        }
        let many = s.execute(op, &[two], None, &Attrs::new())?;
        assert_eq!(many.len(), 2);
        assert_eq!(s.stats().created, before.created + 3);
        Ok(())
    }

    fn invariant(p: &ProcessStats) {
        assert_eq!(
            p.created,
            p.freed_explicitly
                + p.freed_by_scope
                + p.freed_by_cleanup
                + p.freed_at_close
                + p.live_tensors,
            "{p:?}"
        );
    }

    #[test]
    fn each_free_reason_has_its_counter_in_the_session_and_the_process() -> Result<()> {
        // Other tests run at the same time: the process counts grow by at least this test's.
        let before = crate::sessions::process_stats();
        invariant(&before);
        let s = Session::new(SessionOptions::default());
        let h: Vec<u64> = (0..6).map(|i| int_scalar(&s, i)).collect::<Result<_>>()?;
        assert!(s.free(h[0], FreeReason::Explicit));
        assert_eq!(s.free_many(&h[1..3], FreeReason::Scope), 2);
        assert!(s.free(h[3], FreeReason::Cleanup));
        assert!(!s.free(h[1], FreeReason::Scope), "counted once");
        s.count_gc_request();
        let st = s.stats();
        assert_eq!(
            (st.created, st.freed_explicitly, st.freed_by_scope),
            (6, 1, 2)
        );
        assert_eq!(
            (st.freed_by_cleanup, st.freed_at_close, st.live_tensors),
            (1, 0, 2)
        );
        let during = crate::sessions::process_stats();
        invariant(&during);
        assert!(during.created >= before.created + 6);
        // Dropped without close: its counts stay in the process's, freed at close.
        drop(s);
        let after = crate::sessions::process_stats();
        invariant(&after);
        assert!(after.created >= before.created + 6, "{before:?} {after:?}");
        assert!(after.freed_explicitly > before.freed_explicitly);
        assert!(after.freed_by_scope >= before.freed_by_scope + 2);
        assert!(after.freed_by_cleanup > before.freed_by_cleanup);
        assert!(after.freed_at_close >= before.freed_at_close + 2);
        assert!(after.gc_requests > before.gc_requests);
        Ok(())
    }

    #[test]
    fn a_closed_session_keeps_its_counts_in_the_process() -> Result<()> {
        let id = crate::sessions::open(SessionOptions::default())?;
        let opened = crate::sessions::process_stats();
        assert!(opened.open_sessions >= 1);
        {
            let s = crate::sessions::lookup(id)?;
            int_scalar(&s, 1)?;
            let h = int_scalar(&s, 2)?;
            assert!(s.free(h, FreeReason::Scope));
        }
        let before_close = crate::sessions::process_stats();
        let closed = crate::sessions::close(id)?;
        assert_eq!(
            (closed.created, closed.freed_by_scope, closed.freed_at_close),
            (2, 1, 1)
        );
        let after = crate::sessions::process_stats();
        invariant(&after);
        // Retired, not forgotten and not counted twice: never less than before.
        assert!(after.created >= before_close.created);
        assert!(after.freed_by_scope >= before_close.freed_by_scope);
        assert!(after.freed_at_close > before_close.freed_at_close);
        Ok(())
    }

    #[test]
    fn a_scratch_scalar_is_counted_nowhere() -> Result<()> {
        let s = Session::new(SessionOptions::default());
        let dims = s.insert(Tensor::from_slice(s.account(), &[2], &[2i32, 3])?)?;
        let before = s.stats();
        let fill = Registry::global().lookup("Fill")?;
        for (dtype, value) in [
            (DataType::Float, 1.0),
            (DataType::Bool, 0.0),
            (DataType::UInt8, 1.0),
        ] {
            let h = s.execute_single(fill, &[dims], Some(scratch_scalar(dtype, value)?))?;
            let t = s.tensor(h)?;
            assert_eq!((t.dtype(), t.shape()), (dtype, &[2usize, 3][..]));
        }
        let after = s.stats();
        assert_eq!(after.created, before.created + 3);
        assert_eq!(after.live_tensors, before.live_tensors + 3);
        // Only the outputs' bytes, at every moment: 6 floats, 6 bools, 6 bytes.
        assert_eq!(after.live_bytes, before.live_bytes + 24 + 6 + 6);
        assert_eq!(after.peak_bytes, after.live_bytes);
        Ok(())
    }
}
