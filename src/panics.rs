//! Panics made diagnosable. A panic hook keeps where a panic happened and
//! its backtrace for the thread that will report it; the op registry adds the
//! op and its inputs when a kernel panics ([`in_kernel`]), and the JNI
//! boundary turns the result into a `RuntimeException` message.
//!
//! The hook is installed when Java loads the library. There it replaces
//! Rust's default hook rather than chaining to it: every panic in the library
//! reaches Java with all the default hook would print, so printing to stderr
//! as well would only be noise. Each Rust library carries its own `std`, so
//! no other library's panics pass through it.

use std::any::Any;
use std::backtrace::Backtrace;
use std::cell::RefCell;
use std::fmt::Write;
use std::panic::PanicHookInfo;
use std::sync::{Mutex, Once};

/// What the hook kept of one panic.
pub struct Captured {
    message: String,
    location: String,
    backtrace: Backtrace,
}

impl Captured {
    /// `" at <file:line:col>"` and the backtrace, to follow the message.
    fn details(&self) -> String {
        format!(" at {}\nRust backtrace:\n{}", self.location, self.backtrace)
    }
}

thread_local! {
    static LAST: RefCell<Option<Captured>> = const { RefCell::new(None) };
}

/// Panics on rayon's worker threads: rayon re-raises them on the thread that
/// waits for the work, which finds them here by message. Few, newest last.
static FROM_WORKERS: Mutex<Vec<Captured>> = Mutex::new(Vec::new());
const MAX_FROM_WORKERS: usize = 8;

/// Installs the hook once per process. With `print`, Rust's previous hook
/// runs as well (for Rust's own test runs, whose failures must still print).
pub fn install_hook(print: bool) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            capture(info);
            if print {
                previous(info);
            }
        }));
    });
}

/// Never panics: a panic inside a panic hook aborts the process.
fn capture(info: &PanicHookInfo<'_>) {
    let captured = Captured {
        message: payload_text(info.payload()).to_string(),
        location: info
            .location()
            .map_or_else(|| "an unknown location".to_string(), ToString::to_string),
        backtrace: Backtrace::force_capture(),
    };
    if rayon::current_thread_index().is_some() {
        let mut workers = FROM_WORKERS.lock().unwrap_or_else(|p| p.into_inner());
        if workers.len() >= MAX_FROM_WORKERS {
            workers.remove(0);
        }
        workers.push(captured);
    } else {
        // `try_with`: the thread may be exiting; then there is no one to tell.
        let _ = LAST.try_with(|last| {
            if let Ok(mut last) = last.try_borrow_mut() {
                *last = Some(captured);
            }
        });
    }
}

/// The text of a panic payload (`panic!` makes a `&str` or a `String`).
pub fn payload_text(payload: &(dyn Any + Send)) -> &str {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s
    } else {
        "a panic without a message"
    }
}

/// Takes what the hook kept of the panic whose message is `message`, raised
/// on this thread or re-raised here from a rayon worker. A record of another,
/// earlier panic that nobody reported is dropped.
fn take(message: &str) -> Option<Captured> {
    let own = LAST
        .try_with(|last| last.try_borrow_mut().ok().and_then(|mut l| l.take()))
        .ok()
        .flatten();
    if let Some(c) = own.filter(|c| c.message == message) {
        return Some(c);
    }
    let mut workers = FROM_WORKERS.lock().unwrap_or_else(|p| p.into_inner());
    let i = workers.iter().rposition(|c| c.message == message)?;
    Some(workers.remove(i))
}

/// The message of a panic with payload `payload`, followed by where it
/// happened and its backtrace when the hook kept them.
pub fn describe(payload: &(dyn Any + Send)) -> String {
    let message = payload_text(payload);
    match take(message) {
        Some(c) => format!("{message}{}", c.details()),
        None => message.to_string(),
    }
}

/// The payload to re-raise when a kernel panicked: the op, each input's
/// dtype and shape, then [`describe`]'s message. `inputs` pairs each input's
/// name with its tensor.
pub fn in_kernel<'a>(
    op: &str,
    inputs: impl Iterator<Item = (String, &'a crate::tensor::Tensor)>,
    payload: &(dyn Any + Send),
) -> String {
    // The first few inputs: a list op may have up to `alloc::MAX_INPUTS`.
    const LISTED: usize = 16;
    let mut text = format!("{op} (inputs:");
    let mut count = 0usize;
    for (name, t) in inputs {
        if count < LISTED {
            let sep = if count > 0 { "," } else { "" };
            let _ = write!(text, "{sep} {name} {} {:?}", t.dtype(), t.shape());
        }
        count += 1;
    }
    if count == 0 {
        text.push_str(" none");
    } else if count > LISTED {
        let _ = write!(text, ", and {} more", count - LISTED);
    }
    let _ = write!(text, ") panicked: {}", describe(payload));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hook_keeps_location_and_backtrace_for_the_reporting_thread() {
        install_hook(true);
        let payload = std::panic::catch_unwind(|| panic!("kept {}", 42)).err();
        let text = payload.map(|p| describe(p.as_ref())).unwrap_or_default();
        assert!(text.starts_with("kept 42 at src/panics.rs:"), "{text}");
        assert!(text.contains("Rust backtrace:"), "{text}");
        // Taken once: a second report of the same message has no details.
        assert_eq!(describe(&"kept 42"), "kept 42");
    }

    #[test]
    fn panics_on_rayon_workers_are_found_by_message() {
        install_hook(true);
        let payload = std::panic::catch_unwind(|| {
            rayon::scope(|s| s.spawn(|_| panic!("on a worker")));
        })
        .err();
        let text = payload.map(|p| describe(p.as_ref())).unwrap_or_default();
        assert!(text.starts_with("on a worker at src/panics.rs:"), "{text}");
    }
}
