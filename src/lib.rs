//! eagerflow: an eager tensor runtime whose Java face mirrors TensorFlow
//! Java's eager API. Kernels and sessions know nothing of the JVM; `jni`
//! is the only module that does.

// Tests may size their data freely; the library itself may not (`alloc`).
#![cfg_attr(test, allow(clippy::disallowed_methods, clippy::disallowed_macros))]

pub mod alloc;
mod dtype;
mod error;
pub mod executor;
mod faults;
mod handles;
mod memory;
pub mod ops;
mod panics;
pub mod pool;
mod scratch;
mod session;
pub mod sessions;
pub mod strings;
mod tensor;
pub mod wire;

mod jni;

pub use dtype::{DataType, Element, bf16, f16};
pub use error::{Error, Result};
pub use memory::MemoryAccount;
pub use ops::{AttrValue, Attrs, Registry};
pub use session::{FreeReason, Outputs, ProcessStats, Session, SessionOptions, SessionStats};
pub use tensor::Tensor;

/// The library's version, as Java reports it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
