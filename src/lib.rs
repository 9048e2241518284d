//! eagerflow: an eager tensor runtime whose Java face mirrors TensorFlow
//! Java's eager API. Kernels and sessions know nothing of the JVM; `jni`
//! is the only module that does.

pub mod dtype;
pub mod error;
pub mod executor;
pub mod faults;
pub mod handles;
pub mod memory;
pub mod ops;
mod panics;
pub mod pool;
pub mod scratch;
pub mod session;
pub mod sessions;
pub mod strings;
pub mod tensor;
mod wire;

mod jni;

pub use dtype::{DataType, Element};
pub use error::{Error, Result};
pub use memory::MemoryAccount;
pub use ops::{AttrValue, Attrs, Registry};
pub use session::{FreeReason, Outputs, Session, SessionOptions, SessionStats};
pub use tensor::Tensor;

/// The library's version, as Java reports it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
