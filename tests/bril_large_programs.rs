//! Programs far larger than the suite's, as a user may add them: the cases
//! that once took minutes. Each must keep its output and do work in
//! proportion to its size: heap allocations and bytes asked for, counted by
//! the counting allocator of `compgym::bril::scaling` (this binary's global
//! allocator), under a bound per instruction. Counts, not seconds, so a busy
//! machine cannot fail it. `bril_scaling` checks growth; this checks the
//! cases themselves.
#![cfg(not(target_arch = "wasm32"))]

use compgym::bril::interp::{run, Limits};
use compgym::bril::passes::{run_flags, run_pipeline};
use compgym::bril::scaling::{heap_counts, CountingAllocator};
use compgym::bril::shapes::{self, Shape};
use compgym::bril::{parse_text, Program};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Most allocations, and bytes asked for, per instruction of the input:
/// about twice the most any case takes now (43 and 4.9 KiB, by -O2 on the
/// call chain); quadratic work on these sizes would be thousands times that.
const ALLOCATIONS_PER_INSTR: u64 = 100;
const BYTES_PER_INSTR: u64 = 16 << 10;

/// `x: int = add x x`, `n` times, then `print x`.
fn redefining_one_variable(n: usize) -> Program {
    let mut src = String::from("@main {\n  x: int = const 1;\n");
    for _ in 0..n {
        src.push_str("  x: int = add x x;\n");
    }
    src.push_str("  print x;\n}\n");
    parse_text(&src).unwrap()
}

/// Runs `flag` (a pass or a pipeline) on a copy of `program` within the
/// work bounds per instruction, and checks the output is unchanged.
fn within(program: &Program, flag: &str) {
    let mut p = program.clone();
    let start = heap_counts();
    if flag.starts_with("-O") {
        run_pipeline(&mut p, flag).unwrap();
    } else {
        run_flags(&mut p, &[flag]).unwrap();
    }
    let end = heap_counts();
    let (allocations, bytes) = (end.0 - start.0, end.1 - start.1);
    let n = program.instr_count() as u64;
    if std::env::var_os("SCALING_VERBOSE").is_some() {
        println!(
            "{flag:<14} {n:>7} instructions: {} allocations, {} bytes per instruction",
            allocations / n,
            bytes / n
        );
    }
    assert!(start.0 > 0, "the counting allocator is not installed");
    assert!(
        allocations <= ALLOCATIONS_PER_INSTR * n,
        "{flag}: {allocations} allocations on {n} instructions"
    );
    assert!(bytes <= BYTES_PER_INSTR * n, "{flag}: {bytes} bytes allocated on {n} instructions");
    let limits = Limits::default();
    assert_eq!(run(&p, &[], &limits).stdout, run(program, &[], &limits).stdout, "{flag} changed the output");
}

#[test]
fn one_variable_redefined_20000_times() {
    // Once 46 s at 5,000 instructions and over 120 s at 20,000 (release build).
    for n in [5_000, 20_000] {
        let p = redefining_one_variable(n);
        for flag in ["-lvn", "-to-ssa", "-O2"] {
            within(&p, flag);
        }
    }
}

#[test]
fn local_value_numbering_on_200000_instructions() {
    // Once did not return in 300 s.
    let p = shapes::generate(Shape::StraightLine, 200_000, 1).unwrap();
    within(&p, "-lvn");
}

#[test]
fn a_chain_of_30000_blocks() {
    // -to-ssa and -sccp once ran past 60 s; -simplify-cfg folded one
    // constant diamond per round (25 s at 30,000 instructions).
    let p = shapes::generate(Shape::BlockChain, 90_000, 1).unwrap();
    assert!(p.functions[0].blocks.len() >= 30_000, "{} blocks", p.functions[0].blocks.len());
    for flag in ["-to-ssa", "-sccp", "-simplify-cfg", "-O1"] {
        within(&p, flag);
    }
}

#[test]
fn a_call_chain_5000_deep() {
    // -inline and -O2 once ran past 60 s.
    let p = shapes::generate(Shape::CallChain, 6 * shapes::CHAIN_DEPTH, 1).unwrap();
    for flag in ["-inline", "-O2"] {
        within(&p, flag);
    }
}
