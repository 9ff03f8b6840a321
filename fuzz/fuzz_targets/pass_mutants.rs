#![no_main]
//! `cargo fuzz run pass_mutants`: see `compgym::fuzzing::pass_mutants`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| compgym::fuzzing::pass_mutants(data));
