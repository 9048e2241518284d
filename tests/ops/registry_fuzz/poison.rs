//! The fuzz's check that kernels write every element: buffers handed out for
//! index-wise writes are filled with a poison pattern (`eagerflow::pool::
//! poison`), so an unwritten element shows as the pattern's signalling NaN in
//! a float output, or as a difference between runs under two patterns.

use eagerflow::pool::poison;
use eagerflow::{DataType, Element, Error, Tensor};

/// The two patterns each case runs with.
pub const PATTERNS: [u8; 2] = [poison::DEFAULT_PATTERN, 0x5A];

/// A run's outputs as bits: one vector per output, elements then shape.
pub type Bits = Vec<Vec<u64>>;

/// Runs `f` with poisoning on and `pattern` for this thread's buffers.
pub fn with_pattern<R>(pattern: u8, f: impl FnOnce() -> R) -> R {
    poison::enable(true);
    poison::set_pattern(pattern);
    f()
}

/// Where a float output holds the poison of `pattern`: a signalling NaN,
/// which no arithmetic produces; only a copy of an unwritten element can.
pub fn poisoned_at(t: &Tensor, pattern: u8) -> Option<usize> {
    fn find<T: Element>(t: &Tensor, pattern: u8, bits: fn(T) -> u64) -> Option<usize> {
        let p = bits(T::poison(pattern));
        t.as_slice::<T>().ok()?.iter().position(|&v| bits(v) == p)
    }
    match t.dtype() {
        DataType::Float => find::<f32>(t, pattern, |v| u64::from(v.to_bits())),
        DataType::Double => find::<f64>(t, pattern, f64::to_bits),
        DataType::Half => find::<eagerflow::f16>(t, pattern, |v| u64::from(v.to_bits())),
        DataType::BFloat16 => find::<eagerflow::bf16>(t, pattern, |v| u64::from(v.to_bits())),
        _ => None,
    }
}

/// A tensor's elements as bits (NaN payloads included), then its shape.
pub fn bits(t: &Tensor) -> Vec<u64> {
    fn each<T: Element>(t: &Tensor, f: fn(T) -> u64) -> Vec<u64> {
        t.as_slice::<T>()
            .map_or_else(|_| Vec::new(), |s| s.iter().map(|&v| f(v)).collect())
    }
    let mut out = match t.dtype() {
        DataType::Float => each::<f32>(t, |v| u64::from(v.to_bits())),
        DataType::Double => each::<f64>(t, f64::to_bits),
        DataType::Int32 => each::<i32>(t, |v| u64::from(v as u32)),
        DataType::Int64 => each::<i64>(t, |v| v as u64),
        DataType::UInt8 => each::<u8>(t, u64::from),
        DataType::Bool => each::<bool>(t, u64::from),
        DataType::UInt16 => each::<u16>(t, u64::from),
        DataType::Half => each::<eagerflow::f16>(t, |v| u64::from(v.to_bits())),
        DataType::BFloat16 => each::<eagerflow::bf16>(t, |v| u64::from(v.to_bits())),
        DataType::String => t.strings().map_or_else(
            |_| Vec::new(),
            |s| s.bytes().iter().map(|&b| u64::from(b)).collect(),
        ),
    };
    out.extend(t.shape().iter().map(|&d| d as u64 | 1 << 63));
    out
}

/// Checks that a successful run gives the same bits under the other poison.
/// A difference that a rerun under the first poison does not repeat comes
/// from fresh random seeds, not from the buffers.
pub fn same_under_other_poison(
    name: &str,
    outputs: &Bits,
    run: &impl Fn(u8) -> Result<Result<Bits, Error>, String>,
) -> Result<(), String> {
    match run(PATTERNS[1])? {
        Ok(again) if again != *outputs => {
            if run(PATTERNS[0])?.as_ref() == Ok(outputs) {
                let (o, e) = first_difference(outputs, &again);
                return Err(format!(
                    "{name}: element {e} of output {o} depends on its buffer's previous \
                     contents (poison {:#x} and {:#x} give different results)",
                    PATTERNS[0], PATTERNS[1]
                ));
            }
            Ok(())
        }
        Ok(_) | Err(Error::MemoryExhausted { .. }) => Ok(()),
        Err(e) => Err(format!("{name}: succeeded, then failed: {e}")),
    }
}

/// The first output and element where two runs differ.
fn first_difference(a: &Bits, b: &Bits) -> (usize, usize) {
    for (o, (x, y)) in a.iter().zip(b).enumerate() {
        if let Some(e) = x.iter().zip(y).position(|(p, q)| p != q) {
            return (o, e);
        }
        if x.len() != y.len() {
            return (o, x.len().min(y.len()));
        }
    }
    (a.len().min(b.len()), 0)
}
