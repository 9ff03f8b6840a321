//! Random sequences of passes keep every program well formed and its output
//! unchanged: the bundled suite and large programs, the community benchmarks
//! and generated programs. CI runs a sample; the full run is
//! `cargo test --release --test bril_pass_sequences -- --ignored`
//! (200 sequences of up to 30 passes over every program, 2,000 generated programs
//! and 60 large ones).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use compgym::bril::interp::{run, Limits};
use compgym::bril::{generator, passes, suite, to_text, verify, Program};
use compgym::Rng;

struct Case {
    name: String,
    program: Program,
    args: Vec<String>,
    expected: (String, bool),
}

fn output(program: &Program, args: &[String]) -> (String, bool) {
    let o = run(program, args, &Limits { fuel: 500_000_000, ..Limits::default() });
    (o.stdout, o.result.is_ok())
}

fn case(name: String, program: Program, args: Vec<String>) -> Case {
    let expected = output(&program, &args);
    Case { name, program, args, expected }
}

/// The suite, the large programs and the community benchmarks with a
/// reference output; `max_dyn` leaves out the longest-running ones.
fn corpus(max_dyn: u64) -> Vec<Case> {
    let mut cases: Vec<Case> =
        suite::all().iter().map(|b| case(b.uri(), b.program().unwrap(), b.args())).collect();
    for b in suite::large::all().unwrap() {
        let program = b.program().unwrap();
        if run(&program, &b.args(), &Limits::default()).dyn_inst <= max_dyn {
            cases.push(case(b.uri(), program, b.args()));
        }
    }
    for c in common::community() {
        if c.reference_dyn.is_some_and(|n| n <= max_dyn) {
            let args = c.program.main_args();
            cases.push(case(c.path.display().to_string(), c.program, args));
        }
    }
    cases
}

/// Up to `max_len` random pass flags.
fn sequence(rng: &mut Rng, max_len: usize) -> Vec<&'static str> {
    let registry = passes::registry();
    let len = 1 + rng.index(max_len);
    (0..len).map(|_| registry[rng.index(registry.len())].flag).collect()
}

fn check(case: &Case, flags: &[&str]) {
    let mut program = case.program.clone();
    passes::run_flags(&mut program, flags).unwrap_or_else(|e| panic!("{} {flags:?}: {e}", case.name));
    if let Err(e) = verify(&program) {
        panic!("{} {flags:?}: ill-formed: {e}\n{}", case.name, to_text(&program));
    }
    let got = output(&program, &case.args);
    assert_eq!(got, case.expected, "{} {flags:?} changed the output\n{}", case.name, to_text(&program));
}

fn sequences_over_corpus(sequences: usize, max_dyn: u64) {
    let cases = corpus(max_dyn);
    let mut rng = Rng::seed_from_u64(2026);
    for _ in 0..sequences {
        let flags = sequence(&mut rng, 30);
        for case in &cases {
            check(case, &flags);
        }
    }
}

fn generated(programs: u64) {
    let mut rng = Rng::seed_from_u64(7);
    for seed in 0..programs {
        let program = generator::generate(seed, 20 + (seed % 5) as u32 * 20).unwrap();
        let args = program.main_args();
        let c = case(format!("generator://random-v0/{seed}"), program, args);
        check(&c, &sequence(&mut rng, 30));
    }
}

/// `random-v1` programs (loops over arrays bounded by their arguments,
/// calls, recursion), sizes 20 to 600.
fn generated_v1(programs: u64) {
    let mut rng = Rng::seed_from_u64(13);
    for seed in 0..programs {
        let size = [20, 50, 100, 200, 400, 600][(seed % 6) as usize];
        let program = generator::v1::generate(seed, size).unwrap();
        let args = program.main_args();
        let c = case(format!("{}{seed}?size={size}", generator::v1::URI_PREFIX), program, args);
        check(&c, &sequence(&mut rng, 30));
    }
}

/// Programs past the generator's first sizes, up to its largest.
fn generated_large(programs: u64) {
    let mut rng = Rng::seed_from_u64(11);
    for k in 0..programs {
        let size = 2001 + (k * 7919 % u64::from(generator::MAX_SIZE - 2000)) as u32;
        let program = generator::generate(k, size).unwrap();
        let args = program.main_args();
        let c = case(format!("generator://random-v0/{k}?size={size}"), program, args);
        check(&c, &sequence(&mut rng, 30));
    }
}

#[test]
fn random_sequences_keep_outputs_sample() {
    sequences_over_corpus(30, 300_000);
}

#[test]
fn random_sequences_keep_generated_outputs_sample() {
    generated(600);
}

#[test]
fn random_sequences_keep_random_v1_outputs_sample() {
    generated_v1(40);
}

#[test]
#[ignore = "the full run: cargo test --release --test bril_pass_sequences -- --ignored"]
fn random_sequences_keep_random_v1_outputs_full() {
    generated_v1(600);
}

#[test]
fn random_sequences_keep_large_generated_outputs_sample() {
    generated_large(3);
}

#[test]
#[ignore = "the full run: cargo test --release --test bril_pass_sequences -- --ignored"]
fn random_sequences_keep_large_generated_outputs_full() {
    generated_large(60);
}

#[test]
#[ignore = "the full run: cargo test --release --test bril_pass_sequences -- --ignored"]
fn random_sequences_keep_outputs_full() {
    sequences_over_corpus(200, u64::MAX);
}

#[test]
#[ignore = "the full run: cargo test --release --test bril_pass_sequences -- --ignored"]
fn random_sequences_keep_generated_outputs_full() {
    generated(2000);
}
