//! Sessions (synchronous and asynchronous, tiny to unlimited caps) created,
//! used, freed and closed in any order, from the calls the JNI layer makes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| eagerflow_fuzz::session::run(data));
