//! The constants Java and the library share, each defined once, here. Java
//! reads them at load time through `Native.wire()` (the class
//! `io.eagerflow.internal.Wire`), which gets every constant as a line
//! `NAME=value`; nothing on either side restates a value.
//!
//! This module depends on nothing else in the crate, so any module may use it.

use std::fmt::Write;

/// Defines each constant and lists it, under the same name, in [`text`].
macro_rules! wire {
    ($($(#[$doc:meta])* $name:ident: $ty:ty = $value:expr;)*) => {
        $($(#[$doc])* pub const $name: $ty = $value;)*

        /// Every constant as a line `NAME=value`, in definition order.
        pub(crate) fn text() -> String {
            let mut out = String::new();
            $(
                // Writing to a String cannot fail.
                let _ = writeln!(out, "{}={}", stringify!($name), $name);
            )*
            out
        }
    };
}

wire! {
    /// Free reason: `release`, or closing a standalone tensor.
    FREED_EXPLICITLY: i32 = 0;
    /// Free reason: the cleanup strategy found the owner unreachable.
    FREED_BY_CLEANUP: i32 = 1;
    /// Free reason: the `EagerScope` that owned the tensor closed.
    FREED_BY_SCOPE: i32 = 2;

    // Positions in the array `Native.stats` and `Native.closeSession` fill
    // (Java's `SessionStats`).
    STATS_LIVE_TENSORS: usize = 0;
    STATS_LIVE_BYTES: usize = 1;
    STATS_PEAK_BYTES: usize = 2;
    STATS_CREATED_TENSORS: usize = 3;
    STATS_FREED_EXPLICITLY: usize = 4;
    STATS_FREED_BY_CLEANUP: usize = 5;
    STATS_FREED_AT_CLOSE: usize = 6;
    STATS_GC_REQUESTS: usize = 7;
    STATS_FREED_BY_SCOPE: usize = 8;
    STATS_LENGTH: usize = 9;

    // Positions in the array `Native.memoryStats` fills (`NativeMemory`).
    // From `MEMORY_CREATED_TENSORS` on, counts since the library loaded.
    MEMORY_LIVE_BYTES: usize = 0;
    MEMORY_PEAK_BYTES: usize = 1;
    MEMORY_LIVE_TENSORS: usize = 2;
    MEMORY_POOLED_BYTES: usize = 3;
    MEMORY_OPEN_SESSIONS: usize = 4;
    MEMORY_CREATED_TENSORS: usize = 5;
    MEMORY_FREED_EXPLICITLY: usize = 6;
    MEMORY_FREED_BY_SCOPE: usize = 7;
    MEMORY_FREED_BY_CLEANUP: usize = 8;
    MEMORY_FREED_AT_CLOSE: usize = 9;
    MEMORY_GC_REQUESTS: usize = 10;
    MEMORY_LIMIT_EXHAUSTIONS: usize = 11;
    MEMORY_LENGTH: usize = 12;

    // Attribute kinds in the flat encoding Java sends: records of
    // `[name index, kind, count, payload...]` (see `Attrs::decode`).
    ATTR_INT: i64 = 0;
    ATTR_INTS: i64 = 1;
    ATTR_FLOAT: i64 = 2;
    ATTR_FLOATS: i64 = 3;
    ATTR_BOOL: i64 = 4;
    ATTR_BOOLS: i64 = 5;
    ATTR_TYPE: i64 = 6;
    /// Count -1 is an unknown rank.
    ATTR_SHAPE: i64 = 7;
    /// Payload: the UTF-8 length in bytes, then the bytes, 8 to a word,
    /// little-endian (strings cross with the op, never kept).
    ATTR_STRING: i64 = 8;
    /// Payload: `[table, handle]`, table 0 = standalone, 1 = the op's session.
    ATTR_TENSOR: i64 = 9;
    /// Payload: `[session id, handle]`: a tensor of another open session,
    /// which Java keeps from closing until the op's call returns.
    ATTR_FOREIGN_TENSOR: i64 = 10;

    /// What a call on a closed session reads, from either side.
    CLOSED_MESSAGE: &str = "Eager session has been closed";
    /// The smallest adaptive soft threshold of a session that signals
    /// memory pressure.
    MIN_GC_TRIGGER_BYTES: u64 = 64 << 20;
    /// Pacing lets at most `cap / HEADROOM_DIVISOR` bytes of garbage build
    /// up between collections, so the pool keeps that much for the batch a
    /// collection frees.
    HEADROOM_DIVISOR: u64 = 8;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_array_layout_fills_its_array_once() {
        let stats = [
            STATS_LIVE_TENSORS,
            STATS_LIVE_BYTES,
            STATS_PEAK_BYTES,
            STATS_CREATED_TENSORS,
            STATS_FREED_EXPLICITLY,
            STATS_FREED_BY_CLEANUP,
            STATS_FREED_AT_CLOSE,
            STATS_GC_REQUESTS,
            STATS_FREED_BY_SCOPE,
        ];
        let memory = [
            MEMORY_LIVE_BYTES,
            MEMORY_PEAK_BYTES,
            MEMORY_LIVE_TENSORS,
            MEMORY_POOLED_BYTES,
            MEMORY_OPEN_SESSIONS,
            MEMORY_CREATED_TENSORS,
            MEMORY_FREED_EXPLICITLY,
            MEMORY_FREED_BY_SCOPE,
            MEMORY_FREED_BY_CLEANUP,
            MEMORY_FREED_AT_CLOSE,
            MEMORY_GC_REQUESTS,
            MEMORY_LIMIT_EXHAUSTIONS,
        ];
        for (layout, length) in [(&stats[..], STATS_LENGTH), (&memory[..], MEMORY_LENGTH)] {
            let mut sorted = layout.to_vec();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..length).collect::<Vec<_>>());
        }
    }

    #[test]
    fn the_text_has_one_line_per_name() {
        let text = text();
        let names: Vec<&str> = text
            .lines()
            .filter_map(|l| l.split_once('='))
            .map(|p| p.0)
            .collect();
        assert_eq!(names.len(), text.lines().count());
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
        assert!(text.contains("\nCLOSED_MESSAGE=Eager session has been closed\n"));
        assert!(text.contains("\nMIN_GC_TRIGGER_BYTES=67108864\n"));
    }
}
