//! `native` methods of `io.eagerflow.internal.Native`. Each is a thin shell:
//! decode, call the core, encode; [`boundary`] handles errors and panics.

use jni::objects::{JClass, JIntArray, JLongArray, JObject, JString};
use jni::sys::{jboolean, jdouble, jint, jlong};
use jni::{EnvUnowned, jni_sig, jni_str};

use super::{
    Failure, as_handles, boundary, boundary_without_env, long_array, long_array_within, session_ref,
};
use crate::alloc::MAX_NAME_BYTES;
use crate::dtype::DataType;
use crate::error::Error;
use crate::ops::{Attrs, Registry, TensorOwner};
use crate::scratch::Scratch;
use crate::session::{
    FreeReason, Session, SessionOptions, SessionStats, check_inputs, scratch_scalar,
};
use crate::sessions;
use crate::wire;

fn stats_array(s: &SessionStats) -> [i64; wire::STATS_LENGTH] {
    let mut out = [0; wire::STATS_LENGTH];
    out[wire::STATS_LIVE_TENSORS] = s.live_tensors as i64;
    out[wire::STATS_LIVE_BYTES] = s.live_bytes as i64;
    out[wire::STATS_PEAK_BYTES] = s.peak_bytes as i64;
    out[wire::STATS_CREATED_TENSORS] = s.created as i64;
    out[wire::STATS_FREED_EXPLICITLY] = s.freed_explicitly as i64;
    out[wire::STATS_FREED_BY_CLEANUP] = s.freed_by_cleanup as i64;
    out[wire::STATS_FREED_AT_CLOSE] = s.freed_at_close as i64;
    out[wire::STATS_GC_REQUESTS] = s.gc_requests as i64;
    out[wire::STATS_FREED_BY_SCOPE] = s.freed_by_scope as i64;
    out
}

pub(super) fn index(i: jlong, what: &str) -> Result<usize, Failure> {
    usize::try_from(i).map_err(|_| Failure::Core(Error::OutOfRange(format!("negative {what} {i}"))))
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_version<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
) -> JString<'l> {
    boundary(&mut env, "version", |env| {
        Ok(JString::from_str(env, crate::VERSION)?)
    })
}

/// The constants Java shares with the library, one `NAME=value` a line
/// (read once by `io.eagerflow.internal.Wire`).
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_wire<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
) -> JString<'l> {
    boundary(&mut env, "wire", |env| {
        Ok(JString::from_str(env, crate::wire::text())?)
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_newSession<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    max_bytes: jlong,
    gc_trigger_bytes: jlong,
    gc_signals: jboolean,
) -> jlong {
    boundary(&mut env, "newSession", |_| {
        let options = SessionOptions {
            max_bytes: u64::try_from(max_bytes).ok().filter(|&b| b > 0),
            gc_signals,
            gc_trigger_bytes: u64::try_from(gc_trigger_bytes).ok().filter(|&b| b > 0),
        };
        Ok(sessions::open(options)? as jlong)
    })
}

/// An asynchronous session whose queue holds `capacity` ops (from 1 to
/// `executor::MAX_QUEUE_CAPACITY`; any other value throws).
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_newAsyncSession<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    max_bytes: jlong,
    gc_trigger_bytes: jlong,
    gc_signals: jboolean,
    capacity: jint,
) -> jlong {
    boundary(&mut env, "newAsyncSession", |_| {
        let capacity = crate::executor::queue_capacity(capacity)?;
        let options = SessionOptions {
            max_bytes: u64::try_from(max_bytes).ok().filter(|&b| b > 0),
            gc_signals,
            gc_trigger_bytes: u64::try_from(gc_trigger_bytes).ok().filter(|&b| b > 0),
        };
        Ok(sessions::open_async(options, capacity)? as jlong)
    })
}

/// Runs the asynchronous session's queued ops until it closes: the body of
/// its executor thread, which holds the executor only. When the hard limit
/// refuses a queued op's allocation, `relief.getAsBoolean()` (a
/// `BooleanSupplier`) collects on this thread; `true` retries the op once.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_runExecutor<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    session: jlong,
    relief: JObject<'l>,
) {
    boundary(&mut env, "runExecutor", |env| {
        let executor = sessions::executor(session as u64)?;
        let mut relieve = || {
            // Its own local frame: this native frame lasts as long as the session.
            let asked = env.with_local_frame(4, |env| {
                env.call_method(&relief, jni_str!("getAsBoolean"), jni_sig!("()Z"), &[])?
                    .z()
            });
            if env.exception_check() {
                // Relief failed in Java: the op fails with its own error.
                env.exception_clear();
            }
            asked.unwrap_or(false)
        };
        Ok(executor.run_with(&mut relieve)?)
    })
}

/// Waits for every queued op; throws the first error since the last call.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_sync<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    session: jlong,
) {
    boundary_without_env(&mut env, "sync", || Ok(session_ref(session)?.sync()?))
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_closeSession<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    session: jlong,
    stats_out: JLongArray<'l>,
) {
    boundary(&mut env, "closeSession", |env| {
        let stats = sessions::close(session as u64)?;
        if !stats_out.is_null() {
            stats_out.set_region(env, 0, &stats_array(&stats))?;
        }
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_stats<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    session: jlong,
    out: JLongArray<'l>,
) {
    boundary(&mut env, "stats", |env| {
        let session = session_ref(session)?;
        out.set_region(env, 0, &stats_array(&session.stats()))?;
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_opIndex<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    op_type: JString<'l>,
) -> jint {
    boundary(&mut env, "opIndex", |env| {
        // Measured in the JVM's own buffer before a Rust copy is made.
        let chars = op_type.mutf8_chars(env)?;
        let bytes = chars.to_bytes().len();
        crate::alloc::within("an op type name's length in bytes", bytes, MAX_NAME_BYTES)?;
        Ok(Registry::global().lookup(&chars.to_str())? as jint)
    })
}

/// Whether op `op` always yields one output, which lets Java call it through
/// [`execute1`](Java_io_eagerflow_internal_Native_execute1) and friends.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_opSingleOutput<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    op: jint,
) -> jboolean {
    boundary(&mut env, "opSingleOutput", |_| {
        Ok(Registry::global().single_output(index(op.into(), "op index")?))
    })
}

/// The attribute names op `op` accepts, comma-separated: its own, then `;`,
/// then the inferred ones. An attribute crosses as its position in this list.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_opAttrNames<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    op: jint,
) -> JString<'l> {
    boundary(&mut env, "opAttrNames", |env| {
        let registry = Registry::global();
        let op = index(op.into(), "op index")?;
        let own = registry.def(op)?.attrs.len();
        let (own, inferred) = registry.attr_names(op).split_at(own);
        let text = format!("{};{}", own.join(","), inferred.join(","));
        Ok(JString::from_str(env, text)?)
    })
}

/// The argument names of op `op` as TensorFlow's op definition has them:
/// inputs comma-separated, `;`, outputs; a list argument's name ends in `[]`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_opArgNames<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    op: jint,
) -> JString<'l> {
    boundary(&mut env, "opArgNames", |env| {
        let registry = Registry::global();
        let op = index(op.into(), "op index")?;
        let inputs = registry.def(op)?.inputs.join(",");
        let text = format!("{inputs};{}", registry.output_names(op)?.join(","));
        Ok(JString::from_str(env, text)?)
    })
}

/// Fast path: a one-input, one-output op with no attributes.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_execute1<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    session: jlong,
    op: jint,
    x: jlong,
) -> jlong {
    boundary_without_env(&mut env, "execute1", || {
        let session = session_ref(session)?;
        let h = session.execute_single(op as usize, &[x as u64], None)?;
        Ok(signal(&session, h))
    })
}

/// Fast path: a two-input, one-output op with no attributes.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_execute2<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    session: jlong,
    op: jint,
    x: jlong,
    y: jlong,
) -> jlong {
    boundary_without_env(&mut env, "execute2", || {
        let session = session_ref(session)?;
        let h = session.execute_single(op as usize, &[x as u64, y as u64], None)?;
        Ok(signal(&session, h))
    })
}

/// Fast path for `zeros` and `ones`: a two-input, one-output op with no
/// attributes whose second input is a scalar of dtype `dtype` holding `value`,
/// made here and never stored or counted.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_executeWithScalar<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    session: jlong,
    op: jint,
    x: jlong,
    dtype: jint,
    value: jdouble,
) -> jlong {
    boundary_without_env(&mut env, "executeWithScalar", || {
        let session = session_ref(session)?;
        let scalar = scratch_scalar(DataType::from_code(dtype)?, value)?;
        let h = session.execute_single(op as usize, &[x as u64], Some(scalar))?;
        Ok(signal(&session, h))
    })
}

/// The general path: input lists and attributes (see `Attrs::decode`).
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_execute<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    session_ptr: jlong,
    op: jint,
    inputs: JLongArray<'l>,
    list_lens: JIntArray<'l>,
    attrs: JLongArray<'l>,
) -> JLongArray<'l> {
    boundary(&mut env, "execute", |env| {
        let session = session_ref(session_ptr)?;
        let handles = long_array_within(env, &inputs, session.account(), |n| {
            check_inputs(op as usize, n)
        })?;
        let (lens, attrs) = lens_and_attrs(env, &session, op, &list_lens, &attrs)?;
        let outputs =
            session.execute(op as usize, as_handles(&handles), lens.as_deref(), &attrs)?;
        output_array(env, &session, outputs)
    })
}

/// The general path for inputs from several sessions: input `i` is handle
/// `inputs[i]` of session `input_sessions[i]` (each open; the op's own
/// session included), and the outputs go to `session_id`. With
/// `scalar_dtype >= 0` a scalar of that dtype holding `scalar_value`, made
/// here and never stored or counted, is appended as the last input (as
/// `executeWithScalar`). Each input's tensor is held for the call only: its
/// lifetime and bytes stay with its own session.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_executeMixed<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    session_id: jlong,
    op: jint,
    inputs: JLongArray<'l>,
    input_sessions: JLongArray<'l>,
    list_lens: JIntArray<'l>,
    attrs: JLongArray<'l>,
    scalar_dtype: jint,
    scalar_value: jdouble,
) -> JLongArray<'l> {
    boundary(&mut env, "executeMixed", |env| {
        let session = session_ref(session_id)?;
        // The extra scalar counts as an input.
        let handles = long_array_within(env, &inputs, session.account(), |n| {
            check_inputs(op as usize, n.saturating_add(1)).map(|_| n)
        })?;
        let owners = long_array(env, &input_sessions, session.account())?;
        let name = Registry::global().name(op as usize);
        if owners.len() != handles.len() {
            return Err(Failure::Core(Error::invalid(format!(
                "{name}: {} inputs but {} input sessions",
                handles.len(),
                owners.len()
            ))));
        }
        let mut tensors = crate::alloc::with_room(handles.len() + 1)?;
        for (&h, &owner) in handles.iter().zip(owners.iter()) {
            let t = if owner == session_id {
                session.tensor(h as u64)
            } else {
                session_ref(owner)
                    .map_err(|_| {
                        Failure::Core(Error::state(format!(
                            "{name}: an input's session has been closed"
                        )))
                    })?
                    .tensor(h as u64)
            };
            tensors.push(t.map_err(|e| e.in_op(name))?);
        }
        if scalar_dtype >= 0 {
            let scalar = scratch_scalar(DataType::from_code(scalar_dtype)?, scalar_value)?;
            tensors.push(std::sync::Arc::new(scalar));
        }
        let (lens, attrs) = lens_and_attrs(env, &session, op, &list_lens, &attrs)?;
        let outputs = session.execute_tensors(op as usize, &tensors, lens.as_deref(), &attrs)?;
        drop(tensors);
        output_array(env, &session, outputs)
    })
}

/// Decodes an op call's list lengths (`null`: every argument single) and
/// attributes; a tensor attribute names the standalone table, the op's
/// session or another open session.
fn lens_and_attrs(
    env: &mut jni::Env<'_>,
    session: &Session,
    op: jint,
    list_lens: &JIntArray<'_>,
    attrs: &JLongArray<'_>,
) -> Result<(Option<Scratch<i32>>, Attrs), Failure> {
    let lens = if list_lens.is_null() {
        None
    } else {
        let mut v = Scratch::filled(session.account(), list_lens.len(env)?, 0i32)?;
        list_lens.get_region(env, 0, &mut v)?;
        Some(v)
    };
    let encoded = long_array(env, attrs, session.account())?;
    let registry = Registry::global();
    let names = registry.attr_names(op as usize);
    let attrs = Attrs::decode(&encoded, names, |owner, handle| {
        let t = match owner {
            TensorOwner::Standalone => Session::standalone().tensor(handle)?,
            TensorOwner::Caller => session.tensor(handle)?,
            // Its bytes stay counted by its own session; the op copies what it keeps.
            TensorOwner::Session(id) => sessions::lookup(id)?.tensor(handle)?,
        };
        Ok((*t).clone())
    })
    .map_err(|e| e.in_op(registry.name(op as usize)))?;
    Ok((lens, attrs))
}

/// An op's output handles for Java, the first marked by [`signal`].
fn output_array<'l>(
    env: &mut jni::Env<'l>,
    session: &Session,
    outputs: crate::session::Outputs,
) -> Result<JLongArray<'l>, Failure> {
    let out = env.new_long_array(outputs.len())?;
    let mut outputs = crate::alloc::collect(outputs.len(), outputs.iter().map(|&h| h as i64))?;
    if let Some(first) = outputs.first_mut() {
        *first = signal(session, *first as u64);
    }
    out.set_region(env, 0, &outputs)?;
    Ok(out)
}

/// `[dtype code, rank, dims...]` of a tensor.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_describe<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    session: jlong,
    handle: jlong,
    wait: jboolean,
) -> JLongArray<'l> {
    boundary(&mut env, "describe", |env| {
        let session = session_ref(session)?;
        let (dtype, shape) = session.describe(handle as u64, wait)?;
        let mut info = crate::alloc::with_room(2 + shape.len())?;
        info.push(i64::from(dtype.code()));
        info.push(shape.len() as i64);
        info.extend(shape.iter().map(|&d| d as i64));
        let out = env.new_long_array(info.len())?;
        out.set_region(env, 0, &info)?;
        Ok(out)
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_free<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    session: jlong,
    handle: jlong,
    reason: jint,
) -> jboolean {
    boundary_without_env(&mut env, "free", || {
        let session = session_ref(session)?;
        Ok(session.free(handle as u64, FreeReason::from_code(reason)?))
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_freeMany<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    session: jlong,
    handles: JLongArray<'l>,
    count: jint,
    reason: jint,
) -> jint {
    boundary(&mut env, "freeMany", |env| {
        let session = session_ref(session)?;
        let n = usize::try_from(count).unwrap_or(0).min(handles.len(env)?);
        let reason = FreeReason::from_code(reason)?;
        // In chunks through a buffer on the stack: freeing allocates nothing,
        // so it cannot fail for want of memory, however many handles come.
        let mut buf = [0i64; 512];
        let mut freed = 0;
        for start in (0..n).step_by(buf.len()) {
            let chunk = &mut buf[..(n - start).min(512)];
            // `start < n`, which is at most a Java array's length.
            let at = i32::try_from(start).unwrap_or(i32::MAX);
            handles.get_region(env, at, chunk)?;
            freed += session.free_many(as_handles(chunk), reason);
        }
        Ok(freed as jint)
    })
}

/// After a requested collection and cleanup: counts the request if a
/// collection actually ran (`SessionStats.gcRequests`), and moves the soft
/// threshold to `next_trigger` (`<= 0`: twice what is still live).
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_collected<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    session: jlong,
    count_request: jboolean,
    next_trigger: jlong,
) {
    boundary_without_env(&mut env, "collected", || {
        let session = session_ref(session)?;
        if count_request {
            session.count_gc_request();
        }
        session.collected(u64::try_from(next_trigger).ok().filter(|&b| b > 0));
        Ok(())
    })
}

/// Returns a new tensor's handle to Java; a negative value (`!handle`) also
/// tells the caller to request a garbage collection (memory pressure). Real
/// handles never have the sign bit set.
pub(super) fn signal(session: &Session, handle: u64) -> jlong {
    if session.take_gc_signal() {
        !(handle as jlong)
    } else {
        handle as jlong
    }
}

/// A deep copy of a tensor from one table into another (`constantOf`).
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_copyTensor<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    dst_session: jlong,
    src_session: jlong,
    handle: jlong,
) -> jlong {
    boundary(&mut env, "copyTensor", |_| {
        let (dst, src) = (session_ref(dst_session)?, session_ref(src_session)?);
        let t = src.tensor(handle as u64)?;
        Ok(signal(&dst, dst.insert(t.deep_copy(dst.account())?)?))
    })
}
