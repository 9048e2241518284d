//! Any op by name (known, alias or garbage) with generated inputs, list
//! lengths and attributes, through the calls the JNI layer makes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| eagerflow_fuzz::registry::run(data));
