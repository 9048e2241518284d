//! Sizes past the per-call bounds (`eagerflow::alloc`), one or more per
//! family: a shape whose product or rank is too large, an input or output
//! list too long, a string tensor with too many elements, an attribute list
//! or string too long, an op name too long. Each is the documented error
//! (`InvalidArgument`, or `MemoryExhausted` where a limit or the allocator
//! is the reason) naming the argument, the value and the bound, and the call
//! leaves the session's accounting as it was.

use eagerflow::alloc::{
    MAX_ATTR_LIST, MAX_ATTR_STRING_BYTES, MAX_INPUTS, MAX_NAME_BYTES, MAX_OUTPUTS, MAX_RANK,
};
use eagerflow::strings::StringAllocation;
use eagerflow::{AttrValue, Attrs, Error, MemoryAccount, Registry, SessionOptions, Tensor, wire};

use crate::common::{Env, attr, int, none};

/// Runs `f` and checks that it failed with `want` (matched by variant)
/// whose message holds every part, and that the session's stats and held
/// bytes are what they were before.
fn refused(
    s: &Env,
    want: fn(&Error) -> bool,
    parts: &[&str],
    f: impl FnOnce() -> eagerflow::Result<Vec<u64>>,
) {
    let (before, held) = (s.s.stats(), s.s.account().held_bytes());
    let e = f().expect_err("an oversized call must fail");
    assert!(want(&e), "unexpected error kind: {e:?}");
    let msg = e.to_string();
    for p in parts {
        assert!(msg.contains(p), "{msg:?} should mention {p:?}");
    }
    assert_eq!(s.s.stats(), before, "stats unchanged after {msg}");
    assert_eq!(
        s.s.account().held_bytes(),
        held,
        "held bytes unchanged after {msg}"
    );
}

fn invalid(e: &Error) -> bool {
    matches!(e, Error::InvalidArgument(_))
}

fn exhausted(e: &Error) -> bool {
    matches!(e, Error::MemoryExhausted { .. })
}

#[test]
fn shape_products_past_i64_and_past_memory() {
    let s = Env::with_options(SessionOptions {
        max_bytes: Some(1 << 20),
        ..Default::default()
    });
    let one = s.scalar(1f32);
    let huge = s.v64(&[1 << 40, 1 << 40]);
    refused(&s, invalid, &["Fill", "too many elements"], || {
        s.run("Fill", &[huge, one], &none())
    });
    // A valid shape of 2^40 floats: the limit refuses it before anything is made.
    let big = s.v64(&[1 << 40]);
    refused(
        &s,
        exhausted,
        &["requested 4398046511104 bytes", "limit of 1048576"],
        || s.run("Fill", &[big, one], &none()),
    );
    // Without a limit, the allocator is asked and refuses: an error, not an abort.
    let free = Env::new();
    let (one, big) = (free.scalar(1f32), free.v64(&[1 << 46]));
    refused(
        &free,
        exhausted,
        &["requested 281474976710656 bytes"],
        || free.run("Fill", &[big, one], &none()),
    );
}

#[test]
fn ranks_past_the_maximum() {
    let s = Env::new();
    let x = s.scalar(1f32);
    let ones = s.v(&[1; MAX_RANK + 1]);
    refused(
        &s,
        invalid,
        &["Reshape", "rank 255", "maximum of 254"],
        || s.run("Reshape", &[x, ones], &none()),
    );
    let acc = MemoryAccount::new(None);
    let e = Tensor::from_slice::<f32>(&acc, &[1; MAX_RANK + 1], &[0.0]).err();
    assert!(
        matches!(&e, Some(Error::InvalidArgument(m)) if m.contains("rank 255 is more than the maximum of 254")),
        "{e:?}"
    );
    assert_eq!(acc.live_bytes(), 0);
    // Rank 254 itself is a tensor.
    let at_most = s.v(&[1; MAX_RANK]);
    let out = s.run("Reshape", &[x, at_most], &none()).unwrap();
    assert_eq!(s.s.tensor(out[0]).unwrap().rank(), MAX_RANK);
}

#[test]
fn input_lists_past_the_maximum() {
    let s = Env::new();
    let x = s.scalar(1f32);
    let inputs = vec![x; MAX_INPUTS + 1];
    let lens = [(MAX_INPUTS + 1) as i32];
    refused(
        &s,
        invalid,
        &[
            "AddN: the number of inputs is 1048577",
            "maximum of 1048576",
        ],
        || s.run_list("AddN", &inputs, &lens, &none()),
    );
    let tensors = vec![s.s.tensor(x).unwrap(); MAX_INPUTS + 1];
    let add_n = Registry::global().lookup("AddN").unwrap();
    refused(
        &s,
        invalid,
        &["AddN: the number of inputs is 1048577"],
        || {
            s.s.execute_tensors(add_n, &tensors, Some(&lens), &none())
                .map(|h| h.to_vec())
        },
    );
}

#[test]
fn output_counts_past_the_maximum() {
    let s = Env::new();
    // An empty dimension splits into any number of empty pieces: the bound decides.
    let n = MAX_OUTPUTS + 1;
    let empty = s.t::<f32>(&[n, 0], &[]);
    refused(
        &s,
        invalid,
        &[
            "Unpack",
            "number of outputs is 1048577",
            "maximum of 1048576",
        ],
        || s.run("Unpack", &[empty], &int("num", n as i64)),
    );
    let nothing = s.t::<f32>(&[0], &[]);
    let axis = s.scalar(0i32);
    refused(
        &s,
        invalid,
        &["Split", &format!("number of outputs is {}", i64::MAX)],
        || s.run("Split", &[axis, nothing], &int("num_split", i64::MAX)),
    );
}

#[test]
fn string_counts_past_memory() {
    let limited = MemoryAccount::new(Some(1 << 20));
    let e = StringAllocation::new(&limited, 1 << 40, 0).err();
    assert!(
        matches!(e, Some(Error::MemoryExhausted { limit: Some(_), .. })),
        "{e:?}"
    );
    assert_eq!((limited.live_bytes(), limited.held_bytes()), (0, 0));
    let free = MemoryAccount::new(None);
    let e = StringAllocation::new(&free, 1 << 42, 1 << 48).err();
    assert!(
        matches!(e, Some(Error::MemoryExhausted { limit: None, .. })),
        "{e:?}"
    );
    assert_eq!((free.live_bytes(), free.held_bytes()), (0, 0));
    // Past what a byte count can hold: a bad argument.
    let e = StringAllocation::new(&free, usize::MAX / 4, 0).err();
    assert!(matches!(e, Some(Error::InvalidArgument(_))), "{e:?}");
    // Through an op: `StringJoin` of an empty-shaped list is fine, a separator
    // past the attribute bound is not (checked where attributes are decoded).
    let names = Registry::global().attr_names(Registry::global().lookup("StringJoin").unwrap());
    let at = names.iter().position(|n| *n == "separator").unwrap() as i64;
    let len = MAX_ATTR_STRING_BYTES + 1;
    let mut encoded = vec![
        at,
        wire::ATTR_STRING,
        1 + len.div_ceil(8) as i64,
        len as i64,
    ];
    encoded.extend(std::iter::repeat_n(
        0x2020_2020_2020_2020i64,
        len.div_ceil(8),
    ));
    let e = Attrs::decode(&encoded, names, |_, _| unreachable!()).err();
    assert!(
        matches!(&e, Some(Error::InvalidArgument(m))
            if m.contains("attribute 'separator' has a string whose length in bytes is 65537, more than the maximum of 65536")),
        "{e:?}"
    );
}

#[test]
fn attribute_lists_past_the_maximum() {
    let names = ["squeeze_dims", "shape"];
    let n = MAX_ATTR_LIST + 1;
    let mut ints = vec![0, wire::ATTR_INTS, n as i64];
    ints.extend(std::iter::repeat_n(0i64, n));
    let e = Attrs::decode(&ints, &names, |_, _| unreachable!()).err();
    assert!(
        matches!(&e, Some(Error::InvalidArgument(m))
            if m == "attribute 'squeeze_dims' has a list whose length is 65537, more than the maximum of 65536"),
        "{e:?}"
    );
    let mut shape = vec![1, wire::ATTR_SHAPE, (MAX_RANK + 1) as i64];
    shape.extend(std::iter::repeat_n(1i64, MAX_RANK + 1));
    let e = Attrs::decode(&shape, &names, |_, _| unreachable!()).err();
    assert!(
        matches!(&e, Some(Error::InvalidArgument(m)) if m.contains("shape whose rank is 255")),
        "{e:?}"
    );
    // At the bound, the list decodes.
    let mut ok = vec![0, wire::ATTR_INTS, MAX_ATTR_LIST as i64];
    ok.extend(std::iter::repeat_n(0i64, MAX_ATTR_LIST));
    let attrs = Attrs::decode(&ok, &names, |_, _| unreachable!()).unwrap();
    assert!(
        matches!(attrs.get("squeeze_dims"), Some(AttrValue::Ints(v)) if v.len() == MAX_ATTR_LIST)
    );
    // A kernel given such a list through the Rust API still answers in bounds.
    let s = Env::new();
    let x = s.t(&[1, 2], &[1f32, 2.]);
    let dims = attr("squeeze_dims", AttrValue::Ints(vec![0; MAX_ATTR_LIST]));
    let out = s.run("Squeeze", &[x], &dims).unwrap();
    assert_eq!(s.s.tensor(out[0]).unwrap().shape(), &[2]);
}

#[test]
fn op_names_past_the_maximum() {
    let long = "A".repeat(MAX_NAME_BYTES + 1);
    let e = Registry::global().lookup(&long).err();
    assert_eq!(
        e,
        Some(Error::invalid(
            "an op type name's length in bytes is 257, more than the maximum of 256"
        ))
    );
    let e = Registry::global().lookup("NoSuchOp").err();
    assert_eq!(e, Some(Error::invalid("unknown op type 'NoSuchOp'")));
}
