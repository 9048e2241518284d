//! Sessions addressed by id. Java holds a generation-checked id from one
//! process-wide [`HandleTable`] (tag [`SESSION_TAG`]), never a pointer: any
//! code on the classpath can call the natives, so a closed, stale, forged or
//! foreign id must be an error, not a dereference. Id 0 names the process-wide
//! session of standalone tensors, which is never closed.
//!
//! Every op looks its session up, so a repeated lookup takes no lock and no
//! atomic read-modify-write: each thread keeps the last session it used (an
//! `Rc` around the table's `Arc<Session>`), and a hit compares the id and
//! reads the session's closed flag. A miss clones the `Arc` out of the table
//! under its lock.
//!
//! Closing removes the session from the table and closes it: its tensors are
//! freed and it refuses new ones, so its stats are final. A call that looked
//! the session up before and is still running finishes safely (its reads and
//! inserts fail); the `Session` itself is dropped when its last holder lets
//! go: such a call, or a per-thread cache, which notices the closed flag on
//! that thread's next lookup.

use std::cell::Cell;
use std::ops::Deref;
use std::rc::Rc;
use std::sync::{Arc, LazyLock};

use crate::error::{Error, Result};
use crate::handles::{HandleTable, SESSION_TAG};
use crate::session::{ProcessStats, Session, SessionOptions, SessionStats};
use crate::wire::CLOSED_MESSAGE;

/// The id that names the session of standalone tensors.
pub const STANDALONE: u64 = 0;

static SESSIONS: LazyLock<HandleTable<Arc<Session>>> =
    LazyLock::new(|| HandleTable::with_tag(SESSION_TAG));

struct Cached {
    id: u64,
    session: Arc<Session>,
}

thread_local! {
    /// The session this thread looked up last.
    static LAST: Cell<Option<Rc<Cached>>> = const { Cell::new(None) };
}

/// A session held for the length of one call; dereferences to [`Session`].
/// Not `Send`: it lives on the calling thread, like the call.
pub struct SessionRef(Held);

enum Held {
    Standalone,
    Registered(Rc<Cached>),
}

impl Deref for SessionRef {
    type Target = Session;

    fn deref(&self) -> &Session {
        match &self.0 {
            Held::Standalone => Session::standalone(),
            Held::Registered(c) => &c.session,
        }
    }
}

/// Creates a session and returns its id (never 0).
pub fn open(options: SessionOptions) -> Result<u64> {
    SESSIONS.insert(Arc::new(Session::new(options)))
}

/// Creates an asynchronous session whose queue holds `capacity` ops.
pub fn open_async(options: SessionOptions, capacity: usize) -> Result<u64> {
    SESSIONS.insert(Arc::new(Session::new_async(options, capacity)?))
}

/// The executor of the asynchronous session behind `id`, for the thread that
/// runs it: looked up without the per-thread cache, so that thread holds the
/// executor only, never the session.
pub fn executor(id: u64) -> Result<Arc<crate::executor::Executor>> {
    let session = SESSIONS.find(id).ok_or_else(|| unknown(id))?;
    session
        .executor()
        .cloned()
        .ok_or_else(|| Error::state(format!("session {id:#x} is not asynchronous")))
}

/// The session behind `id`.
#[inline]
pub fn lookup(id: u64) -> Result<SessionRef> {
    if id == STANDALONE {
        return Ok(SessionRef(Held::Standalone));
    }
    let hit = LAST
        .try_with(|last| {
            let cached = last.take()?;
            if cached.session.is_closed() {
                // Let go of a closed session (its id is refused below).
                return None;
            }
            let hit = (cached.id == id).then(|| Rc::clone(&cached));
            last.set(Some(cached));
            hit
        })
        .ok()
        .flatten();
    match hit {
        Some(cached) => Ok(SessionRef(Held::Registered(cached))),
        None => lookup_in_table(id),
    }
}

#[cold]
fn lookup_in_table(id: u64) -> Result<SessionRef> {
    let session = SESSIONS.find(id).ok_or_else(|| unknown(id))?;
    let cached = Rc::new(Cached { id, session });
    // Fails only while the thread is exiting; the call then goes uncached.
    let _ = LAST.try_with(|last| last.replace(Some(Rc::clone(&cached))));
    Ok(SessionRef(Held::Registered(cached)))
}

/// The process-wide counts, with the sessions open now (the registered ids).
pub fn process_stats() -> ProcessStats {
    ProcessStats::now(SESSIONS.counts().live)
}

/// Closes the session behind `id` and returns its final stats. Closing an id
/// twice is an error like any other use of a closed id.
pub fn close(id: u64) -> Result<SessionStats> {
    if id == STANDALONE {
        return Err(Error::invalid(
            "session id 0 names the standalone tensors, which cannot be closed",
        ));
    }
    let session = SESSIONS.remove(id, 0).ok_or_else(|| unknown(id))?;
    session.close();
    let stats = session.stats();
    // This thread's cache lets go now; other threads' on their next lookup.
    let _ = LAST.try_with(|last| {
        if let Some(cached) = last.take()
            && cached.id != id
        {
            last.set(Some(cached));
        }
    });
    Ok(stats)
}

fn unknown(id: u64) -> Error {
    if SESSIONS.issued(id) {
        Error::state(CLOSED_MESSAGE)
    } else {
        Error::state(format!("{id:#x} is not a session id"))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Weak;

    use super::*;
    use crate::handles::HandleTable;
    use crate::session::FreeReason;
    use crate::tensor::Tensor;

    fn weak(r: &SessionRef) -> Weak<Session> {
        match &r.0 {
            Held::Registered(c) => Arc::downgrade(&c.session),
            Held::Standalone => Weak::new(),
        }
    }

    fn scalar(s: &Session, v: f32) -> Result<u64> {
        s.insert(Tensor::from_slice(s.account(), &[], &[v])?)
    }

    fn message<T>(r: Result<T>) -> String {
        match r {
            Err(Error::IllegalState(m)) => m,
            Err(e) => panic!("expected IllegalState, got {e:?}"),
            Ok(_) => panic!("expected an error"),
        }
    }

    #[test]
    fn ids_are_checked() -> Result<()> {
        let id = open(SessionOptions::default())?;
        assert!(id != 0 && (id as i64) > 0);
        let h = scalar(&*lookup(id)?, 1.0)?;
        assert_eq!(lookup(id)?.stats().live_tensors, 1);

        // A tensor handle, a random value and a handle of another table are no session ids.
        assert!(message(lookup(h)).contains("is not a session id"));
        assert!(message(lookup(0x1234_5678_9abc)).contains("is not a session id"));
        let other = HandleTable::<u8>::new().insert(1)?;
        assert!(message(lookup(other)).contains("is not a session id"));
        // Right tag, slot never used.
        assert!(message(lookup(id + (1 << 20))).contains("is not a session id"));

        let stats = close(id)?;
        assert_eq!((stats.live_tensors, stats.freed_at_close), (0, 1));
        assert_eq!(message(lookup(id)), CLOSED_MESSAGE);
        assert_eq!(message(close(id)), CLOSED_MESSAGE);

        // The slot is reused with a new generation: the old id stays closed.
        let id2 = open(SessionOptions::default())?;
        assert_ne!(id, id2);
        assert_eq!(message(lookup(id)), CLOSED_MESSAGE);
        assert_eq!(lookup(id2)?.stats().created, 0);
        close(id2)?;
        Ok(())
    }

    #[test]
    fn standalone_is_id_zero_and_stays_open() -> Result<()> {
        let s = lookup(STANDALONE)?;
        assert!(std::ptr::eq(&*s, Session::standalone()));
        assert!(matches!(close(STANDALONE), Err(Error::InvalidArgument(_))));
        assert!(!lookup(STANDALONE)?.is_closed());
        Ok(())
    }

    #[test]
    fn a_holder_outlives_close_but_cannot_add() -> Result<()> {
        let id = open(SessionOptions::default())?;
        let held = lookup(id)?;
        let h = scalar(&held, 2.0)?;
        let gone = weak(&held);
        let stats = close(id)?;
        assert_eq!(stats.freed_at_close, 1);

        // The call that looked the session up before close still runs safely.
        assert!(held.is_closed());
        assert!(held.tensor(h).is_err());
        assert!(!held.free(h, FreeReason::Explicit));
        assert_eq!(message(scalar(&held, 3.0)), CLOSED_MESSAGE);
        assert!(
            held.execute_named("AddV2", &[h, h], &Default::default())
                .is_err()
        );
        let after = held.stats();
        assert_eq!(after, stats, "nothing changes a closed session's stats");
        assert_eq!(held.account().live_bytes(), 0);

        assert!(gone.upgrade().is_some());
        drop(held);
        assert!(
            gone.upgrade().is_none(),
            "the last holder frees the session"
        );
        Ok(())
    }

    #[test]
    fn other_threads_see_close_and_let_go() -> Result<()> {
        let id = open(SessionOptions::default())?;
        let (to_main, from_worker) = std::sync::mpsc::channel();
        let (to_worker, from_main) = std::sync::mpsc::channel::<()>();
        let worker = std::thread::spawn(move || -> Result<()> {
            let s = lookup(id)?;
            let gone = weak(&s);
            drop(s);
            to_main.send(()).ok();
            from_main.recv().ok();
            // Cached on this thread, but closed by another: refused, and let go.
            assert!(gone.upgrade().is_some());
            assert_eq!(message(lookup(id)), CLOSED_MESSAGE);
            assert!(gone.upgrade().is_none());
            Ok(())
        });
        from_worker.recv().ok();
        close(id)?;
        to_worker.send(()).ok();
        worker.join().expect("worker")?;
        Ok(())
    }

    #[test]
    fn threads_alternating_sessions() -> Result<()> {
        let ids = [
            open(SessionOptions::default())?,
            open(SessionOptions::default())?,
        ];
        std::thread::scope(|s| {
            let workers: Vec<_> = (0..4)
                .map(|t| {
                    s.spawn(move || -> Result<()> {
                        for i in 0..200 {
                            let session = lookup(ids[(i + t) % 2])?;
                            let h = scalar(&session, i as f32)?;
                            assert!(session.free(h, FreeReason::Explicit));
                        }
                        Ok(())
                    })
                })
                .collect();
            workers
                .into_iter()
                .try_for_each(|w| w.join().expect("worker"))
        })?;
        for id in ids {
            let stats = close(id)?;
            assert_eq!((stats.created, stats.freed_explicitly), (400, 400));
        }
        Ok(())
    }
}
