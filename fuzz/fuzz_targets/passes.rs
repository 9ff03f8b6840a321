#![no_main]
//! `cargo fuzz run passes`: see `compgym::fuzzing::passes`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| compgym::fuzzing::passes(data));
