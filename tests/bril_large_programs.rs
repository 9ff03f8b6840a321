//! Programs far larger than the suite's, as a user may add them: the cases
//! that once took minutes. Each must finish in a few seconds of CPU time
//! even in a debug build (a hundred times what it takes now), and keep its
//! output. `bril_scaling` checks growth; this checks the cases themselves.
#![cfg(not(target_arch = "wasm32"))]

use compgym::bril::interp::{run, Limits};
use compgym::bril::passes::{run_flags, run_pipeline};
use compgym::bril::shapes::{self, Shape};
use compgym::bril::{parse_text, Program};

/// CPU seconds of this thread (wall-clock seconds where there is no thread clock).
fn cpu_seconds() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    compgym::bril::scaling::thread_cpu_seconds()
        .unwrap_or_else(|| START.get_or_init(std::time::Instant::now).elapsed().as_secs_f64())
}

/// `x: int = add x x`, `n` times, then `print x`.
fn redefining_one_variable(n: usize) -> Program {
    let mut src = String::from("@main {\n  x: int = const 1;\n");
    for _ in 0..n {
        src.push_str("  x: int = add x x;\n");
    }
    src.push_str("  print x;\n}\n");
    parse_text(&src).unwrap()
}

/// Runs `flag` (a pass or a pipeline) on a copy of `program` within `budget`
/// CPU seconds, and checks the output is unchanged.
fn within(program: &Program, flag: &str, budget: f64) {
    let mut p = program.clone();
    let start = cpu_seconds();
    if flag.starts_with("-O") {
        run_pipeline(&mut p, flag).unwrap();
    } else {
        run_flags(&mut p, &[flag]).unwrap();
    }
    let took = cpu_seconds() - start;
    assert!(took < budget, "{flag}: {took:.2} s on {} instructions", program.instr_count());
    let limits = Limits::default();
    assert_eq!(run(&p, &[], &limits).stdout, run(program, &[], &limits).stdout, "{flag} changed the output");
}

#[test]
fn one_variable_redefined_20000_times() {
    // Once 46 s at 5,000 instructions and over 120 s at 20,000 (release build).
    for n in [5_000, 20_000] {
        let p = redefining_one_variable(n);
        for flag in ["-lvn", "-to-ssa", "-O2"] {
            within(&p, flag, 5.0);
        }
    }
}

#[test]
fn local_value_numbering_on_200000_instructions() {
    // Once did not return in 300 s.
    let p = shapes::generate(Shape::StraightLine, 200_000, 1).unwrap();
    within(&p, "-lvn", 20.0);
}

#[test]
fn a_chain_of_30000_blocks() {
    // -to-ssa and -sccp once ran past 60 s; -simplify-cfg folded one
    // constant diamond per round (25 s at 30,000 instructions).
    let p = shapes::generate(Shape::BlockChain, 90_000, 1).unwrap();
    assert!(p.functions[0].blocks.len() >= 30_000, "{} blocks", p.functions[0].blocks.len());
    for flag in ["-to-ssa", "-sccp", "-simplify-cfg", "-O1"] {
        within(&p, flag, 20.0);
    }
}

#[test]
fn a_call_chain_5000_deep() {
    // -inline and -O2 once ran past 60 s.
    let p = shapes::generate(Shape::CallChain, 6 * shapes::CHAIN_DEPTH, 1).unwrap();
    for flag in ["-inline", "-O2"] {
        within(&p, flag, 20.0);
    }
}
