//! The fuzz harness: structured inputs drawn from libFuzzer's bytes with
//! `arbitrary`, run through the library's Rust API the way its JNI layer
//! calls it (`src/jni`), then checked: every call ends in a value or an
//! `Error`, never a panic, an abort or a hang, and a closed session holds
//! nothing. The fuzz targets (`fuzz_targets/`) and the main crate's
//! `tests/fuzz_regressions.rs` (which replays `regressions/`) both run it.

pub mod registry;
pub mod session;

use arbitrary::{Result, Unstructured};
use eagerflow::strings::StringAllocation;
use eagerflow::{DataType, Element, Error, MemoryAccount, Session, SessionStats, Tensor};
use std::sync::Arc;

/// Most elements of a generated tensor: the library, not the harness,
/// should be what allocates a lot.
pub const MAX_GENERATED_ELEMENTS: usize = 4096;

const DTYPES: [DataType; 10] = [
    DataType::Float,
    DataType::Double,
    DataType::Int32,
    DataType::Int64,
    DataType::UInt8,
    DataType::Bool,
    DataType::String,
    DataType::Half,
    DataType::BFloat16,
    DataType::UInt16,
];

/// Integers where kernels tend to break: signs, type limits, powers of two.
const EDGE_INTS: [i64; 20] = [
    0,
    1,
    -1,
    2,
    3,
    -2,
    7,
    16,
    255,
    256,
    i32::MAX as i64,
    i32::MIN as i64,
    1 << 31,
    1 << 32,
    1 << 40,
    1 << 62,
    i64::MAX,
    i64::MIN,
    i64::MAX - 1,
    -(1 << 31) - 1,
];

const EDGE_FLOATS: [f64; 14] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::MAX,
    f64::MIN,
    f64::MIN_POSITIVE,
    1e-45,
    3.4e38,
    -3.5e38,
];

/// Dimensions: mostly small, sometimes huge (with a zero elsewhere such a
/// shape is a valid empty tensor).
const EDGE_DIMS: [usize; 9] = [
    5,
    8,
    64,
    1 << 16,
    1 << 20,
    1 << 31,
    1 << 40,
    1 << 62,
    i64::MAX as usize,
];

pub fn dtype(u: &mut Unstructured<'_>) -> Result<DataType> {
    Ok(*u.choose(&DTYPES)?)
}

/// An integer: small, an edge value, or any.
pub fn int(u: &mut Unstructured<'_>) -> Result<i64> {
    Ok(match u.int_in_range(0..=7)? {
        0..=3 => i64::from(u.int_in_range(-4i8..=8)?),
        4..=6 => *u.choose(&EDGE_INTS)?,
        _ => u.arbitrary()?,
    })
}

pub fn float(u: &mut Unstructured<'_>) -> Result<f64> {
    Ok(match u.int_in_range(0..=3)? {
        0 | 1 => f64::from(u.int_in_range(-8i8..=8)?) / 2.0,
        2 => *u.choose(&EDGE_FLOATS)?,
        _ => u.arbitrary()?,
    })
}

pub fn dim(u: &mut Unstructured<'_>) -> Result<usize> {
    Ok(if u.ratio(7, 8)? {
        u.int_in_range(0..=4)?
    } else {
        *u.choose(&EDGE_DIMS)?
    })
}

/// A shape: rank 0 to 4 mostly, sometimes up to 300 (past the maximum).
pub fn shape(u: &mut Unstructured<'_>) -> Result<Vec<usize>> {
    let rank = if u.ratio(31, 32)? {
        u.int_in_range(0..=4)?
    } else {
        u.int_in_range(5..=300)?
    };
    (0..rank).map(|_| dim(u)).collect()
}

/// Elements of `dtype` drawn from `u`.
fn values<T: Element>(
    u: &mut Unstructured<'_>,
    n: usize,
    f: impl Fn(i64, f64) -> T,
) -> Result<Vec<T>> {
    (0..n).map(|_| Ok(f(int(u)?, float(u)?))).collect()
}

/// A tensor of a generated dtype and shape in `account`; `None` when the
/// shape has more than [`MAX_GENERATED_ELEMENTS`] elements (or none that
/// `i64` can count), `Some(Err)` when the library refuses it.
pub fn tensor(
    u: &mut Unstructured<'_>,
    account: &Arc<MemoryAccount>,
) -> Result<Option<eagerflow::Result<Tensor>>> {
    let dtype = dtype(u)?;
    let shape = shape(u)?;
    let n = shape
        .iter()
        .try_fold(1usize, |n, &d| n.checked_mul(d))
        .filter(|&n| n <= MAX_GENERATED_ELEMENTS);
    let Some(n) = n else {
        return Ok(None);
    };
    Ok(Some(match dtype {
        DataType::Float => {
            values(u, n, |_, f| f as f32).map(|v| Tensor::from_slice(account, &shape, &v))?
        }
        DataType::Double => {
            values(u, n, |_, f| f).map(|v| Tensor::from_slice(account, &shape, &v))?
        }
        DataType::Int32 => {
            values(u, n, |i, _| i as i32).map(|v| Tensor::from_slice(account, &shape, &v))?
        }
        DataType::Int64 => {
            values(u, n, |i, _| i).map(|v| Tensor::from_slice(account, &shape, &v))?
        }
        DataType::UInt8 => {
            values(u, n, |i, _| i as u8).map(|v| Tensor::from_slice(account, &shape, &v))?
        }
        DataType::Bool => {
            values(u, n, |i, _| i & 1 == 1).map(|v| Tensor::from_slice(account, &shape, &v))?
        }
        DataType::UInt16 => {
            values(u, n, |i, _| i as u16).map(|v| Tensor::from_slice(account, &shape, &v))?
        }
        DataType::Half => values(u, n, |_, f| eagerflow::f16::from_f64(f))
            .map(|v| Tensor::from_slice(account, &shape, &v))?,
        DataType::BFloat16 => values(u, n, |_, f| eagerflow::bf16::from_f64(f))
            .map(|v| Tensor::from_slice(account, &shape, &v))?,
        DataType::String => {
            let strings = (0..n)
                .map(|_| {
                    let len = u.int_in_range(0..=12)?;
                    u.bytes(len).map(<[u8]>::to_vec)
                })
                .collect::<Result<Vec<_>>>()?;
            let total = strings.iter().map(Vec::len).sum();
            StringAllocation::new(account, n, total).and_then(|mut a| {
                for s in &strings {
                    a.push(s)?;
                }
                a.into_tensor(shape)
            })
        }
    }))
}

/// Reads every element of `t` (as a Java caller reading it back would).
pub fn read(t: &Tensor) {
    let n = t.num_elements();
    let touched = match t.dtype() {
        DataType::Float => t
            .as_slice::<f32>()
            .map(|s| s.iter().filter(|v| v.is_nan()).count()),
        DataType::Double => t
            .as_slice::<f64>()
            .map(|s| s.iter().filter(|v| v.is_nan()).count()),
        DataType::Int32 => t
            .as_slice::<i32>()
            .map(|s| s.iter().filter(|&&v| v == 0).count()),
        DataType::Int64 => t
            .as_slice::<i64>()
            .map(|s| s.iter().filter(|&&v| v == 0).count()),
        DataType::UInt8 => t
            .as_slice::<u8>()
            .map(|s| s.iter().filter(|&&v| v == 0).count()),
        DataType::Bool => t
            .as_slice::<bool>()
            .map(|s| s.iter().filter(|&&v| v).count()),
        DataType::UInt16 => t
            .as_slice::<u16>()
            .map(|s| s.iter().filter(|&&v| v == 0).count()),
        DataType::Half => t
            .as_slice::<eagerflow::f16>()
            .map(|s| s.iter().filter(|v| v.is_nan()).count()),
        DataType::BFloat16 => t
            .as_slice::<eagerflow::bf16>()
            .map(|s| s.iter().filter(|v| v.is_nan()).count()),
        DataType::String => t
            .strings()
            .map(|s| s.iter().filter(|e| e.is_empty()).count()),
    };
    match touched {
        Ok(k) => assert!(k <= n, "{k} of {n} elements"),
        Err(e) => panic!("a {} tensor cannot be read as its dtype: {e}", t.dtype()),
    }
}

/// What a closed session must show: nothing live, every tensor counted
/// once, no byte held.
pub fn check_closed(stats: &SessionStats, session: &Session) {
    assert_eq!(
        (stats.live_tensors, stats.live_bytes),
        (0, 0),
        "a closed session holds nothing: {stats:?}"
    );
    assert_eq!(
        stats.created,
        stats.freed_explicitly + stats.freed_by_cleanup + stats.freed_at_close,
        "every tensor is freed once: {stats:?}"
    );
    let account = session.account();
    assert_eq!(
        (account.live_bytes(), account.held_bytes()),
        (0, 0),
        "{stats:?}"
    );
}

/// An error Java can show: a documented kind (a caught kernel panic is a
/// bug: Java would get a `RuntimeException`), with a message of bounded size.
pub fn check_error(e: &Error) {
    assert!(!matches!(e, Error::Panicked(_)), "a kernel panicked: {e}");
    let msg = e.to_string();
    assert!(!msg.is_empty());
    assert!(
        msg.len() < 1 << 16,
        "an error message of {} bytes",
        msg.len()
    );
}
