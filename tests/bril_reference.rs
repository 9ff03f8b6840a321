#![cfg(not(target_arch = "wasm32"))]
//! Every community benchmark (see `common::community`): our JSON equals
//! `bril2json`'s, text round-trips, and (below) our interpreter reproduces
//! brili's output and dynamic instruction count.

mod common;

use std::path::{Path, PathBuf};

use compgym::bril::{self, Program};

/// Every `.bril` file of the benchmark folder.
fn bench_programs() -> Vec<PathBuf> {
    common::community::bench_files().into_iter().map(|f| f.path).collect()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn parse(path: &Path) -> Program {
    bril::parse_text(&read(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn json_matches_bril2json() {
    let mut failures = Vec::new();
    for path in bench_programs() {
        let ours = bril::to_json_value(&parse(&path));
        let reference: serde_json::Value = serde_json::from_str(&read(&path.with_extension("json"))).unwrap();
        if ours != reference {
            failures.push(path.display().to_string());
        }
    }
    assert!(failures.is_empty(), "JSON differs for {failures:#?}");
}

#[test]
fn reading_reference_json_gives_the_same_program() {
    for path in bench_programs() {
        let mut from_text = parse(&path);
        let mut from_json = bril::parse_json(&read(&path.with_extension("json")))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        from_text.clear_positions();
        from_text.args = None;
        from_json.clear_positions();
        assert_eq!(from_text, from_json, "{}", path.display());
    }
}

#[test]
fn text_round_trip_is_stable() {
    for path in bench_programs() {
        let mut first = parse(&path);
        let text = bril::to_text(&first);
        let mut second =
            bril::parse_text(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", path.display()));
        assert_eq!(bril::to_text(&second), text, "{}", path.display());
        first.clear_positions();
        second.clear_positions();
        assert_eq!(first, second, "{}", path.display());
    }
}

/// The expected dynamic instruction count from a `.prof` file.
fn expected_count(path: &Path) -> u64 {
    let prof = read(&path.with_extension("prof"));
    prof.trim()
        .strip_prefix("total_dyn_inst:")
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("{}: bad .prof {prof:?}", path.display()))
}

#[test]
fn interpreter_matches_brili_output_and_count() {
    matches_brili(bril::interp::run);
}

/// Dynamic typing (what `compgym brili` runs a program with when it does
/// not verify) gives the same outputs and counts on programs that do.
#[test]
fn dynamic_typing_matches_brili_output_and_count() {
    matches_brili(|program, args, limits| match bril::interp::Executable::new_dynamic(program) {
        Ok(exe) => exe.run(args, limits),
        Err(e) => panic!("lowering: {e}"),
    });
}

fn matches_brili(run: impl Fn(&Program, &[String], &bril::interp::Limits) -> bril::interp::Outcome) {
    let mut failures = Vec::new();
    for path in bench_programs() {
        let program = parse(&path);
        let args = program.main_args();
        if !path.with_extension("out").exists() {
            // No reference output: brili never finished it (exponential
            // recursion). It must stop on its fuel limit, not hang.
            let limits = bril::interp::Limits { fuel: 20_000_000, ..Default::default() };
            let outcome = run(&program, &args, &limits);
            let kind = outcome.result.as_ref().err().map(|e| e.kind());
            assert_eq!(kind, Some(compgym::ErrorKind::Limit), "{}", path.display());
            continue;
        }
        let outcome = run(&program, &args, &bril::interp::Limits::default());
        let want_out = read(&path.with_extension("out"));
        let want_count = expected_count(&path);
        if let Err(e) = &outcome.result {
            failures.push(format!("{}: {e}", path.display()));
        } else if outcome.stdout != want_out {
            failures.push(format!(
                "{}: output differs\n--- ours\n{}\n--- brili\n{}",
                path.display(),
                outcome.stdout,
                want_out
            ));
        } else if outcome.dyn_inst != want_count {
            failures.push(format!(
                "{}: {} dynamic instructions, brili counts {want_count}",
                path.display(),
                outcome.dyn_inst
            ));
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_benchmark_verifies() {
    for path in bench_programs() {
        bril::verify(&parse(&path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}
