#![no_main]
//! `cargo fuzz run bril_text`: see `compgym::fuzzing::bril_text`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| compgym::fuzzing::bril_text(data));
