//! An asynchronous session's queue sets nothing aside for its capacity: many
//! sessions at the largest capacity commit little memory. Its own test binary,
//! so no other test allocates while the resident size is read.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use eagerflow::executor::MAX_QUEUE_CAPACITY;
use eagerflow::{Registry, Session, SessionOptions, Tensor};

/// This process's resident set, from `/proc/self/status`.
fn rss_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024
}

#[test]
fn sessions_at_the_largest_capacity_commit_memory_for_what_they_queue_only() {
    const SESSIONS: usize = 32;
    let neg = Registry::global().lookup("Neg").unwrap();
    let before = rss_bytes();
    let mut kept = Vec::new();
    for _ in 0..SESSIONS {
        let s =
            Arc::new(Session::new_async(SessionOptions::default(), MAX_QUEUE_CAPACITY).unwrap());
        let executor = Arc::clone(s.executor().unwrap());
        let runner = std::thread::spawn(move || executor.run().unwrap());
        let x = s
            .insert(Tensor::from_slice(s.account(), &[4], &[1f32; 4]).unwrap())
            .unwrap();
        let y = s.execute_single(neg, &[x], None).unwrap();
        assert_eq!(s.tensor(y).unwrap().as_slice::<f32>().unwrap(), &[-1.0; 4]);
        kept.push((s, runner));
    }
    let grown = rss_bytes().saturating_sub(before);
    // A preallocated queue would commit well over 100 bytes per place in each
    // session; this allows under 8 bytes per place (threads' stacks included).
    let allowed = (SESSIONS * MAX_QUEUE_CAPACITY * 8) as u64;
    assert!(grown < allowed, "grew {grown} bytes, allowed {allowed}");
    for (s, runner) in kept {
        s.close();
        runner.join().unwrap();
    }
}
