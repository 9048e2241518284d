//! No op makes a shape Java cannot hold: a dimension or element count past
//! `i64::MAX` is refused, naming the op, even when the tensor is empty.

use crate::error::{Error, Result};
use crate::ops::{AttrValue, Attrs, Registry};
use crate::session::{Session, SessionOptions};
use crate::tensor::{MAX_DIM, Tensor};

struct S(Session);

impl S {
    fn new() -> S {
        S(Session::new(SessionOptions::default()))
    }

    fn t<T: crate::Element>(&self, shape: &[usize], data: &[T]) -> Result<u64> {
        self.0
            .insert(Tensor::from_slice(self.0.account(), shape, data)?)
    }

    fn run(
        &self,
        op: &str,
        inputs: &[u64],
        lens: Option<&[i32]>,
        attrs: &Attrs,
    ) -> Result<Vec<usize>> {
        let op = Registry::global().lookup(op)?;
        let out = self.0.execute(op, inputs, lens, attrs)?;
        let first = out.first().copied().unwrap_or_default();
        Ok(self.0.tensor(first)?.shape().to_vec())
    }

    /// Runs `op` and expects it to refuse with a message naming it.
    fn refused(&self, op: &str, inputs: &[u64], lens: Option<&[i32]>, attrs: &Attrs) {
        let created = self.0.stats().created;
        match self.run(op, inputs, lens, attrs) {
            Err(Error::InvalidArgument(m)) => assert!(m.starts_with(&format!("{op}: ")), "{m}"),
            other => panic!("{op}: expected IllegalArgument, got {other:?}"),
        }
        assert_eq!(self.0.stats().created, created, "{op} stored nothing");
    }
}

const HALF: usize = 1 << 62;

#[test]
fn empty_tensors_cannot_grow_a_dimension_past_i64_max() -> Result<()> {
    let s = S::new();
    let none = Attrs::new();
    let wide = s.t::<f32>(&[0, HALF], &[])?;
    let axis1 = s.t(&[], &[1i32])?;
    s.refused("ConcatV2", &[wide, wide, axis1], Some(&[2, -1]), &none);
    let twice = s.t(&[2], &[1i64, 2])?;
    s.refused("Tile", &[wide, twice], None, &none);
    let deep = s.t::<f32>(&[0, HALF, 2], &[])?;
    let infer = s.t(&[2], &[-1i64, 0])?;
    s.refused("Reshape", &[deep, infer], None, &none);
    // At the limit, empty tensors are fine.
    let edge = s.t::<f32>(&[0, HALF - 1], &[])?;
    let shape = s.run("ConcatV2", &[edge, wide, axis1], Some(&[2, -1]), &none)?;
    assert_eq!(shape, [0, MAX_DIM]);
    Ok(())
}

#[test]
fn every_shape_from_values_is_bounded_too() -> Result<()> {
    let s = S::new();
    let none = Attrs::new();
    let max = i64::MAX;
    // The product overflows before the zero is reached: refused, as TensorFlow does.
    let dims = s.t(&[3], &[max, 2, 0])?;
    let one = s.t(&[], &[1f32])?;
    s.refused("Fill", &[dims, one], None, &none);
    let empty = s.t::<f32>(&[0], &[])?;
    s.refused("BroadcastTo", &[empty, dims], None, &none);
    let edge = s.t(&[2], &[max, 0])?;
    assert_eq!(s.run("Fill", &[edge, one], None, &none)?, [MAX_DIM, 0]);
    let wide = s.t::<f32>(&[0, MAX_DIM], &[])?;
    let zero = s.t(&[], &[0i32])?;
    assert_eq!(
        s.run("ExpandDims", &[wide, zero], None, &none)?,
        [1, 0, MAX_DIM]
    );
    let packed = s.run("Pack", &[wide, wide], Some(&[2]), &none)?;
    assert_eq!(packed, [2, 0, MAX_DIM]);
    let idx = s.t::<i64>(&[0, MAX_DIM], &[])?;
    let depth = s.t(&[], &[i32::MAX])?;
    let (on, off) = (s.t(&[], &[1f32])?, s.t(&[], &[0f32])?);
    let axis = Attrs::new().with("axis", AttrValue::Int(0));
    let hot = s.run("OneHot", &[idx, depth, on, off], None, &axis)?;
    assert_eq!(hot, [i32::MAX as usize, 0, MAX_DIM]);
    let (start, limit, delta) = (
        s.t(&[], &[i64::MIN])?,
        s.t(&[], &[max])?,
        s.t(&[], &[1i64])?,
    );
    s.refused("Range", &[start, limit, delta], None, &none);
    Ok(())
}
