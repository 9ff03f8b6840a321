//! Measures the global passes: total dynamic instructions over the bundled
//! suite after each pass and a few pipelines. Run with
//! `cargo test --lib global_measure -- --ignored --nocapture`.

use crate::bril::interp::{run, Limits};
use crate::bril::passes::run_flags;
use crate::bril::suite;

fn total(flags: &[&str]) -> (u64, usize) {
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
    (dyn_inst, statics)
}

#[test]
#[ignore]
fn measure() {
    let (base, base_static) = total(&[]);
    println!("baseline: {base} dynamic, {base_static} static");
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
        &["-sccp", "-adce", "-simplify-cfg"],
        &["-gvn", "-licm", "-copy-prop", "-sccp", "-adce", "-simplify-cfg"],
        &["-to-ssa", "-gvn", "-sccp", "-from-ssa", "-copy-prop", "-adce", "-simplify-cfg"],
    ];
    for flags in pipelines {
        if flags.iter().any(|f| crate::bril::passes::by_flag(f).is_err()) {
            continue;
        }
        let (d, s) = total(flags);
        let pct = 100.0 * (base as f64 - d as f64) / base as f64;
        println!("{:<60} {d:>10} dynamic ({pct:+.2}% saved), {s} static", flags.join(" "));
    }
}

/// Prints one suite program (`SHOW=name`) after the passes in `FLAGS`, with
/// per-benchmark counts: `SHOW=fib-iter FLAGS="-to-ssa -from-ssa" cargo test
/// --lib global_measure::show -- --ignored --nocapture`.
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
