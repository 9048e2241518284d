//! The crate's one error type. Each variant maps to one Java exception class
//! (see `jni::exception_class`: TensorFlow Java's names from
//! `io.eagerflow.exceptions`, subclasses of the JDK classes named below); the
//! message is what the Java caller reads.

/// Errors from the core. Messages name the op, operand, shapes or dtypes involved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Bad shapes, dtypes, attributes, arguments or an unknown op: `IllegalArgumentException`.
    #[error("{0}")]
    InvalidArgument(String),
    /// A freed handle, a released operand, or a closed session: `IllegalStateException`.
    #[error("{0}")]
    IllegalState(String),
    /// An index out of range (output index, element coordinates): `IndexOutOfBoundsException`.
    #[error("{0}")]
    OutOfRange(String),
    /// A feature that exists in the API but not (yet) here: `UnsupportedOperationException`.
    #[error("{0}")]
    Unsupported(String),
    /// A kernel that panicked on an asynchronous session's executor, reported
    /// at reads of its output as a panic on the calling thread would be:
    /// `RuntimeException`.
    #[error("{0}")]
    Panicked(String),
    /// The hard byte limit or the allocator said no: `NativeMemoryExhaustedException`.
    #[error(
        "native memory exhausted: requested {requested} bytes with {live} bytes live{}",
        match limit { Some(l) => format!(" and a limit of {l} bytes"), None => " (allocation failed)".to_string() }
    )]
    MemoryExhausted {
        requested: u64,
        live: u64,
        limit: Option<u64>,
    },
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn invalid(msg: impl Into<String>) -> Error {
        Error::InvalidArgument(msg.into())
    }

    pub fn state(msg: impl Into<String>) -> Error {
        Error::IllegalState(msg.into())
    }

    /// Prefixes the message with the op's name, unless it already starts with it.
    pub fn in_op(self, op: &str) -> Error {
        let prefix = |m: String| {
            if m.starts_with(op) {
                m
            } else {
                format!("{op}: {m}")
            }
        };
        match self {
            Error::InvalidArgument(m) => Error::InvalidArgument(prefix(m)),
            Error::IllegalState(m) => Error::IllegalState(prefix(m)),
            Error::OutOfRange(m) => Error::OutOfRange(prefix(m)),
            Error::Unsupported(m) => Error::Unsupported(prefix(m)),
            e @ (Error::MemoryExhausted { .. } | Error::Panicked(_)) => e,
        }
    }
}

/// Returns `Err(Error::InvalidArgument)` with a formatted message.
#[macro_export]
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err($crate::error::Error::InvalidArgument(format!($($arg)*)))
    };
}
