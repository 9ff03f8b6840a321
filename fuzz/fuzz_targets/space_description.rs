#![no_main]
//! `cargo fuzz run space_description`: see `compgym::fuzzing::space_description`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| compgym::fuzzing::space_description(data));
