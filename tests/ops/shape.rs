//! Shape ops through a session, as Java drives them: values by hand, buffer
//! sharing, every error class, and exact accounting.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use eagerflow::session::FreeReason;
use eagerflow::{
    AttrValue, Attrs, DataType, Element, Error, MemoryAccount, Registry, Session, SessionOptions,
    Tensor,
};

type Out = eagerflow::Result<Vec<Arc<Tensor>>>;

/// A session with shorthands for making inputs and running ops.
struct S {
    s: Session,
}

impl S {
    fn new() -> S {
        S {
            s: Session::new(SessionOptions::default()),
        }
    }

    fn t<T: Element>(&self, shape: &[usize], data: &[T]) -> u64 {
        self.s
            .insert(Tensor::from_slice(self.s.account(), shape, data).unwrap())
            .unwrap()
    }

    /// An INT32 vector.
    fn v(&self, data: &[i32]) -> u64 {
        self.t(&[data.len()], data)
    }

    /// An INT64 vector.
    fn v64(&self, data: &[i64]) -> u64 {
        self.t(&[data.len()], data)
    }

    fn sc<T: Element>(&self, v: T) -> u64 {
        self.t(&[], &[v])
    }

    /// 0, 1, 2, ... as FLOAT of `shape`.
    fn iota(&self, shape: &[usize]) -> u64 {
        let n: usize = shape.iter().product();
        let data: Vec<f32> = (0..n).map(|i| i as f32).collect();
        self.t(shape, &data)
    }

    fn fetch(&self, handles: Vec<u64>) -> Vec<Arc<Tensor>> {
        handles.iter().map(|&h| self.s.tensor(h).unwrap()).collect()
    }

    fn run(&self, op: &str, inputs: &[u64], attrs: &Attrs) -> Out {
        Ok(self.fetch(self.s.execute_named(op, inputs, attrs)?.to_vec()))
    }

    fn run_list(&self, op: &str, inputs: &[u64], lens: &[i32], attrs: &Attrs) -> Out {
        let index = Registry::global().lookup(op)?;
        Ok(self.fetch(self.s.execute(index, inputs, Some(lens), attrs)?.to_vec()))
    }

    fn one(&self, op: &str, inputs: &[u64], attrs: &Attrs) -> Arc<Tensor> {
        let mut out = self.run(op, inputs, attrs).unwrap();
        assert_eq!(out.len(), 1, "{op} outputs");
        out.remove(0)
    }

    fn err(&self, op: &str, inputs: &[u64], attrs: &Attrs) -> String {
        invalid(self.run(op, inputs, attrs))
    }
}

fn none() -> Attrs {
    Attrs::new()
}

fn attr(name: &str, value: AttrValue) -> Attrs {
    Attrs::new().with(name, value)
}

fn int(name: &str, v: i64) -> Attrs {
    attr(name, AttrValue::Int(v))
}

/// The message of an `InvalidArgument` error; anything else fails the test.
fn invalid(r: Out) -> String {
    match r {
        Err(Error::InvalidArgument(m)) => m,
        other => panic!("expected an InvalidArgument error, got {other:?}"),
    }
}

fn expect<T: Element>(t: &Tensor, shape: &[usize], data: &[T]) {
    assert_eq!(t.dtype(), T::DTYPE, "dtype of {t:?}");
    assert_eq!(t.shape(), shape, "shape of {t:?}");
    assert_eq!(t.as_slice::<T>().unwrap(), data, "values of {t:?}");
}

fn has(msg: &str, parts: &[&str]) {
    for p in parts {
        assert!(msg.contains(p), "{msg:?} should mention {p:?}");
    }
}

fn f32s(range: std::ops::Range<usize>) -> Vec<f32> {
    range.map(|i| i as f32).collect()
}

// ---------------------------------------------------------------------------
// Const, Identity, StopGradient

#[test]
fn const_copies_the_value_for_every_dtype() {
    let s = S::new();
    let other = MemoryAccount::new(None);
    let v = Tensor::from_slice(&other, &[2, 2], &[1.5f32, -2.0, 3.0, 4.0]).unwrap();
    let out = s.one("Const", &[], &attr("value", AttrValue::Tensor(v.clone())));
    expect(&out, &[2, 2], &[1.5f32, -2.0, 3.0, 4.0]);
    assert!(!out.shares_buffer(&v), "Const must own its copy");

    let v = Tensor::from_slice(&other, &[3], &[true, false, true]).unwrap();
    let attrs = attr("value", AttrValue::Tensor(v)).with("dtype", AttrValue::Type(DataType::Bool));
    expect(&s.one("Const", &[], &attrs), &[3], &[true, false, true]);

    let v = Tensor::scalar(&other, -7i64).unwrap();
    expect(
        &s.one("Const", &[], &attr("value", AttrValue::Tensor(v))),
        &[],
        &[-7i64],
    );
    let v = Tensor::from_slice::<u8>(&other, &[0, 2], &[]).unwrap();
    expect::<u8>(
        &s.one("Const", &[], &attr("value", AttrValue::Tensor(v))),
        &[0, 2],
        &[],
    );
}

#[test]
fn const_errors() {
    let s = S::new();
    let acc = MemoryAccount::new(None);
    let v = Tensor::from_slice(&acc, &[2], &[1i32, 2]).unwrap();
    let msg = s.err(
        "Const",
        &[],
        &attr("value", AttrValue::Tensor(v.clone()))
            .with("dtype", AttrValue::Type(DataType::Float)),
    );
    has(&msg, &["Const", "FLOAT", "INT32"]);
    has(
        &s.err("Const", &[], &none()),
        &["Const", "'value'", "required"],
    );
    has(
        &s.err("Const", &[], &int("value", 3)),
        &["'value'", "tensor", "int"],
    );
    has(
        &s.err(
            "Const",
            &[],
            &attr("value", AttrValue::Tensor(v.clone())).with("dtype", AttrValue::Int(1)),
        ),
        &["'dtype'", "type"],
    );
    // Wrong arity: Const takes no inputs.
    let h = s.v(&[1]);
    has(
        &s.err("Const", &[h], &attr("value", AttrValue::Tensor(v))),
        &["expected 0 inputs", "got 1"],
    );
    has(
        &s.err("Const", &[], &int("no_such_attr", 1)),
        &["unknown attribute 'no_such_attr'"],
    );
}

#[test]
fn const_of_one_mebibyte_adds_exactly_its_bytes() {
    let s = S::new();
    let outside = MemoryAccount::new(None);
    let value = Tensor::filled(&outside, &[512, 512], 0.25f32).unwrap();
    let before = s.s.stats();
    let h =
        s.s.execute_named(
            "Const",
            &[],
            &attr("value", AttrValue::Tensor(value.clone())),
        )
        .unwrap()[0];
    let after = s.s.stats();
    assert_eq!(after.live_bytes - before.live_bytes, 1_048_576);
    assert_eq!(after.live_tensors - before.live_tensors, 1);
    assert_eq!(
        outside.live_bytes(),
        1_048_576,
        "the attribute's own account"
    );
    assert!(s.s.free(h, FreeReason::Explicit));
    assert_eq!(s.s.stats().live_bytes, before.live_bytes);
}

#[test]
fn identity_and_stop_gradient_share_the_buffer() {
    let s = S::new();
    let h = s.t(&[2, 2], &[1i64, 2, 3, 4]);
    let input = s.s.tensor(h).unwrap();
    for op in ["Identity", "StopGradient"] {
        let before = s.s.stats().live_bytes;
        let out = s.one(op, &[h], &none());
        expect(&out, &[2, 2], &[1i64, 2, 3, 4]);
        assert!(out.shares_buffer(&input), "{op}");
        assert_eq!(s.s.stats().live_bytes, before, "{op} adds no bytes");
    }
    let b = s.sc(true);
    expect(&s.one("Identity", &[b], &none()), &[], &[true]);
    has(
        &s.err("Identity", &[], &none()),
        &["Identity", "expected 1"],
    );
    has(
        &s.err("Identity", &[h, h], &none()),
        &["expected 1", "got 2"],
    );
}

// ---------------------------------------------------------------------------
// Reshape, Shape, Size, Rank

#[test]
fn reshape_values_and_sharing() {
    let s = S::new();
    let x = s.t(&[2, 3], &[1i32, 2, 3, 4, 5, 6]);
    let input = s.s.tensor(x).unwrap();

    let out = s.one("Reshape", &[x, s.v(&[3, 2])], &none());
    expect(&out, &[3, 2], &[1i32, 2, 3, 4, 5, 6]);
    assert!(out.shares_buffer(&input));

    expect(
        &s.one("Reshape", &[x, s.v64(&[-1])], &none()),
        &[6],
        &[1i32, 2, 3, 4, 5, 6],
    );
    expect(
        &s.one("Reshape", &[x, s.v(&[1, -1, 2])], &none()),
        &[1, 3, 2],
        &[1i32, 2, 3, 4, 5, 6],
    );
    // A scalar shape is TF's legacy spelling of a vector of one dimension.
    expect(
        &s.one("Reshape", &[x, s.sc(6i32)], &none()),
        &[6],
        &[1i32, 2, 3, 4, 5, 6],
    );
    // One element to a scalar and back.
    let one = s.t(&[1, 1], &[2.5f64]);
    let scalar = s.one("Reshape", &[one, s.v(&[])], &none());
    expect(&scalar, &[], &[2.5f64]);
    // Zero-size: the -1 is inferred from the non-zero dimensions.
    let empty = s.t::<f32>(&[0, 3], &[]);
    expect::<f32>(
        &s.one("Reshape", &[empty, s.v(&[-1, 0])], &none()),
        &[3, 0],
        &[],
    );
    expect::<f32>(
        &s.one("Reshape", &[empty, s.v(&[2, 0, 5])], &none()),
        &[2, 0, 5],
        &[],
    );
}

#[test]
fn reshape_errors() {
    let s = S::new();
    let x = s.iota(&[2, 3]);
    has(
        &s.err("Reshape", &[x, s.v(&[4, 2])], &none()),
        &["Reshape", "[2, 3]", "[4, 2]"],
    );
    has(
        &s.err("Reshape", &[x, s.v(&[-1, -1])], &none()),
        &["only one", "-1"],
    );
    has(
        &s.err("Reshape", &[x, s.v(&[-1, 4])], &none()),
        &["not a multiple of 4"],
    );
    has(
        &s.err("Reshape", &[x, s.v(&[-2, 3])], &none()),
        &["shape[0] = -2"],
    );
    has(
        &s.err("Reshape", &[x, s.t(&[2], &[2.0f32, 3.0])], &none()),
        &["'shape'", "FLOAT"],
    );
    has(
        &s.err("Reshape", &[x, s.t(&[1, 2], &[2i32, 3])], &none()),
        &["1-D", "[1, 2]"],
    );
    has(
        &s.err("Reshape", &[x, s.v64(&[1 << 40, 1 << 40])], &none()),
        &["too many elements"],
    );
    has(
        &s.err("Reshape", &[x, s.v(&[1; 255])], &none()),
        &["rank 255"],
    );
    has(&s.err("Reshape", &[x], &none()), &["expected 2 inputs"]);
}

#[test]
fn shape_size_rank() {
    let s = S::new();
    let x = s.t::<u8>(&[2, 0, 4], &[]);
    expect(&s.one("Shape", &[x], &none()), &[3], &[2i32, 0, 4]);
    expect(
        &s.one(
            "Shape",
            &[x],
            &attr("out_type", AttrValue::Type(DataType::Int64)),
        ),
        &[3],
        &[2i64, 0, 4],
    );
    let y = s.iota(&[2, 3, 4]);
    expect(&s.one("Size", &[y], &none()), &[], &[24i32]);
    expect(
        &s.one(
            "Size",
            &[y],
            &attr("out_type", AttrValue::Type(DataType::Int64)),
        ),
        &[],
        &[24i64],
    );
    expect(&s.one("Size", &[x], &none()), &[], &[0i32]);
    expect(&s.one("Rank", &[y], &none()), &[], &[3i32]);

    let sc = s.sc(false);
    expect::<i32>(&s.one("Shape", &[sc], &none()), &[0], &[]);
    expect(&s.one("Size", &[sc], &none()), &[], &[1i32]);
    expect(&s.one("Rank", &[sc], &none()), &[], &[0i32]);

    has(
        &s.err(
            "Shape",
            &[y],
            &attr("out_type", AttrValue::Type(DataType::Float)),
        ),
        &["Shape", "out_type", "FLOAT"],
    );
    has(
        &s.err("Size", &[y], &int("out_type", 3)),
        &["out_type", "type", "int"],
    );
    has(
        &s.err("Rank", &[y], &int("out_type", 3)),
        &["unknown attribute"],
    );
    // An INT32 result that does not fit is an error, not a wrapped value.
    let huge = s.one("Reshape", &[x, s.v64(&[1 << 40, 0])], &none());
    let h = s.s.insert(huge.as_ref().clone()).unwrap();
    has(&s.err("Shape", &[h], &none()), &["INT64"]);
    expect(
        &s.one(
            "Shape",
            &[h],
            &attr("out_type", AttrValue::Type(DataType::Int64)),
        ),
        &[2],
        &[1i64 << 40, 0],
    );
}

// ---------------------------------------------------------------------------
// Fill, ZerosLike, OnesLike

#[test]
fn fill_values() {
    let s = S::new();
    expect(
        &s.one("Fill", &[s.v(&[2, 3]), s.sc(7.5f32)], &none()),
        &[2, 3],
        &[7.5f32; 6],
    );
    expect(
        &s.one("Fill", &[s.v64(&[2]), s.sc(true)], &none()),
        &[2],
        &[true, true],
    );
    expect(
        &s.one("Fill", &[s.v(&[]), s.sc(-3i64)], &none()),
        &[],
        &[-3i64],
    );
    expect::<u8>(
        &s.one("Fill", &[s.v(&[4, 0]), s.sc(9u8)], &none()),
        &[4, 0],
        &[],
    );
}

#[test]
fn fill_errors_and_absurd_sizes() {
    let s = S::new();
    let before = s.s.stats().live_bytes;
    has(
        &s.err("Fill", &[s.v(&[2]), s.t(&[1], &[1f32])], &none()),
        &["Fill", "'value'", "scalar", "[1]"],
    );
    has(
        &s.err("Fill", &[s.sc(2i32), s.sc(1f32)], &none()),
        &["'dims'", "vector"],
    );
    has(
        &s.err("Fill", &[s.v(&[2, -1]), s.sc(1f32)], &none()),
        &["dims[1] = -1", "non-negative"],
    );
    has(
        &s.err("Fill", &[s.t(&[1], &[2f64]), s.sc(1f32)], &none()),
        &["'dims'", "DOUBLE"],
    );
    let overflow = s.v64(&[1 << 40, 1 << 40]);
    has(
        &s.err("Fill", &[overflow, s.sc(1f32)], &none()),
        &["too many elements"],
    );
    // Far beyond any address space: the allocation fails cleanly.
    let r = s.run("Fill", &[s.v64(&[1 << 50]), s.sc(1f32)], &none());
    assert!(matches!(r, Err(Error::MemoryExhausted { .. })), "got {r:?}");
    let live = s.s.stats().live_bytes - before;
    // Only the small inputs created above remain.
    assert!(live < 1024, "{live}");

    // The session's hard limit applies to op outputs.
    let limited = S {
        s: Session::new(SessionOptions {
            max_bytes: Some(1000),
            ..SessionOptions::default()
        }),
    };
    let dims = limited.v(&[100, 100]);
    let value = limited.sc(0u8);
    assert!(matches!(
        limited.run("Fill", &[dims, value], &none()),
        Err(Error::MemoryExhausted {
            limit: Some(1000),
            ..
        })
    ));
}

#[test]
fn zeros_like_and_ones_like() {
    let s = S::new();
    let f = s.t(&[2, 1], &[3.5f32, -1.0]);
    expect(&s.one("ZerosLike", &[f], &none()), &[2, 1], &[0f32, 0.0]);
    expect(&s.one("OnesLike", &[f], &none()), &[2, 1], &[1f32, 1.0]);
    let i = s.t(&[3], &[5i32, 6, 7]);
    expect(&s.one("ZerosLike", &[i], &none()), &[3], &[0i32; 3]);
    expect(&s.one("OnesLike", &[i], &none()), &[3], &[1i32; 3]);
    let b = s.sc(true);
    expect(&s.one("ZerosLike", &[b], &none()), &[], &[false]);
    expect(&s.one("OnesLike", &[b], &none()), &[], &[true]);
    let u = s.t::<u8>(&[0], &[]);
    expect::<u8>(&s.one("OnesLike", &[u], &none()), &[0], &[]);
    let d = s.sc(2.0f64);
    expect(&s.one("OnesLike", &[d], &none()), &[], &[1.0f64]);
    let l = s.t(&[1], &[9i64]);
    expect(&s.one("ZerosLike", &[l], &none()), &[1], &[0i64]);
}

// ---------------------------------------------------------------------------
// ExpandDims, Squeeze

#[test]
fn expand_dims_positions_and_sharing() {
    let s = S::new();
    let x = s.t(&[2, 3], &[1u8, 2, 3, 4, 5, 6]);
    let input = s.s.tensor(x).unwrap();
    for (axis, shape) in [
        (0i32, [1usize, 2, 3]),
        (1, [2, 1, 3]),
        (2, [2, 3, 1]),
        (-1, [2, 3, 1]),
        (-2, [2, 1, 3]),
        (-3, [1, 2, 3]),
    ] {
        let out = s.one("ExpandDims", &[x, s.sc(axis)], &none());
        expect(&out, &shape, &[1u8, 2, 3, 4, 5, 6]);
        assert!(out.shares_buffer(&input), "axis {axis}");
    }
    expect(
        &s.one("ExpandDims", &[x, s.sc(0i64)], &none()),
        &[1, 2, 3],
        &[1u8, 2, 3, 4, 5, 6],
    );
    // TF accepts a one-element vector as the axis.
    expect(
        &s.one("ExpandDims", &[x, s.v(&[1])], &none()),
        &[2, 1, 3],
        &[1u8, 2, 3, 4, 5, 6],
    );
    let sc = s.sc(4.0f32);
    expect(
        &s.one("ExpandDims", &[sc, s.sc(0i32)], &none()),
        &[1],
        &[4.0f32],
    );
    expect(
        &s.one("ExpandDims", &[sc, s.sc(-1i32)], &none()),
        &[1],
        &[4.0f32],
    );

    has(
        &s.err("ExpandDims", &[x, s.sc(3i32)], &none()),
        &["ExpandDims", "axis 3", "rank 2", "[-3, 2]"],
    );
    has(
        &s.err("ExpandDims", &[x, s.sc(-4i32)], &none()),
        &["axis -4"],
    );
    has(
        &s.err("ExpandDims", &[x, s.v(&[0, 1])], &none()),
        &["one value", "[2]"],
    );
    has(
        &s.err("ExpandDims", &[x, s.sc(0.0f32)], &none()),
        &["'axis'", "FLOAT"],
    );
}

#[test]
fn squeeze_all_or_named_dims() {
    let s = S::new();
    let x = s.iota(&[1, 2, 1, 3, 1]);
    let input = s.s.tensor(x).unwrap();
    let all = s.one("Squeeze", &[x], &none());
    expect(&all, &[2, 3], &f32s(0..6));
    assert!(all.shares_buffer(&input));
    let some = s.one(
        "Squeeze",
        &[x],
        &attr("squeeze_dims", AttrValue::Ints(vec![0, -1])),
    );
    expect(&some, &[2, 1, 3], &f32s(0..6));
    assert!(some.shares_buffer(&input));
    // Naming a dim twice (as i and i - rank) is harmless.
    let twice = s.one(
        "Squeeze",
        &[x],
        &attr("squeeze_dims", AttrValue::Ints(vec![2, -3])),
    );
    expect(&twice, &[1, 2, 3, 1], &f32s(0..6));
    let sc = s.sc(1i32);
    expect(&s.one("Squeeze", &[sc], &none()), &[], &[1i32]);
    let one = s.t(&[1], &[true]);
    expect(&s.one("Squeeze", &[one], &none()), &[], &[true]);
    let empty = s.t::<i64>(&[1, 0], &[]);
    expect::<i64>(&s.one("Squeeze", &[empty], &none()), &[0], &[]);

    has(
        &s.err(
            "Squeeze",
            &[x],
            &attr("squeeze_dims", AttrValue::Ints(vec![1])),
        ),
        &["Squeeze", "dimension 1", "[1, 2, 1, 3, 1]", "not 1"],
    );
    has(
        &s.err(
            "Squeeze",
            &[x],
            &attr("squeeze_dims", AttrValue::Ints(vec![5])),
        ),
        &["5", "out of range", "rank 5"],
    );
    has(
        &s.err("Squeeze", &[x], &int("squeeze_dims", 0)),
        &["squeeze_dims", "list(int)"],
    );
    has(
        &s.err("Squeeze", &[x], &int("axis", 0)),
        &["unknown attribute 'axis'"],
    );
}

// ---------------------------------------------------------------------------
// Slice

#[test]
fn slice_values() {
    let s = S::new();
    // [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    let x = s.iota(&[3, 4]);
    expect(
        &s.one("Slice", &[x, s.v(&[1, 1]), s.v(&[2, -1])], &none()),
        &[2, 3],
        &[5f32, 6., 7., 9., 10., 11.],
    );
    expect(
        &s.one("Slice", &[x, s.v64(&[0, 2]), s.v64(&[3, 1])], &none()),
        &[3, 1],
        &[2f32, 6., 10.],
    );
    expect(
        &s.one("Slice", &[x, s.v(&[2, 0]), s.v(&[1, 4])], &none()),
        &[1, 4],
        &[8f32, 9., 10., 11.],
    );
    expect::<f32>(
        &s.one("Slice", &[x, s.v(&[3, 4]), s.v(&[0, 0])], &none()),
        &[0, 0],
        &[],
    );
    // The whole tensor is the input itself.
    let whole = s.one("Slice", &[x, s.v(&[0, 0]), s.v(&[-1, 4])], &none());
    assert!(whole.shares_buffer(&s.s.tensor(x).unwrap()));
    let b = s.t(
        &[2, 2, 2],
        &[true, false, false, true, true, true, false, false],
    );
    expect(
        &s.one("Slice", &[b, s.v(&[1, 0, 1]), s.v(&[1, 2, 1])], &none()),
        &[1, 2, 1],
        &[true, false],
    );
    let sc = s.sc(3i64);
    expect(
        &s.one("Slice", &[sc, s.v(&[]), s.v(&[])], &none()),
        &[],
        &[3i64],
    );
}

#[test]
fn slice_errors() {
    let s = S::new();
    let x = s.iota(&[3, 4]);
    has(
        &s.err("Slice", &[x, s.v(&[4, 0]), s.v(&[1, 1])], &none()),
        &["Slice", "begin[0] = 4", "[0, 3]"],
    );
    has(
        &s.err("Slice", &[x, s.v(&[-1, 0]), s.v(&[1, 1])], &none()),
        &["begin[0] = -1"],
    );
    has(
        &s.err("Slice", &[x, s.v(&[1, 1]), s.v(&[1, 4])], &none()),
        &["size[1] = 4", "[0, 3]"],
    );
    has(
        &s.err("Slice", &[x, s.v(&[1, 1]), s.v(&[-2, 1])], &none()),
        &["size[0] = -2"],
    );
    has(
        &s.err("Slice", &[x, s.v(&[1]), s.v(&[1])], &none()),
        &["one entry per dimension", "[3, 4]"],
    );
    has(
        &s.err("Slice", &[x, s.v(&[1, 1]), s.v64(&[1, 1])], &none()),
        &["'begin'", "'size'", "INT32", "INT64"],
    );
}

// ---------------------------------------------------------------------------
// StridedSlice

/// CPython's `slice.indices` followed by `range`: an independent statement
/// of what a 1-D `x[begin:end:stride]` picks.
fn python_slice(len: i64, begin: Option<i64>, end: Option<i64>, step: i64) -> Vec<i64> {
    let (lower, upper) = if step < 0 { (-1, len - 1) } else { (0, len) };
    let fix = |v: Option<i64>, default: i64| match v {
        None => default,
        Some(v) if v < 0 => (v + len).max(lower),
        Some(v) => v.min(upper),
    };
    let start = fix(begin, if step < 0 { upper } else { lower });
    let stop = fix(end, if step < 0 { lower } else { upper });
    let mut out = Vec::new();
    let mut i = start;
    while (step > 0 && i < stop) || (step < 0 && i > stop) {
        out.push(i);
        i += step;
    }
    out
}

#[test]
fn strided_slice_matches_python_slicing_in_1d() {
    let s = S::new();
    let len = 7usize;
    let data: Vec<i32> = (0..len as i32).map(|i| i * 10).collect();
    let x = s.t(&[len], &data);
    let mut checked = 0;
    for step in [-3i64, -2, -1, 1, 2, 3] {
        for b in -9i64..=9 {
            for e in -9i64..=9 {
                for (bm, em) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let want: Vec<i32> = python_slice(
                        len as i64,
                        (bm == 0).then_some(b),
                        (em == 0).then_some(e),
                        step,
                    )
                    .iter()
                    .map(|&i| data[i as usize])
                    .collect();
                    let attrs = int("begin_mask", bm).with("end_mask", AttrValue::Int(em));
                    let args = [x, s.v64(&[b]), s.v64(&[e]), s.v64(&[step])];
                    let out = s.s.execute_named("StridedSlice", &args, &attrs).unwrap();
                    expect(&s.s.tensor(out[0]).unwrap(), &[want.len()], &want);
                    // Free as we go to keep the session small.
                    s.s.free_many(&args[1..], FreeReason::Explicit);
                    s.s.free_many(&out, FreeReason::Explicit);
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 6 * 19 * 19 * 4);
}

#[test]
fn strided_slice_2d_and_3d_forms() {
    let s = S::new();
    // m = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    let m = s.iota(&[3, 4]);
    let ss = |b: &[i32], e: &[i32], st: &[i32], attrs: Attrs| {
        s.one("StridedSlice", &[m, s.v(b), s.v(e), s.v(st)], &attrs)
    };
    // m[1]
    expect(
        &ss(&[1], &[2], &[1], int("shrink_axis_mask", 1)),
        &[4],
        &[4f32, 5., 6., 7.],
    );
    // m[-1]
    expect(
        &ss(&[-1], &[0], &[1], int("shrink_axis_mask", 1)),
        &[4],
        &[8f32, 9., 10., 11.],
    );
    // m[:, 1]
    expect(
        &ss(
            &[0, 1],
            &[0, 2],
            &[1, 1],
            int("begin_mask", 1)
                .with("end_mask", AttrValue::Int(1))
                .with("shrink_axis_mask", AttrValue::Int(2)),
        ),
        &[3],
        &[1f32, 5., 9.],
    );
    // m[..., 1]
    expect(
        &ss(
            &[0, 1],
            &[0, 2],
            &[1, 1],
            int("ellipsis_mask", 1).with("shrink_axis_mask", AttrValue::Int(2)),
        ),
        &[3],
        &[1f32, 5., 9.],
    );
    // m[1, 2] is a scalar
    expect(
        &ss(&[1, 2], &[2, 3], &[1, 1], int("shrink_axis_mask", 3)),
        &[],
        &[6f32],
    );
    // m[None, 1]
    expect(
        &ss(
            &[0, 1],
            &[0, 2],
            &[1, 1],
            int("new_axis_mask", 1).with("shrink_axis_mask", AttrValue::Int(2)),
        ),
        &[1, 4],
        &[4f32, 5., 6., 7.],
    );
    // m[:, None]
    expect(
        &ss(
            &[0, 0],
            &[0, 0],
            &[1, 1],
            int("begin_mask", 1)
                .with("end_mask", AttrValue::Int(1))
                .with("new_axis_mask", AttrValue::Int(2)),
        ),
        &[3, 1, 4],
        &f32s(0..12),
    );
    // m[..., None]
    expect(
        &ss(
            &[0, 0],
            &[0, 0],
            &[1, 1],
            int("ellipsis_mask", 1).with("new_axis_mask", AttrValue::Int(2)),
        ),
        &[3, 4, 1],
        &f32s(0..12),
    );
    // m[::-1, ::2]
    expect(
        &ss(
            &[0, 0],
            &[0, 0],
            &[-1, 2],
            int("begin_mask", 3).with("end_mask", AttrValue::Int(3)),
        ),
        &[3, 2],
        &[8f32, 10., 4., 6., 0., 2.],
    );
    // m[2:0:-1, -1:-5:-2]
    expect(
        &ss(&[2, -1], &[0, -5], &[-1, -2], none()),
        &[2, 2],
        &[11f32, 9., 7., 5.],
    );
    // m[1:1] is empty
    expect::<f32>(&ss(&[1], &[1], &[1], none()), &[0, 4], &[]);
    // m[:] is m itself, sharing the buffer.
    let same = ss(
        &[0],
        &[0],
        &[1],
        int("begin_mask", 1).with("end_mask", AttrValue::Int(1)),
    );
    expect(&same, &[3, 4], &f32s(0..12));
    assert!(same.shares_buffer(&s.s.tensor(m).unwrap()));

    // t[1, ..., ::-2] on t of shape [2, 3, 4]
    let t = s.t(&[2, 3, 4], &(0..24).map(f64::from).collect::<Vec<_>>());
    let out = s.one(
        "StridedSlice",
        &[t, s.v(&[1, 0, 0]), s.v(&[2, 0, 0]), s.v(&[1, 1, -2])],
        &int("ellipsis_mask", 2)
            .with("shrink_axis_mask", AttrValue::Int(1))
            .with("begin_mask", AttrValue::Int(4))
            .with("end_mask", AttrValue::Int(4)),
    );
    expect(&out, &[3, 2], &[15f64, 13., 19., 17., 23., 21.]);
    // t[..., 0, None] keeps the leading dims whole.
    let out = s.one(
        "StridedSlice",
        &[t, s.v(&[0, 0, 0]), s.v(&[0, 1, 0]), s.v(&[1, 1, 1])],
        &int("ellipsis_mask", 1)
            .with("shrink_axis_mask", AttrValue::Int(2))
            .with("new_axis_mask", AttrValue::Int(4)),
    );
    expect(&out, &[2, 3, 1], &[0f64, 4., 8., 12., 16., 20.]);
    // Bool and a scalar input.
    let b = s.t(&[4], &[true, false, true, false]);
    expect(
        &s.one(
            "StridedSlice",
            &[b, s.v(&[1]), s.v(&[4]), s.v(&[2])],
            &none(),
        ),
        &[2],
        &[false, false],
    );
    let sc = s.sc(5u8);
    expect(
        &s.one(
            "StridedSlice",
            &[sc, s.v(&[0]), s.v(&[0]), s.v(&[1])],
            &int("new_axis_mask", 1),
        ),
        &[1],
        &[5u8],
    );
}

#[test]
fn strided_slice_errors() {
    let s = S::new();
    let m = s.iota(&[3, 4]);
    let err = |b: &[i32], e: &[i32], st: &[i32], attrs: Attrs| {
        s.err("StridedSlice", &[m, s.v(b), s.v(e), s.v(st)], &attrs)
    };
    has(
        &err(&[0], &[1], &[0], none()),
        &["StridedSlice", "strides[0]", "non-zero"],
    );
    has(
        &err(&[0, 0], &[1, 1], &[1, 1], int("ellipsis_mask", 3)),
        &["multiple ellipses"],
    );
    has(
        &err(&[3], &[4], &[1], int("shrink_axis_mask", 1)),
        &["index 3", "out of bounds", "[3, 4]"],
    );
    has(
        &err(&[-4], &[0], &[1], int("shrink_axis_mask", 1)),
        &["index -4", "out of bounds"],
    );
    has(
        &err(&[1], &[2], &[-1], int("shrink_axis_mask", 1)),
        &["positive stride"],
    );
    has(
        &err(&[0, 0, 0], &[1, 1, 1], &[1, 1, 1], none()),
        &["entry 2", "[3, 4]"],
    );
    has(
        &err(&[0, 0], &[1], &[1, 1], none()),
        &["same length", "2, 1 and 2"],
    );
    has(
        &s.err(
            "StridedSlice",
            &[m, s.v(&[0]), s.v64(&[1]), s.v(&[1])],
            &none(),
        ),
        &["'begin'", "'end'", "INT32", "INT64"],
    );
    has(
        &err(&[0], &[1], &[1], attr("begin_mask", AttrValue::Bool(true))),
        &["begin_mask", "int", "bool"],
    );
}

// ---------------------------------------------------------------------------
// ConcatV2, Pack, Unpack, Split

#[test]
fn concat_values() {
    let s = S::new();
    let a = s.t(&[2, 2], &[1i32, 2, 3, 4]);
    let b = s.t(&[2, 1], &[5i32, 6]);
    let c = s.t(&[2, 3], &[7i32, 8, 9, 10, 11, 12]);
    expect(
        &s.run_list("ConcatV2", &[a, b, s.sc(1i32)], &[2, -1], &none())
            .unwrap()[0],
        &[2, 3],
        &[1i32, 2, 5, 3, 4, 6],
    );
    expect(
        &s.run_list("ConcatV2", &[a, b, c, s.sc(-1i64)], &[3, -1], &none())
            .unwrap()[0],
        &[2, 6],
        &[1i32, 2, 5, 7, 8, 9, 3, 4, 6, 10, 11, 12],
    );
    let d = s.t(&[1, 2], &[0i32, -1]);
    expect(
        &s.run_list("ConcatV2", &[a, d, s.sc(0i32)], &[2, -1], &none())
            .unwrap()[0],
        &[3, 2],
        &[1i32, 2, 3, 4, 0, -1],
    );
    // Empty parts contribute nothing.
    let e = s.t::<i32>(&[2, 0], &[]);
    expect(
        &s.run_list("ConcatV2", &[e, b, e, s.sc(1i32)], &[3, -1], &none())
            .unwrap()[0],
        &[2, 1],
        &[5i32, 6],
    );
    // One input is the input.
    let only = s
        .run_list("ConcatV2", &[a, s.sc(0i32)], &[1, -1], &none())
        .unwrap();
    assert!(only[0].shares_buffer(&s.s.tensor(a).unwrap()));
    // Other dtypes.
    let f = s.t(&[2], &[true, false]);
    let g = s.t(&[1], &[true]);
    expect(
        &s.run_list("ConcatV2", &[f, g, s.sc(0i32)], &[2, -1], &none())
            .unwrap()[0],
        &[3],
        &[true, false, true],
    );
    let x = s.t(&[1, 1, 2], &[1.5f64, 2.5]);
    let y = s.t(&[1, 1, 2], &[3.5f64, 4.5]);
    expect(
        &s.run_list("ConcatV2", &[x, y, s.sc(1i32)], &[2, -1], &none())
            .unwrap()[0],
        &[1, 2, 2],
        &[1.5f64, 2.5, 3.5, 4.5],
    );
}

#[test]
fn concat_errors() {
    let s = S::new();
    let a = s.t(&[2, 2], &[1i32, 2, 3, 4]);
    let b = s.t(&[2, 2], &[1f32, 2., 3., 4.]);
    let c = s.t(&[3, 3], &[0i32; 9]);
    let axis = s.sc(0i32);
    let run = |inputs: &[u64], lens: &[i32]| invalid(s.run_list("ConcatV2", inputs, lens, &none()));
    has(
        &run(&[a, b, axis], &[2, -1]),
        &["ConcatV2", "values[1]", "FLOAT", "INT32"],
    );
    has(
        &run(&[a, c, axis], &[2, -1]),
        &["values[1]", "[3, 3]", "[2, 2]"],
    );
    let r1 = s.t(&[4], &[0i32; 4]);
    has(&run(&[a, r1, axis], &[2, -1]), &["values[1]", "[4]"]);
    let sc = s.sc(1i32);
    has(&run(&[sc, sc, axis], &[2, -1]), &["scalars"]);
    has(
        &run(&[a, a, s.sc(2i32)], &[2, -1]),
        &["axis 2", "out of range", "rank 2"],
    );
    has(&run(&[a, a, s.v(&[0])], &[2, -1]), &["'axis'", "scalar"]);
    has(&run(&[axis], &[0, -1]), &["at least one"]);
    // Arity: the list must be given as a list.
    has(&s.err("ConcatV2", &[a, a, axis], &none()), &["list"]);
    has(&run(&[a, a, a], &[1, -1]), &["add up to 2", "3 were given"]);
}

#[test]
fn pack_values() {
    let s = S::new();
    let a = s.v(&[1, 2]);
    let b = s.v(&[3, 4]);
    let c = s.v(&[5, 6]);
    expect(
        &s.run_list("Pack", &[a, b, c], &[3], &none()).unwrap()[0],
        &[3, 2],
        &[1i32, 2, 3, 4, 5, 6],
    );
    expect(
        &s.run_list("Pack", &[a, b, c], &[3], &int("axis", 1))
            .unwrap()[0],
        &[2, 3],
        &[1i32, 3, 5, 2, 4, 6],
    );
    expect(
        &s.run_list("Pack", &[a, b, c], &[3], &int("axis", -1))
            .unwrap()[0],
        &[2, 3],
        &[1i32, 3, 5, 2, 4, 6],
    );
    let x = s.sc(1.5f32);
    let y = s.sc(-2.5f32);
    expect(
        &s.run_list("Pack", &[x, y], &[2], &none()).unwrap()[0],
        &[2],
        &[1.5f32, -2.5],
    );
    let one = s.run_list("Pack", &[x], &[1], &none()).unwrap();
    expect(&one[0], &[1], &[1.5f32]);
    let e = s.t::<u8>(&[0, 2], &[]);
    expect::<u8>(
        &s.run_list("Pack", &[e, e], &[2], &int("axis", 1)).unwrap()[0],
        &[0, 2, 2],
        &[],
    );

    let bad = s.v(&[1, 2, 3]);
    has(
        &invalid(s.run_list("Pack", &[a, bad], &[2], &none())),
        &["Pack", "values[1]", "[3]", "[2]"],
    );
    let f = s.t(&[2], &[1f64, 2.]);
    has(
        &invalid(s.run_list("Pack", &[a, f], &[2], &none())),
        &["values[1]", "DOUBLE", "INT32"],
    );
    has(
        &invalid(s.run_list("Pack", &[a, b], &[2], &int("axis", 2))),
        &["axis 2", "out of range"],
    );
    has(
        &invalid(s.run_list("Pack", &[a, b], &[2], &int("axis", -3))),
        &["axis -3"],
    );
    has(
        &invalid(s.run_list("Pack", &[], &[0], &none())),
        &["at least one"],
    );
}

#[test]
fn unpack_values() {
    let s = S::new();
    let x = s.t(&[2, 3], &[0i64, 1, 2, 3, 4, 5]);
    let rows = s.run("Unpack", &[x], &int("num", 2)).unwrap();
    assert_eq!(rows.len(), 2);
    expect(&rows[0], &[3], &[0i64, 1, 2]);
    expect(&rows[1], &[3], &[3i64, 4, 5]);
    let cols = s
        .run(
            "Unpack",
            &[x],
            &int("num", 3).with("axis", AttrValue::Int(-1)),
        )
        .unwrap();
    assert_eq!(cols.len(), 3);
    expect(&cols[0], &[2], &[0i64, 3]);
    expect(&cols[1], &[2], &[1i64, 4]);
    expect(&cols[2], &[2], &[2i64, 5]);
    let v = s.t(&[2], &[true, false]);
    let parts = s.run("Unpack", &[v], &int("num", 2)).unwrap();
    expect(&parts[0], &[], &[true]);
    expect(&parts[1], &[], &[false]);
    let e = s.t::<f32>(&[0, 3], &[]);
    assert!(s.run("Unpack", &[e], &int("num", 0)).unwrap().is_empty());

    has(
        &s.err("Unpack", &[x], &none()),
        &["Unpack", "'num'", "required"],
    );
    has(
        &s.err("Unpack", &[x], &int("num", 3)),
        &["'num' is 3", "[2, 3]", "is 2"],
    );
    has(
        &s.err("Unpack", &[x], &attr("num", AttrValue::Float(2.0))),
        &["'num'", "int", "float"],
    );
    has(
        &s.err(
            "Unpack",
            &[x],
            &int("num", 2).with("axis", AttrValue::Int(2)),
        ),
        &["axis 2", "out of range"],
    );
    let sc = s.sc(1i32);
    has(&s.err("Unpack", &[sc], &int("num", 1)), &["rank 0"]);
}

#[test]
fn split_values() {
    let s = S::new();
    // [[0, 1, 2, 3], [4, 5, 6, 7]]
    let x = s.iota(&[2, 4]);
    let parts = s
        .run("Split", &[s.sc(1i32), x], &int("num_split", 2))
        .unwrap();
    assert_eq!(parts.len(), 2);
    expect(&parts[0], &[2, 2], &[0f32, 1., 4., 5.]);
    expect(&parts[1], &[2, 2], &[2f32, 3., 6., 7.]);
    let rows = s
        .run("Split", &[s.sc(-2i32), x], &int("num_split", 2))
        .unwrap();
    expect(&rows[0], &[1, 4], &[0f32, 1., 2., 3.]);
    expect(&rows[1], &[1, 4], &[4f32, 5., 6., 7.]);
    let four = s
        .run("Split", &[s.sc(1i32), x], &int("num_split", 4))
        .unwrap();
    expect(&four[3], &[2, 1], &[3f32, 7.]);
    let whole = s
        .run("Split", &[s.sc(0i32), x], &int("num_split", 1))
        .unwrap();
    assert!(whole[0].shares_buffer(&s.s.tensor(x).unwrap()));
    let u = s.t(&[3], &[7u8, 8, 9]);
    let us = s
        .run("Split", &[s.sc(0i32), u], &int("num_split", 3))
        .unwrap();
    expect(&us[2], &[1], &[9u8]);
    // A zero-size dimension splits into any number of empty parts.
    let e = s.t::<i32>(&[0, 2], &[]);
    let es = s
        .run("Split", &[s.sc(0i32), e], &int("num_split", 3))
        .unwrap();
    assert_eq!(es.len(), 3);
    expect::<i32>(&es[1], &[0, 2], &[]);

    has(
        &s.err("Split", &[s.sc(1i32), x], &int("num_split", 3)),
        &["Split", "num_split 3", "evenly", "[2, 4]"],
    );
    has(
        &s.err("Split", &[s.sc(1i32), x], &none()),
        &["'num_split'", "required"],
    );
    has(
        &s.err("Split", &[s.sc(1i32), x], &int("num_split", 0)),
        &["at least 1"],
    );
    has(
        &s.err("Split", &[s.sc(2i32), x], &int("num_split", 1)),
        &["split_dim 2", "out of range"],
    );
    has(
        &s.err("Split", &[s.sc(1i64), x], &int("num_split", 2)),
        &["'split_dim'", "INT64", "INT32"],
    );
    has(
        &s.err("Split", &[s.sc(0i32), e], &int("num_split", 1 << 40)),
        &["outputs"],
    );
}

// ---------------------------------------------------------------------------
// GatherV2

#[test]
fn gather_values() {
    let s = S::new();
    // p = [[0, 1], [2, 3], [4, 5]]
    let p = s.t(&[3, 2], &[0i32, 1, 2, 3, 4, 5]);
    let zero = s.sc(0i32);
    expect(
        &s.one("GatherV2", &[p, s.v(&[2, 0, 2]), zero], &none()),
        &[3, 2],
        &[4i32, 5, 0, 1, 4, 5],
    );
    expect(
        &s.one("GatherV2", &[p, s.sc(1i64), zero], &none()),
        &[2],
        &[2i32, 3],
    );
    let idx = s.t(&[2, 2], &[1i64, 0, 1, 1]);
    expect(
        &s.one("GatherV2", &[p, idx, s.sc(-1i64)], &none()),
        &[3, 2, 2],
        &[1i32, 0, 1, 1, 3, 2, 3, 3, 5, 4, 5, 5],
    );
    expect::<i32>(
        &s.one("GatherV2", &[p, s.v(&[]), zero], &none()),
        &[0, 2],
        &[],
    );
    let f = s.t(&[4], &[0.5f64, 1.5, 2.5, 3.5]);
    expect(
        &s.one("GatherV2", &[f, s.v(&[3, 3, 0]), zero], &none()),
        &[3],
        &[3.5f64, 3.5, 0.5],
    );
    // batch_dims = 1: row b picks from params[b].
    // q = [[0, 1, 2], [3, 4, 5]]
    let q = s.t(&[2, 3], &[0f32, 1., 2., 3., 4., 5.]);
    let bi = s.t(&[2, 2], &[2i32, 0, 1, 1]);
    expect(
        &s.one("GatherV2", &[q, bi, s.sc(1i32)], &int("batch_dims", 1)),
        &[2, 2],
        &[2f32, 0., 4., 4.],
    );
    expect(
        &s.one("GatherV2", &[q, bi, s.sc(1i32)], &int("batch_dims", -1)),
        &[2, 2],
        &[2f32, 0., 4., 4.],
    );
}

#[test]
fn gather_errors() {
    let s = S::new();
    let p = s.t(&[3, 2], &[0i32, 1, 2, 3, 4, 5]);
    let zero = s.sc(0i32);
    has(
        &s.err("GatherV2", &[p, s.v(&[0, 5]), zero], &none()),
        &["GatherV2", "indices[1] = 5", "[0, 3)"],
    );
    let idx = s.t(&[2, 2], &[0i64, 1, -1, 0]);
    has(
        &s.err("GatherV2", &[p, idx, zero], &none()),
        &["indices[1, 0] = -1", "[0, 3)"],
    );
    has(
        &s.err("GatherV2", &[p, s.t(&[1], &[0f32]), zero], &none()),
        &["'indices'", "FLOAT"],
    );
    has(
        &s.err("GatherV2", &[p, s.v(&[0]), s.sc(2i32)], &none()),
        &["axis 2", "out of range"],
    );
    has(
        &s.err("GatherV2", &[p, s.v(&[0]), s.v(&[0])], &none()),
        &["'axis'", "scalar"],
    );
    has(
        &s.err("GatherV2", &[p, s.v(&[0]), zero], &int("batch_dims", 2)),
        &["batch_dims 2", "out of range"],
    );
    let bi = s.t(&[2, 1], &[0i32, 0]);
    has(
        &s.err("GatherV2", &[p, bi, s.sc(1i32)], &int("batch_dims", 1)),
        &["[3, 2]", "[2, 1]", "batch_dims"],
    );
    let pi = s.t(&[3, 1], &[0i32, 0, 0]);
    has(
        &s.err("GatherV2", &[p, pi, zero], &int("batch_dims", 1)),
        &["batch_dims 1", "axis 0"],
    );
    has(
        &s.err(
            "GatherV2",
            &[p, s.v(&[0]), zero],
            &attr("batch_dims", AttrValue::Ints(vec![0])),
        ),
        &["batch_dims", "int", "list(int)"],
    );
}

// ---------------------------------------------------------------------------
// Tile, BroadcastTo

/// Tile by index arithmetic, one element at a time.
fn naive_tile(data: &[i32], shape: &[usize], reps: &[usize]) -> (Vec<usize>, Vec<i32>) {
    let out_shape: Vec<usize> = shape.iter().zip(reps).map(|(s, r)| s * r).collect();
    let n: usize = out_shape.iter().product();
    let mut out = Vec::with_capacity(n);
    for flat in 0..n {
        let mut rest = flat;
        let mut src = 0;
        let mut stride = 1;
        for d in (0..shape.len()).rev() {
            let c = rest % out_shape[d];
            rest /= out_shape[d];
            src += (c % shape[d]) * stride;
            stride *= shape[d];
        }
        out.push(data[src]);
    }
    (out_shape, out)
}

#[test]
fn tile_values() {
    let s = S::new();
    let x = s.t(&[2, 2], &[1i32, 2, 3, 4]);
    expect(
        &s.one("Tile", &[x, s.v(&[2, 3])], &none()),
        &[4, 6],
        &[
            1i32, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4, 1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4,
        ],
    );
    let y = s.t(&[2, 2, 1], &[1.0f32, 2.0, 3.0, 4.0]);
    expect(
        &s.one("Tile", &[y, s.v64(&[1, 2, 2])], &none()),
        &[2, 4, 2],
        &[
            1f32, 1., 2., 2., 1., 1., 2., 2., 3., 3., 4., 4., 3., 3., 4., 4.,
        ],
    );
    let b = s.t(&[2], &[true, false]);
    expect(
        &s.one("Tile", &[b, s.v(&[3])], &none()),
        &[6],
        &[true, false, true, false, true, false],
    );
    expect::<i32>(&s.one("Tile", &[x, s.v(&[0, 5])], &none()), &[0, 10], &[]);
    let sc = s.sc(7u8);
    expect(&s.one("Tile", &[sc, s.v(&[])], &none()), &[], &[7u8]);
    let same = s.one("Tile", &[x, s.v(&[1, 1])], &none());
    assert!(same.shares_buffer(&s.s.tensor(x).unwrap()));

    for (shape, reps) in [
        (vec![3usize], vec![4usize]),
        (vec![2, 3], vec![3, 1]),
        (vec![2, 3], vec![1, 3]),
        (vec![1, 2, 3], vec![2, 2, 2]),
        (vec![2, 1, 2, 1], vec![1, 3, 2, 2]),
        (vec![3, 2, 2], vec![2, 1, 3]),
    ] {
        let n: usize = shape.iter().product();
        let data: Vec<i32> = (0..n as i32).collect();
        let h = s.t(&shape, &data);
        let r: Vec<i32> = reps.iter().map(|&r| r as i32).collect();
        let (want_shape, want) = naive_tile(&data, &shape, &reps);
        expect(&s.one("Tile", &[h, s.v(&r)], &none()), &want_shape, &want);
    }

    has(
        &s.err("Tile", &[x, s.v(&[2])], &none()),
        &["Tile", "multiples", "[2, 2]"],
    );
    has(
        &s.err("Tile", &[x, s.v(&[2, -1])], &none()),
        &["multiples[1] = -1"],
    );
    has(
        &s.err("Tile", &[x, s.v64(&[1 << 62, 1 << 62])], &none()),
        &["too many elements"],
    );
}

#[test]
fn broadcast_to_values() {
    let s = S::new();
    let v = s.t(&[3], &[1i64, 2, 3]);
    expect(
        &s.one("BroadcastTo", &[v, s.v(&[2, 3])], &none()),
        &[2, 3],
        &[1i64, 2, 3, 1, 2, 3],
    );
    let c = s.t(&[2, 1], &[1.5f32, 2.5]);
    expect(
        &s.one("BroadcastTo", &[c, s.v64(&[2, 3])], &none()),
        &[2, 3],
        &[1.5f32, 1.5, 1.5, 2.5, 2.5, 2.5],
    );
    expect(
        &s.one("BroadcastTo", &[c, s.v(&[2, 2, 2])], &none()),
        &[2, 2, 2],
        &[1.5f32, 1.5, 2.5, 2.5, 1.5, 1.5, 2.5, 2.5],
    );
    let sc = s.sc(false);
    expect(
        &s.one("BroadcastTo", &[sc, s.v(&[2, 2])], &none()),
        &[2, 2],
        &[false; 4],
    );
    let one = s.t(&[1], &[9u8]);
    expect::<u8>(&s.one("BroadcastTo", &[one, s.v(&[0])], &none()), &[0], &[]);
    let same = s.one("BroadcastTo", &[v, s.v(&[3])], &none());
    assert!(same.shares_buffer(&s.s.tensor(v).unwrap()));

    has(
        &s.err("BroadcastTo", &[v, s.v(&[2, 4])], &none()),
        &["BroadcastTo", "[3]", "[2, 4]"],
    );
    has(
        &s.err("BroadcastTo", &[c, s.v(&[3])], &none()),
        &["[2, 1]", "[3]"],
    );
    has(
        &s.err("BroadcastTo", &[v, s.v(&[-1, 3])], &none()),
        &["shape[0] = -1"],
    );
    has(
        &s.err("BroadcastTo", &[sc, s.v64(&[1 << 40, 1 << 40])], &none()),
        &["too many elements"],
    );
}

// ---------------------------------------------------------------------------
// OneHot, Range

#[test]
fn one_hot_values() {
    let s = S::new();
    let idx = s.v(&[0, 2, -1, 1]);
    let (on, off) = (s.sc(1.0f32), s.sc(0.0f32));
    expect(
        &s.one("OneHot", &[idx, s.sc(3i32), on, off], &none()),
        &[4, 3],
        &[1f32, 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0.],
    );
    expect(
        &s.one("OneHot", &[idx, s.sc(3i32), on, off], &int("axis", 0)),
        &[3, 4],
        &[1f32, 0., 0., 0., 0., 0., 0., 1., 0., 1., 0., 0.],
    );
    // [2, 2] indices, axis 1: out[i, d, j] = (idx[i, j] == d).
    let idx2 = s.t(&[2, 2], &[1i64, 0, 5, 1]);
    expect(
        &s.one(
            "OneHot",
            &[idx2, s.sc(2i32), s.sc(5i32), s.sc(-1i32)],
            &int("axis", 1),
        ),
        &[2, 2, 2],
        &[-1i32, 5, 5, -1, -1, -1, -1, 5],
    );
    let u = s.t(&[2], &[3u8, 0]);
    expect(
        &s.one("OneHot", &[u, s.sc(4i32), s.sc(true), s.sc(false)], &none()),
        &[2, 4],
        &[false, false, false, true, true, false, false, false],
    );
    let sc = s.sc(1i32);
    expect(
        &s.one(
            "OneHot",
            &[sc, s.sc(3i32), s.sc(2.0f64), s.sc(0.5f64)],
            &none(),
        ),
        &[3],
        &[0.5f64, 2.0, 0.5],
    );
    expect::<f32>(
        &s.one("OneHot", &[idx, s.sc(0i32), on, off], &none()),
        &[4, 0],
        &[],
    );
}

#[test]
fn one_hot_errors() {
    let s = S::new();
    let idx = s.v(&[0, 1]);
    let (on, off) = (s.sc(1.0f32), s.sc(0.0f32));
    let depth = s.sc(3i32);
    has(
        &s.err("OneHot", &[idx, s.sc(-1i32), on, off], &none()),
        &["OneHot", "depth", "-1"],
    );
    has(
        &s.err("OneHot", &[idx, depth, on, s.sc(0.0f64)], &none()),
        &["'on_value'", "'off_value'", "FLOAT", "DOUBLE"],
    );
    has(
        &s.err("OneHot", &[idx, depth, on, off], &int("axis", -2)),
        &["axis", "-2", "[0, 1]"],
    );
    has(
        &s.err("OneHot", &[idx, depth, on, off], &int("axis", 2)),
        &["axis", "2"],
    );
    has(
        &s.err("OneHot", &[idx, s.sc(3i64), on, off], &none()),
        &["'depth'", "INT64"],
    );
    has(
        &s.err("OneHot", &[s.t(&[1], &[0.0f32]), depth, on, off], &none()),
        &["'indices'", "FLOAT"],
    );
    has(
        &s.err("OneHot", &[idx, depth, s.t(&[1], &[1.0f32]), off], &none()),
        &["'on_value'", "scalar"],
    );
}

#[test]
fn range_values() {
    let s = S::new();
    let r = |a: u64, b: u64, c: u64| s.one("Range", &[a, b, c], &none());
    expect(
        &r(s.sc(0i32), s.sc(5i32), s.sc(1i32)),
        &[5],
        &[0i32, 1, 2, 3, 4],
    );
    expect(
        &r(s.sc(10i32), s.sc(1i32), s.sc(-3i32)),
        &[3],
        &[10i32, 7, 4],
    );
    expect(&r(s.sc(3i64), s.sc(10i64), s.sc(4i64)), &[2], &[3i64, 7]);
    expect::<i64>(&r(s.sc(0i64), s.sc(0i64), s.sc(1i64)), &[0], &[]);
    expect(
        &r(s.sc(0.0f32), s.sc(1.0f32), s.sc(0.25f32)),
        &[4],
        &[0f32, 0.25, 0.5, 0.75],
    );
    let d = r(s.sc(1.0f64), s.sc(2.0f64), s.sc(0.3f64));
    assert_eq!(d.shape(), &[4]);
    let got = d.as_slice::<f64>().unwrap();
    for (g, w) in got.iter().zip([1.0, 1.3, 1.6, 1.9]) {
        assert!((g - w).abs() < 1e-12, "{got:?}");
    }
    expect(
        &r(s.sc(2.0f64), s.sc(0.5f64), s.sc(-1.0f64)),
        &[2],
        &[2.0f64, 1.0],
    );
    // limit - start overflows INT32: computed without wrapping.
    expect(
        &r(s.sc(i32::MIN), s.sc(i32::MAX), s.sc(i32::MAX)),
        &[3],
        &[i32::MIN, -1, i32::MAX - 1],
    );
}

#[test]
fn range_errors() {
    let s = S::new();
    let err = |a: u64, b: u64, c: u64| s.err("Range", &[a, b, c], &none());
    has(
        &err(s.sc(0i32), s.sc(5i32), s.sc(0i32)),
        &["Range", "delta", "non-zero"],
    );
    has(
        &err(s.sc(0.0f32), s.sc(5.0f32), s.sc(0.0f32)),
        &["non-zero"],
    );
    // TF rejects a delta that moves away from the limit.
    has(
        &err(s.sc(5i32), s.sc(0i32), s.sc(1i32)),
        &["start 5", "limit 0"],
    );
    has(&err(s.sc(0i64), s.sc(5i64), s.sc(-1i64)), &["negative"]);
    has(
        &err(s.sc(0i32), s.sc(5i64), s.sc(1i32)),
        &["'start'", "'limit'", "INT32", "INT64"],
    );
    has(&err(s.sc(0u8), s.sc(5u8), s.sc(1u8)), &["UINT8"]);
    has(
        &err(s.v(&[0]), s.sc(5i32), s.sc(1i32)),
        &["'start'", "scalar"],
    );
    has(
        &err(s.sc(0.0f32), s.sc(1e30f32), s.sc(1.0f32)),
        &["too many elements"],
    );
    has(
        &err(s.sc(0.0f64), s.sc(f64::NAN), s.sc(1.0f64)),
        &["limit NaN"],
    );
    has(
        &err(s.sc(1.0f64), s.sc(0.0f64), s.sc(f64::NAN)),
        &["too many elements"],
    );
    // 2^63 INT64 elements: the byte count overflows, which is an error.
    let r = s.run("Range", &[s.sc(0i64), s.sc(i64::MAX), s.sc(1i64)], &none());
    assert!(r.is_err(), "{r:?}");
}

// ---------------------------------------------------------------------------
// Accounting and general rules

#[test]
fn everything_freed_leaves_nothing_live() {
    let s = S::new();
    let x = s.iota(&[4, 6]);
    let mut handles = vec![x];
    let mut add = |op: &str, inputs: &[u64], lens: Option<&[i32]>, attrs: Attrs| {
        let index = Registry::global().lookup(op).unwrap();
        handles.extend(inputs);
        handles.extend(s.s.execute(index, inputs, lens, &attrs).unwrap());
    };
    add("Reshape", &[x, s.v(&[6, 4])], None, none());
    add("Identity", &[x], None, none());
    add("ExpandDims", &[x, s.sc(0i32)], None, none());
    add("Slice", &[x, s.v(&[1, 1]), s.v(&[2, 2])], None, none());
    add(
        "StridedSlice",
        &[x, s.v(&[0, 5]), s.v(&[4, 0]), s.v(&[2, -2])],
        None,
        none(),
    );
    add("ConcatV2", &[x, x, s.sc(1i32)], Some(&[2, -1]), none());
    add("Pack", &[x, x, x], Some(&[3]), int("axis", 2));
    add("Unpack", &[x], None, int("num", 4));
    add("Split", &[s.sc(1i32), x], None, int("num_split", 3));
    add("GatherV2", &[x, s.v(&[3, 0]), s.sc(0i32)], None, none());
    add("Tile", &[x, s.v(&[2, 2])], None, none());
    add("BroadcastTo", &[x, s.v(&[3, 4, 6])], None, none());
    add(
        "OneHot",
        &[s.v(&[0, 1]), s.sc(4i32), s.sc(1i32), s.sc(0i32)],
        None,
        none(),
    );
    add(
        "Range",
        &[s.sc(0i32), s.sc(100i32), s.sc(3i32)],
        None,
        none(),
    );
    add("Fill", &[s.v(&[10, 10]), s.sc(1.0f64)], None, none());
    add("Shape", &[x], None, none());
    add("OnesLike", &[x], None, none());
    let stats = s.s.stats();
    assert!(stats.live_bytes > 0 && stats.live_tensors > 0);
    handles.sort_unstable();
    handles.dedup();
    assert_eq!(
        s.s.free_many(&handles, FreeReason::Explicit) as u64,
        stats.live_tensors
    );
    let stats = s.s.stats();
    assert_eq!(stats.live_bytes, 0, "{stats:?}");
    assert_eq!(stats.live_tensors, 0, "{stats:?}");
    assert_eq!(stats.created, stats.freed_explicitly);
}

#[test]
fn failed_ops_leave_accounting_unchanged() {
    let s = S::new();
    let x = s.iota(&[3, 4]);
    let inputs = [
        s.v(&[0, 9]),
        s.sc(0i32),
        s.v(&[5, 5]),
        s.v64(&[1 << 50]),
        s.sc(1.0f32),
    ];
    let before = s.s.stats();
    assert!(
        s.run("GatherV2", &[x, inputs[0], inputs[1]], &none())
            .is_err()
    );
    assert!(s.run("Reshape", &[x, inputs[2]], &none()).is_err());
    assert!(s.run("Fill", &[inputs[3], inputs[4]], &none()).is_err());
    assert!(
        s.run("Split", &[inputs[1], x], &int("num_split", 5))
            .is_err()
    );
    assert_eq!(s.s.stats(), before);
}

#[test]
fn every_op_is_registered_with_its_signature() {
    let r = Registry::global();
    for (op, inputs) in [
        ("Const", 0usize),
        ("Identity", 1),
        ("StopGradient", 1),
        ("Reshape", 2),
        ("Shape", 1),
        ("Size", 1),
        ("Rank", 1),
        ("Fill", 2),
        ("ZerosLike", 1),
        ("OnesLike", 1),
        ("ExpandDims", 2),
        ("Squeeze", 1),
        ("Slice", 3),
        ("StridedSlice", 4),
        ("ConcatV2", 2),
        ("Pack", 1),
        ("Unpack", 1),
        ("Split", 2),
        ("GatherV2", 3),
        ("Tile", 2),
        ("BroadcastTo", 2),
        ("OneHot", 4),
        ("Range", 3),
    ] {
        let def = r.def(r.lookup(op).unwrap()).unwrap();
        assert_eq!(def.name, op);
        assert_eq!(def.inputs.len(), inputs, "{op}");
    }
}

#[test]
fn large_copies_are_exact() {
    // Big enough for pooled buffers and long runs.
    let s = S::new();
    let n = 1 << 18;
    let data: Vec<i32> = (0..n).collect();
    let x = s.t(&[512, 512], &data);
    let t = s.one(
        "StridedSlice",
        &[x, s.v(&[1, 0]), s.v(&[512, 512]), s.v(&[2, 1])],
        &none(),
    );
    assert_eq!(t.shape(), &[256, 512]);
    let got = t.as_slice::<i32>().unwrap();
    assert_eq!(got[0], 512);
    assert_eq!(got[512], 3 * 512);
    assert_eq!(got[got.len() - 1], n - 1);
    let c = s
        .run_list("ConcatV2", &[x, x, s.sc(0i32)], &[2, -1], &none())
        .unwrap();
    let got = c[0].as_slice::<i32>().unwrap();
    assert_eq!(&got[..n as usize], &data[..]);
    assert_eq!(&got[n as usize..], &data[..]);
}
