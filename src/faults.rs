//! Fault injection for tests: arm a fault for the next run of a named op on
//! this thread, and that run fails as a real fault would. Only Rust tests and
//! the `testing` feature (the Java tests' build of the library) have it; in
//! the published library `allocation_refused` is a constant `false`.

#[cfg(any(test, feature = "testing"))]
pub use armed::*;

#[cfg(any(test, feature = "testing"))]
mod armed {
    use std::cell::{Cell, RefCell};

    /// What the armed op's next run meets.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Fault {
        /// The allocator refuses the op's first output or temporary buffer,
        /// after its bytes were reserved against the session.
        RefuseAllocation,
        /// The kernel panics before computing anything.
        Panic,
    }

    // Per thread, so tests running on other threads (and the library's
    // cleaner) never meet a fault armed for someone else's op.
    thread_local! {
        static ARMED: RefCell<Option<(String, Fault)>> = const { RefCell::new(None) };
        static REFUSE_ALLOCATION: Cell<bool> = const { Cell::new(false) };
    }

    /// Arms `fault` for the next run of op `op` (its canonical type name) on
    /// this thread; replaces any fault armed before.
    pub fn arm(op: &str, fault: Fault) {
        ARMED.with(|a| *a.borrow_mut() = Some((op.to_string(), fault)));
    }

    /// Disarms this thread's fault; returns whether one was still armed (its
    /// op never ran).
    pub fn disarm() -> bool {
        ARMED.with(|a| a.borrow_mut().take()).is_some()
    }

    /// Called as op `op` starts on this thread: fires the fault armed for it,
    /// if any. A refused allocation stays pending until the returned guard
    /// drops, so it never outlives the op.
    pub fn enter(op: &str) -> Entered {
        let fault = ARMED.with(|a| {
            let mut a = a.borrow_mut();
            match a.as_ref() {
                Some((name, _)) if name == op => a.take().map(|(_, f)| f),
                _ => None,
            }
        });
        if fault == Some(Fault::RefuseAllocation) {
            REFUSE_ALLOCATION.with(|r| r.set(true));
        }
        Entered {
            panic: fault == Some(Fault::Panic),
        }
    }

    /// An op run that may have met a fault.
    pub struct Entered {
        /// The kernel must panic instead of running.
        pub panic: bool,
    }

    impl Drop for Entered {
        fn drop(&mut self) {
            REFUSE_ALLOCATION.with(|r| r.set(false));
        }
    }

    /// Whether the allocator must refuse this allocation (the one an armed
    /// `RefuseAllocation` fault pends); answers yes once.
    pub fn allocation_refused() -> bool {
        REFUSE_ALLOCATION.with(|r| r.replace(false))
    }
}

/// The published library never refuses an allocation on purpose.
#[cfg(not(any(test, feature = "testing")))]
#[inline(always)]
pub fn allocation_refused() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::ops::Attrs;
    use crate::session::{Session, SessionOptions};
    use crate::tensor::Tensor;
    use std::panic::{AssertUnwindSafe, catch_unwind};

    #[test]
    fn an_armed_fault_hits_its_op_once_and_every_counter_stays_exact() -> crate::error::Result<()> {
        crate::panics::install_hook(true);
        let s = Session::new(SessionOptions::default());
        let x = s.insert(Tensor::from_slice(s.account(), &[2, 3], &[1f32; 6])?)?;
        let before = s.stats();

        arm("AddV2", Fault::RefuseAllocation);
        // Another op leaves the fault armed.
        let y = s.execute_named("Identity", &[x], &Attrs::new())?;
        assert!(s.free(y[0], crate::session::FreeReason::Explicit));
        let refused = s.execute_named("AddV2", &[x, x], &Attrs::new());
        assert!(
            matches!(refused, Err(Error::MemoryExhausted { .. })),
            "{refused:?}"
        );
        assert!(!disarm(), "the fault fired once and is gone");
        let after = s.stats();
        assert_eq!(
            (after.live_tensors, after.live_bytes),
            (before.live_tensors, before.live_bytes)
        );

        arm("AddV2", Fault::Panic);
        let panicked = catch_unwind(AssertUnwindSafe(|| {
            s.execute_named("AddV2", &[x, x], &Attrs::new())
        }));
        assert!(panicked.is_err());
        let after = s.stats();
        assert_eq!(
            (after.live_tensors, after.live_bytes),
            (before.live_tensors, before.live_bytes)
        );

        // And the next run of the same op works.
        let z = s.execute_named("AddV2", &[x, x], &Attrs::new())?;
        assert_eq!(s.tensor(z[0])?.as_slice::<f32>()?, &[2f32; 6]);
        Ok(())
    }
}
