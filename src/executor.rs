//! The executor of an asynchronous session (`Options.async(true)`).
//!
//! Building an op validates what needs no values (and what its inputs'
//! dtypes and shapes decide, see `ops::infer`), stores a [`Promise`] with
//! the inferred dtype and shape under the output's handle and sends a
//! [`Job`] down a bounded `crossbeam-channel` queue (a full queue blocks the
//! sender: backpressure). One thread per session, a Java daemon thread that
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

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use crossbeam_channel::{Receiver, SendTimeoutError, Sender, TrySendError};
use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::memory::MemoryAccount;
use crate::ops::{Attrs, Meta, Registry};
use crate::tensor::Tensor;
use crate::wire::CLOSED_MESSAGE;

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
        let mut tensors = SmallVec::<[Arc<Tensor>; 4]>::new();
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
    Run(Job),
    Barrier(Sender<()>),
    Stop,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum RunState {
    NotStarted,
    Running,
    Stopped,
}

/// A session's queue and the state of the thread that drains it.
pub struct Executor {
    tx: Sender<Msg>,
    rx: Receiver<Msg>,
    run_state: Mutex<RunState>,
    stopped: Condvar,
    cancelled: AtomicBool,
    first_error: Mutex<Option<Error>>,
}

fn closed() -> Error {
    Error::state(CLOSED_MESSAGE)
}

impl Executor {
    /// An executor whose queue holds at most `capacity` ops (at least one).
    pub fn new(capacity: usize) -> Arc<Executor> {
        let (tx, rx) = crossbeam_channel::bounded(capacity.max(1));
        Arc::new(Executor {
            tx,
            rx,
            run_state: Mutex::new(RunState::NotStarted),
            stopped: Condvar::new(),
            cancelled: AtomicBool::new(false),
            first_error: Mutex::new(None),
        })
    }

    /// Queues `job`, blocking while the queue is full; fails (dropping the
    /// job, which settles its promise) once the executor was shut down.
    pub fn enqueue(&self, job: Job) -> Result<()> {
        self.send(Msg::Run(job))
    }

    fn send(&self, msg: Msg) -> Result<()> {
        // The common case takes no clock reading.
        let mut msg = match self.tx.try_send(msg) {
            Ok(()) => return self.sent(),
            Err(TrySendError::Full(m)) => m,
            Err(TrySendError::Disconnected(_)) => return Err(closed()),
        };
        loop {
            if self.cancelled.load(Ordering::SeqCst) {
                return Err(closed());
            }
            match self.tx.send_timeout(msg, Duration::from_millis(20)) {
                Ok(()) => return self.sent(),
                Err(SendTimeoutError::Timeout(m)) => msg = m,
                Err(SendTimeoutError::Disconnected(_)) => return Err(closed()),
            }
        }
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

    /// Ops queued and not yet taken by the executor.
    pub fn queued(&self) -> usize {
        self.rx.len()
    }

    /// The queue's bound.
    pub fn capacity(&self) -> usize {
        self.tx.capacity().unwrap_or(0)
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
                Msg::Run(job) => {
                    if !self.cancelled.load(Ordering::SeqCst) {
                        // Job::run catches kernel panics; this keeps the
                        // loop alive whatever else might panic.
                        let _ =
                            std::panic::catch_unwind(AssertUnwindSafe(|| job.run(self, relieve)));
                    }
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
            // drain (see `sent`) may take a Stop: offer one until it stops.
            let mut s = lock(&self.run_state);
            while *s == RunState::Running {
                let _ = self.tx.try_send(Msg::Stop);
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
            drop(msg);
        }
    }
}

impl Drop for Executor {
    fn drop(&mut self) {
        self.cancelled.store(true, Ordering::SeqCst);
        self.drain();
    }
}
