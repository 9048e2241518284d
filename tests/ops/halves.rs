//! HALF, BFLOAT16 and UINT16: casts to and from every type, the element-wise
//! ops and reductions that run them (HALF and BFLOAT16 through FLOAT,
//! rounded once per element), the ops that only move elements, and
//! build-time inference in asynchronous sessions.

use std::sync::Arc;

use eagerflow::{AttrValue, Attrs, DataType, Session, bf16, f16};

use crate::async_exec::{Async, op};
use crate::common::Env;

fn h(v: &[f32]) -> Vec<f16> {
    v.iter().map(|&x| f16::from_f32(x)).collect()
}

fn b(v: &[f32]) -> Vec<bf16> {
    v.iter().map(|&x| bf16::from_f32(x)).collect()
}

fn cast_to(dst: DataType) -> Attrs {
    Attrs::new().with("DstT", AttrValue::Type(dst))
}

fn bits16<T: Copy>(v: &[T], f: fn(T) -> u16) -> Vec<u16> {
    v.iter().map(|&x| f(x)).collect()
}

#[test]
fn float_to_half_rounds_to_nearest_even_and_keeps_the_edges() {
    let e = Env::new();
    // 1 + 2^-11 is halfway between 1 and the next HALF: even (1) wins;
    // 1 + 3*2^-11 is halfway too, and rounds up to the even 1 + 2^-9.
    let x = e.t(
        &[9],
        &[
            1.0f32 + 2f32.powi(-11),
            1.0 + 3.0 * 2f32.powi(-11),
            65504.0,
            65520.0,
            -0.0,
            f32::NAN,
            f32::NEG_INFINITY,
            6e-8,
            1e-9,
        ],
    );
    let out = e.one("Cast", &[x], &cast_to(DataType::Half));
    assert_eq!(out.dtype(), DataType::Half);
    let got = bits16(out.as_slice::<f16>().unwrap(), f16::to_bits);
    assert_eq!(
        got,
        [
            0x3c00, 0x3c02, 0x7bff, 0x7c00, 0x8000, 0x7e00, 0xfc00, 0x0001, 0x0000
        ]
    );
}

#[test]
fn float_to_bfloat16_rounds_to_nearest_even_and_quiets_nan() {
    let e = Env::new();
    let x = e.t(
        &[5],
        &[
            f32::from_bits(0x3f80_8000), // halfway: the even 0x3f80 wins
            f32::from_bits(0x3f81_8000), // halfway: up to the even 0x3f82
            f32::from_bits(0x3f80_8001), // past halfway: up
            f32::from_bits(0x7f80_0001), // a signalling NaN with a low payload
            f32::MAX,                    // rounds up past the largest BFLOAT16
        ],
    );
    let out = e.one("Cast", &[x], &cast_to(DataType::BFloat16));
    let got = bits16(out.as_slice::<bf16>().unwrap(), bf16::to_bits);
    assert_eq!(got, [0x3f80, 0x3f82, 0x3f81, 0x7fc0, 0x7f80]);
}

#[test]
fn truncate_drops_the_bits_half_and_bfloat16_lack() {
    let e = Env::new();
    let x = e.t(
        &[2],
        &[f32::from_bits(0x3f81_ffff), 1.0 + 2f32.powi(-10) * 0.9],
    );
    let attrs = cast_to(DataType::BFloat16).with("Truncate", AttrValue::Bool(true));
    let out = e.one("Cast", &[x], &attrs);
    assert_eq!(
        bits16(out.as_slice::<bf16>().unwrap(), bf16::to_bits),
        [0x3f81, 0x3f80]
    );
    let attrs = cast_to(DataType::Half).with("Truncate", AttrValue::Bool(true));
    let out = e.one("Cast", &[x], &attrs);
    assert_eq!(
        bits16(out.as_slice::<f16>().unwrap(), f16::to_bits),
        [0x3c0f, 0x3c00]
    );
}

#[test]
fn casts_between_every_pair_of_types_go_through_float() {
    let e = Env::new();
    let every = [
        DataType::Float,
        DataType::Double,
        DataType::Int32,
        DataType::Int64,
        DataType::UInt8,
        DataType::Bool,
        DataType::Half,
        DataType::BFloat16,
        DataType::UInt16,
    ];
    let x = e.t(&[4], &[0.0f32, 1.0, 3.0, 200.0]);
    for from in every {
        let src = e.one("Cast", &[x], &cast_to(from));
        let src_h = e.s.insert((*src).clone()).unwrap();
        for to in every {
            let out = e.one("Cast", &[src_h], &cast_to(to));
            assert_eq!(out.dtype(), to, "{from} -> {to}");
            // Back to FLOAT: every value here survives every type but BOOL.
            let back_h = e.s.insert((*out).clone()).unwrap();
            let back = e.one("Cast", &[back_h], &cast_to(DataType::Float));
            let want: &[f32] = if from == DataType::Bool || to == DataType::Bool {
                &[0.0, 1.0, 1.0, 1.0]
            } else {
                &[0.0, 1.0, 3.0, 200.0]
            };
            assert_eq!(back.as_slice::<f32>().unwrap(), want, "{from} -> {to}");
        }
    }
}

#[test]
fn integer_casts_to_half_round_through_float_and_back_saturate() {
    let e = Env::new();
    let x = e.t(&[3], &[2049i32, -70000, 65535]);
    let out = e.one("Cast", &[x], &cast_to(DataType::Half));
    let v: Vec<f32> = out
        .as_slice::<f16>()
        .unwrap()
        .iter()
        .map(|v| v.to_f32())
        .collect();
    assert_eq!(v, [2048.0, f32::NEG_INFINITY, f32::INFINITY]);
    let back = e.s.insert((*out).clone()).unwrap();
    let ints = e.one("Cast", &[back], &cast_to(DataType::Int32));
    assert_eq!(ints.as_slice::<i32>().unwrap(), [2048, i32::MIN, i32::MAX]);
    let u = e.t(&[3], &[-1i32, 65536, 70000]);
    let out = e.one("Cast", &[u], &cast_to(DataType::UInt16));
    assert_eq!(out.as_slice::<u16>().unwrap(), [65535, 0, 4464], "wraps");
}

#[test]
fn half_arithmetic_rounds_each_result_once() {
    let e = Env::new();
    // 2048 + 1 is not a HALF: it rounds to even, 2048.
    let (_, o): (_, Vec<f16>) = e.bin(
        "AddV2",
        (&[3], &h(&[2048.0, 0.1, 65504.0])),
        (&[], &h(&[1.0])),
    );
    assert_eq!(
        o,
        h(&[2048.0, f16::from_f32(0.1).to_f32() + 1.0, 65504.0 + 1.0])
    );
    let (_, o): (_, Vec<f16>) = e.bin("Mul", (&[1], &h(&[300.0])), (&[1], &h(&[300.0])));
    assert!(o[0].is_infinite(), "overflows HALF, not FLOAT");
    let (_, o): (_, Vec<bf16>) =
        e.bin("RealDiv", (&[2], &b(&[1.0, -0.0])), (&[2], &b(&[3.0, 5.0])));
    assert_eq!(
        bits16(&o, bf16::to_bits),
        [0x3eab, 0x8000],
        "1/3 rounded to nearest even, -0 kept"
    );
    let o: Vec<f16> = e.un("Sqrt", &h(&[2.0, -1.0]));
    assert_eq!(o[0], f16::from_f32(2f32.sqrt()));
    assert!(o[1].is_nan());
    let o: Vec<bf16> = e.un("Neg", &b(&[1.5, f32::INFINITY]));
    assert_eq!(o, b(&[-1.5, f32::NEG_INFINITY]));
    let (_, o): (_, Vec<bool>) = e.bin("Less", (&[2], &h(&[1.0, f32::NAN])), (&[], &h(&[2.0])));
    assert_eq!(o, [true, false]);
    let (_, o): (_, Vec<bool>) = e.bin(
        "Equal",
        (&[2], &b(&[1.0, f32::NAN])),
        (&[2], &b(&[1.0, f32::NAN])),
    );
    assert_eq!(o, [true, false]);
}

#[test]
fn half_reductions_accumulate_in_float() {
    let e = Env::new();
    // 4096 ones: a HALF running sum would stop at 2048; FLOAT gets 4096.
    let ones = e.t(&[4096], &h(&[1.0; 4096]));
    let axis = e.scalar(0i32);
    for (name, want) in [("Sum", 4096.0), ("Mean", 1.0), ("Max", 1.0), ("Prod", 1.0)] {
        let (shape, v) = e.run1::<f16>(name, &[ones, axis]);
        assert_eq!((shape, v), (vec![], h(&[want])), "{name}");
    }
    let x = e.t(&[2, 2], &b(&[1.0, 5.0, 3.0, 2.0]));
    let (_, v) = e.run1::<i64>("ArgMax", &[x, axis]);
    assert_eq!(v, [1, 0]);
    let (_, v) = e.run1::<bf16>("Cumsum", &[x, axis]);
    assert_eq!(v, b(&[1.0, 5.0, 4.0, 7.0]));
}

#[test]
fn mixing_half_with_float_or_bfloat16_is_refused() {
    let e = Env::new();
    let x = e.t(&[1], &h(&[1.0]));
    let f = e.t(&[1], &[1.0f32]);
    let y = e.t(&[1], &b(&[1.0]));
    let m = e.err("AddV2", &[x, f]);
    assert!(m.contains("HALF and FLOAT"), "{m}");
    let m = e.err("Maximum", &[x, y]);
    assert!(m.contains("HALF and BFLOAT16"), "{m}");
    let m = e
        .run_list("AddN", &[x, f], &[2], &Attrs::new())
        .unwrap_err()
        .to_string();
    assert!(m.contains("HALF and FLOAT"), "{m}");
}

#[test]
fn uint16_is_an_unsigned_integer_that_wraps() {
    let e = Env::new();
    let (_, o): (_, Vec<u16>) = e.bin("Sub", (&[2], &[0u16, 7]), (&[], &[1]));
    assert_eq!(o, [65535, 6]);
    let (_, o): (_, Vec<u16>) = e.bin("FloorDiv", (&[2], &[65535u16, 7]), (&[], &[2]));
    assert_eq!(o, [32767, 3]);
    assert!(
        e.err("FloorMod", &[e.t(&[1], &[1u16]), e.t(&[1], &[0u16])])
            .contains("division by zero")
    );
    assert!(e.err("Neg", &[e.t(&[1], &[1u16])]).contains("UINT16"));
    let x = e.t(&[3], &[65535u16, 1, 2]);
    let axis = e.scalar(0i32);
    let (_, v) = e.run1::<u16>("Sum", &[x, axis]);
    assert_eq!(v, [2], "wraps as TensorFlow's integer sums do");
    let (_, v) = e.run1::<u16>("Max", &[x, axis]);
    assert_eq!(v, [65535]);
}

#[test]
fn ops_that_move_elements_keep_the_bits() {
    let e = Env::new();
    let nan = f16::from_bits(0x7e01);
    let x = e.t(&[2, 2], &[f16::ONE, nan, f16::NEG_ZERO, f16::MAX]);
    let perm = e.v(&[1, 0]);
    let (shape, v) = e.run1::<f16>("Transpose", &[x, perm]);
    assert_eq!(shape, [2, 2]);
    assert_eq!(
        bits16(&v, f16::to_bits),
        [0x3c00, 0x8000, 0x7e01, 0x7bff],
        "payloads and signs kept"
    );
    let (_, v) = e.run1::<u16>("OnesLike", &[e.t(&[2], &[9u16, 8])]);
    assert_eq!(v, [1, 1]);
    let (_, v) = e.run1::<bf16>("ZerosLike", &[e.t(&[1], &b(&[3.0]))]);
    assert_eq!(v, b(&[0.0]));
}

fn halves_in(s: &Session, v: &[f32]) -> u64 {
    let t = eagerflow::Tensor::from_slice(s.account(), &[v.len()], &h(v)).unwrap();
    s.insert(t).unwrap()
}

#[test]
fn asynchronous_builds_infer_the_two_byte_types() {
    let mut a = Async::with(16, None, false);
    let s = Arc::clone(&a.session);
    let x = halves_in(&s, &[1.0, 2.0]);
    let sum = s.execute_single(op("AddV2"), &[x, x], None).unwrap();
    assert_eq!(
        s.describe(sum, false).map(|(d, sh)| (d, sh.to_vec())).ok(),
        Some((DataType::Half, vec![2]))
    );
    let less = s.execute_single(op("Less"), &[sum, x], None).unwrap();
    assert_eq!(s.describe(less, false).unwrap().0, DataType::Bool);
    let f = {
        let t = eagerflow::Tensor::from_slice(s.account(), &[2], &[1.0f32, 2.0]).unwrap();
        s.insert(t).unwrap()
    };
    let refused = s.execute_single(op("Mul"), &[sum, f], None);
    assert!(
        matches!(&refused, Err(eagerflow::Error::InvalidArgument(m)) if m.starts_with("Mul") && m.contains("HALF and FLOAT")),
        "{refused:?}"
    );
    a.start();
    let t = s.tensor(sum).unwrap();
    assert_eq!(t.as_slice::<f16>().unwrap(), h(&[2.0, 4.0]));
    a.close();
}
