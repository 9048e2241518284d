//! Memory whose size a caller decides: the per-call bounds, and the one way
//! such memory is reserved.
//!
//! On stable Rust a refused infallible allocation aborts the process (the
//! JVM with it, past any `catch_unwind`), so every size that comes from Java
//! (a shape, an element, input or output count, a list or string length)
//! either meets one of the bounds below, checked before anything is made, or
//! is reserved here, fallibly: [`reserve`] is the crate's one call of
//! `try_reserve` on a size from a caller, and every other helper goes
//! through it. What lives as long as a session (tensor buffers, a queued
//! op's bookkeeping) is also counted against its `maxNativeBytes`
//! (`tensor::Allocation`, `strings::StringAllocation`, `executor::admit`);
//! large temporaries are counted while they live (`scratch::Scratch`).
//!
//! `clippy.toml` forbids the infallible ways (`Vec::with_capacity`,
//! `reserve`, `resize`, `vec!`, `to_vec`, a preallocating channel, ...);
//! the few sites whose sizes are constants or bounded here carry an `allow`
//! with the bound that makes them safe, and `docs/reliability.md` lists
//! them ("Allocations sized by callers").

use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::memory::GlobalMemory;

/// TensorFlow's limit on a tensor's rank (`TensorShape::MaxDimensions`):
/// every shape passes `tensor::num_elements`, which refuses more, so a
/// vector with one entry per axis holds at most this many.
pub const MAX_RANK: usize = 254;

/// Most inputs one op call may name. Each costs a few words of bookkeeping
/// while the op runs (its handle, entry and tensor reference, a kernel's
/// per-input slice), none of it counted as tensor bytes.
pub const MAX_INPUTS: usize = 1 << 20;

/// Most outputs one op may yield (`Split`, `Unpack`). An empty dimension
/// "divides" into any number of empty tensors, whose bookkeeping (about 200
/// bytes each: the tensor, its shape, its handle) no byte limit sees.
pub const MAX_OUTPUTS: usize = 1 << 20;

/// Most entries of a list-valued attribute (`list(int)`, `list(float)`,
/// `list(bool)`); a `shape` attribute has at most [`MAX_RANK`] dimensions.
pub const MAX_ATTR_LIST: usize = 1 << 16;

/// Most bytes of a string-valued attribute (`separator`, `padding`, ...).
pub const MAX_ATTR_STRING_BYTES: usize = 1 << 16;

/// Most bytes of an op type name (the registry's longest is far shorter).
pub const MAX_NAME_BYTES: usize = 256;

/// Most bytes of a caller's data that an error message quotes.
pub const MAX_QUOTED_BYTES: usize = 64;

/// `value`, if it is at most `bound`; otherwise the error that names what
/// it is, the value and the bound (an `IllegalArgumentException` in Java).
pub fn within(what: impl std::fmt::Display, value: usize, bound: usize) -> Result<usize> {
    if value > bound {
        return Err(Error::invalid(format!(
            "{what} is {value}, more than the maximum of {bound}"
        )));
    }
    Ok(value)
}

/// The error for `n` items of `T` that cannot be had: a size no address
/// space holds is a bad argument, one the allocator refused is exhausted
/// memory.
fn refused<T>(n: usize) -> Error {
    let size = std::mem::size_of::<T>().max(1);
    match n.checked_mul(size).filter(|&b| b <= isize::MAX as usize) {
        None => Error::invalid(format!(
            "{n} items of {size} bytes are more than an address space holds"
        )),
        Some(bytes) => Error::MemoryExhausted {
            requested: bytes as u64,
            live: GlobalMemory::get().live_bytes(),
            limit: None,
        },
    }
}

/// Makes room for `additional` more items in `v`, exactly, or fails: never
/// an abort. The one fallible reservation every caller-sized vector goes
/// through.
pub fn reserve<T>(v: &mut Vec<T>, additional: usize) -> Result<()> {
    v.try_reserve_exact(additional)
        .map_err(|_| refused::<T>(v.len().saturating_add(additional)))
}

/// Room for one more item in a growing vector, amortised (capacity doubles),
/// through [`reserve`]: for tables that grow an item at a time.
pub fn reserve_one<T>(v: &mut Vec<T>) -> Result<()> {
    if v.len() < v.capacity() {
        return Ok(());
    }
    reserve(v, v.capacity().max(4))
}

/// An empty vector with room for exactly `n` items.
pub fn with_room<T>(n: usize) -> Result<Vec<T>> {
    let mut v = Vec::new();
    reserve(&mut v, n)?;
    Ok(v)
}

/// `n` copies of `value`: what `vec![value; n]` would make, fallibly.
pub fn filled<T: Clone>(n: usize, value: T) -> Result<Vec<T>> {
    let mut v = with_room(n)?;
    fill_within(&mut v, n, value);
    Ok(v)
}

/// A copy of `items`: what `to_vec` would make, fallibly.
pub fn copied<T: Clone>(items: &[T]) -> Result<Vec<T>> {
    let mut v = with_room(items.len())?;
    v.extend_from_slice(items);
    Ok(v)
}

/// At most `n` of `items`, collected into a vector reserved for `n`.
pub fn collect<T>(n: usize, items: impl IntoIterator<Item = T>) -> Result<Vec<T>> {
    let mut v = with_room(n)?;
    v.extend(items.into_iter().take(n));
    Ok(v)
}

/// Sets `v`'s length to `n`, new items `value`, within the room already
/// reserved: never grows the vector (an `n` past its capacity stops there).
pub fn fill_within<T: Clone>(v: &mut Vec<T>, n: usize, value: T) {
    let n = n.min(v.capacity());
    // Within the capacity: `resize` cannot reallocate, so cannot abort.
    #[allow(clippy::disallowed_methods)]
    v.resize(n, value);
}

/// An inline vector (no heap allocation up to its inline size) with room
/// for `n` items.
pub fn small<A: smallvec::Array>(n: usize) -> Result<SmallVec<A>> {
    let mut v = SmallVec::new();
    v.try_reserve_exact(n).map_err(|_| refused::<A::Item>(n))?;
    Ok(v)
}

/// A caller's bytes for an error message: at most [`MAX_QUOTED_BYTES`] of
/// them (lossy UTF-8), with how many were left out.
pub fn quoted(bytes: &[u8]) -> String {
    let head = bytes.get(..MAX_QUOTED_BYTES).unwrap_or(bytes);
    let text = String::from_utf8_lossy(head);
    if head.len() == bytes.len() {
        text.into_owned()
    } else {
        format!("{text}... ({} bytes in all)", bytes.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn within_names_what_the_value_and_the_bound() {
        assert_eq!(within("rank", 3, MAX_RANK), Ok(3));
        assert_eq!(within("rank", MAX_RANK, MAX_RANK), Ok(MAX_RANK));
        let e = within("attribute 'squeeze_dims' length", 70_000, MAX_ATTR_LIST);
        assert_eq!(
            e,
            Err(Error::invalid(
                "attribute 'squeeze_dims' length is 70000, more than the maximum of 65536"
            ))
        );
    }

    #[test]
    fn sizes_past_the_address_space_are_bad_arguments() {
        let e = with_room::<u64>(usize::MAX / 4);
        assert!(
            matches!(&e, Err(Error::InvalidArgument(m)) if m.contains("more than an address space holds")),
            "{e:?}"
        );
        assert!(matches!(
            filled(usize::MAX, 0u8),
            Err(Error::InvalidArgument(_))
        ));
        let mut v = vec![1u32; 3];
        assert!(reserve(&mut v, usize::MAX - 1).is_err());
        assert_eq!(
            v,
            [1, 1, 1],
            "a refused reservation leaves the vector as it was"
        );
    }

    #[test]
    fn sizes_the_allocator_refuses_are_exhausted_memory() {
        // 2^48 bytes (256 TiB): a valid size past a 47-bit address space.
        let live = GlobalMemory::get().live_bytes();
        match with_room::<u8>(1 << 48) {
            Err(Error::MemoryExhausted {
                requested, limit, ..
            }) => assert_eq!((requested, limit), (1 << 48, None)),
            other => panic!("expected MemoryExhausted, got {other:?}"),
        }
        assert!(small::<[u64; 4]>(1 << 46).is_err());
        assert_eq!(GlobalMemory::get().live_bytes(), live, "nothing counted");
    }

    #[test]
    fn helpers_make_what_the_infallible_forms_would() -> Result<()> {
        assert_eq!(filled(3, 7i64)?, [7, 7, 7]);
        assert_eq!(copied(&[1usize, 2])?, [1, 2]);
        assert_eq!(collect(2, 0..10)?, [0, 1]);
        let v: Vec<u8> = with_room(5)?;
        assert_eq!((v.len(), v.capacity()), (0, 5));
        let s = small::<[u8; 2]>(3)?;
        assert!(s.capacity() >= 3);
        let mut grow = Vec::<u32>::new();
        for i in 0..100 {
            reserve_one(&mut grow)?;
            grow.push(i);
        }
        assert!(grow.capacity() < 256, "amortised, not one at a time");
        Ok(())
    }

    #[test]
    fn fill_within_never_grows() -> Result<()> {
        let mut v = with_room::<i32>(4)?;
        fill_within(&mut v, 100, 9);
        assert_eq!(v, [9, 9, 9, 9]);
        fill_within(&mut v, 1, 0);
        assert_eq!(v, [9]);
        Ok(())
    }

    #[test]
    fn quotes_are_short() {
        assert_eq!(quoted(b"abc"), "abc");
        let long = [b'x'; 1000];
        let q = quoted(&long);
        assert!(
            q.ends_with("... (1000 bytes in all)") && q.len() < 100,
            "{q}"
        );
    }
}
