//! Optimisation passes: the actions of the Bril environment.
//!
//! A pass is a plain function over a [`Program`] that transforms it in place
//! and reports whether it changed anything: `Ok(false)` means the program is
//! exactly as it was. Every pass keeps a well-formed program well formed and
//! never changes what the program prints; a pass that cannot prove a
//! transformation safe does not make it. Passes never panic: an internal
//! inconsistency is an error value.
//!
//! [`registry`] lists every pass with its command-line flag and a one-line
//! description, in a fixed order that is the action space's order.

use super::ir::Program;
use crate::error::{Error, Result};

pub mod adce;
#[cfg(test)]
mod assigned_tests;
#[cfg(test)]
mod contribution_tests;
pub mod copy_prop;
pub mod dataset_stats;
pub mod dead_args;
#[cfg(test)]
mod global_tests;
pub mod gvn;
pub mod jump_thread;
pub mod licm;
pub mod loop_deletion;
pub mod loop_rotate;
pub mod outline;
pub mod pre;
pub mod quality;
pub mod reassociate;
pub mod sccp;
pub mod simplify_cfg;
pub mod sink;
pub mod specialize;
pub mod ssa;
#[cfg(test)]
mod ssa_form_tests;
pub mod strength;
#[cfg(test)]
pub(crate) mod testing;
pub mod unroll;
pub mod unroll_by;
pub mod variants;

mod alloc_facts;
mod call_graph;
mod counted_loop;
mod dce;
mod dead_functions;
mod dead_store;
mod facts;
mod fold;
mod inline;
mod lvn;
mod mem2reg;
mod peephole;
mod tail_call;

pub use dce::dce;
pub use dead_functions::dead_functions;
pub use dead_store::dead_store;
pub use inline::inline;
pub use lvn::lvn;
pub use mem2reg::mem2reg;
pub use peephole::peephole;
pub use tail_call::tail_call;

/// A pass: transforms `program` in place; `Ok(true)` iff it changed it.
pub type PassFn = fn(&mut Program) -> Result<bool>;

/// One registered pass.
#[derive(Clone, Copy)]
pub struct PassInfo {
    /// The command-line flag, e.g. `-dce`: also the action's name.
    pub flag: &'static str,
    /// A one-line description for `compgym opt --list` and the action space.
    pub description: &'static str,
    /// One plain sentence for someone meeting the pass for the first time
    /// (the playground's glossary).
    pub sentence: &'static str,
    /// What the pass does, as its module documents it.
    pub properties: PassProperties,
    pub run: PassFn,
}

/// Coarse 0/1 descriptions of a pass, read off its module's documentation:
/// what a learner may use to tell passes apart (the compiler bandit's arm
/// features). Each pass states all of them in the registry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PassProperties {
    /// Rewrites single instructions or one basic block at a time.
    pub local: bool,
    /// Reasons about calls between functions (inlining, recursion, reachability).
    pub interprocedural: bool,
    /// Produces, consumes or relies on SSA form (single-definition values).
    pub ssa: bool,
    /// May add, remove or rewire basic blocks.
    pub touches_cfg: bool,
    /// Reasons about allocations, loads and stores.
    pub touches_memory: bool,
    /// Works on natural loops.
    pub loops: bool,
}

impl PassProperties {
    /// No property.
    pub const NONE: PassProperties = PassProperties {
        local: false,
        interprocedural: false,
        ssa: false,
        touches_cfg: false,
        touches_memory: false,
        loops: false,
    };

    /// The properties' names, in the order of [`PassProperties::to_array`].
    pub const NAMES: [&'static str; 6] =
        ["local", "interprocedural", "ssa", "touches_cfg", "touches_memory", "loops"];

    /// The properties in [`PassProperties::NAMES`] order.
    pub fn to_array(self) -> [bool; 6] {
        [self.local, self.interprocedural, self.ssa, self.touches_cfg, self.touches_memory, self.loops]
    }
}

impl std::fmt::Debug for PassInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PassInfo").field("flag", &self.flag).finish()
    }
}

/// Every pass, in action-space order.
pub fn registry() -> &'static [PassInfo] {
    REGISTRY
}

static REGISTRY: &[PassInfo] = &[
    PassInfo {
        flag: "-dce",
        description:
            "Trivial dead code elimination: unused pure definitions and definitions overwritten before use",
        // Function-wide (reads anywhere keep a definition); the CFG stays.
        sentence: "Deletes instructions whose result nobody reads, and definitions overwritten before anyone reads them.",
        properties: PassProperties::NONE,
        run: dce,
    },
    PassInfo {
        flag: "-lvn",
        description: "Local value numbering with constant folding, copy propagation and commutativity",
        sentence: "Within each block, reuses a value computed before instead of computing it again, folds arithmetic on constants and reads through copies.",
        properties: PassProperties { local: true, ..PassProperties::NONE },
        run: lvn,
    },
    PassInfo {
        flag: "-peephole",
        description: "Algebraic simplification: x+0, x*1, x*0, x-x, x*2 to x+x, and/or with constants, not not x, id chains",
        sentence: "Rewrites tiny patterns into simpler ones: x + 0 becomes x, x * 1 becomes x, x - x becomes 0.",
        properties: PassProperties { local: true, ..PassProperties::NONE },
        run: peephole,
    },
    PassInfo {
        flag: "-dead-functions",
        description: "Dead function elimination: functions @main cannot reach through calls",
        sentence: "Deletes the functions @main can never call.",
        properties: PassProperties { interprocedural: true, ..PassProperties::NONE },
        run: dead_functions,
    },
    PassInfo {
        flag: "-inline",
        description: "Inline calls to small non-recursive functions (callee at most 40 instructions)",
        sentence: "Copies the body of a small function into each place that calls it, so the call disappears.",
        properties: PassProperties { interprocedural: true, touches_cfg: true, ..PassProperties::NONE },
        run: inline,
    },
    PassInfo {
        flag: "-tail-call",
        description: "Tail-call elimination: self-recursive calls in tail position become a loop",
        sentence: "Turns a function that calls itself as its very last act into a loop.",
        properties: PassProperties { interprocedural: true, touches_cfg: true, ..PassProperties::NONE },
        run: tail_call,
    },
    PassInfo {
        flag: "-dead-store",
        description: "Dead store elimination on non-escaping allocations, removing ones never loaded",
        sentence: "Deletes stores to memory that nothing reads afterwards.",
        properties: PassProperties { touches_memory: true, ..PassProperties::NONE },
        run: dead_store,
    },
    PassInfo {
        flag: "-mem2reg",
        description: "Promote non-escaping constant-size allocations with constant offsets to variables",
        sentence: "Keeps small arrays that are only addressed by constants in plain variables instead of memory.",
        properties: PassProperties { touches_memory: true, ..PassProperties::NONE },
        run: mem2reg,
    },
    PassInfo {
        flag: "-to-ssa",
        description: "Convert to SSA form with set/get (pruned, one definition per variable)",
        // Removes unreachable blocks before renaming.
        sentence: "Rewrites the program so every variable is assigned exactly once (SSA form). It adds instructions, but makes later passes see more.",
        properties: PassProperties { ssa: true, touches_cfg: true, ..PassProperties::NONE },
        run: ssa::to_ssa,
    },
    PassInfo {
        flag: "-from-ssa",
        description: "Leave SSA form: set/get become copies, coalesced where no value is overwritten",
        sentence: "Leaves SSA form: its set/get bookkeeping becomes ordinary copies, and the copies not needed disappear.",
        properties: PassProperties { ssa: true, ..PassProperties::NONE },
        run: ssa::from_ssa,
    },
    PassInfo {
        flag: "-sccp",
        description:
            "Conditional constant propagation: fold constants, branches on them and the code they rule out",
        sentence: "Finds variables that hold the same constant on every path, folds them, and deletes branches that can never be taken.",
        properties: PassProperties { touches_cfg: true, ..PassProperties::NONE },
        run: sccp::sccp,
    },
    PassInfo {
        flag: "-copy-prop",
        description: "Global copy propagation: read the source of an available copy, then drop dead copies",
        // A global dataflow over copies; the CFG stays.
        sentence: "Where a variable is only a copy of another, reads the original instead, then deletes copies nobody needs.",
        properties: PassProperties::NONE,
        run: copy_prop::copy_prop,
    },
    PassInfo {
        flag: "-adce",
        description: "Aggressive dead code elimination: keep only what effects need, across blocks and loops",
        // Keeps every branch (no control dependence), so the CFG stays.
        sentence: "Assumes everything is dead except what prints, stores, returns or calls, and keeps only what those need, across blocks and loops.",
        properties: PassProperties::NONE,
        run: adce::adce,
    },
    PassInfo {
        flag: "-gvn",
        description: "Global value numbering over SSA values: reuse a dominating equal computation",
        sentence: "Across the whole function, reuses a value already computed on every path to here instead of computing it again.",
        properties: PassProperties { ssa: true, ..PassProperties::NONE },
        run: gvn::gvn,
    },
    PassInfo {
        flag: "-simplify-cfg",
        description:
            "Simplify the CFG: drop unreachable blocks, fold constant branches, thread and merge jumps",
        sentence: "Tidies the control-flow graph: drops unreachable blocks, folds branches on constants, merges blocks that always follow each other.",
        properties: PassProperties { touches_cfg: true, ..PassProperties::NONE },
        run: simplify_cfg::simplify_cfg,
    },
    PassInfo {
        flag: "-licm",
        description: "Loop-invariant code motion: move pure invariant computations into loop preheaders",
        // Makes a preheader when a loop has none.
        sentence: "Moves computations that give the same result in every iteration out of the loop, so they run once.",
        properties: PassProperties { touches_cfg: true, loops: true, ..PassProperties::NONE },
        run: licm::licm,
    },
    PassInfo {
        flag: "-loop-unroll",
        description: "Fully unroll small loops whose counter runs from a constant by a constant step to a constant bound",
        // Makes a preheader when a loop has none.
        sentence: "Copies the body of a small loop with a known trip count once per iteration and removes the loop: bigger code, fewer branches.",
        properties: PassProperties { touches_cfg: true, loops: true, ..PassProperties::NONE },
        run: unroll::loop_unroll,
    },
    PassInfo {
        flag: "-strength-reduce",
        description: "Strength-reduce products of induction variables into additive recurrences",
        // Makes a preheader when a loop has none.
        sentence: "Replaces multiplications by the loop counter with additions carried from one iteration to the next.",
        properties: PassProperties { touches_cfg: true, loops: true, ..PassProperties::NONE },
        run: strength::strength_reduce,
    },
    PassInfo {
        flag: "-loop-rotate",
        description: "Loop rotation: copy a small loop test into each latch, making while loops guarded do-while loops",
        // Copies the loop test into latches.
        sentence: "Copies a loop's test to the bottom of its body, so each iteration runs one jump fewer and the first test guards the whole loop.",
        properties: PassProperties { touches_cfg: true, loops: true, ..PassProperties::NONE },
        run: loop_rotate::loop_rotate,
    },
    PassInfo {
        flag: "-jump-thread",
        description: "Jump threading: send an edge along which a branch's condition is known straight to its target",
        sentence: "Where a branch's outcome is already known on the way in (the same test was just made, or the flag was just set), jumps straight to where it would go.",
        properties: PassProperties { touches_cfg: true, ..PassProperties::NONE },
        run: jump_thread::jump_thread,
    },
    PassInfo {
        flag: "-pre",
        description: "Partial redundancy elimination by lazy code motion, for expressions that always write one variable",
        // May split an edge with a block of its own.
        sentence: "Where a value is computed on some paths and computed again later, computes it on the other paths too, so the later computation can go.",
        properties: PassProperties { touches_cfg: true, ..PassProperties::NONE },
        run: pre::pre,
    },
    PassInfo {
        flag: "-dead-args",
        description: "Dead argument elimination: drop parameters and return values no call needs (not @main's)",
        sentence: "Drops the parameters a function never reads and the results no caller uses, from the function and from every call.",
        properties: PassProperties { interprocedural: true, ..PassProperties::NONE },
        run: dead_args::dead_args,
    },
    PassInfo {
        flag: "-specialize",
        description: "Function specialisation: calls passing constants call a copy of the callee made for them",
        sentence: "Where a call passes constants, calls a copy of the function made for those values, which later passes can simplify.",
        properties: PassProperties { interprocedural: true, ..PassProperties::NONE },
        run: specialize::specialize,
    },
    PassInfo {
        flag: "-reassociate",
        description: "Reassociation: rebuild add/mul/and/or trees in rank order with their constants folded",
        sentence: "Reorders chains of additions, multiplications, ands and ors so equal sums look alike and the constants fold together.",
        properties: PassProperties { local: true, ..PassProperties::NONE },
        run: reassociate::reassociate,
    },
    PassInfo {
        flag: "-sink",
        description: "Code sinking: move pure code into the one branch that reads its result",
        // Moves code between blocks without reasoning about loops, calls or memory.
        sentence: "Moves a computation into the one branch that uses its result, so the other paths no longer pay for it.",
        properties: PassProperties::NONE,
        run: sink::sink,
    },
    PassInfo {
        flag: "-loop-deletion",
        description: "Loop deletion: drop counted loops (i < n, step 1, so they end) that compute nothing read after them",
        sentence: "Deletes a loop that surely ends and computes nothing anyone reads afterwards.",
        properties: PassProperties { touches_cfg: true, loops: true, ..PassProperties::NONE },
        run: loop_deletion::loop_deletion,
    },
    PassInfo {
        flag: "-inline=10",
        description: "-inline with callees of at most 10 instructions",
        sentence: "Like -inline, but only copies functions of at most 10 instructions: less growth, fewer calls removed.",
        properties: PassProperties { interprocedural: true, touches_cfg: true, ..PassProperties::NONE },
        run: variants::inline_10,
    },
    PassInfo {
        flag: "-inline=120",
        description: "-inline with callees of at most 120 instructions",
        sentence: "Like -inline, but copies functions of up to 120 instructions: more calls removed, more growth.",
        properties: PassProperties { interprocedural: true, touches_cfg: true, ..PassProperties::NONE },
        run: variants::inline_120,
    },
    PassInfo {
        flag: "-loop-unroll=2",
        description: "Unroll counted while loops by 2, testing once per 2 iterations; the loop runs what is left",
        sentence: "Runs two iterations of a counting loop per test, whatever the trip count; the original loop does what is left.",
        properties: PassProperties { touches_cfg: true, loops: true, ..PassProperties::NONE },
        run: unroll_by::loop_unroll_2,
    },
    PassInfo {
        flag: "-loop-unroll=4",
        description: "Unroll counted while loops by 4, testing once per 4 iterations; the loop runs what is left",
        sentence: "Runs four iterations of a counting loop per test, whatever the trip count; the original loop does what is left.",
        properties: PassProperties { touches_cfg: true, loops: true, ..PassProperties::NONE },
        run: unroll_by::loop_unroll_4,
    },
    PassInfo {
        flag: "-loop-unroll=8",
        description: "Unroll counted while loops by 8, testing once per 8 iterations; the loop runs what is left",
        sentence: "Runs eight iterations of a counting loop per test, whatever the trip count; the original loop does what is left.",
        properties: PassProperties { touches_cfg: true, loops: true, ..PassProperties::NONE },
        run: unroll_by::loop_unroll_8,
    },
    PassInfo {
        flag: "-outline",
        description: "Outlining: a run of instructions repeated with the same shape becomes a function called from each place",
        sentence: "Finds a run of instructions that appears in several places, moves it into a new function and calls that function from each place: smaller code, a call more at run time. The opposite of -inline.",
        properties: PassProperties { local: true, interprocedural: true, ..PassProperties::NONE },
        run: outline::outline,
    },
];

/// The pass with `flag` (`-dce` or `dce`), or a LookupError.
pub fn by_flag(flag: &str) -> Result<&'static PassInfo> {
    let flag = flag.trim();
    REGISTRY
        .iter()
        .find(|p| p.flag == flag || p.flag.strip_prefix('-') == Some(flag))
        .ok_or_else(|| Error::lookup(format!("unknown pass {flag:?}; `compgym opt --list` shows them all")))
}

/// Runs the passes named by `flags` in order; true if any changed the program.
pub fn run_flags(program: &mut Program, flags: &[&str]) -> Result<bool> {
    let mut changed = false;
    for flag in flags {
        changed |= (by_flag(flag)?.run)(program)?;
    }
    Ok(changed)
}

/// The fixed pipelines, as sequences of pass flags. `-O0` is no pass at all.
pub fn pipeline(name: &str) -> Result<&'static [&'static str]> {
    PIPELINES.iter().find(|(n, _)| *n == name).map(|(_, flags)| *flags).ok_or_else(|| {
        Error::lookup(format!("unknown pipeline {name:?}; the pipelines are -O0, -O1, -O2 and -Oz"))
    })
}

/// How a fixed pipeline runs, for whoever shows it pass by pass: its
/// groups of passes in order, and whether a group is kept only if the
/// program comes out no larger and changed (`-Oz`'s) or always.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipelinePlan {
    pub groups: Vec<&'static [&'static str]>,
    pub keep_group_if_no_larger: bool,
}

/// The plan of pipeline `name` (`-O0`, `-O1`, `-O2`, `-Oz`); what
/// [`run_pipeline`] runs.
pub fn pipeline_plan(name: &str) -> Result<PipelinePlan> {
    let flags = pipeline(name)?;
    Ok(if name == "-Oz" {
        PipelinePlan { groups: OZ_GROUPS.to_vec(), keep_group_if_no_larger: true }
    } else {
        let groups = if flags.is_empty() { Vec::new() } else { vec![flags] };
        PipelinePlan { groups, keep_group_if_no_larger: false }
    })
}

/// Runs a fixed pipeline; true if it changed the program.
pub fn run_pipeline(program: &mut Program, name: &str) -> Result<bool> {
    let plan = pipeline_plan(name)?;
    if plan.keep_group_if_no_larger {
        return run_size_groups(program);
    }
    let mut changed = false;
    for group in plan.groups {
        changed |= run_flags(program, group)?;
    }
    Ok(changed)
}

/// Runs pass flags and pipelines (`-O1`, `-O2`, `-Oz`) in order, as a
/// command line's `--passes` names them; true if any changed the program.
///
/// The entry point for programs from outside (the CLI, JavaScript): it
/// verifies the program first, since passes assume a well-formed one, so
/// one that is not is a VerifyError and stays as it was. (Environments
/// verify a benchmark once, when they load it.)
pub fn run_command_line<S: AsRef<str>>(program: &mut Program, flags: &[S]) -> Result<bool> {
    if flags.is_empty() {
        return Ok(false);
    }
    crate::bril::verify(program)?;
    let mut changed = false;
    for flag in flags.iter().map(AsRef::as_ref) {
        changed |=
            if flag.starts_with("-O") { run_pipeline(program, flag)? } else { run_flags(program, &[flag])? };
    }
    Ok(changed)
}

/// `-Oz`: groups of passes, each kept only if the program comes out no
/// larger, so a group may grow code on the way (inlining, unrolling) as long
/// as its clean-up more than pays for it.
const OZ_GROUPS: &[&[&str]] = &[
    &["-mem2reg", "-dead-store"],
    &[
        "-sccp",
        "-simplify-cfg",
        "-lvn",
        "-peephole",
        "-copy-prop",
        "-gvn",
        "-dce",
        "-adce",
        "-dead-functions",
        "-simplify-cfg",
        "-dce",
    ],
    &[
        "-inline",
        "-dead-functions",
        "-sccp",
        "-lvn",
        "-peephole",
        "-copy-prop",
        "-dce",
        "-adce",
        "-dead-functions",
        "-simplify-cfg",
        "-dce",
    ],
    &["-loop-unroll", "-sccp", "-lvn", "-peephole", "-copy-prop", "-dce", "-adce", "-simplify-cfg", "-dce"],
    &["-tail-call", "-copy-prop", "-dce", "-simplify-cfg"],
    &[
        "-sccp",
        "-simplify-cfg",
        "-lvn",
        "-peephole",
        "-copy-prop",
        "-gvn",
        "-dce",
        "-adce",
        "-simplify-cfg",
        "-dce",
    ],
    &["-outline"],
];

/// `-Oz`'s groups of passes, in order; each is kept only if the program
/// comes out no larger (and changed).
pub fn size_groups() -> &'static [&'static [&'static str]] {
    OZ_GROUPS
}

fn run_size_groups(program: &mut Program) -> Result<bool> {
    let mut changed = false;
    // Static instruction count (what the IrInstructionCount feature reports).
    let mut size = program.instr_count();
    for group in OZ_GROUPS {
        let mut candidate = program.clone();
        run_flags(&mut candidate, group)?;
        let candidate_size = candidate.instr_count();
        if candidate_size <= size && candidate != *program {
            *program = candidate;
            size = candidate_size;
            changed = true;
        }
    }
    Ok(changed)
}

/// `-O1`: cheap local clean-up. `-O2`: speed — inline first so the global
/// passes see through calls (and drop the functions inlining left uncalled,
/// so the passes after it, all within one function, do not work on them),
/// then constants, loops and redundancy; loops that stay are rotated (a jump
/// less per iteration, and code the body always computes moves to the
/// guard), then clean-up, threading and sinking. `-Oz`: size — everything
/// that removes code, nothing that copies it, and last, outlining of what
/// repeats.
static PIPELINES: &[(&str, &[&str])] = &[
    ("-O0", &[]),
    ("-O1", &["-lvn", "-peephole", "-dce", "-simplify-cfg", "-dce"]),
    (
        "-O2",
        &[
            "-inline",
            "-dead-functions",
            "-tail-call",
            "-mem2reg",
            "-dead-store",
            "-sccp",
            "-simplify-cfg",
            "-copy-prop",
            "-gvn",
            "-licm",
            "-strength-reduce",
            "-loop-unroll",
            "-loop-rotate",
            "-pre",
            "-sccp",
            "-lvn",
            "-peephole",
            "-copy-prop",
            "-adce",
            "-simplify-cfg",
            "-jump-thread",
            "-sink",
            "-dead-functions",
            "-dce",
        ],
    ),
    // -Oz is run by group, see OZ_GROUPS; listed here for `pipelines()`.
    ("-Oz", &[]),
];

/// The names of the fixed pipelines.
pub fn pipelines() -> impl Iterator<Item = &'static str> {
    PIPELINES.iter().map(|(name, _)| *name)
}

/// `{passes: [{flag, description}], pipelines, pipelinePlans: {name:
/// {groups, keepGroupIfNoLarger}}}`: the passes in action order and how
/// each pipeline runs them, as JS's `brilPasses()` gives them.
pub fn summary() -> serde_json::Value {
    use serde_json::json;
    let plans: serde_json::Map<String, serde_json::Value> = pipelines()
        .filter_map(|name| pipeline_plan(name).ok().map(|plan| (name, plan)))
        .map(|(name, plan)| {
            let plan = json!({ "groups": plan.groups, "keepGroupIfNoLarger": plan.keep_group_if_no_larger });
            (name.to_string(), plan)
        })
        .collect();
    json!({
        "passes": registry().iter().map(|p| json!({ "flag": p.flag, "description": p.description })).collect::<Vec<_>>(),
        "pipelines": pipelines().collect::<Vec<_>>(),
        "pipelinePlans": plans,
    })
}

#[cfg(test)]
mod tests {
    use super::{pipeline_plan, pipelines, registry, run_command_line, run_flags, run_pipeline};
    use crate::bril::ir::{Literal, Op};
    use crate::bril::{parse_text, to_text, Program};

    /// The public way to run passes checks the program first: passes
    /// assume a well-formed program (`id` has an argument...), and a
    /// program that is not one is a VerifyError, left as it was.
    #[test]
    fn command_lines_verify_the_program_first() {
        let sources = ["@main {\n  x: int = id;\n  print x;\n}", "@main {\n  b: bool = not;\n  print b;\n}"];
        let flags = registry().iter().map(|p| p.flag).chain(pipelines());
        for flag in flags {
            for src in sources {
                let mut p = parse_text(src).unwrap();
                let before = p.clone();
                let e = run_command_line(&mut p, &[flag]).unwrap_err();
                assert_eq!(e.kind(), crate::error::ErrorKind::Verify, "{flag}: {e}");
                assert_eq!(p, before, "{flag}");
            }
        }
        let mut p = parse_text(sources[0]).unwrap();
        assert!(!run_command_line::<&str>(&mut p, &[]).unwrap(), "no pass, nothing to check");
    }

    /// A pipeline's plan, run group by group with its rule for keeping a
    /// group, gives what the pipeline gives (the playground shows the
    /// pipelines as steps this way).
    #[test]
    fn pipeline_plans_replay_their_pipelines() {
        for benchmark in crate::bril::suite::all() {
            for name in pipelines() {
                let original = benchmark.program().unwrap();
                let mut whole = original.clone();
                run_pipeline(&mut whole, name).unwrap();
                let plan = pipeline_plan(name).unwrap();
                let mut stepped = original.clone();
                for group in &plan.groups {
                    let mut candidate = stepped.clone();
                    run_flags(&mut candidate, group).unwrap();
                    let keep = !plan.keep_group_if_no_larger
                        || (candidate.instr_count() <= stepped.instr_count() && candidate != stepped);
                    if keep {
                        stepped = candidate;
                    }
                }
                assert_eq!(to_text(&stepped), to_text(&whole), "{name} on {}", benchmark.uri());
            }
        }
        assert!(pipeline_plan("-O0").unwrap().groups.is_empty());
        assert!(pipeline_plan("-O3").is_err());
    }

    /// Infinities and NaN have no Bril literal the reference tools read
    /// (`1e999` in text, `"Infinity"` in JSON): folding leaves such
    /// computations as they are.
    #[test]
    fn folding_never_writes_an_infinite_or_nan_literal() {
        let sources = [
            "@main {\n  one: float = const 1.0;\n  z: float = const 0.0;\n  r: float = fdiv one z;\n  print r;\n}",
            "@main {\n  z: float = const 0.0;\n  r: float = fdiv z z;\n  print r;\n}",
            "@main {\n  big: float = const 1e308;\n  r: float = fmul big big;\n  s: float = fadd r big;\n  z: float = const 0;\n  m: float = fsub z r;\n  print s m;\n}",
            "@main {\n  big: float = const 1e308;\n  r: float = fadd big big;\n  c: bool = feq r r;\n  print r c;\n}",
        ];
        let finite = |p: &Program| {
            p.functions.iter().flat_map(|f| f.instrs()).all(|i| match (i.op, i.value) {
                (Op::Const, Some(Literal::Float(x))) => x.is_finite(),
                _ => true,
            })
        };
        let flags = registry().iter().map(|p| p.flag).chain(pipelines());
        for flag in flags {
            for src in sources {
                let mut p = parse_text(src).unwrap();
                run_command_line(&mut p, &[flag]).unwrap();
                assert!(finite(&p), "{flag} wrote a literal no reader takes:\n{}", to_text(&p));
            }
        }
    }

    /// An action's index means the same pass in every release (saved states,
    /// bandit arms and agents' logs name actions by index): passes are only
    /// ever added at the end.
    #[test]
    fn passes_keep_their_action_index() {
        let flags: Vec<&str> = registry().iter().map(|p| p.flag).collect();
        let released = [
            "-dce",
            "-lvn",
            "-peephole",
            "-dead-functions",
            "-inline",
            "-tail-call",
            "-dead-store",
            "-mem2reg",
            "-to-ssa",
            "-from-ssa",
            "-sccp",
            "-copy-prop",
            "-adce",
            "-gvn",
            "-simplify-cfg",
            "-licm",
            "-loop-unroll",
            "-strength-reduce",
            "-loop-rotate",
            "-jump-thread",
            "-pre",
            "-dead-args",
            "-specialize",
            "-reassociate",
            "-sink",
            "-loop-deletion",
            "-inline=10",
            "-inline=120",
            "-loop-unroll=2",
            "-loop-unroll=4",
            "-loop-unroll=8",
            "-outline",
        ];
        assert_eq!(&flags[..released.len()], &released[..]);
    }
}
