//! The session wrapper every op test uses: builds inputs, runs ops, reads
//! results, and on drop frees everything and checks that no byte or tensor
//! is left. Also the attribute shorthands and reference numerics that more
//! than one op family uses.

use std::sync::Arc;

use eagerflow::{AttrValue, Attrs, Element, Error, Registry, Session, SessionOptions, Tensor};

/// A session whose every tensor must be accounted for: dropping it frees all
/// and checks that no byte or tensor is left.
pub struct Env {
    pub s: Session,
}

impl Env {
    pub fn new() -> Env {
        Env::with_options(SessionOptions::default())
    }

    /// A session with other options, e.g. a hard byte limit.
    pub fn with_options(options: SessionOptions) -> Env {
        Env {
            s: Session::new(options),
        }
    }

    // -- Inputs -------------------------------------------------------------

    pub fn t<T: Element>(&self, shape: &[usize], data: &[T]) -> u64 {
        let t = Tensor::from_slice(self.s.account(), shape, data).unwrap();
        self.s.insert(t).unwrap()
    }

    pub fn scalar<T: Element>(&self, v: T) -> u64 {
        self.t(&[], &[v])
    }

    /// An INT32 vector.
    pub fn v(&self, data: &[i32]) -> u64 {
        self.t(&[data.len()], data)
    }

    /// An INT64 vector.
    pub fn v64(&self, data: &[i64]) -> u64 {
        self.t(&[data.len()], data)
    }

    /// 0, 1, 2, ... as FLOAT of `shape`.
    pub fn iota(&self, shape: &[usize]) -> u64 {
        let n: usize = shape.iter().product();
        let data: Vec<f32> = (0..n).map(|i| i as f32).collect();
        self.t(shape, &data)
    }

    // -- Running ------------------------------------------------------------

    pub fn run(&self, op: &str, inputs: &[u64], attrs: &Attrs) -> eagerflow::Result<Vec<u64>> {
        self.s.execute_named(op, inputs, attrs).map(|h| h.to_vec())
    }

    /// Runs `op` with list lengths for its list arguments (-1 for a single tensor).
    pub fn run_list(
        &self,
        op: &str,
        inputs: &[u64],
        lens: &[i32],
        attrs: &Attrs,
    ) -> eagerflow::Result<Vec<u64>> {
        let index = Registry::global().lookup(op)?;
        self.s
            .execute(index, inputs, Some(lens), attrs)
            .map(|h| h.to_vec())
    }

    /// The shape and values of a live tensor.
    pub fn get<T: Element>(&self, h: u64) -> (Vec<usize>, Vec<T>) {
        let t = self.s.tensor(h).unwrap();
        (t.shape().to_vec(), t.as_slice::<T>().unwrap().to_vec())
    }

    /// Runs a one-output op and reads its result.
    pub fn run1<T: Element>(&self, op: &str, inputs: &[u64]) -> (Vec<usize>, Vec<T>) {
        self.run1_with(op, inputs, &Attrs::new())
    }

    pub fn run1_with<T: Element>(
        &self,
        op: &str,
        inputs: &[u64],
        attrs: &Attrs,
    ) -> (Vec<usize>, Vec<T>) {
        let out = self.ok(op, self.run(op, inputs, attrs));
        assert_eq!(out.len(), 1, "{op} has one output");
        self.get(out[0])
    }

    /// Runs an op and reads all its outputs, which have one dtype.
    pub fn run_all<T: Element>(
        &self,
        op: &str,
        inputs: &[u64],
        attrs: &Attrs,
    ) -> Vec<(Vec<usize>, Vec<T>)> {
        let out = self.ok(op, self.run(op, inputs, attrs));
        out.into_iter().map(|h| self.get(h)).collect()
    }

    /// Runs a one-output op and returns its tensor (to check dtype and
    /// buffer sharing).
    pub fn one(&self, op: &str, inputs: &[u64], attrs: &Attrs) -> Arc<Tensor> {
        let mut out = self.outs(op, inputs, attrs);
        assert_eq!(out.len(), 1, "{op} has one output");
        out.remove(0)
    }

    /// `one` for an op with list arguments.
    pub fn one_list(&self, op: &str, inputs: &[u64], lens: &[i32], attrs: &Attrs) -> Arc<Tensor> {
        let mut out = self.fetch(&self.ok(op, self.run_list(op, inputs, lens, attrs)));
        assert_eq!(out.len(), 1, "{op} has one output");
        out.remove(0)
    }

    /// Runs an op and returns all its output tensors.
    pub fn outs(&self, op: &str, inputs: &[u64], attrs: &Attrs) -> Vec<Arc<Tensor>> {
        self.fetch(&self.ok(op, self.run(op, inputs, attrs)))
    }

    /// Runs an op that must fail with `InvalidArgument` and returns the
    /// message, which must start with the op's name.
    pub fn err(&self, op: &str, inputs: &[u64]) -> String {
        self.err_with(op, inputs, &Attrs::new())
    }

    pub fn err_with(&self, op: &str, inputs: &[u64], attrs: &Attrs) -> String {
        invalid(op, self.run(op, inputs, attrs))
    }

    /// `err_with` for an op with list arguments.
    pub fn err_list(&self, op: &str, inputs: &[u64], lens: &[i32], attrs: &Attrs) -> String {
        invalid(op, self.run_list(op, inputs, lens, attrs))
    }

    /// Runs `op` on two fresh tensors.
    pub fn bin<T: Element, O: Element>(
        &self,
        op: &str,
        (xs, x): (&[usize], &[T]),
        (ys, y): (&[usize], &[T]),
    ) -> (Vec<usize>, Vec<O>) {
        let (a, b) = (self.t(xs, x), self.t(ys, y));
        self.run1(op, &[a, b])
    }

    /// Runs unary `op` on a vector.
    pub fn un<T: Element, O: Element>(&self, op: &str, x: &[T]) -> Vec<O> {
        let a = self.t(&[x.len()], x);
        let (shape, out) = self.run1(op, &[a]);
        assert_eq!(shape, vec![x.len()], "{op} keeps the shape");
        out
    }

    fn ok(&self, op: &str, r: eagerflow::Result<Vec<u64>>) -> Vec<u64> {
        r.unwrap_or_else(|e| panic!("{op}: {e}"))
    }

    fn fetch(&self, handles: &[u64]) -> Vec<Arc<Tensor>> {
        handles.iter().map(|&h| self.s.tensor(h).unwrap()).collect()
    }
}

impl Drop for Env {
    fn drop(&mut self) {
        self.s.free_all();
        if !std::thread::panicking() {
            let st = self.s.stats();
            assert_eq!(st.live_bytes, 0, "bytes left after freeing everything");
            assert_eq!(st.live_tensors, 0, "tensors left after freeing everything");
        }
    }
}

/// The message of an `InvalidArgument` error, which must start with the op's
/// registered name (an alias resolves to it; an unknown name has none);
/// success or any other error fails the test.
fn invalid(op: &str, r: eagerflow::Result<Vec<u64>>) -> String {
    match r {
        Err(Error::InvalidArgument(m)) => {
            let registry = Registry::global();
            if let Ok(index) = registry.lookup(op) {
                let name = registry.def(index).unwrap().name;
                assert!(m.starts_with(name), "message names the op: {m}");
            }
            m
        }
        Ok(_) => panic!("{op} should have failed"),
        Err(other) => panic!("{op}: expected InvalidArgument, got {other:?}"),
    }
}

// -- Attributes ---------------------------------------------------------------

pub fn none() -> Attrs {
    Attrs::new()
}

pub fn attr(name: &str, value: AttrValue) -> Attrs {
    Attrs::new().with(name, value)
}

pub fn int(name: &str, v: i64) -> Attrs {
    attr(name, AttrValue::Int(v))
}

pub fn flag(name: &str, v: bool) -> Attrs {
    attr(name, AttrValue::Bool(v))
}

// -- Reference numerics (linalg, nn, transpose) ------------------------------

/// `|a - b| <= tol * (1 + |b|)` element-wise.
pub fn close(a: &[f64], b: &[f64], tol: f64) {
    assert_eq!(a.len(), b.len());
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert!(
            (x - y).abs() <= tol * (1.0 + y.abs()),
            "element {i}: {x} vs {y}"
        );
    }
}

pub fn close32(a: &[f32], b: &[f64], tol: f64) {
    close(&a.iter().map(|&v| f64::from(v)).collect::<Vec<_>>(), b, tol);
}

/// Deterministic test data in [-1, 1).
pub fn data(n: usize, salt: usize) -> Vec<f64> {
    (0..n)
        .map(|i| ((i * 7919 + salt * 104_729) % 2000) as f64 / 1000.0 - 1.0)
        .collect()
}
