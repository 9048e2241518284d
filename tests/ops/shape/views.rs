//! The view-like shape ops, as Java drives them: Const, Identity,
//! StopGradient, Reshape, Shape, Size, Rank, ExpandDims, Squeeze. Values by
//! hand, buffer sharing, every error class, and exact accounting.

use eagerflow::{AttrValue, DataType, FreeReason, MemoryAccount, Tensor};

use super::{expect, f32s, has};
use crate::common::{Env, attr, int, none};

// ---------------------------------------------------------------------------
// Const, Identity, StopGradient

#[test]
fn const_copies_the_value_for_every_dtype() {
    let s = Env::new();
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
    let s = Env::new();
    let acc = MemoryAccount::new(None);
    let v = Tensor::from_slice(&acc, &[2], &[1i32, 2]).unwrap();
    let msg = s.err_with(
        "Const",
        &[],
        &attr("value", AttrValue::Tensor(v.clone()))
            .with("dtype", AttrValue::Type(DataType::Float)),
    );
    has(&msg, &["Const", "FLOAT", "INT32"]);
    has(&s.err("Const", &[]), &["Const", "'value'", "required"]);
    has(
        &s.err_with("Const", &[], &int("value", 3)),
        &["'value'", "tensor", "int"],
    );
    has(
        &s.err_with(
            "Const",
            &[],
            &attr("value", AttrValue::Tensor(v.clone())).with("dtype", AttrValue::Int(1)),
        ),
        &["'dtype'", "type"],
    );
    // Wrong arity: Const takes no inputs.
    let h = s.v(&[1]);
    has(
        &s.err_with("Const", &[h], &attr("value", AttrValue::Tensor(v))),
        &["expected 0 inputs", "got 1"],
    );
    has(
        &s.err_with("Const", &[], &int("no_such_attr", 1)),
        &["unknown attribute 'no_such_attr'"],
    );
}

#[test]
fn const_of_one_mebibyte_adds_exactly_its_bytes() {
    let s = Env::new();
    let outside = MemoryAccount::new(None);
    let value = Tensor::filled(&outside, &[512, 512], 0.25f32).unwrap();
    let before = s.s.stats();
    let h = s
        .run(
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
    let s = Env::new();
    let h = s.t(&[2, 2], &[1i64, 2, 3, 4]);
    let input = s.s.tensor(h).unwrap();
    for op in ["Identity", "StopGradient"] {
        let before = s.s.stats().live_bytes;
        let out = s.one(op, &[h], &none());
        expect(&out, &[2, 2], &[1i64, 2, 3, 4]);
        assert!(out.shares_buffer(&input), "{op}");
        assert_eq!(s.s.stats().live_bytes, before, "{op} adds no bytes");
    }
    let b = s.scalar(true);
    expect(&s.one("Identity", &[b], &none()), &[], &[true]);
    has(&s.err("Identity", &[]), &["Identity", "expected 1"]);
    has(&s.err("Identity", &[h, h]), &["expected 1", "got 2"]);
}

// ---------------------------------------------------------------------------
// Reshape, Shape, Size, Rank

#[test]
fn reshape_values_and_sharing() {
    let s = Env::new();
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
        &s.one("Reshape", &[x, s.scalar(6i32)], &none()),
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
    let s = Env::new();
    let x = s.iota(&[2, 3]);
    has(
        &s.err("Reshape", &[x, s.v(&[4, 2])]),
        &["Reshape", "[2, 3]", "[4, 2]"],
    );
    has(&s.err("Reshape", &[x, s.v(&[-1, -1])]), &["only one", "-1"]);
    has(
        &s.err("Reshape", &[x, s.v(&[-1, 4])]),
        &["not a multiple of 4"],
    );
    has(&s.err("Reshape", &[x, s.v(&[-2, 3])]), &["shape[0] = -2"]);
    has(
        &s.err("Reshape", &[x, s.t(&[2], &[2.0f32, 3.0])]),
        &["'shape'", "FLOAT"],
    );
    has(
        &s.err("Reshape", &[x, s.t(&[1, 2], &[2i32, 3])]),
        &["1-D", "[1, 2]"],
    );
    has(
        &s.err("Reshape", &[x, s.v64(&[1 << 40, 1 << 40])]),
        &["too many elements"],
    );
    has(&s.err("Reshape", &[x, s.v(&[1; 255])]), &["rank 255"]);
    has(&s.err("Reshape", &[x]), &["expected 2 inputs"]);
}

#[test]
fn shape_size_rank() {
    let s = Env::new();
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

    let sc = s.scalar(false);
    expect::<i32>(&s.one("Shape", &[sc], &none()), &[0], &[]);
    expect(&s.one("Size", &[sc], &none()), &[], &[1i32]);
    expect(&s.one("Rank", &[sc], &none()), &[], &[0i32]);

    has(
        &s.err_with(
            "Shape",
            &[y],
            &attr("out_type", AttrValue::Type(DataType::Float)),
        ),
        &["Shape", "out_type", "FLOAT"],
    );
    has(
        &s.err_with("Size", &[y], &int("out_type", 3)),
        &["out_type", "type", "int"],
    );
    has(
        &s.err_with("Rank", &[y], &int("out_type", 3)),
        &["unknown attribute"],
    );
    // An INT32 result that does not fit is an error, not a wrapped value.
    let huge = s.one("Reshape", &[x, s.v64(&[1 << 40, 0])], &none());
    let h = s.s.insert(huge.as_ref().clone()).unwrap();
    has(&s.err("Shape", &[h]), &["INT64"]);
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
// ExpandDims, Squeeze

#[test]
fn expand_dims_positions_and_sharing() {
    let s = Env::new();
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
        let out = s.one("ExpandDims", &[x, s.scalar(axis)], &none());
        expect(&out, &shape, &[1u8, 2, 3, 4, 5, 6]);
        assert!(out.shares_buffer(&input), "axis {axis}");
    }
    expect(
        &s.one("ExpandDims", &[x, s.scalar(0i64)], &none()),
        &[1, 2, 3],
        &[1u8, 2, 3, 4, 5, 6],
    );
    // TF accepts a one-element vector as the axis.
    expect(
        &s.one("ExpandDims", &[x, s.v(&[1])], &none()),
        &[2, 1, 3],
        &[1u8, 2, 3, 4, 5, 6],
    );
    let sc = s.scalar(4.0f32);
    expect(
        &s.one("ExpandDims", &[sc, s.scalar(0i32)], &none()),
        &[1],
        &[4.0f32],
    );
    expect(
        &s.one("ExpandDims", &[sc, s.scalar(-1i32)], &none()),
        &[1],
        &[4.0f32],
    );

    has(
        &s.err("ExpandDims", &[x, s.scalar(3i32)]),
        &["ExpandDims", "axis 3", "rank 2", "[-3, 2]"],
    );
    has(&s.err("ExpandDims", &[x, s.scalar(-4i32)]), &["axis -4"]);
    has(
        &s.err("ExpandDims", &[x, s.v(&[0, 1])]),
        &["one value", "[2]"],
    );
    has(
        &s.err("ExpandDims", &[x, s.scalar(0.0f32)]),
        &["'axis'", "FLOAT"],
    );
}

#[test]
fn squeeze_all_or_named_dims() {
    let s = Env::new();
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
    let sc = s.scalar(1i32);
    expect(&s.one("Squeeze", &[sc], &none()), &[], &[1i32]);
    let one = s.t(&[1], &[true]);
    expect(&s.one("Squeeze", &[one], &none()), &[], &[true]);
    let empty = s.t::<i64>(&[1, 0], &[]);
    expect::<i64>(&s.one("Squeeze", &[empty], &none()), &[0], &[]);

    has(
        &s.err_with(
            "Squeeze",
            &[x],
            &attr("squeeze_dims", AttrValue::Ints(vec![1])),
        ),
        &["Squeeze", "dimension 1", "[1, 2, 1, 3, 1]", "not 1"],
    );
    has(
        &s.err_with(
            "Squeeze",
            &[x],
            &attr("squeeze_dims", AttrValue::Ints(vec![5])),
        ),
        &["5", "out of range", "rank 5"],
    );
    has(
        &s.err_with("Squeeze", &[x], &int("squeeze_dims", 0)),
        &["squeeze_dims", "list(int)"],
    );
    has(
        &s.err_with("Squeeze", &[x], &int("axis", 0)),
        &["unknown attribute 'axis'"],
    );
}
