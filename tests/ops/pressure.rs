//! The soft threshold behind GC requests: where it starts, how Java moves it,
//! and that a fixed one stays put.

use eagerflow::{FreeReason, Session, SessionOptions, Tensor};

const MIB: usize = 1 << 20;

fn session(trigger: Option<u64>) -> Session {
    Session::new(SessionOptions {
        max_bytes: None,
        gc_signals: true,
        gc_trigger_bytes: trigger,
    })
}

/// Inserts one MiB and says whether the session asked for a collection.
fn mib(s: &Session, held: &mut Vec<u64>) -> bool {
    let t = Tensor::from_slice(s.account(), &[MIB], &vec![0u8; MIB]).unwrap();
    held.push(s.insert(t).unwrap());
    s.take_gc_signal()
}

/// MiB inserted until the first request.
fn mib_until_request(s: &Session, held: &mut Vec<u64>, max: usize) -> Option<usize> {
    (1..=max).find(|_| mib(s, held))
}

#[test]
fn the_adaptive_trigger_starts_at_64_mib_and_follows_java() {
    let s = session(None);
    let mut held = Vec::new();
    assert_eq!(mib_until_request(&s, &mut held, 200), Some(64));
    // A signal is not a collection: Java counts one once it has caused it.
    assert_eq!(s.stats().gc_requests, 0);
    // Java's pacing says 100 MiB: live passes it after 36 more, but the rate limit
    // wants half a trigger (50 MiB) allocated since the previous request.
    s.collected(Some(100 << 20));
    assert_eq!(mib_until_request(&s, &mut held, 200), Some(50));
    // Never again.
    s.collected(Some(u64::MAX));
    assert_eq!(mib_until_request(&s, &mut held, 100), None);
    // Below the floor means the floor; freed bytes leave the count at once.
    s.collected(Some(1));
    assert_eq!(s.free_many(&held, FreeReason::Explicit), held.len());
    held.clear();
    assert_eq!(mib_until_request(&s, &mut held, 200), Some(64));
    s.free_many(&held, FreeReason::Explicit);
}

#[test]
fn a_fixed_trigger_never_moves() {
    let s = session(Some(8 << 20));
    let mut held = Vec::new();
    assert_eq!(mib_until_request(&s, &mut held, 100), Some(8));
    s.collected(Some(u64::MAX));
    s.collected(None);
    assert_eq!(mib_until_request(&s, &mut held, 100), Some(4));
    s.free_many(&held, FreeReason::Explicit);
}

#[test]
fn without_gc_signals_nothing_is_requested() {
    let s = Session::new(SessionOptions::default());
    let mut held = Vec::new();
    assert_eq!(mib_until_request(&s, &mut held, 100), None);
    s.free_many(&held, FreeReason::Explicit);
}
