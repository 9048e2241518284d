//! The op tests, one test binary with a module per former test file.

mod common;
mod compare_cast;
mod linalg_nn_random;
mod math;
mod reduce;
mod registry_fuzz;
mod shape;
