//! `passes` and `pass-speed`: what the pipelines cut (outputs checked), and
//! the time each pass takes.

use crate::scaling::cpu_seconds;
use crate::{collect_bril_files, load, usage_error, Failure};
use compgym::bril::{self, interp, Program};
use std::io::Write;
use std::time::Instant;

pub fn passes(args: &[String]) -> Result<(), Failure> {
    use compgym::bril::passes::quality::{geomean_ratio, measure};
    let mut results = Vec::new();
    let mut programs: Vec<(String, Program)> = Vec::new();
    if args.is_empty() {
        for b in bril::suite::all() {
            programs.push((b.uri(), b.program().map_err(|e| Failure(format!("{}: {e}", b.name), 2))?));
        }
    } else {
        for f in collect_bril_files(args)? {
            let name = f.display().to_string();
            programs.push((name.clone(), load(&name)?));
        }
    }
    let limits = interp::Limits::default();
    let pipelines: Vec<&str> = compgym::bril::passes::pipelines().collect();
    say!("{:<44} {}", "program (static / dynamic instructions)", pipelines.join("            "));
    let mut broken = 0;
    for (name, p) in &programs {
        let q = measure(name, p, &p.main_args(), &limits).map_err(|e| Failure(format!("{name}: {e}"), 2))?;
        let cells: Vec<String> = q
            .measures
            .iter()
            .map(|(_, m)| {
                format!("{:>5} / {:<9}{}", m.static_count, m.dyn_count, if m.same_output { " " } else { "!" })
            })
            .collect();
        broken += q.measures.iter().filter(|(_, m)| !m.same_output).count();
        say!("{:<44} {}", short(name), cells.join(" "));
        results.push(q);
    }
    say!("");
    for pipeline in &pipelines[1..] {
        let dynamic = 1.0 - geomean_ratio(&results, pipeline, |m| m.dyn_count as f64);
        let size = 1.0 - geomean_ratio(&results, pipeline, |m| m.static_count as f64);
        say!(
            "{pipeline}: geometric mean cut {:>5.1}% dynamic, {:>5.1}% static",
            100.0 * dynamic,
            100.0 * size
        );
    }
    say!("programs whose output changed (marked !): {broken}");
    if broken > 0 {
        return Err(Failure(format!("{broken} optimised programs changed their output"), 2));
    }
    Ok(())
}

/// The last two path components: enough to name a benchmark in a table.
fn short(name: &str) -> String {
    let parts: Vec<&str> = name.rsplit('/').take(2).collect();
    parts.into_iter().rev().collect::<Vec<_>>().join("/")
}

/// Seconds per call of `f`: the fastest mean over batches of 64 calls, run
/// for at least `min_seconds` (on a shared machine the fastest batch is the
/// one least disturbed by other work).
fn time_per_call(min_seconds: f64, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    let mut best = f64::INFINITY;
    while start.elapsed().as_secs_f64() < min_seconds {
        let batch = Instant::now();
        for _ in 0..64 {
            f();
        }
        best = best.min(batch.elapsed().as_secs_f64() / 64.0);
    }
    best
}

/// The median-size program of the bundled suite: (instructions, name, program).
fn median_suite_program() -> Result<(usize, &'static str, Program), Failure> {
    let mut programs: Vec<(usize, &'static str, Program)> = Vec::new();
    for b in bril::suite::all() {
        let p = b.program().map_err(|e| Failure(format!("{}: {e}", b.name), 2))?;
        programs.push((p.instr_count(), b.name, p));
    }
    programs.sort_by_key(|(n, name, _)| (*n, *name));
    let middle = programs.len() / 2;
    Ok(programs.swap_remove(middle))
}

/// The options of `pass-speed` and `pass-walk`.
struct PassOptions<'a> {
    seconds: f64,
    /// `--rounds N` (`pass-walk` only): untimed rounds.
    rounds: Option<usize>,
    /// `--only FLAG`: one pass (a flag of the registry).
    only: Option<&'a str>,
}

/// Reads `args` into [`PassOptions`], `--rounds` only where `rounds_allowed`.
fn pass_options<'a>(
    args: &'a [String],
    usage: &str,
    seconds: f64,
    rounds_allowed: bool,
) -> Result<PassOptions<'a>, Failure> {
    let mut options = PassOptions { seconds, rounds: None, only: None };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match (arg.as_str(), rest.next()) {
            ("--seconds", Some(s)) => {
                options.seconds = s.parse().map_err(|_| usage_error("--seconds needs a number"))?
            }
            ("--rounds", Some(n)) if rounds_allowed => {
                options.rounds = Some(n.parse().map_err(|_| usage_error("--rounds needs a whole number"))?)
            }
            ("--only", Some(flag)) => options.only = Some(flag),
            _ => return Err(usage_error(usage)),
        }
    }
    if let Some(flag) = options.only.filter(|&f| bril::passes::registry().iter().all(|p| p.flag != f)) {
        return Err(usage_error(format!("--only: no pass {flag:?}")));
    }
    Ok(options)
}

pub fn pass_speed(args: &[String]) -> Result<(), Failure> {
    const USAGE_PASS_SPEED: &str = "usage: compgym-bench pass-speed [--seconds S] [--only FLAG]";
    let PassOptions { seconds, only, .. } = pass_options(args, USAGE_PASS_SPEED, 0.1, false)?;
    let (count, name, program) = &median_suite_program()?;
    say!("median suite program: {name} ({count} instructions); time per call, clone excluded");
    say!("  fresh: the pass on a fresh copy of the program; fixpoint: on the program it has already");
    say!("  brought to its fixpoint (a pass that changes nothing more)");
    say!("{:>9}  {:>9}", "fresh", "fixpoint");
    let clone = time_per_call(seconds, || drop(std::hint::black_box(program.clone())));
    for pass in compgym::bril::passes::registry() {
        if only.is_some_and(|flag| flag != pass.flag) {
            continue;
        }
        let fresh = time_per_call(seconds, || {
            let mut p = program.clone();
            let _ = std::hint::black_box((pass.run)(&mut p));
        });
        // At most a few rounds: every pass settles in one or two.
        let mut settled = program.clone();
        for _ in 0..8 {
            if !(pass.run)(&mut settled).unwrap_or(false) {
                break;
            }
        }
        let fixpoint = time_per_call(seconds, || {
            let mut p = settled.clone();
            let _ = std::hint::black_box((pass.run)(&mut p));
        });
        say!(
            "{:>9.2}  {:>9.2} us  {}",
            (fresh - clone).max(0.0) * 1e6,
            (fixpoint - clone).max(0.0) * 1e6,
            pass.flag
        );
    }
    if only.is_some() {
        return Ok(());
    }
    let features = time_per_call(seconds, || drop(std::hint::black_box(bril::features::observe(program))));
    say!("{:>9.2} us  all features (InstCount, Autophase, ProGraML graph, IrSha1, counts)", features * 1e6);
    Ok(())
}

/// CPU seconds of the fastest of the runs of `f` made in `min_seconds` (at
/// least one): for work long enough to time alone.
fn fastest_round(min_seconds: f64, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    let mut best = f64::INFINITY;
    while best.is_infinite() || start.elapsed().as_secs_f64() < min_seconds {
        let round = cpu_seconds();
        f();
        best = best.min(cpu_seconds() - round);
    }
    best
}

/// Steps per walk and walks in [`walk_states`].
const WALK_STEPS: usize = 20;
const WALKS: usize = 100;

/// The states an agent meets: every state of [`WALKS`] seeded random walks
/// of [`WALK_STEPS`] passes from `program` (a step that changes nothing
/// stays where it is, and counts).
fn walk_states(program: &Program) -> Result<Vec<Program>, Failure> {
    let registry = bril::passes::registry();
    let mut rng = compgym::rng::Rng::seed_from_u64(0);
    let mut states = Vec::with_capacity(WALKS * WALK_STEPS);
    for _ in 0..WALKS {
        let mut state = program.clone();
        for _ in 0..WALK_STEPS {
            let pass = &registry[rng.index(registry.len())];
            let mut next = state.clone();
            if (pass.run)(&mut next).map_err(|e| Failure(format!("{}: {e}", pass.flag), 2))? {
                state = next;
            }
            states.push(state.clone());
        }
    }
    Ok(states)
}

/// `compgym-bench pass-walk`: each pass on the states of random walks from
/// the median suite program, the transitions a learning agent tries.
pub fn pass_walk(args: &[String]) -> Result<(), Failure> {
    const USAGE_PASS_WALK: &str = "usage: compgym-bench pass-walk [--seconds S] [--rounds N] [--only FLAG]";
    let PassOptions { seconds, rounds, only } = pass_options(args, USAGE_PASS_WALK, 0.5, true)?;
    let (count, name, program) = &median_suite_program()?;
    let states = walk_states(program)?;
    let what = match rounds {
        Some(n) => format!("{n} rounds over them per pass, untimed (count the work with a profiler)"),
        None => "mean CPU time per call over the states (fastest round), the clone excluded; \
                 share of calls that changed the state"
            .to_string(),
    };
    say!(
        "{} states of {WALKS} random {WALK_STEPS}-pass walks from {name} ({count} instructions); {what}",
        states.len()
    );
    let mut clone = 0.0;
    if rounds.is_none() {
        let clone_all = || states.iter().for_each(|s| drop(std::hint::black_box(s.clone())));
        clone = fastest_round(seconds, clone_all) / states.len() as f64;
        say!("{:>9.2} us  a copy of the state (each call's start)", clone * 1e6);
    }
    for pass in bril::passes::registry() {
        if only.is_some_and(|flag| flag != pass.flag) {
            continue;
        }
        let run_all = || {
            let mut changed = 0;
            for s in &states {
                let mut p = s.clone();
                changed += usize::from(std::hint::black_box((pass.run)(&mut p)).unwrap_or(false));
            }
            changed
        };
        match rounds {
            Some(n) => (0..n).for_each(|_| {
                let _ = run_all();
            }),
            None => {
                let changed = run_all();
                let time = fastest_round(seconds, || {
                    let _ = run_all();
                }) / states.len() as f64;
                say!(
                    "{:>9.2} us  {:>5.1}%  {}",
                    (time - clone).max(0.0) * 1e6,
                    100.0 * changed as f64 / states.len() as f64,
                    pass.flag
                );
            }
        }
    }
    Ok(())
}
