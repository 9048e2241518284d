//! The asynchronous queue's bounds: a capacity outside them is refused before
//! anything is made, queued ops hold bytes on the session's account until
//! they run or are cancelled, a full queue makes the sender wait, and a large
//! entry is refused at the limit while an ordinary one fails when it runs.

use std::sync::Arc;

use eagerflow::{Attrs, Error, FreeReason, Session, SessionOptions};

use crate::async_exec::{Async, floats, op, read};

#[test]
fn a_capacity_outside_the_bounds_is_refused_before_anything_is_made() {
    use eagerflow::executor::MAX_QUEUE_CAPACITY;
    for capacity in [0, MAX_QUEUE_CAPACITY + 1, i32::MAX as usize, usize::MAX] {
        match Session::new_async(SessionOptions::default(), capacity) {
            Err(Error::InvalidArgument(m)) => {
                assert!(m.contains("asyncQueueCapacity"), "{m}");
                assert!(m.contains(&capacity.to_string()), "{m}");
                assert!(m.contains(&MAX_QUEUE_CAPACITY.to_string()), "{m}");
            }
            Err(e) => panic!("{capacity}: {e}"),
            Ok(_) => panic!("{capacity} was accepted"),
        }
        assert!(eagerflow::sessions::open_async(SessionOptions::default(), capacity).is_err());
    }
    // What Java passes as an int, negative values included.
    let e = eagerflow::executor::queue_capacity(-5i32).unwrap_err();
    assert!(e.to_string().contains("got -5"), "{e}");
    assert_eq!(
        eagerflow::executor::queue_capacity(MAX_QUEUE_CAPACITY as i32).unwrap(),
        MAX_QUEUE_CAPACITY
    );
}

#[test]
fn queued_ops_are_counted_as_held_bytes_until_they_run_or_are_cancelled() {
    use eagerflow::executor::ADMITTED_ENTRY_BYTES;
    for run in [true, false] {
        let mut a = Async::with(8, None, false);
        let s = Arc::clone(&a.session);
        let x = floats(&s, &[1.0; 16]);
        let live = s.account().live_bytes();
        assert_eq!(s.account().scratch_bytes(), 0);
        let mut outs = Vec::new();
        for i in 1..=5u64 {
            outs.push(s.execute_single(op("Neg"), &[x], None).unwrap());
            let held = s.account().scratch_bytes();
            assert_eq!(held % i, 0, "every queued Neg holds the same");
            assert!((64..=ADMITTED_ENTRY_BYTES).contains(&(held / i)), "{held}");
        }
        assert_eq!(
            s.account().live_bytes(),
            live,
            "queuing allocates no tensor"
        );
        if run {
            a.start();
            s.sync().unwrap();
            assert_eq!(s.account().scratch_bytes(), 0);
            assert_eq!(read(&s, outs[4]), vec![-1.0; 16]);
        }
        a.close();
        assert_eq!(s.account().scratch_bytes(), 0);
    }
}

#[test]
fn a_full_queue_makes_the_sender_wait_until_room_or_close() {
    for then_start in [true, false] {
        let mut a = Async::with(1, None, false);
        let s = Arc::clone(&a.session);
        let x = floats(&s, &[2.0; 4]);
        s.execute_single(op("Neg"), &[x], None).unwrap();
        assert_eq!(s.executor().unwrap().queued(), 1);
        let sender = {
            let s = Arc::clone(&s);
            std::thread::spawn(move || s.execute_single(op("Neg"), &[x], None))
        };
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while s.executor().unwrap().waiting_senders() == 0 {
            assert!(
                std::time::Instant::now() < deadline,
                "the sender never waited"
            );
            std::thread::yield_now();
        }
        assert!(!sender.is_finished(), "the second op waits for room");
        if then_start {
            a.start();
            let h = sender.join().unwrap().unwrap();
            assert_eq!(read(&s, h), vec![-2.0; 4]);
            a.close();
        } else {
            a.close();
            let e = sender.join().unwrap().unwrap_err();
            assert!(matches!(e, Error::IllegalState(_)), "{e}");
        }
        assert_eq!(s.account().live_bytes(), 0);
        assert_eq!(s.account().scratch_bytes(), 0);
    }
}

#[test]
fn a_small_entry_queues_past_the_limit_and_a_large_one_is_refused() {
    let limit = 1024;
    let mut a = Async::with(4, Some(limit), false);
    let s = Arc::clone(&a.session);
    // Long input lists make a large entry: refused past the limit at build,
    // leaving nothing behind.
    let scalars: Vec<u64> = (0..100).map(|i| floats(&s, &[i as f32])).collect();
    let before = s.stats();
    let e = s
        .execute(op("AddN"), &scalars, Some(&[100]), &Attrs::new())
        .unwrap_err();
    assert!(matches!(e, Error::MemoryExhausted { .. }), "{e}");
    assert_eq!(s.stats(), before);
    assert_eq!(s.account().scratch_bytes(), 0);
    for h in scalars {
        s.free(h, FreeReason::Explicit);
    }
    // An ordinary op queues even with the limit reached; it fails when it runs.
    let x = floats(&s, &[1.0; 256]);
    assert_eq!(s.account().live_bytes(), limit);
    let y = s.execute_single(op("Neg"), &[x], None).unwrap();
    assert!(s.account().held_bytes() > limit);
    a.start();
    assert!(matches!(s.sync(), Err(Error::MemoryExhausted { .. })));
    assert!(matches!(s.tensor(y), Err(Error::MemoryExhausted { .. })));
    assert_eq!(s.account().scratch_bytes(), 0);
    a.close();
}
