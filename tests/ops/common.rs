//! The session wrapper the op test files share: builds inputs, runs ops, and on
//! drop frees everything and checks that no byte or tensor is left.
#![allow(dead_code, clippy::unwrap_used)]

use eagerflow::{Attrs, Element, Session, SessionOptions};

/// A session whose every tensor must be accounted for: dropping it frees all
/// and checks that no byte or tensor is left.
pub struct Env {
    pub s: Session,
}

impl Env {
    pub fn new() -> Env {
        Env {
            s: Session::new(SessionOptions::default()),
        }
    }

    pub fn t<T: Element>(&self, shape: &[usize], data: &[T]) -> u64 {
        let t = eagerflow::Tensor::from_slice(self.s.account(), shape, data).unwrap();
        self.s.insert(t).unwrap()
    }

    pub fn scalar<T: Element>(&self, v: T) -> u64 {
        self.t(&[], &[v])
    }

    pub fn run(&self, op: &str, inputs: &[u64], attrs: &Attrs) -> eagerflow::Result<Vec<u64>> {
        self.s.execute_named(op, inputs, attrs).map(|h| h.to_vec())
    }

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
        let out = self
            .run(op, inputs, attrs)
            .unwrap_or_else(|e| panic!("{op}: {e}"));
        assert_eq!(out.len(), 1, "{op} has one output");
        self.get(out[0])
    }

    /// Runs an op that must fail and returns its message.
    pub fn err(&self, op: &str, inputs: &[u64]) -> String {
        self.err_with(op, inputs, &Attrs::new())
    }

    pub fn err_with(&self, op: &str, inputs: &[u64], attrs: &Attrs) -> String {
        match self.run(op, inputs, attrs) {
            Ok(_) => panic!("{op} should have failed"),
            Err(e) => e.to_string(),
        }
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
