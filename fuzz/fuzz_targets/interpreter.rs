#![no_main]
//! `cargo fuzz run interpreter`: see `compgym::fuzzing::interpreter`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| compgym::fuzzing::interpreter(data));
