//! `native` methods of `io.eagerflow.internal.Native` about the whole
//! process rather than one session: `NativeMemory`'s counters and the pool.

use jni::EnvUnowned;
use jni::objects::{JClass, JLongArray};
use jni::sys::jlong;

use super::boundary;
use crate::memory::GlobalMemory;
use crate::pool;
use crate::sessions;
use crate::wire;

/// Fills `out` as the `MEMORY_*` positions say.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_memoryStats<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    out: JLongArray<'l>,
) {
    boundary(&mut env, "memoryStats", |env| {
        let g = GlobalMemory::get();
        let p = sessions::process_stats();
        let mut values = [0; wire::MEMORY_LENGTH];
        values[wire::MEMORY_LIVE_BYTES] = g.live_bytes() as i64;
        values[wire::MEMORY_PEAK_BYTES] = g.peak_bytes() as i64;
        values[wire::MEMORY_LIVE_TENSORS] = p.live_tensors as i64;
        values[wire::MEMORY_POOLED_BYTES] = pool::idle_bytes() as i64;
        values[wire::MEMORY_OPEN_SESSIONS] = p.open_sessions as i64;
        values[wire::MEMORY_CREATED_TENSORS] = p.created as i64;
        values[wire::MEMORY_FREED_EXPLICITLY] = p.freed_explicitly as i64;
        values[wire::MEMORY_FREED_BY_SCOPE] = p.freed_by_scope as i64;
        values[wire::MEMORY_FREED_BY_CLEANUP] = p.freed_by_cleanup as i64;
        values[wire::MEMORY_FREED_AT_CLOSE] = p.freed_at_close as i64;
        values[wire::MEMORY_GC_REQUESTS] = p.gc_requests as i64;
        values[wire::MEMORY_LIMIT_EXHAUSTIONS] = p.limit_exhaustions as i64;
        out.set_region(env, 0, &values)?;
        Ok(())
    })
}

/// Counts one `NativeMemoryExhaustedException` thrown to a caller (Java's
/// door knows when one leaves it, after its retry).
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_countLimitExhaustion<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
) {
    boundary(&mut env, "countLimitExhaustion", |_| {
        GlobalMemory::get().count_limit_exhaustion();
        Ok(())
    })
}

/// Releases every idle pooled buffer; returns the bytes released.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_trimPool<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
) -> jlong {
    boundary(&mut env, "trimPool", |_| {
        Ok(i64::try_from(pool::trim()).unwrap_or(i64::MAX))
    })
}
