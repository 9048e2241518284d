//! The op tests, one test binary: a module per op family, all on the session
//! wrapper in `common`, which frees everything at the end of each test and
//! checks that no byte or tensor is left.
#![allow(clippy::unwrap_used)]
// Tests and benchmarks size their data freely (clippy.toml guards the library).
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

mod array;
mod async_exec;
mod async_queue;
mod cnn;
mod common;
mod compare_cast;
mod decomp;
mod einsum;
mod halves;
mod linalg;
mod math;
mod nn;
mod oversized;
mod pressure;
mod random;
mod reduce;
mod registry_fuzz;
mod shape;
mod special;
mod strings;
