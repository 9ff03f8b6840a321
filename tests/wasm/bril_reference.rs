//! The quick community benchmarks, the bundled suite and some generated
//! programs, natively and under wasm32 (`wasm-bindgen-test`): the interpreter
//! must agree with brili on both platforms.
//!
//! The benchmarks come from `$OUT_DIR/bril_bench.rs`, written by `build.rs`
//! from `data/bril-community`; `tests/bril_reference.rs` insists on the folder
//! natively, so an empty list here is no silent pass there.

use compgym::bril::{self, interp};
use wasm_bindgen_test::wasm_bindgen_test;

include!(concat!(env!("OUT_DIR"), "/bril_bench.rs"));

/// Benchmarks above this many dynamic instructions are left to the native layer.
const QUICK: u64 = 1_000_000;

fn count(prof: &str) -> u64 {
    prof.trim().strip_prefix("total_dyn_inst:").and_then(|n| n.trim().parse().ok()).unwrap_or(u64::MAX)
}

#[wasm_bindgen_test(unsupported = test)]
fn quick_benchmarks_match_brili() {
    let mut ran = 0;
    for &(name, text, out, prof) in BRIL_BENCH {
        let want = count(prof);
        if want > QUICK {
            continue;
        }
        let program = bril::parse_text(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let o = interp::run(&program, &program.main_args(), &interp::Limits::default());
        assert!(o.result.is_ok(), "{name}: {:?}", o.result);
        assert_eq!(o.stdout, out, "{name}");
        assert_eq!(o.dyn_inst, want, "{name}");
        ran += 1;
    }
    assert!(BRIL_BENCH.is_empty() || ran > 40, "only {ran} quick benchmarks");
}

#[wasm_bindgen_test(unsupported = test)]
fn bundled_suite_runs_as_expected() {
    for b in bril::suite::all() {
        let p = b.program().unwrap();
        let o = interp::run(&p, &b.args(), &interp::Limits::default());
        assert_eq!(o.into_stdout().unwrap(), b.expected_output, "{}", b.name);
    }
}

/// FNV-1a of `generate_text(12345, 60)`, recorded natively.
const GENERATED_12345_60: u64 = 10029325043840806390;

fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

#[wasm_bindgen_test(unsupported = test)]
fn generated_programs_are_identical_and_run() {
    // The same seed gives the same program on every platform: compare a
    // fingerprint computed natively once.
    let text = bril::generator::generate_text(12345, 60);
    assert_eq!(fnv1a(&text), GENERATED_12345_60, "{text}");
    for seed in 0..50 {
        let p = bril::generator::generate(seed, 30).unwrap();
        let o = interp::run(&p, &p.main_args(), &interp::Limits::default());
        assert!(o.result.is_ok(), "seed {seed}: {:?}", o.result);
    }
}

/// FNV-1a of `v1::generate_text(12345, 300)` and of its output (an int
/// checksum and a float sum), recorded natively.
const RANDOM_V1_12345_300: (u64, u64) = (2371784028944924305, 9911045340407883638);

#[wasm_bindgen_test(unsupported = test)]
fn random_v1_programs_are_identical_and_run() {
    let text = bril::generator::v1::generate_text(12345, 300);
    let p = bril::parse_text(&text).unwrap();
    let out = interp::run(&p, &p.main_args(), &interp::Limits::default()).into_stdout().unwrap();
    assert_eq!((fnv1a(&text), fnv1a(&out)), RANDOM_V1_12345_300, "{out}\n{text}");
    for seed in 0..20 {
        let p = bril::generator::v1::generate(seed, 60).unwrap();
        let o = interp::run(&p, &p.main_args(), &interp::Limits::default());
        assert!(o.result.is_ok(), "seed {seed}: {:?}", o.result);
    }
}
