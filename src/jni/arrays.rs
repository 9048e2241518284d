//! The `native` methods of `io.eagerflow.internal.Native` that move
//! elements between Java primitive arrays and tensors, one set per element
//! type. HALF and BFLOAT16 cross as Java `float`s and UINT16 as `short`s,
//! converted in chunks on the stack (no temporary as large as the array).

use jni::EnvUnowned;
use jni::objects::{
    JBooleanArray, JByteArray, JClass, JDoubleArray, JFloatArray, JIntArray, JLongArray,
    JPrimitiveArray, JShortArray, TypeArray,
};
use jni::sys::{jint, jlong};

use super::exports::{index, signal};
use super::{
    Failure, as_java_bytes, as_java_bytes_mut, boundary, boundary_without_env, copy_from_java,
    copy_to_java, session_ref, shape_of,
};
use crate::dtype::{DataType, bf16, bf16_from_java, f16, f16_from_java};
use crate::error::Error;

/// Per element type: create from a Java array, bulk read, bulk write, and
/// read one element. Arrays cross in one region copy, never per element.
macro_rules! typed_exports {
    ($t:ty, $jt:ty, $jarray:ident, $from:ident, $read:ident, $write:ident, $get:ident) => {
        #[unsafe(no_mangle)]
        pub extern "system" fn $from<'l>(
            mut env: EnvUnowned<'l>,
            _class: JClass<'l>,
            session: jlong,
            shape: JLongArray<'l>,
            data: $jarray<'l>,
        ) -> jlong {
            boundary(&mut env, stringify!($from), |env| {
                let session = session_ref(session)?;
                let n = data.len(env)?;
                let shape = shape_of(env, &shape, session.account(), n, "elements")?;
                let mut a = crate::tensor::Allocation::<$t>::new_initialized(session.account(), n)?;
                <$t as JavaCopy<$jt>>::fill(env, &data, &mut a.data)?;
                Ok(signal(&session, session.insert(a.into_tensor(shape)?)?))
            })
        }

        #[unsafe(no_mangle)]
        pub extern "system" fn $read<'l>(
            mut env: EnvUnowned<'l>,
            _class: JClass<'l>,
            session: jlong,
            handle: jlong,
            offset: jlong,
            dst: $jarray<'l>,
        ) {
            boundary(&mut env, stringify!($read), |env| {
                let session = session_ref(session)?;
                let t = session.tensor(handle as u64)?;
                let src = t.as_slice::<$t>()?;
                let offset = index(offset, "offset")?;
                let n = dst.len(env)?;
                let part = offset
                    .checked_add(n)
                    .and_then(|end| src.get(offset..end))
                    .ok_or_else(|| {
                        Failure::Core(Error::OutOfRange(format!(
                            "reading {n} elements at {offset} from a tensor of {}",
                            src.len()
                        )))
                    })?;
                <$t as JavaCopy<$jt>>::store(env, &dst, part)
            })
        }

        #[unsafe(no_mangle)]
        pub extern "system" fn $write<'l>(
            mut env: EnvUnowned<'l>,
            _class: JClass<'l>,
            session: jlong,
            handle: jlong,
            offset: jlong,
            src: $jarray<'l>,
        ) {
            boundary(&mut env, stringify!($write), |env| {
                let session = session_ref(session)?;
                // Straight into the tensor, after the range is checked: no
                // temporary as large as the caller's array.
                let len = src.len(env)?;
                session.write_with::<$t, Failure>(
                    handle as u64,
                    index(offset, "offset")?,
                    len,
                    |dst| <$t as JavaCopy<$jt>>::fill(env, &src, dst),
                )
            })
        }

        #[unsafe(no_mangle)]
        pub extern "system" fn $get<'l>(
            mut env: EnvUnowned<'l>,
            _class: JClass<'l>,
            session: jlong,
            handle: jlong,
            at: jlong,
        ) -> $jt {
            boundary_without_env(&mut env, stringify!($get), || {
                let session = session_ref(session)?;
                let t = session.tensor(handle as u64)?;
                let src = t.as_slice::<$t>()?;
                let i = index(at, "index")?;
                let v = src.get(i).ok_or_else(|| {
                    Failure::Core(Error::OutOfRange(format!(
                        "index {i} is out of range for a tensor of {} elements",
                        src.len()
                    )))
                })?;
                Ok(<$t as JavaCopy<$jt>>::to_java(*v))
            })
        }
    };
}

/// Bulk copies between Java primitive arrays and Rust elements: straight
/// region copies when the types agree, converting otherwise (`byte` for UINT8).
trait JavaCopy<J: TypeArray>: Sized + Copy {
    fn fill(
        env: &jni::Env<'_>,
        src: &JPrimitiveArray<'_, J>,
        out: &mut [Self],
    ) -> Result<(), Failure>;
    fn store(env: &jni::Env<'_>, dst: &JPrimitiveArray<'_, J>, src: &[Self])
    -> Result<(), Failure>;
    fn to_java(self) -> J;
}

impl<T: TypeArray> JavaCopy<T> for T {
    fn fill(
        env: &jni::Env<'_>,
        src: &JPrimitiveArray<'_, T>,
        out: &mut [T],
    ) -> Result<(), Failure> {
        copy_from_java(env, src, out)
    }

    fn store(env: &jni::Env<'_>, dst: &JPrimitiveArray<'_, T>, src: &[T]) -> Result<(), Failure> {
        copy_to_java(env, dst, src)
    }

    fn to_java(self) -> T {
        self
    }
}

impl JavaCopy<i8> for u8 {
    fn fill(
        env: &jni::Env<'_>,
        src: &JPrimitiveArray<'_, i8>,
        out: &mut [u8],
    ) -> Result<(), Failure> {
        copy_from_java(env, src, as_java_bytes_mut(out))
    }

    fn store(env: &jni::Env<'_>, dst: &JPrimitiveArray<'_, i8>, src: &[u8]) -> Result<(), Failure> {
        copy_to_java(env, dst, as_java_bytes(src))
    }

    fn to_java(self) -> i8 {
        self as i8
    }
}

typed_exports!(
    f32,
    f32,
    JFloatArray,
    Java_io_eagerflow_internal_Native_fromFloats,
    Java_io_eagerflow_internal_Native_readFloats,
    Java_io_eagerflow_internal_Native_writeFloats,
    Java_io_eagerflow_internal_Native_getFloat
);
typed_exports!(
    f64,
    f64,
    JDoubleArray,
    Java_io_eagerflow_internal_Native_fromDoubles,
    Java_io_eagerflow_internal_Native_readDoubles,
    Java_io_eagerflow_internal_Native_writeDoubles,
    Java_io_eagerflow_internal_Native_getDouble
);
typed_exports!(
    i32,
    i32,
    JIntArray,
    Java_io_eagerflow_internal_Native_fromInts,
    Java_io_eagerflow_internal_Native_readInts,
    Java_io_eagerflow_internal_Native_writeInts,
    Java_io_eagerflow_internal_Native_getInt
);
typed_exports!(
    i64,
    i64,
    JLongArray,
    Java_io_eagerflow_internal_Native_fromLongs,
    Java_io_eagerflow_internal_Native_readLongs,
    Java_io_eagerflow_internal_Native_writeLongs,
    Java_io_eagerflow_internal_Native_getLong
);
typed_exports!(
    u8,
    i8,
    JByteArray,
    Java_io_eagerflow_internal_Native_fromBytes,
    Java_io_eagerflow_internal_Native_readBytes,
    Java_io_eagerflow_internal_Native_writeBytes,
    Java_io_eagerflow_internal_Native_getByte
);
typed_exports!(
    bool,
    bool,
    JBooleanArray,
    Java_io_eagerflow_internal_Native_fromBooleans,
    Java_io_eagerflow_internal_Native_readBooleans,
    Java_io_eagerflow_internal_Native_writeBooleans,
    Java_io_eagerflow_internal_Native_getBoolean
);

/// Elements per stack chunk of a converting copy.
const CHUNK: usize = 512;

/// A converting copy from a Java array into `out`, `CHUNK` elements at a
/// time through a stack buffer.
fn fill_converted<J: TypeArray + Default + Copy, T>(
    env: &jni::Env<'_>,
    src: &JPrimitiveArray<'_, J>,
    out: &mut [T],
    convert: impl Fn(J) -> T,
) -> Result<(), Failure> {
    let mut buf = [J::default(); CHUNK];
    for (c, part) in out.chunks_mut(CHUNK).enumerate() {
        let chunk = &mut buf[..part.len()];
        src.get_region(env, java_index(c * CHUNK)?, chunk)?;
        for (o, &v) in part.iter_mut().zip(chunk.iter()) {
            *o = convert(v);
        }
    }
    Ok(())
}

/// A converting copy of `src` into a Java array, `CHUNK` at a time.
fn store_converted<J: TypeArray + Default + Copy, T: Copy>(
    env: &jni::Env<'_>,
    dst: &JPrimitiveArray<'_, J>,
    src: &[T],
    convert: impl Fn(T) -> J,
) -> Result<(), Failure> {
    let mut buf = [J::default(); CHUNK];
    for (c, part) in src.chunks(CHUNK).enumerate() {
        let chunk = &mut buf[..part.len()];
        for (o, &v) in chunk.iter_mut().zip(part) {
            *o = convert(v);
        }
        dst.set_region(env, java_index(c * CHUNK)?, chunk)?;
    }
    Ok(())
}

/// An offset into a Java array (whose length is a `jint`).
fn java_index(i: usize) -> Result<i32, Failure> {
    i32::try_from(i)
        .map_err(|_| Failure::Core(Error::invalid(format!("index {i} past a Java array"))))
}

/// HALF as Java `float`: rounded to nearest even on the way in, NaN made
/// `0x7e00` (as TensorFlow Java's `Float16Layout`), exact on the way out.
impl JavaCopy<f32> for f16 {
    fn fill(
        env: &jni::Env<'_>,
        src: &JPrimitiveArray<'_, f32>,
        out: &mut [f16],
    ) -> Result<(), Failure> {
        fill_converted(env, src, out, f16_from_java)
    }

    fn store(
        env: &jni::Env<'_>,
        dst: &JPrimitiveArray<'_, f32>,
        src: &[f16],
    ) -> Result<(), Failure> {
        store_converted(env, dst, src, f16::to_f32)
    }

    fn to_java(self) -> f32 {
        self.to_f32()
    }
}

/// BFLOAT16 as Java `float`: the low 16 bits dropped on the way in, as
/// TensorFlow Java's `Bfloat16Layout` does (see `bf16_from_java`).
impl JavaCopy<f32> for bf16 {
    fn fill(
        env: &jni::Env<'_>,
        src: &JPrimitiveArray<'_, f32>,
        out: &mut [bf16],
    ) -> Result<(), Failure> {
        fill_converted(env, src, out, bf16_from_java)
    }

    fn store(
        env: &jni::Env<'_>,
        dst: &JPrimitiveArray<'_, f32>,
        src: &[bf16],
    ) -> Result<(), Failure> {
        store_converted(env, dst, src, bf16::to_f32)
    }

    fn to_java(self) -> f32 {
        self.to_f32()
    }
}

/// UINT16 as Java `short`: the same 16 bits.
impl JavaCopy<i16> for u16 {
    fn fill(
        env: &jni::Env<'_>,
        src: &JPrimitiveArray<'_, i16>,
        out: &mut [u16],
    ) -> Result<(), Failure> {
        fill_converted(env, src, out, |v: i16| v as u16)
    }

    fn store(
        env: &jni::Env<'_>,
        dst: &JPrimitiveArray<'_, i16>,
        src: &[u16],
    ) -> Result<(), Failure> {
        store_converted(env, dst, src, |v: u16| v as i16)
    }

    fn to_java(self) -> i16 {
        self as i16
    }
}

typed_exports!(
    f16,
    f32,
    JFloatArray,
    Java_io_eagerflow_internal_Native_fromHalfFloats,
    Java_io_eagerflow_internal_Native_readHalfFloats,
    Java_io_eagerflow_internal_Native_writeHalfFloats,
    Java_io_eagerflow_internal_Native_getHalfFloat
);
typed_exports!(
    bf16,
    f32,
    JFloatArray,
    Java_io_eagerflow_internal_Native_fromBfloat16s,
    Java_io_eagerflow_internal_Native_readBfloat16s,
    Java_io_eagerflow_internal_Native_writeBfloat16s,
    Java_io_eagerflow_internal_Native_getBfloat16
);
typed_exports!(
    u16,
    i16,
    JShortArray,
    Java_io_eagerflow_internal_Native_fromShorts,
    Java_io_eagerflow_internal_Native_readShorts,
    Java_io_eagerflow_internal_Native_writeShorts,
    Java_io_eagerflow_internal_Native_getShort
);

/// A HALF, BFLOAT16 or UINT16 tensor from 16-bit patterns (raw tensor bytes
/// from Java, NaN payloads kept).
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_eagerflow_internal_Native_fromBits16<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    session: jlong,
    dtype: jint,
    shape: JLongArray<'l>,
    data: JShortArray<'l>,
) -> jlong {
    boundary(&mut env, "fromBits16", |env| {
        let session = session_ref(session)?;
        let n = data.len(env)?;
        let shape = shape_of(env, &shape, session.account(), n, "elements")?;
        let account = session.account();
        let tensor = match DataType::from_code(dtype)? {
            DataType::Half => bits16(env, &data, account, n, f16::from_bits)?.into_tensor(shape),
            DataType::BFloat16 => {
                bits16(env, &data, account, n, bf16::from_bits)?.into_tensor(shape)
            }
            DataType::UInt16 => bits16(env, &data, account, n, |b| b)?.into_tensor(shape),
            d => Err(Error::invalid(format!(
                "16-bit patterns cannot make a {d} tensor"
            ))),
        }?;
        Ok(signal(&session, session.insert(tensor)?))
    })
}

fn bits16<T: crate::dtype::Element>(
    env: &jni::Env<'_>,
    data: &JShortArray<'_>,
    account: &std::sync::Arc<crate::memory::MemoryAccount>,
    n: usize,
    from_bits: fn(u16) -> T,
) -> Result<crate::tensor::Allocation<T>, Failure> {
    let mut a = crate::tensor::Allocation::<T>::new_initialized(account, n)?;
    fill_converted(env, data, &mut a.data, |v: i16| from_bits(v as u16))?;
    Ok(a)
}
