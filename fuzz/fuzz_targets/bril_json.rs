#![no_main]
//! `cargo fuzz run bril_json`: see `compgym::fuzzing::bril_json`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| compgym::fuzzing::bril_json(data));
