#![no_main]
//! `cargo fuzz run protocol`: see `compgym::fuzzing::protocol`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| compgym::fuzzing::protocol(data));
