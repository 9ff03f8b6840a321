//! Reading an unassigned variable is an error (as in `brili`), so a pass
//! must not add a read that may see one: a function in which every read is
//! preceded by a write on every path keeps that property under every pass,
//! alone and in random sequences (SSA form included).

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::definite::MaybeUndefinedReads;
use crate::bril::analysis::liveness::Liveness;
use crate::bril::ir::Program;
use crate::bril::passes::facts::{all_reads_defined, global_constants, global_constants_given};
use crate::bril::passes::testing::{corpus, Case};
use crate::bril::passes::{registry, run_flags};
use crate::bril::to_text;

fn all_assigned(p: &Program) -> bool {
    p.functions.iter().all(|f| all_reads_defined(f))
}

fn cases() -> Vec<Case> {
    let mut cases: Vec<Case> = corpus(0).into_iter().filter(|c| all_assigned(&c.program)).collect();
    for seed in 0..200 {
        let program = crate::bril::generator::generate(seed, 60).unwrap();
        if all_assigned(&program) {
            let args = program.main_args();
            cases.push(Case { name: format!("generator://random-v0/{seed}"), program, args });
        }
    }
    cases
}

fn check(cases: &[Case], flags: &[&str]) {
    for case in cases {
        let mut p = case.program.clone();
        run_flags(&mut p, flags).unwrap();
        assert!(
            all_assigned(&p),
            "{} {flags:?} added a read that may see an unassigned variable:\n{}",
            case.name,
            to_text(&p)
        );
    }
}

#[test]
fn every_pass_keeps_every_read_assigned() {
    let cases = cases();
    assert!(cases.len() > 150, "most of the corpus assigns before reading");
    for info in registry() {
        check(&cases, &[info.flag]);
    }
}

#[test]
fn random_sequences_keep_every_read_assigned() {
    let cases = cases();
    let flags: Vec<&str> = registry().iter().map(|p| p.flag).collect();
    let mut rng = crate::rng::Rng::seed_from_u64(11);
    for _ in 0..20 {
        let seq: Vec<&str> = (0..8).map(|_| flags[rng.index(flags.len())]).collect();
        check(&cases, &seq);
    }
}

/// `MaybeUndefinedReads::given` (the caller's liveness) finds exactly what
/// `MaybeUndefinedReads::of` finds alone, and the constants found from those
/// reads are those found alone, on the corpus (its programs that
/// do read unassigned variables included) as each pass and `-to-ssa` leave it.
#[test]
fn failing_reads_and_constants_from_shared_analyses_are_those_found_alone() {
    let mut programs: Vec<Program> = Vec::new();
    for case in corpus(20) {
        for info in registry() {
            let mut p = case.program.clone();
            if (info.run)(&mut p).unwrap() {
                programs.push(p);
            }
        }
        let mut ssa = case.program.clone();
        run_flags(&mut ssa, &["-to-ssa"]).unwrap();
        programs.push(ssa);
        programs.push(case.program);
    }
    let mut with_reads = 0;
    for p in &programs {
        for f in &p.functions {
            let cfg = Cfg::new(f);
            let alone = MaybeUndefinedReads::of(f);
            assert_eq!(MaybeUndefinedReads::given(f, &cfg, &Liveness::new(f, &cfg)), alone, "@{}", f.name);
            assert_eq!(global_constants_given(f, &alone), global_constants(f), "@{}", f.name);
            with_reads += usize::from(!alone.is_empty());
        }
    }
    assert!(with_reads > 20, "the corpus reads unassigned variables ({with_reads} functions)");
}
