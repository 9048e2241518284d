//! The JNI boundary: the only module that touches JNI types or `unsafe`.
//!
//! Every export has one shape: [`boundary`] decodes arguments, calls the safe
//! core, encodes the result, and turns an `Err` or a panic into a pending Java
//! exception with a neutral return value. Test-only exports (panics and
//! errors on purpose, fault injection) live in `testing`, which exists only
//! with the `testing` feature.

mod arrays;
mod exports;
mod process;
mod strings;
#[cfg(feature = "testing")]
mod testing;

use std::any::Any;
use std::ffi::c_void;

use jni::errors::ErrorPolicy;
use jni::objects::{JLongArray, JPrimitiveArray, TypeArray};
use jni::strings::JNIString;
use jni::sys::{jint, jlong};
use jni::{Env, EnvUnowned, jni_str};

use std::sync::Arc;

use crate::alloc::MAX_RANK;
use crate::error::Error;
use crate::memory::MemoryAccount;
use crate::scratch::Scratch;
use crate::sessions::{self, SessionRef};

/// What can go wrong inside an export.
enum Failure {
    Core(Error),
    Jni(jni::errors::Error),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        Failure::Core(e)
    }
}

impl From<jni::errors::Error> for Failure {
    fn from(e: jni::errors::Error) -> Failure {
        Failure::Jni(e)
    }
}

type Res<T> = std::result::Result<T, Failure>;

/// Maps core errors by variant to TensorFlow Java's exception classes in
/// `io.eagerflow.exceptions`, each a subclass of the JDK exception (or
/// `NativeMemoryExhaustedException`) thrown for that case before, and panics to a
/// `RuntimeException` naming the export, with the panic's message, location
/// and backtrace (and, from a kernel, the op and its inputs; see `panics`).
struct ThrowJava;

fn exception_class(e: &Error) -> &'static jni::strings::JNIStr {
    match e {
        Error::InvalidArgument(_) => {
            jni_str!("io/eagerflow/exceptions/TFInvalidArgumentException")
        }
        Error::IllegalState(_) => jni_str!("io/eagerflow/exceptions/TFFailedPreconditionException"),
        Error::OutOfRange(_) => jni_str!("io/eagerflow/exceptions/TFOutOfRangeException"),
        Error::Unsupported(_) => jni_str!("java/lang/UnsupportedOperationException"),
        Error::MemoryExhausted { .. } => {
            jni_str!("io/eagerflow/exceptions/TFResourceExhaustedException")
        }
        Error::Panicked(_) => jni_str!("java/lang/RuntimeException"),
    }
}

impl<T: Default> ErrorPolicy<T, Failure> for ThrowJava {
    type Captures<'unowned_env_local: 'native_method, 'native_method> = &'static str;

    fn on_error<'unowned_env_local: 'native_method, 'native_method>(
        env: &mut Env<'unowned_env_local>,
        what: &mut &'static str,
        err: Failure,
    ) -> jni::errors::Result<T> {
        if env.exception_check() {
            // A Java exception is already pending (thrown by a JNI call); it wins.
            return Ok(T::default());
        }
        match err {
            Failure::Core(e) => env.throw_new(exception_class(&e), JNIString::from(e.to_string())),
            // A null or too short array argument: the JDK's exceptions for these.
            Failure::Jni(jni::errors::Error::NullPtr(arg)) => env.throw_new(
                jni_str!("java/lang/NullPointerException"),
                JNIString::from(format!("{what}: null {arg}")),
            ),
            Failure::Jni(jni::errors::Error::IndexOutOfBounds) => env.throw_new(
                jni_str!("java/lang/IndexOutOfBoundsException"),
                JNIString::from(format!("{what}: array region out of bounds")),
            ),
            Failure::Jni(e) => env.throw_new(
                jni_str!("java/lang/RuntimeException"),
                JNIString::from(format!("eagerflow JNI failure in {what}: {e}")),
            ),
        }
        .or_else(|e| match e {
            jni::errors::Error::JavaException => Ok(()),
            e => Err(e),
        })?;
        Ok(T::default())
    }

    fn on_panic<'unowned_env_local: 'native_method, 'native_method>(
        env: &mut Env<'unowned_env_local>,
        what: &mut &'static str,
        payload: Box<dyn Any + Send + 'static>,
    ) -> jni::errors::Result<T> {
        if env.exception_check() {
            env.exception_clear();
        }
        let msg = format!(
            "eagerflow panicked in {what}: {}",
            crate::panics::describe(payload.as_ref())
        );
        match env.throw_new(jni_str!("java/lang/RuntimeException"), JNIString::from(msg)) {
            Ok(()) | Err(jni::errors::Error::JavaException) => Ok(T::default()),
            Err(e) => Err(e),
        }
    }
}

/// Called by the JVM when it loads the library: installs the panic hook
/// that keeps each panic's location and backtrace for its exception.
#[unsafe(no_mangle)]
pub extern "system" fn JNI_OnLoad(_vm: *mut jni::sys::JavaVM, _reserved: *mut c_void) -> jint {
    // Nothing may unwind into the JVM, not even from here.
    let _ = std::panic::catch_unwind(|| crate::panics::install_hook(false));
    jni::sys::JNI_VERSION_1_8
}

/// The one choke point every export goes through.
fn boundary<'local, T: Default>(
    env: &mut EnvUnowned<'local>,
    what: &'static str,
    f: impl FnOnce(&mut Env<'local>) -> Res<T>,
) -> T {
    env.with_env(f).resolve_with::<ThrowJava, _>(|| what)
}

/// [`boundary`] for exports that make no JNI call (the op and free paths):
/// the `jni` crate's environment guard costs tens of nanoseconds a call, so it
/// is set up only to throw, when `f` fails or panics. A panic is caught here
/// and resumed inside that guard, where `ThrowJava` turns it into the same
/// exception (the panic hook already kept its location and backtrace).
fn boundary_without_env<'local, T: Default>(
    env: &mut EnvUnowned<'local>,
    what: &'static str,
    f: impl FnOnce() -> Res<T>,
) -> T {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(Ok(value)) => value,
        Ok(Err(failure)) => boundary(env, what, |_| Err(failure)),
        Err(payload) => boundary(env, what, |_| std::panic::resume_unwind(payload)),
    }
}

/// The session behind an id from Java: a generation-checked lookup, so a
/// closed, stale or forged id is an `IllegalStateException`. 0 names the
/// process-wide table of standalone tensors.
fn session_ref(id: jlong) -> Res<SessionRef> {
    Ok(sessions::lookup(id as u64)?)
}

/// Copies a Java `long[]` (or `null`, giving nothing) in one call, into a
/// temporary reserved fallibly and counted against `account` when large.
fn long_array(
    env: &Env<'_>,
    array: &JLongArray<'_>,
    account: &Arc<MemoryAccount>,
) -> Res<Scratch<i64>> {
    long_array_within(env, array, account, Ok)
}

/// As [`long_array`], with the length (read once) passed through `check`
/// before anything is allocated: an op's input handles meet
/// `session::check_inputs` here, not in a second read of the length.
fn long_array_within(
    env: &Env<'_>,
    array: &JLongArray<'_>,
    account: &Arc<MemoryAccount>,
    check: impl FnOnce(usize) -> crate::error::Result<usize>,
) -> Res<Scratch<i64>> {
    let n = if array.is_null() { 0 } else { array.len(env)? };
    let n = check(n)?;
    let mut v = Scratch::filled(account, n, 0i64)?;
    if n > 0 {
        array.get_region(env, 0, &mut v)?;
    }
    Ok(v)
}

/// Tensor handles as Java passes them (`long`), seen as the core's `u64`.
fn as_handles(v: &[i64]) -> &[u64] {
    // SAFETY: i64 and u64 have the same size and alignment, and every bit
    // pattern is valid in both; the slice borrows `v` for its lifetime.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u64>(), v.len()) }
}

/// UINT8 elements seen as Java's `byte`, for region copies without a
/// converted temporary.
fn as_java_bytes(v: &[u8]) -> &[i8] {
    // SAFETY: u8 and i8 have the same size and alignment, and every bit
    // pattern is valid in both; the slice borrows `v` for its lifetime.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<i8>(), v.len()) }
}

/// [`as_java_bytes`] for writing.
fn as_java_bytes_mut(v: &mut [u8]) -> &mut [i8] {
    // SAFETY: as in `as_java_bytes`; the exclusive borrow of `v` is moved
    // into the returned slice, so nothing else reads or writes it meanwhile.
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<i8>(), v.len()) }
}

/// Converts dimensions from Java, rejecting negative ones and ranks past
/// TensorFlow's maximum.
fn dims(shape: &[i64]) -> Res<Vec<usize>> {
    if shape.len() > MAX_RANK {
        return Err(Failure::Core(Error::invalid(format!(
            "a shape of rank {} is more than the maximum of {MAX_RANK}",
            shape.len()
        ))));
    }
    shape
        .iter()
        .map(|&d| {
            usize::try_from(d).map_err(|_| {
                Failure::Core(Error::invalid(format!(
                    "shape {shape:?} has a negative dimension"
                )))
            })
        })
        .collect()
}

/// The dimensions of a Java `shape` whose element count must be `given`,
/// the length of the caller's array of `what` (elements, or string lengths).
fn shape_of(
    env: &Env<'_>,
    shape: &JLongArray<'_>,
    account: &Arc<MemoryAccount>,
    given: usize,
    what: &str,
) -> Res<Vec<usize>> {
    let shape = dims(&long_array(env, shape, account)?)?;
    let n = crate::tensor::num_elements(&shape)?;
    if given != n {
        return Err(Failure::Core(Error::invalid(format!(
            "shape {shape:?} needs {n} {what} but {given} were given"
        ))));
    }
    Ok(shape)
}

/// Arrays of at least this many elements are copied through the JVM's
/// pointer to their elements (`GetPrimitiveArrayCritical`) instead of
/// `Get/Set<Type>ArrayRegion`, which HotSpot copies element by element to keep
/// each element's write atomic: a plain `memcpy` is the difference between
/// reading a tensor back at the memory's speed or at about half of it.
const CRITICAL_COPY_FROM: usize = 4096;

/// The most elements copied while the JVM's collector is held off (a
/// critical region blocks garbage collections); a larger copy takes the
/// elements again for each part, so a collection waits at most for one part.
const CRITICAL_PART: usize = 1 << 18;

/// Copies `src` into the Java array `dst`, which has exactly `src.len()`
/// elements.
fn copy_to_java<T: TypeArray + Copy>(
    env: &Env<'_>,
    dst: &JPrimitiveArray<'_, T>,
    src: &[T],
) -> Res<()> {
    if src.len() < CRITICAL_COPY_FROM {
        dst.set_region(env, 0, src)?;
        return Ok(());
    }
    for (i, part) in src.chunks(CRITICAL_PART).enumerate() {
        let at = i * CRITICAL_PART;
        with_elements(env, dst, src.len(), |elements| {
            elements[at..at + part.len()].copy_from_slice(part);
        })?;
    }
    Ok(())
}

/// Copies the Java array `src`, which has exactly `dst.len()` elements, into
/// `dst`.
fn copy_from_java<T: TypeArray + Copy>(
    env: &Env<'_>,
    src: &JPrimitiveArray<'_, T>,
    dst: &mut [T],
) -> Res<()> {
    if dst.len() < CRITICAL_COPY_FROM {
        src.get_region(env, 0, dst)?;
        return Ok(());
    }
    let len = dst.len();
    for (i, part) in dst.chunks_mut(CRITICAL_PART).enumerate() {
        let at = i * CRITICAL_PART;
        with_elements(env, src, len, |elements| {
            part.copy_from_slice(&elements[at..at + part.len()]);
        })?;
    }
    Ok(())
}

/// Runs `f` on the elements of `array` (which has `len` of them) inside a
/// critical region. `f` must make no JNI call; the region ends when it
/// returns, or unwinds.
fn with_elements<T: TypeArray, R>(
    env: &Env<'_>,
    array: &JPrimitiveArray<'_, T>,
    len: usize,
    f: impl FnOnce(&mut [T]) -> R,
) -> Res<R> {
    /// Ends the critical region, also when `f` unwinds.
    struct Region {
        env: *mut jni::sys::JNIEnv,
        array: jni::sys::jarray,
        elements: *mut c_void,
    }
    impl Drop for Region {
        fn drop(&mut self) {
            // SAFETY: `elements` came from GetPrimitiveArrayCritical on this
            // `env` and `array` and is released exactly once, here; mode 0
            // writes a copy back if the JVM made one.
            unsafe {
                ((**self.env).v1_2.ReleasePrimitiveArrayCritical)(
                    self.env,
                    self.array,
                    self.elements,
                    0,
                )
            }
        }
    }
    let raw = env.get_raw();
    let array = array.as_raw() as jni::sys::jarray;
    // SAFETY: `raw` is this thread's valid JNIEnv (an `Env` holds one) and
    // `array` a live local reference to a primitive array. Between here and
    // the release no other JNI function is called (`jni`'s own wrapper would
    // check for exceptions inside the region, which -Xcheck:jni reports).
    let elements =
        unsafe { ((**raw).v1_2.GetPrimitiveArrayCritical)(raw, array, std::ptr::null_mut()) };
    if elements.is_null() {
        // The JVM threw (OutOfMemoryError); `ThrowJava` leaves it pending.
        return Err(Failure::Jni(jni::errors::Error::JavaException));
    }
    let region = Region {
        env: raw,
        array,
        elements,
    };
    // SAFETY: the JVM guarantees `elements` points to the array's `len`
    // elements of `T` (the caller read `len` from the array), valid and not
    // moved until the release in `region`'s drop; nothing else in this
    // process writes a Java array's elements from native code meanwhile, and
    // Java threads racing on the array are the caller's data race, as with
    // `Set<Type>ArrayRegion`.
    let elements = unsafe { std::slice::from_raw_parts_mut(region.elements.cast::<T>(), len) };
    let out = f(elements);
    drop(region);
    Ok(out)
}
