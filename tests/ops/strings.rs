//! String tensors and ops: storage and accounting, `Const`, `StringJoin`,
//! `Substr`, `StringLength`, `Equal`/`NotEqual`, and every other op's
//! refusal of STRING inputs.

use eagerflow::strings::StringAllocation;
use eagerflow::{AttrValue, Attrs, DataType, Error, Registry, SessionOptions, Tensor};

use crate::common::{Env, attr, none};

impl Env {
    /// A STRING tensor of `shape` holding `values`.
    fn s(&self, shape: &[usize], values: &[&str]) -> u64 {
        let total = values.iter().map(|v| v.len()).sum();
        let mut a = StringAllocation::new(self.s.account(), values.len(), total).unwrap();
        for v in values {
            a.push(v.as_bytes()).unwrap();
        }
        self.s
            .insert(a.into_tensor(shape.to_vec()).unwrap())
            .unwrap()
    }

    fn strs(&self, h: u64) -> (Vec<usize>, Vec<String>) {
        let t = self.s.tensor(h).unwrap();
        let s = t.strings().unwrap();
        let v = s
            .iter()
            .map(|b| String::from_utf8(b.to_vec()).unwrap())
            .collect();
        (t.shape().to_vec(), v)
    }
}

fn unit(u: &str) -> Attrs {
    attr("unit", AttrValue::Str(u.into()))
}

#[test]
fn string_tensors_count_their_bytes_and_offsets() {
    let env = Env::new();
    let before = env.s.stats().live_bytes;
    let h = env.s(&[2], &["ab", "cde"]);
    let word = std::mem::size_of::<usize>() as u64;
    assert_eq!(env.s.stats().live_bytes - before, 5 + 2 * word);
    assert_eq!(env.s.tensor(h).unwrap().byte_size(), 5 + 2 * word);
    env.s.free_all();
    assert_eq!(env.s.stats().live_bytes, 0);
}

#[test]
fn the_session_limit_bounds_string_tensors() {
    let env = Env::with_options(SessionOptions {
        max_bytes: Some(64),
        ..Default::default()
    });
    let r = StringAllocation::new(env.s.account(), 1, 100);
    assert!(matches!(r, Err(Error::MemoryExhausted { .. })));
    assert_eq!(env.s.stats().live_bytes, 0);
}

#[test]
fn const_copies_a_string_tensor() {
    let env = Env::new();
    let src = env.s(&[2, 2], &["a", "", "héllo", "z"]);
    let t = (*env.s.tensor(src).unwrap()).clone();
    let out = env
        .run("Const", &[], &attr("value", AttrValue::Tensor(t)))
        .unwrap();
    assert_eq!(
        env.strs(out[0]),
        (
            vec![2, 2],
            vec!["a".into(), "".into(), "héllo".into(), "z".into()]
        )
    );
    let copy = env.s.tensor(out[0]).unwrap();
    assert!(!copy.shares_buffer(&env.s.tensor(src).unwrap()));
}

#[test]
fn string_length_in_bytes_and_characters() {
    let env = Env::new();
    let x = env.s(&[3], &["", "abc", "héllo🐥"]);
    let (shape, v) = env.run1::<i32>("StringLength", &[x]);
    assert_eq!((shape, v), (vec![3], vec![0, 3, 10]));
    let (_, v) = env.run1_with::<i32>("StringLength", &[x], &unit("UTF8_CHAR"));
    assert_eq!(v, vec![0, 3, 6]);
    let e = env.err_with("StringLength", &[x], &unit("CHAR"));
    assert!(e.contains("'unit'") && e.contains("CHAR"), "{e}");
}

#[test]
fn string_join_broadcasts_scalars() {
    let env = Env::new();
    let a = env.s(&[2], &["a", "b"]);
    let sep = env.s(&[], &["-"]);
    let c = env.s(&[2], &["x", "yy"]);
    let attrs = attr("separator", AttrValue::Str(", ".into()));
    let out = env.one_list("StringJoin", &[a, sep, c], &[3], &attrs);
    let s: Vec<_> = out.strings().unwrap().iter().map(|b| b.to_vec()).collect();
    assert_eq!(s, vec![b"a, -, x".to_vec(), b"b, -, yy".to_vec()]);
    let only_scalars = env.one_list("StringJoin", &[sep, sep], &[2], &none());
    assert_eq!(only_scalars.shape(), &[] as &[usize]);
    assert_eq!(only_scalars.strings().unwrap().get(0), Some(&b"--"[..]));
    let d = env.s(&[3], &["1", "2", "3"]);
    let e = env.err_list("StringJoin", &[a, d], &[2], &none());
    assert!(e.contains("[2]") && e.contains("[3]"), "{e}");
    let e = env.err_list("StringJoin", &[], &[0], &none());
    assert!(e.contains("at least one"), "{e}");
    let f = env.scalar(1f32);
    let e = env.err_list("StringJoin", &[a, f], &[2], &none());
    assert!(e.contains("inputs[1]") && e.contains("FLOAT"), "{e}");
}

#[test]
fn substr_in_bytes_and_characters() {
    let env = Env::new();
    let x = env.s(&[3], &["hello", "héllo", "ab"]);
    let (p, l) = (env.scalar(1i32), env.scalar(3i32));
    let out = env.run("Substr", &[x, p, l], &none()).unwrap();
    assert_eq!(
        env.strs(out[0]).1,
        vec!["ell".to_string(), "\u{e9}l".to_string(), "b".to_string()]
    );
    let out = env.run("Substr", &[x, p, l], &unit("UTF8_CHAR")).unwrap();
    assert_eq!(env.strs(out[0]).1, vec!["ell", "éll", "b"]);
    // Per-element positions, negative from the end; a negative len runs to the end.
    let (p, l) = (env.v64(&[-2, 0, 2]), env.v64(&[5, -1, 1]));
    let out = env.run("Substr", &[x, p, l], &none()).unwrap();
    assert_eq!(env.strs(out[0]).1, vec!["lo", "héllo", ""]);
    let (p, l) = (env.scalar(6i32), env.scalar(1i32));
    let e = env.err_with("Substr", &[x, p, l], &none());
    assert!(e.contains("pos 6 out of range"), "{e}");
    let (p, l) = (env.scalar(0i32), env.scalar(1i64));
    let e = env.err_with("Substr", &[x, p, l], &none());
    assert!(e.contains("same dtype"), "{e}");
    let (p, l) = (env.v(&[0, 0]), env.v(&[1, 1]));
    let e = env.err_with("Substr", &[x, p, l], &none());
    assert!(e.contains("scalars or of the input's shape"), "{e}");
}

#[test]
fn strings_compare_with_broadcasting() {
    let env = Env::new();
    let x = env.s(&[2, 2], &["a", "b", "a", "c"]);
    let y = env.s(&[2], &["a", "c"]);
    let (shape, eq) = env.run1::<bool>("Equal", &[x, y]);
    assert_eq!((shape, eq), (vec![2, 2], vec![true, false, true, true]));
    let (_, ne) = env.run1::<bool>("NotEqual", &[x, y]);
    assert_eq!(ne, vec![false, true, false, false]);
    let col = env.s(&[2, 1], &["a", "c"]);
    let (shape, eq) = env.run1::<bool>("Equal", &[col, y]);
    assert_eq!((shape, eq), (vec![2, 2], vec![true, false, false, true]));
    let f = env.t(&[2], &[1f32, 2.]);
    let e = env.err("Equal", &[x, f]);
    assert!(e.contains("STRING") && e.contains("FLOAT"), "{e}");
}

/// Every op without a string kernel refuses STRING inputs with an error that
/// names the op, the input and the dtype; none panics.
#[test]
fn every_other_op_refuses_string_inputs() {
    let string_ops = [
        "Const",
        "StringJoin",
        "Substr",
        "StringLength",
        "Equal",
        "NotEqual",
    ];
    let env = Env::new();
    let r = Registry::global();
    let mut checked = 0;
    for name in r.names() {
        let index = r.lookup(name).unwrap();
        let def = r.def(index).unwrap();
        if string_ops.contains(&def.name) || def.inputs.is_empty() {
            continue;
        }
        let s = env.s(&[2], &["a", "b"]);
        let inputs = vec![s; def.inputs.len()];
        let lens: Vec<i32> = def
            .inputs
            .iter()
            .map(|a| if a.ends_with("[]") { 1 } else { -1 })
            .collect();
        let e = env.err_list(name, &inputs, &lens, &none());
        assert!(
            e.starts_with(def.name) && e.contains("STRING") && e.contains("does not support"),
            "{name}: {e}"
        );
        checked += 1;
    }
    assert!(checked > 60, "{checked} ops checked");
}

#[test]
fn string_type_attributes_are_refused() {
    let env = Env::new();
    let x = env.scalar(1f32);
    let e = env.err_with(
        "Cast",
        &[x],
        &attr("DstT", AttrValue::Type(DataType::String)),
    );
    assert!(e.contains("STRING"), "{e}");
    let dims = env.v(&[2]);
    let e = env.err_with(
        "RandomUniform",
        &[dims],
        &attr("dtype", AttrValue::Type(DataType::String)),
    );
    assert!(e.contains("STRING"), "{e}");
}

#[test]
fn a_deep_copy_of_strings_is_accounted_where_it_goes() {
    let env = Env::new();
    let other = Env::new();
    let h = env.s(&[1], &["abcdef"]);
    let t = env.s.tensor(h).unwrap();
    let copy: Tensor = t.deep_copy(other.s.account()).unwrap();
    assert_eq!(other.s.stats().live_bytes, copy.byte_size());
    drop(copy);
    assert_eq!(other.s.stats().live_bytes, 0);
}
