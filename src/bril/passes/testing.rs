//! Test support for passes: a corpus of programs with their arguments, and
//! the check every pass's tests share: a pass keeps every program well
//! formed, keeps its output, reports change truthfully and, once run,
//! finds nothing more to do.

use crate::bril::interp::{run, Limits};
use crate::bril::ir::Program;
use crate::bril::{generator, parse_text, suite, to_text, verify};
use crate::error::Result;

/// One program of the corpus.
pub(crate) struct Case {
    pub name: String,
    pub program: Program,
    pub args: Vec<String>,
}

/// Dynamic instructions above which a community benchmark is left out of
/// per-pass unit tests (the integration tests run them all).
const QUICK_FUEL: u64 = 3_000_000;

/// The `random-v1` programs (seed, size) in every corpus: loops over
/// arrays bounded by arguments, calls, recursion, checksums.
pub(crate) const RANDOM_V1: [(u64, u32); 12] = [
    (0, 20),
    (1, 40),
    (2, 60),
    (3, 80),
    (4, 120),
    (5, 150),
    (6, 200),
    (7, 250),
    (8, 300),
    (9, 400),
    (10, 500),
    (11, 600),
];

/// The bundled suite, the community benchmarks that run in under
/// [`QUICK_FUEL`] instructions, the [`RANDOM_V1`] programs and
/// `generated` `random-v0` programs.
pub(crate) fn corpus(generated: u64) -> Vec<Case> {
    let mut cases: Vec<Case> = suite::all()
        .iter()
        .map(|b| Case { name: b.uri(), program: b.program().unwrap(), args: b.args() })
        .collect();
    cases.extend(community_benchmarks());
    for (seed, size) in RANDOM_V1 {
        let program = generator::v1::generate(seed, size).unwrap();
        let args = program.main_args();
        cases.push(Case { name: format!("{}{seed}?size={size}", generator::v1::URI_PREFIX), program, args });
    }
    cases.extend(maybe_undefined_reads());
    for seed in 0..generated {
        let program = generator::generate(seed, 40).unwrap();
        let args = program.main_args();
        cases.push(Case { name: format!("generator://random-v0/{seed}"), program, args });
    }
    cases
}

/// Programs reading a variable that is undefined on some path: `brili`
/// fails there ("undefined variable"), and every optimised program must
/// fail the same way after the same output. Each runs with both arguments.
const MAYBE_UNDEFINED: [(&str, &str); 8] = [
    // Read at the top of a loop, written later in the body: fails at once.
    (
        "self-copy-in-loop",
        "@main(c: bool) {\n  i: int = const 0;\n  n: int = const 2;\n.loop:\n  x: int = id x;\n  x: int = const 3;\n  print x;\n  one: int = const 1;\n  i: int = add i one;\n  go: bool = lt i n;\n  br go .loop .done;\n.done:\n}",
    ),
    // Defined on one arm only; reads that simplify away (x*0, x-x, unused).
    (
        "one-arm",
        "@main(c: bool) {\n  print c;\n  br c .def .use;\n.def:\n  x: int = const 4;\n.use:\n  zero: int = const 0;\n  unused: int = add x x;\n  w: int = mul x zero;\n  d: int = sub x x;\n  e: bool = eq x x;\n  print w d e;\n}",
    ),
    // A copy of a maybe-undefined variable, then a chain of copies.
    (
        "copy-chain",
        "@main(c: bool) {\n  br c .def .use;\n.def:\n  x: int = const 4;\n.use:\n  y: int = id x;\n  z: int = id y;\n  y: int = const 1;\n  print y;\n}",
    ),
    // A loop-invariant read of a variable the loop may not have seen written.
    (
        "invariant-in-loop",
        "@main(c: bool) {\n  i: int = const 0;\n  n: int = const 3;\n  one: int = const 1;\n  br c .def .loop;\n.def:\n  k: int = const 5;\n.loop:\n  t: int = add k one;\n  print i;\n  i: int = add i one;\n  go: bool = lt i n;\n  br go .loop .done;\n.done:\n}",
    ),
    // Only one branch reads the maybe-undefined value (sinking candidate), after a print.
    (
        "read-in-one-branch",
        "@main(c: bool) {\n  br c .def .go;\n.def:\n  k: int = const 5;\n.go:\n  t: int = add k k;\n  print c;\n  br c .a .b;\n.a:\n  print t;\n.b:\n}",
    ),
    // A failing read next to a variable the block overwrites (-lvn renames the first write).
    (
        "overwritten-operand",
        "@main(c: bool) {\n  br c .def .use;\n.def:\n  k: int = const 1;\n.use:\n  x: int = const 0;\n  x: int = add x k;\n  print x;\n}",
    ),
    // An argument that may be undefined, to a callee that prints before reading it.
    (
        "argument-read-late",
        "@main(c: bool) {\n  br c .def .call;\n.def:\n  k: int = const 7;\n.call:\n  r: int = call @f k;\n  print r;\n}\n@f(k: int): int {\n  one: int = const 1;\n  print one;\n  s: int = add k one;\n  ret s;\n}",
    ),
    // A call argument and a return value that may be undefined.
    (
        "across-calls",
        "@main(c: bool) {\n  r: int = call @f c;\n  print r;\n  br c .def .use;\n.def:\n  k: int = const 2;\n.use:\n  s: int = call @g k;\n}\n@f(c: bool): int {\n  br c .s .r;\n.s:\n  v: int = const 1;\n.r:\n  ret v;\n}\n@g(k: int): int {\n  ret k;\n}",
    ),
];

fn maybe_undefined_reads() -> Vec<Case> {
    let mut cases = Vec::new();
    for (name, src) in MAYBE_UNDEFINED {
        for arg in ["true", "false"] {
            let program = parse_text(src).unwrap_or_else(|e| panic!("{name}: {e}"));
            cases.push(Case {
                name: format!("maybe-undefined/{name} {arg}"),
                program,
                args: vec![arg.into()],
            });
        }
    }
    cases
}

/// The community benchmark walker the integration tests use too.
#[path = "../../../tests/common/community.rs"]
mod community;

fn community_benchmarks() -> Vec<Case> {
    community::bench_files()
        .into_iter()
        .filter(|f| f.reference_dyn.unwrap_or(u64::MAX) <= QUICK_FUEL)
        .map(|f| {
            let program = parse_text(&f.source).unwrap_or_else(|e| panic!("{}: {e}", f.path.display()));
            let args = program.args.clone().unwrap_or_default();
            Case { name: f.path.display().to_string(), program, args }
        })
        .collect()
}

/// Every community benchmark, however long it runs.
pub(crate) fn all_community_benchmarks() -> Vec<Case> {
    community::bench_files()
        .into_iter()
        .map(|f| {
            let program = parse_text(&f.source).unwrap_or_else(|e| panic!("{}: {e}", f.path.display()));
            let args = program.main_args();
            Case { name: f.path.display().to_string(), program, args }
        })
        .collect()
}

/// Runs `program` and returns its output, or what it printed before it
/// failed and the error text (a program that fails must fail the same way
/// after the same output).
pub(crate) fn output(program: &Program, args: &[String]) -> std::result::Result<String, String> {
    let outcome = run(program, args, &Limits { fuel: 100_000_000, ..Limits::default() });
    outcome.result.map(|()| outcome.stdout.clone()).map_err(|e| format!("{}{e}", outcome.stdout))
}

/// Whether a second run of the pass checked must change nothing.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Rerun {
    /// One run reaches the pass's fixed point: a second reports no change.
    ChangesNothing,
    /// A second run may find more to do (it is not checked).
    MayChange,
}

impl Rerun {
    /// What a second run of the registry pass `flag` may do: `-copy-prop`
    /// may find more to do (see its tests), and `-specialize` makes a
    /// bounded number of copies per run and redirects the copies' own calls
    /// in the next; every other pass settles in one.
    pub(crate) fn of(flag: &str) -> Rerun {
        match flag {
            "-copy-prop" | "-specialize" => Rerun::MayChange,
            _ => Rerun::ChangesNothing,
        }
    }
}

/// Applies `pass` to a copy of `case` and checks the contract: the result
/// verifies, prints the same output, and `changed` is true iff the text
/// changed; with [`Rerun::ChangesNothing`], a second run changes nothing.
pub(crate) fn check_pass_on(case: &Case, pass: &dyn Fn(&mut Program) -> Result<bool>, rerun: Rerun) {
    let before = to_text(&case.program);
    let mut program = case.program.clone();
    let changed = pass(&mut program).unwrap_or_else(|e| panic!("{}: pass failed: {e}", case.name));
    let after = to_text(&program);
    if let Err(e) = verify(&program) {
        panic!("{}: the pass left an ill-formed program: {e}\n{after}", case.name);
    }
    assert_eq!(
        changed,
        before != after,
        "{}: the pass reported changed={changed} wrongly\n{after}",
        case.name
    );
    let (expected, got) = (output(&case.program, &case.args), output(&program, &case.args));
    assert_eq!(got, expected, "{}: the output changed\n--- before\n{before}\n--- after\n{after}", case.name);
    if rerun == Rerun::ChangesNothing {
        let again = pass(&mut program).unwrap_or_else(|e| panic!("{}: second run failed: {e}", case.name));
        assert!(
            !again,
            "{}: a second run changed\n--- once\n{after}\n--- twice\n{}",
            case.name,
            to_text(&program)
        );
    }
}

/// What every pass's tests check: [`check_pass_on`] over the whole corpus
/// (the suite, the quick community benchmarks, 12 `random-v1` and 300
/// `random-v0` programs run with their own arguments), a second run
/// changing nothing.
pub(crate) fn check_pass(pass: &dyn Fn(&mut Program) -> Result<bool>) {
    check_corpus(pass, Rerun::ChangesNothing);
}

/// [`check_pass_on`] over the whole corpus, for passes and compositions of
/// passes that do not settle in one run (`-to-ssa` then `-from-ssa`).
pub(crate) fn check_corpus(pass: &dyn Fn(&mut Program) -> Result<bool>, rerun: Rerun) {
    for case in corpus(300) {
        check_pass_on(&case, pass, rerun);
    }
}

/// A pass's test that its function filter (for `rewrite_functions_where`)
/// skips only functions the transform would leave printing the same: over
/// the corpus, and the corpus in SSA form, every function `may_change`
/// turns away is transformed on a copy and compared.
pub(crate) fn check_skipped_functions_unchanged(
    may_change: &dyn Fn(&crate::bril::ir::Function) -> bool,
    transform: &dyn Fn(&mut crate::bril::ir::Function) -> Result<()>,
) {
    let mut skipped = 0;
    for case in corpus(100) {
        let mut in_ssa = case.program.clone();
        crate::bril::passes::ssa::to_ssa(&mut in_ssa).unwrap();
        for program in [&case.program, &in_ssa] {
            for f in program.functions.iter().filter(|f| !may_change(f)) {
                let mut copy = (**f).clone();
                transform(&mut copy).unwrap();
                assert!(
                    crate::bril::print::function_prints_same(program, &copy, f),
                    "{}: @{} was skipped but the transform changes it",
                    case.name,
                    f.name
                );
                skipped += 1;
            }
        }
    }
    assert!(skipped > 0, "the filter skipped no function of the corpus");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::ir::Op;

    #[test]
    fn the_corpus_holds_suite_community_and_generated_programs() {
        let cases = corpus(3);
        assert!(cases.iter().any(|c| c.name.starts_with("benchmark://suite-v0/")));
        assert!(cases.iter().any(|c| c.name.contains("bril-community")));
        assert_eq!(cases.iter().filter(|c| c.name.starts_with("generator://random-v0/")).count(), 3);
        assert_eq!(
            cases.iter().filter(|c| c.name.starts_with("generator://random-v1/")).count(),
            RANDOM_V1.len()
        );
    }

    #[test]
    fn the_corpus_holds_reads_that_fail_on_some_arguments() {
        let cases: Vec<Case> =
            corpus(0).into_iter().filter(|c| c.name.starts_with("maybe-undefined/")).collect();
        assert_eq!(cases.len(), 2 * MAYBE_UNDEFINED.len());
        for case in &cases {
            verify(&case.program).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        }
        let failing = cases.iter().filter(|c| output(&c.program, &c.args).is_err()).count();
        assert!(failing >= MAYBE_UNDEFINED.len(), "each program fails on one argument at least");
    }

    #[test]
    fn an_identity_pass_passes() {
        for case in corpus(5) {
            check_pass_on(&case, &|_| Ok(false), Rerun::ChangesNothing);
        }
    }

    #[test]
    fn the_checker_catches_a_pass_that_breaks_output_or_lies() {
        let case = corpus(0).into_iter().next().unwrap();
        let drop_prints = |p: &mut Program| {
            for f in p.functions_mut() {
                for b in &mut f.blocks {
                    b.instrs.retain(|i| i.op != Op::Print);
                }
            }
            Ok(true)
        };
        assert!(std::panic::catch_unwind(|| check_pass_on(&case, &drop_prints, Rerun::MayChange)).is_err());
        let lies = |_: &mut Program| Ok(true);
        assert!(std::panic::catch_unwind(|| check_pass_on(&case, &lies, Rerun::MayChange)).is_err());
    }

    #[test]
    fn the_checker_catches_a_pass_that_never_settles() {
        let case = corpus(0).into_iter().next().unwrap();
        let add_nop = |p: &mut Program| {
            std::sync::Arc::make_mut(&mut p.functions[0]).blocks[0]
                .instrs
                .insert(0, crate::bril::ir::Instr::new(Op::Nop));
            Ok(true)
        };
        check_pass_on(&case, &add_nop, Rerun::MayChange);
        assert!(std::panic::catch_unwind(|| check_pass_on(&case, &add_nop, Rerun::ChangesNothing)).is_err());
    }
}
