//! Test-only exports: the `native` methods of `io.eagerflow.internal.TestHooks`,
//! a class in the Java test sources. They exist only with the `testing`
//! feature, which the test build of the library turns on; the library packed
//! into the jar exports none of them. Fault injection for tests goes here too.

use jni::EnvUnowned;
use jni::objects::{JClass, JString};
use jni::sys::{jboolean, jint};

use super::{Failure, boundary};
use crate::error::Error;
use crate::faults;

/// Panics with `message`, to show a panic becomes a `RuntimeException`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_TestHooks_panicForTest<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    message: JString<'l>,
) {
    boundary(&mut env, "panicForTest", |env| {
        let message = message.try_to_string(env)?;
        panic!("{message}")
    })
}

/// Returns error kind `kind` (0 to 4, in `Error`'s variant order), to show
/// each arrives as its Java exception.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_TestHooks_failForTest<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    kind: jint,
) {
    boundary(&mut env, "failForTest", |_| {
        Err(Failure::Core(match kind {
            0 => Error::invalid("test: invalid argument"),
            1 => Error::state("test: illegal state"),
            2 => Error::OutOfRange("test: out of range".into()),
            3 => Error::Unsupported("test: unsupported".into()),
            _ => Error::MemoryExhausted {
                requested: 1,
                live: 2,
                limit: Some(3),
            },
        }))
    })
}

/// Arms a fault for the next run of op `op` (canonical type name) on the
/// calling thread: kind 0 makes the allocator refuse its first buffer, kind 1
/// makes its kernel panic.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_TestHooks_armFaultForTest<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    op: JString<'l>,
    kind: jint,
) {
    boundary(&mut env, "armFaultForTest", |env| {
        let op = op.try_to_string(env)?;
        let fault = match kind {
            0 => faults::Fault::RefuseAllocation,
            1 => faults::Fault::Panic,
            _ => {
                return Err(Failure::Core(Error::invalid(format!(
                    "unknown fault kind {kind}"
                ))));
            }
        };
        faults::arm(&op, fault);
        Ok(())
    })
}

/// Disarms the calling thread's fault; true if it was still armed.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_TestHooks_disarmFaultForTest<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
) -> jboolean {
    boundary(&mut env, "disarmFaultForTest", |_| Ok(faults::disarm()))
}
