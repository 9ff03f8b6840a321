//! Random Bril programs that resemble hand-written ones,
//! `generator://random-v1/SEED` or `generator://random-v1/SEED?size=N`.
//!
//! `@main(n, seed [, rounds] [, rate])` takes its arguments from a `# ARGS:`
//! line: it allocates one or two arrays of `n` cells, fills them from a
//! linear congruential recurrence seeded by `seed`, and calls workers: the
//! functions that do the work, built from kernels (see [`kernels`]) and
//! arranged in up to four levels, each calling workers of lower levels,
//! small helpers (inside loops, where inlining pays off) and recursive
//! functions whose depth comes from the data. Every kernel folds its result
//! into a running checksum that is returned up the calls and printed by
//! `@main` (at the end, and now and then in between); a float checksum is
//! printed too when the program has a logistic `rate`. Part of `@main` runs
//! `rounds` times. Loop bounds are `n`, values derived from it or from the
//! data; a minority are constants (row widths, passes, bucket counts).
//!
//! Every program verifies, terminates and runs without error for arguments
//! in the ranges `@main`'s comment states: indices stay below the arrays'
//! lengths, divisors are nonzero, recursion depths are bounded by the data
//! reduced modulo a constant, and every allocation is freed. Each function
//! keeps an upper bound of the dynamic instructions of one call, and the
//! program as a whole stays near [`work_target`] (10^4 at size 20, 10^6 at
//! 20,000) and below [`WORK_BUDGET`].
//!
//! `size` (default [`DEFAULT_SIZE`], at most [`MAX_SIZE`]) is about the
//! number of statements, 3.5 instructions each, as in `random-v0`. The same
//! seed and size give the same program on every platform ([`Rng`]), and
//! generation is linear in the size.

mod body;
mod helpers;
mod kernels;
mod sig;

use crate::bril::ir::Program;
use crate::bril::parse_text;
use crate::error::Result;
use crate::rng::Rng;
use helpers::{Helper, Recursive};
use kernels::{Fun, Scope};
use sig::{Callees, Kind, Ret, Role, Sig};

pub const URI_PREFIX: &str = "generator://random-v1/";
pub const DEFAULT_SIZE: u32 = 100;
pub const MAX_SIZE: u32 = 20_000;
/// Upper bound on the dynamic instructions of a generated program.
pub const WORK_BUDGET: u64 = 2_000_000;

/// The program a `generator://random-v1/...` URI names.
pub fn from_uri(uri: &str) -> Result<Program> {
    let (seed, size) = super::seed_and_size(uri, URI_PREFIX, DEFAULT_SIZE, MAX_SIZE)?;
    generate(seed, size)
}

/// A random program for `seed` with about `size` statements.
pub fn generate(seed: u64, size: u32) -> Result<Program> {
    parse_text(&generate_text(seed, size))
}

/// The dynamic instructions a program of `size` is planned to run at most:
/// `10^4 (size / 20)^(2/3)`, so 10^4 at size 20 and 10^6 at 20,000.
pub fn work_target(size: u32) -> u64 {
    let ratio = f64::from(size.clamp(1, MAX_SIZE)) / 20.0;
    (10_000.0 * libm::cbrt(ratio * ratio)) as u64
}

/// `@main`'s arguments.
struct Args {
    /// Cells per array.
    n: u64,
    seed: u64,
    /// How often part of `@main` runs.
    rounds: Option<u64>,
    /// The logistic map's rate: the program uses floats when it has one.
    rate: Option<f64>,
    two_arrays: bool,
}

impl Args {
    fn random(rng: &mut Rng, size: u32) -> Args {
        // Larger programs do more things once, each on fewer cells.
        let (lo, hi) = match size {
            0..=199 => (32, 96),
            200..=999 => (16, 64),
            1000..=4999 => (12, 32),
            _ => (8, 24),
        };
        let n = rng.int_inclusive(lo, hi) as u64;
        let seed = rng.int_inclusive(1, (1 << 31) - 1) as u64;
        let rounds = (rng.index(2) == 0).then(|| rng.int_inclusive(2, 4) as u64);
        let rate = (rng.index(2) == 0).then(|| rng.int_inclusive(3500, 3990) as f64 / 1000.0);
        let two_arrays = rng.index(2) == 0;
        Args { n, seed, rounds, rate, two_arrays }
    }

    fn line(&self) -> String {
        let mut line = format!("# ARGS: {} {}", self.n, self.seed);
        if let Some(r) = self.rounds {
            line += &format!(" {r}");
        }
        if let Some(r) = self.rate {
            line += &format!(" {r:?}");
        }
        line
    }
}

/// A worker to be written.
struct WorkerPlan {
    instrs: usize,
    level: u8,
    two_arrays: bool,
    rate: bool,
    void: bool,
    /// Index in the plan's workers of the one that must call it; `None`: `@main`.
    parent: Option<usize>,
}

/// Levels of workers: a worker calls only workers of lower levels.
const LEVELS: u8 = 4;

/// The workers of a program of about `instrs` instructions, with their
/// callers: sizes of 14 to 36 instructions (inlining takes them) or 45 to
/// 140, on levels 1 (most) to 4.
fn plan_workers(rng: &mut Rng, instrs: usize, args: &Args) -> Vec<WorkerPlan> {
    let mut workers = Vec::new();
    let mut left = instrs;
    while left >= 14 {
        let size = if rng.index(100) < 35 { rng.int_inclusive(14, 36) } else { rng.int_inclusive(45, 140) };
        let size = (size as usize).min(left);
        left -= size;
        let level = match rng.index(100) {
            0..=44 => 1,
            45..=74 => 2,
            75..=91 => 3,
            _ => 4,
        };
        workers.push(WorkerPlan {
            instrs: size,
            level,
            two_arrays: args.two_arrays && rng.index(2) == 0,
            rate: args.rate.is_some() && rng.index(2) == 0,
            void: rng.index(100) < 15,
            parent: None,
        });
    }
    // Generated by level, lowest first, so callees come before callers.
    workers.sort_by_key(|w| w.level);
    let by_level: Vec<Vec<usize>> =
        (0..=LEVELS).map(|l| (0..workers.len()).filter(|&w| workers[w].level == l).collect()).collect();
    for w in 0..workers.len() {
        let level = workers[w].level;
        if level >= LEVELS || rng.index(100) >= 70 {
            continue;
        }
        let above: Vec<usize> = by_level[level as usize + 1]
            .iter()
            .copied()
            .filter(|&p| workers[p].rate || !workers[w].rate)
            .collect();
        if !above.is_empty() {
            workers[w].parent = Some(above[rng.index(above.len())]);
        }
    }
    workers
}

/// The Bril text of [`generate`].
pub fn generate_text(seed: u64, size: u32) -> String {
    let size = size.clamp(1, MAX_SIZE);
    let mut rng = Rng::seed_from_u64(seed);
    let target = (size as usize * 7).div_ceil(2).max(40);
    let work = work_target(size);
    let args = Args::random(&mut rng, size);
    let mut sigs = Callees::default();
    let mut texts: Vec<String> = Vec::new();

    let helper_count = (1 + target / 300).min(20);
    let mut templates: Vec<Helper> =
        Helper::ALL.iter().copied().filter(|h| args.rate.is_some() || !h.uses_floats()).collect();
    rng.shuffle(&mut templates);
    // Half the programs have a modulo helper first, as people write one
    // and call it from every loop that reduces.
    if rng.index(2) == 0 {
        templates.retain(|&h| h != Helper::Modulo);
        templates.insert(0, Helper::Modulo);
    }
    for k in 0..helper_count {
        let (sig, text) = helpers::helper(&mut rng, templates[k % templates.len()], k / templates.len());
        sigs.push(sig);
        texts.push(text);
    }
    let recursive_count = if target < 200 { rng.index(2) } else { (1 + target / 1500).min(12) };
    let mut templates = Recursive::ALL.to_vec();
    rng.shuffle(&mut templates);
    for k in 0..recursive_count {
        let mix = sigs
            .mix
            .as_ref()
            .and_then(|m| sigs.helpers.iter().find(|&&h| sigs[h].name == *m))
            .map(|&h| &sigs[h]);
        let (sig, text) =
            helpers::recursive(&mut rng, templates[k % templates.len()], k / templates.len(), args.n, mix);
        sigs.push(sig);
        texts.push(text);
    }
    let fill = (rng.index(2) == 0).then(|| {
        let (sig, text) = helpers::fill(&mut rng, args.n, args.two_arrays);
        texts.push(text);
        sigs.push(sig)
    });

    let small_instrs: usize = texts.iter().map(|t| t.lines().count()).sum();
    let main_instrs = (target / 10).max(30);
    let plan = plan_workers(&mut rng, target.saturating_sub(small_instrs + main_instrs), &args);
    // Work per static instruction, shared out by size.
    let density = work as f64 / target as f64;
    // Helpers and recursive functions no body has called yet.
    // (A recursive function may call the mix helper.)
    let called_by_another = |c: usize| {
        let call = format!("call @{} ", sigs[c].name);
        texts.iter().enumerate().any(|(t, text)| t != c && text.contains(&call))
    };
    let mut uncalled: Vec<usize> = (0..sigs.len())
        .filter(|&c| matches!(sigs[c].kind, Kind::Helper | Kind::Recursive) && !called_by_another(c))
        .collect();
    let mut children_of: Vec<Vec<usize>> = vec![Vec::new(); plan.len()];
    for (c, p) in plan.iter().enumerate() {
        if let Some(w) = p.parent {
            children_of[w].push(c);
        }
    }
    let mut index_of = vec![0; plan.len()];
    for (w, p) in plan.iter().enumerate() {
        let must: Vec<usize> = children_of[w].iter().map(|&c| index_of[c]).collect();
        let children: u64 = must.iter().map(|&c| sigs[c].cost).sum();
        let budget = (density * p.instrs as f64) as u64 + children;
        let name = format!("work{}", w + 1);
        let (sig, text, calls) = worker(&mut rng, &sigs, name, p, args.n, budget, &must, &uncalled);
        uncalled.retain(|c| !calls.contains(c));
        index_of[w] = sigs.push(sig);
        texts.push(text);
    }
    let mut must: Vec<usize> =
        plan.iter().enumerate().filter(|(_, p)| p.parent.is_none()).map(|(w, _)| index_of[w]).collect();
    // Whatever no worker called, `@main` calls: no function is dead.
    must.extend(&uncalled);
    rng.shuffle(&mut must);
    let main = main_function(
        &mut rng,
        &sigs,
        &args,
        fill,
        &must,
        main_instrs,
        (density * main_instrs as f64) as u64,
    );

    let mut out = format!("{}\n# generator://random-v1/{seed}?size={size}\n", args.line());
    for t in &texts {
        out.push_str(t);
    }
    out.push_str(&main);
    out
}

/// A worker: `@name(a [, b], n, k [, rate]): int`, or without a result
/// (then it stores its checksum into `a[0]`); with the callees it called.
#[allow(clippy::too_many_arguments)]
fn worker(
    rng: &mut Rng,
    callees: &Callees,
    name: String,
    plan: &WorkerPlan,
    n_max: u64,
    budget: u64,
    must: &[usize],
    uncalled: &[usize],
) -> (Sig, String, Vec<usize>) {
    let mut params = vec![("a", Role::Array)];
    let mut arrays = vec!["a".to_string()];
    if plan.two_arrays {
        params.push(("b", Role::Array));
        arrays.push("b".into());
    }
    params.extend([("n", Role::Len), ("k", Role::Any)]);
    if plan.rate {
        params.push(("rate", Role::Rate));
    }
    let scope = Scope {
        arrays,
        len: "n".into(),
        ints: vec!["k".into()],
        rate: plan.rate.then(|| "rate".to_string()),
        facc: None,
    };
    let mut f = Fun::new(rng, callees, n_max, scope, budget, false);
    f.uncalled = uncalled.to_vec();
    for (p, _) in &params {
        f.b.var(p);
    }
    f.acc = f.b.var("acc");
    f.b.line(format_args!("{}: int = id k", f.acc));
    f.body(plan.instrs, must);
    f.use_every_array();
    if plan.rate && !f.done.rate_used {
        f.logistic();
    }
    let ret = if plan.void {
        let r = f.cell_of_acc();
        f.b.line(format_args!("store a {r}"));
        Ret::Void
    } else {
        f.b.line(format_args!("ret {}", f.acc));
        Ret::Int
    };
    let mut sig = Sig { name, params, ret, kind: Kind::Worker { level: plan.level }, cost: 0 };
    sig.cost = f.b.cost;
    let calls = std::mem::take(&mut f.done.calls);
    let text = f.finish(&sig.header());
    (sig, text, calls)
}

/// `@main`: allocates and fills the arrays, calls the workers it must
/// (part of it `rounds` times), prints the checksums, frees the arrays.
fn main_function(
    rng: &mut Rng,
    callees: &Callees,
    args: &Args,
    fill: Option<usize>,
    must: &[usize],
    instrs: usize,
    own_work: u64,
) -> String {
    let mut params = vec!["n: int".to_string(), "seed: int".to_string()];
    let mut arrays = vec!["a".to_string()];
    if args.two_arrays {
        arrays.push("b".into());
    }
    if args.rounds.is_some() {
        params.push("rounds: int".into());
    }
    if args.rate.is_some() {
        params.push("rate: float".into());
    }
    let scope = Scope {
        arrays: arrays.clone(),
        len: "n".into(),
        ints: vec!["seed".into()],
        rate: args.rate.map(|_| "rate".to_string()),
        facc: args.rate.map(|_| "facc".to_string()),
    };
    let children: u64 = must.iter().map(|&c| callees[c].cost).sum();
    let fill_cost = fill.map_or(0, |f| callees[f].cost) * arrays.len() as u64;
    let budget = own_work + children + fill_cost + 20 * args.n;
    let mut f = Fun::new(rng, callees, args.n, scope, budget, true);
    for p in ["n", "seed", "rounds", "rate", "a", "b", "state", "acc", "facc", "round"] {
        f.b.var(p);
    }
    for a in &arrays {
        f.b.line(format_args!("{a}: ptr<int> = alloc n"));
    }
    match fill {
        Some(fill) => {
            let name = &callees[fill].name;
            if args.two_arrays {
                f.b.line(format_args!("state: int = call @{name} a n seed"));
                f.b.line(format_args!("state: int = call @{name} b n state"));
            } else {
                f.b.line(format_args!("call @{name} a n seed"));
            }
            f.b.cost += fill_cost;
        }
        None => {
            f.b.line(format_args!("state: int = id seed"));
            for a in &arrays {
                helpers::fill_loop(f.rng, &mut f.b, a, "n", "state", "i", args.n);
            }
        }
    }
    f.acc = "acc".into();
    f.b.line(format_args!("acc: int = const 0"));
    if args.rate.is_some() {
        f.b.line(format_args!("facc: float = const 0.0"));
    }
    let mut must = must.to_vec();
    if let Some(rounds) = args.rounds {
        // Children cheap enough to run every round, and some kernels.
        let spare = budget.saturating_sub(f.b.cost + children) / rounds.max(2);
        let mut inside = Vec::new();
        let mut spent = 0;
        must.retain(|&c| {
            let cost = callees[c].cost.saturating_mul(rounds - 1);
            if spent + cost <= spare / 2 && f.rng.index(2) == 0 {
                spent += cost;
                inside.push(c);
                false
            } else {
                true
            }
        });
        let rest: u64 = must.iter().map(|&c| callees[c].cost).sum();
        f.rounds_loop("round", "rounds", rounds, budget.saturating_sub(rest), |f| {
            let target = f.b.instrs + instrs / 3;
            f.body(target, &inside)
        });
    }
    let left = instrs.saturating_sub(f.b.instrs);
    f.body(left, &must);
    if args.rate.is_some() && !f.done.facc_written {
        f.logistic();
    }
    f.b.line(format_args!("print acc"));
    if args.rate.is_some() {
        f.b.line(format_args!("print facc"));
    }
    for a in &arrays {
        f.b.line(format_args!("free {a}"));
    }
    let header = format!("@main({}) {{", params.join(", "));
    let comment = format!(
        "# n: cells per array (at least 1); seed: 0 to 2^31 - 1{}{}\n",
        if args.rounds.is_some() { "; rounds: any" } else { "" },
        if args.rate.is_some() { "; rate: 3.5 to 4" } else { "" },
    );
    comment + &f.finish(&header)
}

#[cfg(test)]
mod tests;
