//! Runs the space micro benchmarks under wasm32 and prints the numbers:
//! `cargo test --release --target wasm32-unknown-unknown --test wasm_bench -- --nocapture`.
#![cfg(target_arch = "wasm32")]

use compgym::spaces::bench::{format_results, run_benchmarks};
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

#[wasm_bindgen_test]
fn space_benchmarks() {
    let mut clock = || js_sys::Date::now() / 1000.0;
    let results = run_benchmarks(&mut clock, 0.3);
    console_log!("{}", format_results(&results));
    assert!(results.iter().all(|r| r.per_second > 0.0));
}
