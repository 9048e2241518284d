//! The executor of an asynchronous session (`Options.async(true)`).
//!
//! Building an op validates what needs no values (and what its inputs'
//! dtypes and shapes decide, see `ops::infer`), stores a [`Promise`] with
//! the inferred dtype and shape under the output's handle and sends a
//! [`Job`] down the session's queue (a full queue blocks the sender:
//! backpressure). One thread per session, a Java daemon thread that
//! calls [`Executor::run_with`] through JNI,
//! runs the jobs in the order they were sent; since a handle exists only once
//! its op was sent, every job finds its inputs settled. A read of a pending
//! output waits for that promise only.
//!
//! A job holds its input tensors (or their promises) and its output's
//! promise, never the session: releasing a pending output, closing its scope
//! or closing the session while it is queued frees nothing the job still
//! needs, and what the job makes is freed with the last holder of its
//! promise. An op whose allocation the hard limit refused is retried once
//! after the session's strategy collected (the executor thread asks Java for
//! that, as a building thread's collect-and-retry does; never under
//! ON_SESSION_CLOSE). A failed op settles its promise with the error, which
//! every op reading it passes on; the first failure since the previous
//! [`sync`](Executor::sync) is kept for it. [`shutdown`](Executor::shutdown)
//! cancels what has not started and waits for the job that has.
//!
//! The queue is an unbounded channel behind a counting `Gate`: a bounded
//! channel preallocates every slot when it is made, so its memory followed
//! the capacity asked for (and a large one aborted the process); this one
//! allocates as ops are queued. The capacity is checked against
//! [`MAX_QUEUE_CAPACITY`] before anything is made. What a queued op holds
//! until it is dropped is counted on its session's account as held bytes
//! (see [`Executor::admit`]).

use std::fmt::Display;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender};
use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::memory::{MemoryAccount, ScratchGuard};
use crate::ops::{Attrs, Meta, Registry};
use crate::tensor::Tensor;
use crate::wire::CLOSED_MESSAGE;

/// The most ops an asynchronous session may hold queued
/// (`EagerSession.Options.MAX_ASYNC_QUEUE_CAPACITY` in Java). 64 times the
/// default: one executor thread gains nothing from a building thread that
/// runs further ahead, and what a full queue at this bound may hold past the
/// session's limit stays within [`ADMITTED_ENTRY_BYTES`] times it (64 MiB).
pub const MAX_QUEUE_CAPACITY: usize = 1 << 16;

/// A queued op whose bookkeeping is estimated at no more than this is queued
/// even when its session is at its limit: an asynchronous build fails for
/// memory when its op runs, not when it is built. A larger one (long input or
/// attribute lists) is refused at build like a kernel temporary.
pub const ADMITTED_ENTRY_BYTES: u64 = 1 << 10;

/// `requested` as a queue capacity, or the error that names the option, the
/// value and the bound.
pub fn queue_capacity<T>(requested: T) -> Result<usize>
where
    T: Copy + Display,
    usize: TryFrom<T>,
{
    usize::try_from(requested)
        .ok()
        .filter(|c| (1..=MAX_QUEUE_CAPACITY).contains(c))
        .ok_or_else(|| {
            Error::invalid(format!(
                "asyncQueueCapacity must be between 1 and {MAX_QUEUE_CAPACITY}, got {requested}"
            ))
        })
}

/// An estimate of the heap bytes a job of these parts holds while queued
/// beyond what others count (its inputs' buffers are their sessions'): its
/// channel slot, its output's promise and its own copies of the caller's
/// lists and attributes.
pub fn entry_bytes(
    inputs: &SmallVec<[Entry; 4]>,
    list_lens: Option<&[i32]>,
    attrs: &Attrs,
    meta: &Meta,
) -> u64 {
    use std::mem::size_of;
    let slot = size_of::<Msg>() + size_of::<usize>();
    let promise = size_of::<Promise>()
        + 2 * size_of::<usize>()
        + meta
            .shape
            .as_ref()
            .map_or(0, |s| s.len() * size_of::<usize>());
    let inputs = if inputs.spilled() {
        inputs.capacity() * size_of::<Entry>()
    } else {
        0
    };
    let lens = list_lens.map_or(0, std::mem::size_of_val);
    (slot + promise + inputs + lens + attrs.heap_bytes()) as u64
}

/// The count of what one queued job holds (see [`Executor::admit`]), given
/// back when the job is dropped.
pub struct Admission {
    _held: ScratchGuard,
}

/// What a session's handle names: a tensor, or the promise of an op's output.
#[derive(Clone)]
pub enum Entry {
    Ready(Arc<Tensor>),
    Pending(Arc<Promise>),
}

impl Entry {
    /// The tensor, once its op has run (waiting for that op only).
    pub fn resolve(self) -> Result<Arc<Tensor>> {
        match self {
            Entry::Ready(t) => Ok(t),
            Entry::Pending(p) => p.wait(),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every mutation under these locks is one assignment: poison is harmless.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

enum State {
    Pending,
    Ready(Arc<Tensor>),
    Failed(Error),
}

/// The output of a queued op: settled once, with a tensor or an error.
pub struct Promise {
    state: Mutex<State>,
    settled: Condvar,
    /// The dtype and shape inferred when the op was built, as far as known.
    meta: Meta,
}

impl Promise {
    pub fn new(meta: Meta) -> Arc<Promise> {
        Arc::new(Promise {
            state: Mutex::new(State::Pending),
            settled: Condvar::new(),
            meta,
        })
    }

    /// What was known of the output when its op was built.
    pub fn meta(&self) -> &Meta {
        &self.meta
    }

    /// Waits until the op has run; its output, or the error that stopped it.
    pub fn wait(&self) -> Result<Arc<Tensor>> {
        let mut s = lock(&self.state);
        loop {
            match &*s {
                State::Ready(t) => return Ok(Arc::clone(t)),
                State::Failed(e) => return Err(e.clone()),
                State::Pending => {
                    s = self.settled.wait(s).unwrap_or_else(|p| p.into_inner());
                }
            }
        }
    }

    /// Settles a pending promise; a settled one keeps its value.
    fn settle(&self, result: Result<Arc<Tensor>>) {
        let mut s = lock(&self.state);
        if matches!(*s, State::Pending) {
            *s = match result {
                Ok(t) => State::Ready(t),
                Err(e) => State::Failed(e),
            };
            self.settled.notify_all();
        }
    }
}

/// One queued single-output op with everything it needs to run.
pub struct Job {
    pub op: usize,
    pub inputs: SmallVec<[Entry; 4]>,
    pub list_lens: Option<Box<[i32]>>,
    pub attrs: Attrs,
    pub account: Arc<MemoryAccount>,
    pub output: Arc<Promise>,
    /// Whether a refused allocation is retried once after a collection
    /// (the session signals memory pressure: IN_BACKGROUND, ON_SAFE_POINTS).
    pub retry_after_collection: bool,
}

impl Job {
    fn run(&self, executor: &Executor, relieve: &mut dyn FnMut() -> bool) {
        let registry = Registry::global();
        let mut tensors = match crate::alloc::small::<[Arc<Tensor>; 4]>(self.inputs.len()) {
            Ok(v) => v,
            Err(e) => return self.output.settle(Err(e)),
        };
        for input in &self.inputs {
            match input.clone().resolve() {
                Ok(t) => tensors.push(t),
                // A failed input: this op fails with the same error, which
                // was recorded where it first happened.
                Err(e) => return self.output.settle(Err(e)),
            }
        }
        let name = registry.name(self.op);
        let attempt = || {
            std::panic::catch_unwind(AssertUnwindSafe(|| {
                registry.run(
                    self.op,
                    &self.account,
                    &tensors,
                    self.list_lens.as_deref(),
                    &self.attrs,
                )
            }))
        };
        let mut run = attempt();
        if self.retry_after_collection
            && matches!(run, Ok(Err(Error::MemoryExhausted { .. })))
            && relieve()
        {
            run = attempt();
        }
        drop(tensors);
        let result = match run {
            Ok(Ok(mut outputs)) => match outputs.pop() {
                Some(t) if outputs.is_empty() && self.output.meta.admits(&t) => Ok(Arc::new(t)),
                // Readers may have been told the inferred dtype and shape.
                Some(t) if outputs.is_empty() => Err(Error::state(format!(
                    "{name}: made a {} tensor of shape {:?}, not the {:?} inferred when it was built",
                    t.dtype(),
                    t.shape(),
                    self.output.meta
                ))),
                last => Err(Error::state(format!(
                    "{name}: made {} outputs on the queued path for single-output ops",
                    outputs.len() + usize::from(last.is_some())
                ))),
            },
            Ok(Err(e)) => Err(e),
            Err(payload) => Err(Error::Panicked(format!(
                "eagerflow panicked in {name} (queued): {}",
                crate::panics::describe(payload.as_ref())
            ))),
        };
        if let Err(e) = &result {
            executor.record(e);
        }
        self.output.settle(result);
    }
}

impl Drop for Job {
    /// A job dropped unrun (cancelled by close) leaves no reader waiting.
    fn drop(&mut self) {
        self.output.settle(Err(Error::state(CLOSED_MESSAGE)));
    }
}

enum Msg {
    /// A job and the count of what it holds, given back when both drop.
    Run(Job, Admission),
    Barrier(Sender<()>),
    Stop,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum RunState {
    NotStarted,
    Running,
    Stopped,
}

/// Counts queued jobs against the capacity, so that an unbounded channel
/// (whose memory follows what it holds) still makes a full queue block the
/// sender. Taking a place is one compare-and-swap; giving one back is one
/// subtraction, plus a wake-up only when a sender waits.
struct Gate {
    capacity: usize,
    taken: AtomicUsize,
    waiters: AtomicUsize,
    lock: Mutex<()>,
    room: Condvar,
}

impl Gate {
    fn new(capacity: usize) -> Gate {
        Gate {
            capacity,
            taken: AtomicUsize::new(0),
            waiters: AtomicUsize::new(0),
            lock: Mutex::new(()),
            room: Condvar::new(),
        }
    }

    fn try_take(&self) -> bool {
        let mut n = self.taken.load(Ordering::SeqCst);
        while n < self.capacity {
            match self
                .taken
                .compare_exchange_weak(n, n + 1, Ordering::SeqCst, Ordering::SeqCst)
            {
                Ok(_) => return true,
                Err(actual) => n = actual,
            }
        }
        false
    }

    /// Takes a place, waiting while there is none; false once `cancelled`.
    fn take(&self, cancelled: &AtomicBool) -> bool {
        if self.try_take() {
            return true;
        }
        let mut guard = lock(&self.lock);
        // Announced before looking again: either that look sees a place
        // given back, or the thread giving it back sees a waiter and wakes
        // it (under the lock, which this thread holds until it waits).
        self.waiters.fetch_add(1, Ordering::SeqCst);
        let took = loop {
            if cancelled.load(Ordering::SeqCst) {
                break false;
            }
            if self.try_take() {
                break true;
            }
            // The timeout only bounds what a missed cancellation costs.
            guard = self
                .room
                .wait_timeout(guard, Duration::from_millis(20))
                .unwrap_or_else(|p| p.into_inner())
                .0;
        };
        self.waiters.fetch_sub(1, Ordering::SeqCst);
        took
    }

    fn give_back(&self) {
        self.taken.fetch_sub(1, Ordering::SeqCst);
        if self.waiters.load(Ordering::SeqCst) > 0 {
            drop(lock(&self.lock));
            self.room.notify_one();
        }
    }

    /// Wakes every waiting sender (to see a cancellation).
    fn wake_all(&self) {
        drop(lock(&self.lock));
        self.room.notify_all();
    }
}

/// A session's queue and the state of the thread that drains it.
pub struct Executor {
    tx: Sender<Msg>,
    rx: Receiver<Msg>,
    gate: Gate,
    run_state: Mutex<RunState>,
    stopped: Condvar,
    cancelled: AtomicBool,
    first_error: Mutex<Option<Error>>,
}

fn closed() -> Error {
    Error::state(CLOSED_MESSAGE)
}

impl Executor {
    /// An executor whose queue holds at most `capacity` ops, from 1 to
    /// [`MAX_QUEUE_CAPACITY`]; no memory is set aside for them up front.
    pub fn new(capacity: usize) -> Result<Arc<Executor>> {
        let capacity = queue_capacity(capacity)?;
        let (tx, rx) = crossbeam_channel::unbounded();
        Ok(Arc::new(Executor {
            tx,
            rx,
            gate: Gate::new(capacity),
            run_state: Mutex::new(RunState::NotStarted),
            stopped: Condvar::new(),
            cancelled: AtomicBool::new(false),
            first_error: Mutex::new(None),
        }))
    }

    /// Counts `bytes` (a job's [`entry_bytes`]) on `account` as held bytes
    /// until the job is dropped, so tensors and temporaries cannot use that
    /// room; called before the job's output gets a handle, so a refusal
    /// leaves nothing behind. A job of at most [`ADMITTED_ENTRY_BYTES`] is
    /// counted even past the limit (a full queue holds at most capacity
    /// times that): an asynchronous op fails for memory when it runs, not
    /// when it is built. A larger one is refused past the limit, with the
    /// limit's error, as a kernel's temporary is.
    pub fn admit(account: &Arc<MemoryAccount>, bytes: u64) -> Result<Admission> {
        Ok(Admission {
            _held: if bytes <= ADMITTED_ENTRY_BYTES {
                account.hold_scratch(bytes)
            } else {
                account.reserve_scratch(bytes)?
            },
        })
    }

    /// Queues `job`, blocking while the queue is full; fails (dropping the
    /// job, which settles its promise) once the executor was shut down.
    pub fn enqueue(&self, job: Job, admission: Admission) -> Result<()> {
        if !self.gate.take(&self.cancelled) {
            return Err(closed());
        }
        self.send(Msg::Run(job, admission))
    }

    /// Sends without waiting: the gate bounds jobs; a barrier or a stop
    /// needs no place.
    fn send(&self, msg: Msg) -> Result<()> {
        // Only fails once the receiver is gone, which this executor holds.
        if let Err(e) = self.tx.send(msg) {
            self.discard(e.into_inner());
            return Err(closed());
        }
        self.sent()
    }

    /// Drops a message taken off (or never put on) the queue.
    fn discard(&self, msg: Msg) {
        if let Msg::Run(..) = msg {
            self.gate.give_back();
        }
        drop(msg);
    }

    /// After a send: a message that raced with [`shutdown`](Self::shutdown)
    /// may have arrived after its last drain, with nobody left to take it;
    /// drop it (and whatever else is queued) here. Either this load sees the
    /// flag, or shutdown's drain, which follows its store, sees the message.
    fn sent(&self) -> Result<()> {
        if self.cancelled.load(Ordering::SeqCst) {
            self.drain();
            return Err(closed());
        }
        Ok(())
    }

    /// Ops queued (or being queued) and not yet taken by the executor.
    pub fn queued(&self) -> usize {
        self.gate.taken.load(Ordering::SeqCst)
    }

    /// Senders waiting for a place in a full queue.
    pub fn waiting_senders(&self) -> usize {
        self.gate.waiters.load(Ordering::SeqCst)
    }

    /// The queue's bound.
    pub fn capacity(&self) -> usize {
        self.gate.capacity
    }

    /// [`run_with`](Self::run_with) with no way to relieve memory pressure.
    pub fn run(&self) -> Result<()> {
        self.run_with(&mut || false)
    }

    /// Runs queued jobs in order until [`shutdown`](Self::shutdown); the
    /// session's executor thread calls it once. Fails if it ran before.
    /// When the hard limit refuses a job's allocation (and its session
    /// signals pressure), `relieve` is asked to free what it can (a
    /// collection and cleanup, on this thread); if it says it tried, the job
    /// runs once more.
    pub fn run_with(&self, relieve: &mut dyn FnMut() -> bool) -> Result<()> {
        {
            let mut s = lock(&self.run_state);
            if *s != RunState::NotStarted {
                return Err(Error::state(
                    "this session's executor is already running or has stopped",
                ));
            }
            *s = RunState::Running;
        }
        // Marks the executor stopped however this frame is left.
        struct Stopping<'a>(&'a Executor);
        impl Drop for Stopping<'_> {
            fn drop(&mut self) {
                *lock(&self.0.run_state) = RunState::Stopped;
                self.0.stopped.notify_all();
            }
        }
        let _stopping = Stopping(self);
        while let Ok(msg) = self.rx.recv() {
            match msg {
                Msg::Run(job, held) => {
                    self.gate.give_back();
                    if !self.cancelled.load(Ordering::SeqCst) {
                        // Job::run catches kernel panics; this keeps the
                        // loop alive whatever else might panic.
                        let _ =
                            std::panic::catch_unwind(AssertUnwindSafe(|| job.run(self, relieve)));
                    }
                    drop(job);
                    drop(held);
                }
                Msg::Barrier(done) => {
                    let _ = done.send(());
                }
                Msg::Stop => break,
            }
        }
        Ok(())
    }

    /// Waits until every op queued before this call has run; then returns
    /// the first failure since the previous call, if any. Only that first
    /// one is kept (as TensorFlow's sync does): later failures in the same
    /// interval stay with their outputs' promises and are not reported here.
    pub fn sync(&self) -> Result<()> {
        // One slot, for the one answer: a constant size.
        #[allow(clippy::disallowed_methods)]
        let (tx, rx) = crossbeam_channel::bounded(1);
        self.send(Msg::Barrier(tx))?;
        rx.recv().map_err(|_| closed())?;
        match lock(&self.first_error).take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn record(&self, e: &Error) {
        let mut first = lock(&self.first_error);
        if first.is_none() {
            *first = Some(e.clone());
        }
    }

    /// Cancels every queued job that has not started (dropped here, which
    /// frees what it held and settles its output as closed), waits for the
    /// one running, and stops the executor. Idempotent.
    pub fn shutdown(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
        self.gate.wake_all();
        let running = {
            let mut s = lock(&self.run_state);
            if *s == RunState::NotStarted {
                *s = RunState::Stopped;
            }
            *s == RunState::Running
        };
        self.drain();
        if running {
            // The executor drops the jobs it takes from now on. A sender's
            // drain (see `sent`) may take a Stop: offer one whenever the
            // queue is empty until it stops.
            let mut s = lock(&self.run_state);
            while *s == RunState::Running {
                if self.rx.is_empty() {
                    let _ = self.tx.send(Msg::Stop);
                }
                s = self
                    .stopped
                    .wait_timeout(s, Duration::from_millis(20))
                    .unwrap_or_else(|p| p.into_inner())
                    .0;
            }
        }
        self.drain();
    }

    fn drain(&self) {
        while let Ok(msg) = self.rx.try_recv() {
            self.discard(msg);
        }
    }
}

impl Drop for Executor {
    fn drop(&mut self) {
        self.cancelled.store(true, Ordering::SeqCst);
        self.gate.wake_all();
        self.drain();
    }
}
