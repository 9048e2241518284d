//! String tensors across JNI: one `byte[]` of every element's bytes back to
//! back and one `int[]` of their lengths, each in one region copy; never a
//! call per element.

use jni::EnvUnowned;
use jni::objects::{JByteArray, JClass, JIntArray, JLongArray};
use jni::sys::jlong;

use super::exports::signal;
use super::{Failure, as_java_bytes, as_java_bytes_mut, boundary, session_ref, shape_of};
use crate::error::Error;
use crate::scratch::Scratch;
use crate::strings::StringAllocation;

/// A STRING tensor of `shape` in `session` (0: standalone): element `i` is
/// the next `lengths[i]` bytes of `data`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_fromStrings<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    session: jlong,
    shape: JLongArray<'l>,
    data: JByteArray<'l>,
    lengths: JIntArray<'l>,
) -> jlong {
    boundary(&mut env, "fromStrings", |env| {
        let session = session_ref(session)?;
        let n = lengths.len(env)?;
        let shape = shape_of(env, &shape, session.account(), n, "string lengths")?;
        let mut lens = Scratch::filled(session.account(), n, 0i32)?;
        lengths.get_region(env, 0, &mut lens)?;
        let total = data.len(env)?;
        let t = StringAllocation::new(session.account(), n, total)?.fill_raw(
            shape,
            &lens,
            |dst| -> Result<(), Failure> {
                data.get_region(env, 0, as_java_bytes_mut(dst))?;
                Ok(())
            },
        )?;
        Ok(signal(&session, session.insert(t)?))
    })
}

/// Every element of a STRING tensor: returns their bytes back to back and
/// writes each one's length into `lengths` (one per element).
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_readStrings<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    session: jlong,
    handle: jlong,
    lengths: JIntArray<'l>,
) -> JByteArray<'l> {
    boundary(&mut env, "readStrings", |env| {
        let session = session_ref(session)?;
        let t = session.tensor(handle as u64)?;
        let s = t.strings()?;
        let count = lengths.len(env)?;
        if count != s.len() {
            return Err(Failure::Core(Error::OutOfRange(format!(
                "{count} lengths for a tensor of {} strings",
                s.len()
            ))));
        }
        let mut lens = Scratch::filled(session.account(), s.len(), 0i32)?;
        for (dst, l) in lens.iter_mut().zip(s.lengths()) {
            *dst = i32::try_from(l).map_err(|_| {
                Error::OutOfRange(format!("a string of {l} bytes is too long for Java"))
            })?;
        }
        let bytes = s.bytes();
        let total = i32::try_from(bytes.len()).map_err(|_| {
            Error::OutOfRange(format!(
                "{} bytes of strings do not fit in a Java array",
                bytes.len()
            ))
        })?;
        let out = env.new_byte_array(total as usize)?;
        out.set_region(env, 0, as_java_bytes(bytes))?;
        lengths.set_region(env, 0, &lens)?;
        Ok(out)
    })
}
