//! The random ops through the session: seeded determinism across calls,
//! sessions, sizes and threads; moments of the distributions; errors.

use eagerflow::{AttrValue, Attrs, DataType, Error, SessionOptions};

use crate::common::Env;

pub fn rnd(dtype: DataType, seed: i64, seed2: i64) -> Attrs {
    Attrs::new()
        .with("dtype", AttrValue::Type(dtype))
        .with("seed", AttrValue::Int(seed))
        .with("seed2", AttrValue::Int(seed2))
}

fn moments(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    (
        mean,
        v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n,
    )
}

#[test]
fn seeded_random_is_reproducible_across_calls_and_sessions() {
    let (s1, s2) = (Env::new(), Env::new());
    for op in ["RandomUniform", "RandomStandardNormal", "TruncatedNormal"] {
        let sh1 = s1.t(&[2], &[3i32, 5]);
        let sh2 = s2.t(&[2], &[3i64, 5]);
        let a = s1.run1_with::<f32>(op, &[sh1], &rnd(DataType::Float, 7, 11));
        let b = s1.run1_with::<f32>(op, &[sh1], &rnd(DataType::Float, 7, 11));
        let c = s2.run1_with::<f32>(op, &[sh2], &rnd(DataType::Float, 7, 11));
        assert_eq!(a.0, vec![3, 5]);
        assert_eq!(a, b, "{op}: same call twice");
        assert_eq!(a, c, "{op}: another session");
        let d = s1.run1_with::<f32>(op, &[sh1], &rnd(DataType::Float, 7, 12));
        assert_ne!(a.1, d.1, "{op}: seed2 matters");
        let e = s1.run1_with::<f32>(op, &[sh1], &rnd(DataType::Float, 0, 12));
        assert_eq!(
            e,
            s1.run1_with::<f32>(op, &[sh1], &rnd(DataType::Float, 0, 12)),
            "{op}: seed2 alone fixes it"
        );
        let x = s1.run1_with::<f64>(op, &[sh1], &rnd(DataType::Double, 7, 11));
        assert_eq!(
            x,
            s2.run1_with::<f64>(op, &[sh2], &rnd(DataType::Double, 7, 11))
        );
        // Unseeded calls differ.
        let u = Attrs::new().with("dtype", AttrValue::Type(DataType::Float));
        assert_ne!(
            s1.run1_with::<f32>(op, &[sh1], &u).1,
            s1.run1_with::<f32>(op, &[sh1], &u).1,
            "{op}"
        );
    }
}

#[test]
fn values_do_not_depend_on_size_or_threads() {
    // Element i is a function of (seed, seed2, i): a large (threaded) tensor
    // starts with the values of a small one.
    let s = Env::new();
    for op in ["RandomUniform", "RandomStandardNormal", "TruncatedNormal"] {
        let small = s
            .run1_with::<f32>(op, &[s.t(&[1], &[13i32])], &rnd(DataType::Float, 3, 4))
            .1;
        let large = s
            .run1_with::<f32>(op, &[s.t(&[1], &[1i32 << 20])], &rnd(DataType::Float, 3, 4))
            .1;
        assert_eq!(small[..], large[..13], "{op}");
        let small = s
            .run1_with::<f64>(op, &[s.t(&[1], &[7i32])], &rnd(DataType::Double, 3, 4))
            .1;
        let large = s
            .run1_with::<f64>(
                op,
                &[s.t(&[2], &[1i32 << 10, 1 << 9])],
                &rnd(DataType::Double, 3, 4),
            )
            .1;
        assert_eq!(small[..], large[..7], "{op}");
    }
}

#[test]
fn distributions_have_the_right_moments() {
    let s = Env::new();
    let sh = s.t(&[1], &[200_000i32]);
    let to64 = |v: Vec<f32>| v.into_iter().map(f64::from).collect::<Vec<_>>();
    let u = to64(
        s.run1_with::<f32>("RandomUniform", &[sh], &rnd(DataType::Float, 1, 2))
            .1,
    );
    assert!(u.iter().all(|&v| (0.0..1.0).contains(&v)));
    let (m, v) = moments(&u);
    assert!(
        (m - 0.5).abs() < 0.005 && (v - 1.0 / 12.0).abs() < 0.002,
        "{m} {v}"
    );
    let ud = s
        .run1_with::<f64>("RandomUniform", &[sh], &rnd(DataType::Double, 1, 2))
        .1;
    assert!(ud.iter().all(|&v| (0.0..1.0).contains(&v)));
    let (m, v) = moments(&ud);
    assert!(
        (m - 0.5).abs() < 0.005 && (v - 1.0 / 12.0).abs() < 0.002,
        "{m} {v}"
    );
    for n in [
        to64(
            s.run1_with::<f32>("RandomStandardNormal", &[sh], &rnd(DataType::Float, 1, 2))
                .1,
        ),
        s.run1_with::<f64>("RandomStandardNormal", &[sh], &rnd(DataType::Double, 1, 2))
            .1,
    ] {
        let (m, v) = moments(&n);
        assert!(m.abs() < 0.01 && (v - 1.0).abs() < 0.02, "{m} {v}");
        assert!(n.iter().any(|&x| x.abs() > 3.0), "tails are there");
    }
    // A normal truncated at 2 standard deviations has variance 0.7737.
    for t in [
        to64(
            s.run1_with::<f32>("TruncatedNormal", &[sh], &rnd(DataType::Float, 1, 2))
                .1,
        ),
        s.run1_with::<f64>("TruncatedNormal", &[sh], &rnd(DataType::Double, 1, 2))
            .1,
    ] {
        assert!(t.iter().all(|&x| x.abs() < 2.0));
        let (m, v) = moments(&t);
        assert!(m.abs() < 0.01 && (v - 0.7737).abs() < 0.01, "{m} {v}");
    }
    // Scalar and empty shapes.
    let scalar = s.t::<i32>(&[0], &[]);
    assert_eq!(
        s.run1_with::<f32>("RandomUniform", &[scalar], &rnd(DataType::Float, 1, 1))
            .0,
        Vec::<usize>::new()
    );
    let empty = s.t(&[2], &[0i64, 5]);
    assert_eq!(
        s.run1_with::<f64>("TruncatedNormal", &[empty], &rnd(DataType::Double, 1, 1)),
        (vec![0, 5], vec![])
    );
}

#[test]
fn random_errors() {
    let s = Env::new();
    let sh = s.t(&[2], &[2i32, 3]);
    let m = s.err("RandomUniform", &[sh]);
    assert!(m.contains("dtype") && m.contains("required"), "{m}");
    assert!(
        s.err_with("RandomStandardNormal", &[sh], &rnd(DataType::Int32, 1, 1))
            .contains("FLOAT or DOUBLE")
    );
    let neg = s.t(&[2], &[2i32, -3]);
    assert!(
        s.err_with("TruncatedNormal", &[neg], &rnd(DataType::Float, 1, 1))
            .contains("negative")
    );
    let mat = s.t(&[1, 2], &[2i32, 3]);
    assert!(
        s.err_with("RandomUniform", &[mat], &rnd(DataType::Float, 1, 1))
            .contains("vector")
    );
    let fl = s.t(&[1], &[2f32]);
    assert!(
        s.err_with("RandomUniform", &[fl], &rnd(DataType::Float, 1, 1))
            .contains("INT32 or INT64")
    );
    let bad_seed = Attrs::new()
        .with("dtype", AttrValue::Type(DataType::Float))
        .with("seed", AttrValue::Bool(true));
    assert!(
        s.err_with("RandomUniform", &[sh], &bad_seed)
            .contains("seed")
    );
    // Absurd shapes: too many elements, or more bytes than the limit allows.
    let huge = s.t(&[3], &[1i64 << 40, 1 << 40, 1 << 40]);
    assert!(
        s.err_with("RandomUniform", &[huge], &rnd(DataType::Float, 1, 1))
            .contains("too many")
    );
    let limited = Env::with_options(SessionOptions {
        max_bytes: Some(1 << 30),
        ..SessionOptions::default()
    });
    let big = limited.t(&[1], &[1i64 << 40]);
    let r = limited.run("RandomStandardNormal", &[big], &rnd(DataType::Double, 1, 1));
    assert!(matches!(r, Err(Error::MemoryExhausted { .. })), "{r:?}");
    let r = limited.run(
        "MatMul",
        &[
            limited.t(&[1 << 16, 1], &vec![0f32; 1 << 16]),
            limited.t(&[1, 1 << 16], &vec![0f32; 1 << 16]),
        ],
        &Attrs::new(),
    );
    assert!(
        matches!(r, Err(Error::MemoryExhausted { .. })),
        "a 16 GiB product is refused: {r:?}"
    );
}
