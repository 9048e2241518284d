//! Asynchronous sessions: queued ops give the results of synchronous ones,
//! failures reach reads and `sync`, releases and close free nothing a queued
//! op needs, and a full queue blocks the dispatcher.

use std::sync::Arc;
use std::thread::JoinHandle;

use eagerflow::executor::Executor;
use eagerflow::strings::StringAllocation;
use eagerflow::{
    Attrs, Error, FreeReason, MemoryAccount, Registry, Session, SessionOptions, Tensor,
};

pub(crate) struct Async {
    pub(crate) session: Arc<Session>,
    runner: Option<JoinHandle<()>>,
}

impl Async {
    fn new(capacity: usize, max_bytes: Option<u64>) -> Async {
        Self::with(capacity, max_bytes, true)
    }

    pub(crate) fn with(capacity: usize, max_bytes: Option<u64>, start: bool) -> Async {
        let session = Arc::new(
            Session::new_async(
                SessionOptions {
                    max_bytes,
                    ..Default::default()
                },
                capacity,
            )
            .unwrap(),
        );
        let mut a = Async {
            session,
            runner: None,
        };
        if start {
            a.start();
        }
        a
    }

    pub(crate) fn start(&mut self) {
        let executor: Arc<Executor> = Arc::clone(self.session.executor().unwrap());
        // Fails harmlessly when the session closed before the thread got here.
        self.runner = Some(std::thread::spawn(move || drop(executor.run())));
    }

    pub(crate) fn close(mut self) -> usize {
        let n = self.session.close();
        if let Some(r) = self.runner.take() {
            r.join().unwrap();
        }
        n
    }
}

pub(crate) fn floats(s: &Session, v: &[f32]) -> u64 {
    s.insert(Tensor::from_slice(s.account(), &[v.len()], v).unwrap())
        .unwrap()
}

fn ints(s: &Session, v: &[i32]) -> u64 {
    s.insert(Tensor::from_slice(s.account(), &[v.len()], v).unwrap())
        .unwrap()
}

pub(crate) fn op(name: &str) -> usize {
    Registry::global().lookup(name).unwrap()
}

pub(crate) fn read(s: &Session, h: u64) -> Vec<f32> {
    s.tensor(h).unwrap().as_slice::<f32>().unwrap().to_vec()
}

#[test]
fn queued_ops_give_the_results_of_a_synchronous_session() {
    let a = Async::new(4, None);
    let sync = Session::new(SessionOptions::default());
    let (add, mul) = (op("AddV2"), op("Mul"));
    let mut x = floats(&a.session, &[1.0, 2.0, 3.0]);
    let mut y = floats(&sync, &[1.0, 2.0, 3.0]);
    for i in 0..200 {
        let o = if i % 3 == 0 { mul } else { add };
        x = a.session.execute_single(o, &[x, x], None).unwrap();
        y = sync.execute_single(o, &[y, y], None).unwrap();
        // Scaled down now and then so that nothing overflows.
        if i % 7 == 0 {
            let half =
                a.session
                    .execute_named("Mul", &[x, floats(&a.session, &[0.25])], &Attrs::new());
            x = half.unwrap()[0];
            y = sync
                .execute_named("Mul", &[y, floats(&sync, &[0.25])], &Attrs::new())
                .unwrap()[0];
        }
    }
    assert_eq!(read(&a.session, x), read(&sync, y));
    a.session.sync().unwrap();
    assert_eq!(a.session.stats().created, sync.stats().created);
    a.close();
}

#[test]
fn a_failure_reaches_every_dependent_read_and_sync_once() {
    let a = Async::new(16, None);
    let s = &a.session;
    let params = floats(s, &[1.0, 2.0, 3.0]);
    let bad = ints(s, &[7]);
    let gathered = s
        .execute_named("GatherV2", &[params, bad, ints(s, &[0])], &Attrs::new())
        .expect("an index out of range is found only when the op runs");
    let dependent = s.execute_single(op("Neg"), &[gathered[0]], None).unwrap();
    let independent = s.execute_single(op("Neg"), &[params], None).unwrap();
    let first = s.tensor(dependent).err().unwrap();
    assert!(first.to_string().contains("GatherV2"), "{first}");
    assert_eq!(s.tensor(gathered[0]).err(), Some(first.clone()));
    assert_eq!(read(s, independent), vec![-1.0, -2.0, -3.0]);
    assert_eq!(s.sync().err(), Some(first.clone()));
    assert_eq!(
        s.sync(),
        Ok(()),
        "sync throws an error once; the session goes on"
    );
    assert_eq!(
        read(
            s,
            s.execute_single(op("Neg"), &[independent], None).unwrap()
        ),
        vec![1.0, 2.0, 3.0]
    );
    // A synchronous session throws the same type.
    let sync = Session::new(SessionOptions::default());
    let p = floats(&sync, &[1.0, 2.0, 3.0]);
    let e = sync
        .execute_named(
            "GatherV2",
            &[p, ints(&sync, &[7]), ints(&sync, &[0])],
            &Attrs::new(),
        )
        .err()
        .unwrap();
    assert_eq!(std::mem::discriminant(&e), std::mem::discriminant(&first));
    a.close();
}

#[test]
fn build_time_checks_need_no_values() {
    let a = Async::new(4, None);
    let s = &a.session;
    let x = floats(s, &[1.0]);
    assert!(
        matches!(s.execute_single(op("AddV2"), &[x], None), Err(Error::InvalidArgument(m)) if m.contains("AddV2"))
    );
    let mut attrs = Attrs::new();
    attrs.set("nonsense", eagerflow::AttrValue::Int(1));
    assert!(
        matches!(s.execute(op("Neg"), &[x], None, &attrs), Err(Error::InvalidArgument(m)) if m.contains("nonsense"))
    );
    assert!(s.free(x, FreeReason::Explicit));
    assert!(matches!(
        s.execute_single(op("Neg"), &[x], None),
        Err(Error::IllegalState(_))
    ));
    assert_eq!(s.stats().created, 1, "nothing was queued");
    a.close();
}

#[test]
fn releasing_pending_outputs_frees_them_once_their_ops_ran() {
    // The executor starts only after everything was queued and released.
    let mut a = Async::with(64, None, false);
    let s = Arc::clone(&a.session);
    let x = floats(&s, &[1.0; 1024]);
    let mut handles = Vec::new();
    let mut last = x;
    for _ in 0..32 {
        last = s.execute_single(op("AddV2"), &[last, x], None).unwrap();
        handles.push(last);
    }
    assert_eq!(s.account().live_bytes(), 4096, "nothing ran yet");
    assert_eq!(s.free_many(&handles[..31], FreeReason::Explicit), 31);
    assert!(s.free(x, FreeReason::Explicit));
    a.start();
    assert_eq!(read(&s, last), vec![33.0; 1024]);
    s.sync().unwrap();
    assert_eq!(
        s.account().live_bytes(),
        4096,
        "only the last output is left"
    );
    let st = s.stats();
    assert_eq!(
        (st.live_tensors, st.created, st.freed_explicitly),
        (1, 33, 32)
    );
    a.close();
}

#[test]
fn close_cancels_queued_ops_and_frees_everything() {
    for started in [false, true] {
        let a = Async::with(10_000, None, started);
        let s = Arc::clone(&a.session);
        let x = floats(&s, &[1.0; 256]);
        let mut last = x;
        for _ in 0..10_000 {
            last = s.execute_single(op("AddV2"), &[last, x], None).unwrap();
        }
        let waiter = {
            let s = Arc::clone(&s);
            std::thread::spawn(move || s.tensor(last).map(|_| ()))
        };
        a.close();
        let st = s.stats();
        assert_eq!(st.live_tensors, 0);
        assert_eq!(st.created, st.freed_at_close + st.freed_explicitly);
        assert_eq!(s.account().live_bytes(), 0, "nothing leaks");
        // A reader of a cancelled op wakes with the closed error (or its value).
        match waiter.join().unwrap() {
            Ok(()) => assert!(started),
            Err(e) => assert!(matches!(e, Error::IllegalState(_)), "{e}"),
        }
        assert!(s.execute_single(op("AddV2"), &[x, x], None).is_err());
        assert!(s.sync().is_err());
    }
}

#[test]
fn a_full_queue_blocks_the_dispatcher_and_the_limit_holds() {
    let limit = 64 * 4096;
    let a = Async::new(2, Some(limit));
    let s = Arc::clone(&a.session);
    let account: &Arc<MemoryAccount> = s.account();
    let x = floats(&s, &[1.0; 1024]);
    for _ in 0..2_000 {
        let y = s.execute_single(op("Exp"), &[x], None).unwrap();
        assert!(s.executor().unwrap().queued() <= 2);
        s.free(y, FreeReason::Explicit);
    }
    s.sync().unwrap();
    assert!(account.peak_bytes() <= limit, "{}", account.peak_bytes());
    // Without releases the limit stops the queue's allocations, at the reads.
    let mut kept = Vec::new();
    for _ in 0..100 {
        kept.push(s.execute_single(op("Exp"), &[x], None).unwrap());
    }
    let e = s.sync().err().unwrap();
    assert!(matches!(e, Error::MemoryExhausted { .. }), "{e}");
    assert!(account.peak_bytes() <= limit);
    assert!(matches!(
        s.tensor(kept[99]),
        Err(Error::MemoryExhausted { .. })
    ));
    a.close();
    assert_eq!(account.live_bytes(), 0);
}

#[test]
fn a_panicking_kernel_fails_its_output_and_the_executor_goes_on() {
    let a = Async::new(4, None);
    let s = &a.session;
    let x = ints(s, &[1]);
    // PanicForTest exists only with the `testing` feature.
    if let Ok(panics) = Registry::global().lookup("PanicForTest") {
        let bad = s.execute_single(panics, &[x], None).unwrap();
        assert!(matches!(s.tensor(bad), Err(Error::Panicked(m)) if m.contains("PanicForTest")));
        assert!(matches!(s.sync(), Err(Error::Panicked(_))));
    }
    let y = s.execute_single(op("Neg"), &[x], None).unwrap();
    assert_eq!(s.tensor(y).unwrap().as_slice::<i32>().unwrap(), &[-1]);
    a.close();
}

fn strings(s: &Session, v: &[&str]) -> u64 {
    let total = v.iter().map(|x| x.len()).sum();
    let mut a = StringAllocation::new(s.account(), v.len(), total).unwrap();
    for x in v {
        a.push(x.as_bytes()).unwrap();
    }
    s.insert(a.into_tensor(vec![v.len()]).unwrap()).unwrap()
}

fn tensor<T: eagerflow::Element>(s: &Session, shape: &[usize], v: &[T]) -> u64 {
    s.insert(Tensor::from_slice(s.account(), shape, v).unwrap())
        .unwrap()
}

/// A program's inputs: FLOAT [2, 3], FLOAT [3], INT32 [2, 3], BOOL [2],
/// FLOAT [3, 2], INT32 [4] holding 4 (a shape of 4 elements).
fn program_inputs(s: &Session) -> [u64; 6] {
    [
        tensor(s, &[2, 3], &[1f32; 6]),
        tensor(s, &[3], &[1f32; 3]),
        tensor(s, &[2, 3], &[1i32; 6]),
        tensor(s, &[2], &[true; 2]),
        tensor(s, &[3, 2], &[1f32; 6]),
        tensor(s, &[1], &[4i32]),
    ]
}

/// Builds, on `s`, ops each of which fails for a reason decidable from
/// dtypes and shapes, some with pending inputs; returns each build's error.
fn bad_builds(s: &Session) -> Vec<Error> {
    let [f23, f3, i23, b2, f32_, four] = program_inputs(s);
    let mut transpose = Attrs::new();
    transpose.set("transpose_a", eagerflow::AttrValue::Int(1));
    let plain = Attrs::new();
    // Pending in an asynchronous session whose executor has not started.
    let sum = s.execute_single(op("AddV2"), &[f23, f23], None).unwrap();
    let product = s.execute(op("MatMul"), &[f23, f32_], None, &plain).unwrap()[0];
    let int_sum = s.execute_single(op("AddV2"), &[i23, i23], None).unwrap();
    let words = strings(s, &["a", "b"]);
    let f223 = tensor(s, &[2, 2, 3], &[1f32; 12]);
    let f332 = tensor(s, &[3, 3, 2], &[1f32; 18]);
    let mut adjoint = Attrs::new();
    adjoint.set("adj_y", eagerflow::AttrValue::Bool(true));
    let not_a_permutation = tensor(s, &[2], &[0i32, 0]);
    let five = tensor(s, &[], &[5i32]);
    let axes = tensor(s, &[2], &[0i32, 1]);
    let bools = tensor(s, &[2, 3], &[true; 6]);
    let mut squeeze_0 = Attrs::new();
    squeeze_0.set("squeeze_dims", eagerflow::AttrValue::Ints(vec![0]));
    let cases: Vec<(&str, Vec<u64>, &Attrs)> = vec![
        ("AddV2", vec![f23, i23], &plain),
        ("Mul", vec![f23, f32_], &plain),
        ("AddV2", vec![b2, b2], &plain),
        ("DivNoNan", vec![i23, i23], &plain),
        ("Less", vec![b2, b2], &plain),
        ("Equal", vec![f23, f32_], &plain),
        ("LogicalAnd", vec![f23, b2], &plain),
        ("MatMul", vec![f23, f23], &plain),
        ("MatMul", vec![f3, f23], &plain),
        ("MatMul", vec![f23, i23], &plain),
        ("MatMul", vec![f23, f32_], &transpose),
        ("Reshape", vec![f23, four], &plain),
        ("Sub", vec![sum, i23], &plain),
        ("Maximum", vec![sum, f32_], &plain),
        ("MatMul", vec![product, f32_], &plain),
        ("Reshape", vec![sum, four], &plain),
        ("Cast", vec![f23], &plain),
        ("BatchMatMulV2", vec![f3, f23], &plain),
        ("BatchMatMulV2", vec![f23, i23], &plain),
        ("BatchMatMul", vec![f23, f23], &plain),
        ("BatchMatMulV2", vec![f223, f332], &plain),
        ("BatchMatMulV2", vec![f223, f32_], &adjoint),
        ("BatchMatMulV2", vec![sum, sum], &plain),
        ("Transpose", vec![f23, four], &plain),
        ("Transpose", vec![f23, not_a_permutation], &plain),
        ("Transpose", vec![sum, not_a_permutation], &plain),
        ("Transpose", vec![f23, i23], &plain),
        ("ExpandDims", vec![f23, five], &plain),
        ("ExpandDims", vec![sum, axes], &plain),
        ("Squeeze", vec![f23], &squeeze_0),
        ("Squeeze", vec![sum], &squeeze_0),
        ("SelectV2", vec![f23, f23, f23], &plain),
        ("SelectV2", vec![b2, f23, i23], &plain),
        ("SelectV2", vec![b2, f23, f23], &plain),
        ("SelectV2", vec![b2, sum, sum], &plain),
        ("ClipByValue", vec![f23, i23, f23], &plain),
        ("ClipByValue", vec![f23, f32_, f3], &plain),
        ("ClipByValue", vec![sum, f3, f32_], &plain),
        ("ClipByValue", vec![bools, bools, bools], &plain),
        ("Softmax", vec![five], &plain),
        ("LogSoftmax", vec![i23], &plain),
        ("BiasAdd", vec![f3, f3], &plain),
        ("BiasAdd", vec![f23, f23], &plain),
        ("BiasAdd", vec![f32_, f3], &plain),
        ("BiasAdd", vec![product, f3], &plain),
        ("Sum", vec![f23, five], &plain),
        ("Prod", vec![f23, i23], &plain),
        ("All", vec![f23, axes], &plain),
        ("Max", vec![b2, five], &plain),
        ("Min", vec![bools, axes], &plain),
        ("Mean", vec![f23, not_a_permutation], &plain),
        ("Sum", vec![sum, five], &plain),
        ("Any", vec![f23, int_sum], &plain),
        // Ops without a string kernel refuse STRING before any other check.
        ("AddV2", vec![words, words], &plain),
        ("Neg", vec![words], &plain),
    ];
    let mut pack_5 = Attrs::new();
    pack_5.set("axis", eagerflow::AttrValue::Int(5));
    // Ops of one list argument.
    let list_cases: Vec<(&str, Vec<u64>, &Attrs)> = vec![
        ("AddN", vec![], &plain),
        ("AddN", vec![f23, i23], &plain),
        ("AddN", vec![f23, f32_], &plain),
        ("AddN", vec![b2, b2], &plain),
        ("AddN", vec![sum, f3], &plain),
        ("Pack", vec![], &plain),
        ("Pack", vec![f23, i23], &plain),
        ("Pack", vec![f23, f3], &plain),
        ("Pack", vec![f23, f23], &pack_5),
        ("Pack", vec![sum, f32_], &plain),
    ];
    // ConcatV2: a list, then its axis.
    let zero = tensor(s, &[], &[0i32]);
    let concat_cases: Vec<Vec<u64>> = vec![
        vec![f23, i23, zero],
        vec![f23, f3, zero],
        vec![f23, f23, five],
        vec![f23, f23, axes],
        vec![sum, f32_, zero],
    ];
    let concats = concat_cases.into_iter().map(|inputs| {
        let lens = vec![inputs.len() as i32 - 1, -1];
        ("ConcatV2", inputs, Some(lens), &plain)
    });
    let singles = cases
        .into_iter()
        .map(|(name, inputs, attrs)| (name, inputs, None, attrs));
    let lists = list_cases.into_iter().map(|(name, inputs, attrs)| {
        (name, inputs.clone(), Some(vec![inputs.len() as i32]), attrs)
    });
    singles
        .chain(lists)
        .chain(concats)
        .map(|(name, inputs, lens, attrs)| {
            s.execute(op(name), &inputs, lens.as_deref(), attrs)
                .err()
                .unwrap_or_else(|| panic!("{name} {inputs:?} was accepted"))
        })
        .collect()
}

#[test]
fn build_refuses_what_a_synchronous_session_refuses_with_the_same_error() {
    let sync = Session::new(SessionOptions::default());
    let expected = bad_builds(&sync);
    // The executor never runs: every error comes from the build itself.
    let a = Async::with(64, None, false);
    let got = bad_builds(&a.session);
    assert_eq!(got, expected);
    assert!(got.iter().all(|e| e.to_string().contains(':')), "{got:?}");
    assert_eq!(
        a.session.executor().unwrap().queued(),
        3,
        "only the three valid ops were queued"
    );
    a.close();
    sync.close();
}

/// `describe(h)` on another thread, or `None` if it takes longer than 10 s.
fn describe_soon(s: &Arc<Session>, h: u64) -> Option<(eagerflow::DataType, Vec<usize>)> {
    let (tx, rx) = std::sync::mpsc::channel();
    let s = Arc::clone(s);
    std::thread::spawn(move || {
        let _ = tx.send(s.describe(h, false).map(|(d, shape)| (d, shape.to_vec())));
    });
    rx.recv_timeout(std::time::Duration::from_secs(10))
        .ok()
        .map(|r| r.unwrap())
}

#[test]
fn pending_outputs_know_their_dtype_and_shape_before_their_ops_run() {
    use eagerflow::DataType::{Bool, Float, Int32};
    let mut a = Async::with(64, None, false);
    let s = Arc::clone(&a.session);
    let [f23, f3, i23, _, f32_, _] = program_inputs(&s);
    let shape6 = tensor(&s, &[2], &[3i32, -1]);
    let plain = Attrs::new();
    let mut to_int = Attrs::new();
    to_int.set("DstT", eagerflow::AttrValue::Type(Int32));
    let sum = s.execute_single(op("AddV2"), &[f23, f3], None).unwrap();
    let product = s.execute(op("MatMul"), &[sum, f32_], None, &plain).unwrap()[0];
    let less = s
        .execute_single(op("Less"), &[product, product], None)
        .unwrap();
    let cast = s.execute(op("Cast"), &[sum], None, &to_int).unwrap()[0];
    let reshaped = s
        .execute_single(op("Reshape"), &[i23, shape6], None)
        .unwrap();
    let tanh = s.execute_single(op("Tanh"), &[reshaped], None).unwrap();
    // A reduction over a ready axis is known at build; over a pending axis,
    // once it ran.
    let axis = tensor(&s, &[], &[0i32]);
    let summed = s.execute_single(op("Sum"), &[f23, axis], None).unwrap();
    let pending_axis = s.execute_single(op("Abs"), &[axis], None).unwrap();
    let summed_later = s
        .execute_single(op("Sum"), &[f23, pending_axis], None)
        .unwrap();
    for (h, want) in [
        (sum, (Float, vec![2, 3])),
        (product, (Float, vec![2, 2])),
        (less, (Bool, vec![2, 2])),
        (cast, (Int32, vec![2, 3])),
        (reshaped, (Int32, vec![3, 2])),
        (tanh, (Int32, vec![3, 2])),
        (summed, (Float, vec![3])),
    ] {
        assert_eq!(describe_soon(&s, h), Some(want));
    }
    a.start();
    assert_eq!(s.describe(summed_later, false).unwrap().1.to_vec(), vec![3]);
    // Waiting for the value meets the error the op fails with when it runs.
    assert!(
        matches!(s.describe(tanh, true), Err(Error::InvalidArgument(m)) if m.starts_with("Tanh"))
    );
    // Tanh refuses INT32 when it runs, as it would synchronously.
    assert!(matches!(s.sync(), Err(Error::InvalidArgument(m)) if m.starts_with("Tanh")));
    assert_eq!(read(&s, sum), vec![2.0; 6]);
    a.close();
}

/// Every op of at most three single inputs, on every tuple of a few tensors
/// (and a few attribute sets): where build-time inference refuses, a
/// synchronous run refuses with the same error; where a synchronous run
/// succeeds, the output agrees with what inference said.
#[test]
fn inference_agrees_with_every_kernel_on_every_small_input() {
    let s = Session::new(SessionOptions::default());
    let r = Registry::global();
    let [f23, f3, i23, b2, f32_, four] = program_inputs(&s);
    let pool = [
        f23,
        f3,
        i23,
        b2,
        f32_,
        four,
        tensor(&s, &[], &[2.5f64]),
        tensor(&s, &[2, 3], &[true; 6]),
        tensor(&s, &[2, 2, 3], &[1f32; 12]),
        tensor(&s, &[], &[-1i32]),
    ];
    let mut attr_sets = vec![Attrs::new()];
    for (name, v) in [
        ("transpose_a", eagerflow::AttrValue::Bool(true)),
        ("transpose_b", eagerflow::AttrValue::Int(1)),
        ("adj_x", eagerflow::AttrValue::Bool(true)),
        ("squeeze_dims", eagerflow::AttrValue::Ints(vec![-1])),
        ("data_format", eagerflow::AttrValue::Str("NCHW".into())),
        ("equation", eagerflow::AttrValue::Str("ij,jk->ik".into())),
        (
            "equation",
            eagerflow::AttrValue::Str("...i,...i->...".into()),
        ),
        ("equation", eagerflow::AttrValue::Str("ii->i".into())),
        ("keep_dims", eagerflow::AttrValue::Bool(true)),
        (
            "incompatible_shape_error",
            eagerflow::AttrValue::Bool(false),
        ),
        (
            "DstT",
            eagerflow::AttrValue::Type(eagerflow::DataType::Float),
        ),
    ] {
        let mut a = Attrs::new();
        a.set(name, v);
        attr_sets.push(a);
    }
    let mut names: Vec<&str> = r.names().collect();
    names.sort_unstable();
    let (mut checked, mut refused) = (0, 0);
    for name in names {
        let index = r.lookup(name).unwrap();
        let def = r.def(index).unwrap();
        let n = def.inputs.len();
        // An op of one list argument gets lists of 1 to 3 tensors.
        let list = n == 1 && def.inputs[0].ends_with("[]");
        if n == 0 || n > 3 || (!list && def.inputs.iter().any(|a| a.ends_with("[]"))) {
            continue;
        }
        let lens_of = |k: usize| list.then(|| vec![k as i32]);
        for attrs in &attr_sets {
            if r.check(index, n, lens_of(n).as_deref(), attrs).is_err() {
                continue;
            }
            // Every k-tuple of the pool.
            let tuples_of = |k| {
                (0..k).fold(vec![vec![]], |acc: Vec<Vec<u64>>, _| {
                    acc.iter()
                        .flat_map(|t| pool.iter().map(move |&h| [t.as_slice(), &[h]].concat()))
                        .collect()
                })
            };
            let sizes = if list { 1..=3 } else { n..=n };
            for handles in sizes.flat_map(tuples_of) {
                let lens = lens_of(handles.len());
                {
                    let tensors: Vec<_> = handles.iter().map(|&h| s.tensor(h).unwrap()).collect();
                    // As an asynchronous build sees them: pending, or ready.
                    let metas: Vec<eagerflow::ops::Meta> = tensors
                        .iter()
                        .map(|t| eagerflow::ops::Meta {
                            dtype: Some(t.dtype()),
                            shape: Some(t.shape().into()),
                        })
                        .collect();
                    for pending in [false, true] {
                        let inputs: Vec<eagerflow::ops::Input<'_>> = tensors
                            .iter()
                            .zip(&metas)
                            .map(|(t, m)| {
                                if pending {
                                    eagerflow::ops::Input::Pending(m)
                                } else {
                                    eagerflow::ops::Input::Ready(t)
                                }
                            })
                            .collect();
                        let inferred = r.infer(index, &inputs, lens.as_deref(), attrs, s.account());
                        let run = s.execute(index, &handles, lens.as_deref(), attrs);
                        checked += 1;
                        match (&inferred, &run) {
                            (Err(e), Err(f)) => {
                                assert_eq!(e, f, "{name} on {handles:?}");
                                refused += 1;
                            }
                            (Err(e), Ok(_)) => panic!("{name} on {handles:?}: inferred {e}"),
                            (Ok(meta), Ok(out)) => {
                                let t = s.tensor(out[0]).unwrap();
                                assert!(meta.admits(&t), "{name} on {handles:?}: {meta:?}");
                                s.free_many(out, FreeReason::Explicit);
                            }
                            (Ok(_), Err(_)) => {}
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 1000 && refused > 100, "{checked} {refused}");
    s.close();
}

/// Runs 64 queued `Exp`s of 4 KiB each under a limit of 8 of them, the
/// dispatcher dropping each output as soon as it is built (Java's cleanup
/// frees them after a collection; here `relieve` frees them). Returns the
/// session, how often `relieve` ran, and what `sync` said.
fn at_the_limit(gc_signals: bool) -> (Arc<Session>, usize, eagerflow::Result<()>) {
    let limit = 8 * 4096 + 4096;
    let s = Arc::new(
        Session::new_async(
            SessionOptions {
                max_bytes: Some(limit),
                gc_signals,
                ..Default::default()
            },
            4,
        )
        .unwrap(),
    );
    let unreachable = Arc::new(std::sync::Mutex::new(Vec::new()));
    let executor = Arc::clone(s.executor().unwrap());
    let (session, dropped) = (Arc::clone(&s), Arc::clone(&unreachable));
    let runner = std::thread::spawn(move || {
        let mut calls = 0;
        let mut relieve = || {
            calls += 1;
            let handles = std::mem::take(&mut *dropped.lock().unwrap());
            session.free_many(&handles, FreeReason::Cleanup);
            true
        };
        executor.run_with(&mut relieve).unwrap();
        calls
    });
    let x = floats(&s, &[0.0; 1024]);
    for _ in 0..64 {
        let y = s.execute_single(op("Exp"), &[x], None).unwrap();
        unreachable.lock().unwrap().push(y);
    }
    let synced = s.sync();
    assert!(
        s.account().peak_bytes() <= limit,
        "{}",
        s.account().peak_bytes()
    );
    s.close();
    let calls = runner.join().unwrap();
    (s, calls, synced)
}

#[test]
fn a_queued_allocation_at_the_limit_is_retried_once_after_relief() {
    let (s, calls, synced) = at_the_limit(true);
    synced.unwrap();
    assert!(calls > 0);
    assert!(s.stats().freed_by_cleanup > 0);
    // Without pressure signals (ON_SESSION_CLOSE) nothing is retried.
    let (_, calls, synced) = at_the_limit(false);
    assert!(
        matches!(synced, Err(Error::MemoryExhausted { .. })),
        "{synced:?}"
    );
    assert_eq!(calls, 0);
}

#[test]
fn string_ops_queue_and_compare_like_synchronous_ones() {
    let a = Async::new(16, None);
    let s = &a.session;
    let x = strings(s, &["a", "bc"]);
    let y = strings(s, &["a", "b"]);
    let eq = s
        .execute(op("Equal"), &[x, y], None, &Attrs::new())
        .unwrap()[0];
    let t = s.tensor(eq).unwrap();
    assert_eq!(t.as_slice::<bool>().unwrap(), &[true, false]);
    a.close();
}
