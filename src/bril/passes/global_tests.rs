//! Measures the global passes: total dynamic instructions over the bundled
//! suite after each pass and a few pipelines. Run with
//! `cargo test --lib global_tests -- --ignored --nocapture`.

use crate::bril::interp::{run, Limits};
use crate::bril::ir::Program;
use crate::bril::passes::run_flags;
use crate::bril::passes::testing::{check_pass_on, Rerun};
use crate::bril::suite;

fn total(flags: &[&str]) -> (u64, usize, u64) {
    let mut dyn_inst = 0;
    let mut statics = 0;
    for b in suite::all() {
        let mut p = b.program().unwrap();
        run_flags(&mut p, flags).unwrap();
        let out = run(&p, &b.args(), &Limits::default());
        assert!(out.is_ok(), "{} {flags:?}", b.uri());
        dyn_inst += out.dyn_inst;
        statics += p.instr_count();
    }
    let mut generated = 0;
    for seed in 0..100 {
        let mut p = crate::bril::generator::generate(seed, 40).unwrap();
        run_flags(&mut p, flags).unwrap();
        let out = run(&p, &p.main_args(), &Limits::default());
        assert!(out.is_ok(), "seed {seed}: {:?}", out.result);
        generated += out.dyn_inst;
    }
    (dyn_inst, statics, generated)
}

#[test]
#[ignore]
fn measure() {
    let (base, base_static, base_gen) = total(&[]);
    println!("baseline: {base} dynamic, {base_static} static; generated {base_gen}");
    let pipelines: &[&[&str]] = &[
        &["-to-ssa"],
        &["-to-ssa", "-from-ssa"],
        &["-sccp"],
        &["-copy-prop"],
        &["-adce"],
        &["-gvn"],
        &["-simplify-cfg"],
        &["-licm"],
        &["-strength-reduce"],
        &["-loop-unroll"],
        &["-loop-unroll", "-sccp", "-adce", "-simplify-cfg"],
        &["-sccp", "-adce", "-simplify-cfg"],
        &["-gvn", "-licm", "-copy-prop", "-sccp", "-adce", "-simplify-cfg"],
        &["-to-ssa", "-gvn", "-sccp", "-from-ssa", "-copy-prop", "-adce", "-simplify-cfg"],
    ];
    for flags in pipelines {
        if flags.iter().any(|f| crate::bril::passes::by_flag(f).is_err()) {
            continue;
        }
        let (d, s, g) = total(flags);
        let pct = 100.0 * (base as f64 - d as f64) / base as f64;
        let gpct = 100.0 * (base_gen as f64 - g as f64) / base_gen as f64;
        println!(
            "{:<60} suite {d:>9} ({pct:+.2}% saved), {s} static; generated ({gpct:+.2}% saved)",
            flags.join(" ")
        );
    }
}

/// Prints one suite program (`SHOW=name`) after the passes in `FLAGS`, with
/// per-benchmark counts: `SHOW=fib-iter FLAGS="-to-ssa -from-ssa" cargo test
/// --lib global_tests::show -- --ignored --nocapture`.
#[test]
#[ignore]
fn show() {
    let name = std::env::var("SHOW").unwrap_or_default();
    let flags = std::env::var("FLAGS").unwrap_or_default();
    let flags: Vec<&str> = flags.split_whitespace().collect();
    for b in suite::all() {
        let mut p = b.program().unwrap();
        let before = run(&p, &b.args(), &Limits::default()).dyn_inst;
        run_flags(&mut p, &flags).unwrap();
        let after = run(&p, &b.args(), &Limits::default()).dyn_inst;
        println!("{:<30} {before:>10} -> {after:>10}", b.uri());
        if b.uri().ends_with(&format!("/{name}")) {
            println!("{}", crate::bril::to_text(&p));
        }
    }
}

/// No global pass relies on the verification fallback of
/// `rewrite_functions` for any program of the corpus: a dropped rewrite
/// would be a transformation the pass wrongly believed safe.
#[test]
fn no_rewrite_is_dropped_on_the_corpus() {
    use crate::bril::analysis::edit::DROPPED;
    let cases = crate::bril::passes::testing::corpus(100);
    for info in crate::bril::passes::registry() {
        let before = DROPPED.with(|d| d.get());
        for case in &cases {
            let mut p = case.program.clone();
            let _ = (info.run)(&mut p);
            let dropped = DROPPED.with(|d| d.get());
            assert_eq!(dropped, before, "{}: {} dropped a rewrite", case.name, info.flag);
        }
    }
}

/// The passes that read a function before writing it copy none they leave
/// as it was: on every program of the corpus a pass reports unchanged, it
/// made no copy (each once copied every function its filter let through,
/// then compared and verified the copy to find nothing had changed).
#[test]
fn passes_that_change_nothing_copy_nothing() {
    use crate::bril::analysis::edit::COPIED;
    let cases = crate::bril::passes::testing::corpus(100);
    for flag in [
        "-sink",
        "-pre",
        "-jump-thread",
        "-adce",
        "-licm",
        "-loop-unroll",
        "-strength-reduce",
        "-loop-deletion",
        "-reassociate",
    ] {
        let pass = crate::bril::passes::by_flag(flag).unwrap();
        let mut unchanged = 0;
        for case in &cases {
            let mut p = case.program.clone();
            let before = COPIED.with(|c| c.get());
            if !(pass.run)(&mut p).unwrap() {
                assert_eq!(COPIED.with(|c| c.get()), before, "{}: {flag} copied a function", case.name);
                unchanged += 1;
            }
        }
        assert!(unchanged > 0, "{flag} changed every program");
    }
}

/// A program's copies share their functions, and a pass copies only the
/// functions it changes: run on a copy of each corpus program (and of the
/// program in SSA form), every function that comes out as it went in is
/// still the one the original holds. `-lvn` numbers a block in place, so
/// it copies every function it visits.
#[test]
fn passes_share_the_functions_they_leave_alone() {
    use std::sync::Arc;
    let cases = crate::bril::passes::testing::corpus(100);
    for info in crate::bril::passes::registry().iter().filter(|p| p.flag != "-lvn") {
        let mut shared = 0;
        for case in &cases {
            let mut in_ssa = case.program.clone();
            crate::bril::passes::ssa::to_ssa(&mut in_ssa).unwrap();
            for original in [&case.program, &in_ssa] {
                let mut p = original.clone();
                (info.run)(&mut p).unwrap();
                for f in &p.functions {
                    let Some(before) = original.functions.iter().find(|g| g.name == f.name) else { continue };
                    if **before == **f {
                        assert!(
                            Arc::ptr_eq(before, f),
                            "{}: {} copied @{} and left it as it was",
                            case.name,
                            info.flag,
                            f.name
                        );
                        shared += 1;
                    }
                }
            }
        }
        assert!(shared > 0, "{} changed every function", info.flag);
    }
}

/// Every community benchmark, however long it runs, under the full
/// pipeline; prints how long each pass took on the largest programs.
#[test]
#[ignore]
fn all_community_benchmarks() {
    let flags: Vec<&str> = crate::bril::passes::registry().iter().map(|p| p.flag).collect();
    for case in crate::bril::passes::testing::all_community_benchmarks() {
        let start = std::time::Instant::now();
        let pass = |p: &mut Program| run_flags(p, &flags);
        check_pass_on(&case, &pass, Rerun::MayChange);
        let took = start.elapsed();
        if took.as_millis() > 500 {
            println!("{}: {took:?}", case.name);
        }
    }
}

/// Time of each pass on the largest generated programs (`MAX_SIZE`).
#[test]
#[ignore]
fn pass_time_on_large_programs() {
    for seed in 0..3 {
        let program = crate::bril::generator::generate(seed, crate::bril::generator::MAX_SIZE).unwrap();
        println!("seed {seed}: {} instructions", program.instr_count());
        for info in crate::bril::passes::registry() {
            let mut p = program.clone();
            if info.flag == "-from-ssa" {
                crate::bril::passes::ssa::to_ssa(&mut p).unwrap();
            }
            let start = std::time::Instant::now();
            (info.run)(&mut p).unwrap();
            println!("  {:<18} {:?}", info.flag, start.elapsed());
        }
    }
}
