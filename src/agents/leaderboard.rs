//! The leaderboard: every agent on every task and dataset, one table.
//!
//! * code size: the final `IrInstructionCount` against `-Oz`'s, as
//!   `Oz / final` (above 1 is smaller than `-Oz`);
//! * runtime: the final `DynamicInstructionCount` against `-O2`'s, as
//!   `O2 / final`.
//!
//! Each row is one agent on one task and dataset: the geometric mean of the
//! ratios, programs better and worse than the baseline, how many results
//! replayed to the same cost and printed what the unoptimised program
//! prints, and the time and steps spent. Searches start, by default, from
//! the baseline's own pass sequence (so they cannot end worse than it); the
//! policy always starts from the unoptimised program and plays one greedy
//! episode. Every agent gets a fresh compiler per row (nothing it learns is
//! shared with another agent) and the same seed on every program.
//!
//! The leaderboard is a resumable state machine too ([`Leaderboard::step_once`]),
//! for a worker that reports between pieces.

use super::baseline::pipeline_actions;
use super::kinds::AgentKind;
use super::policy::train::generated_uri;
use super::programs::{OwnProgram, Split};
use super::search::{Budget, SearchOptions, SearchRun};
use super::task::Task;
use crate::bril::suite;
use crate::compilers::make;
use crate::env::{default_clock, Clock, CompilerEnv, EnvOptions, ResetOptions};
use crate::error::{Error, Result};
use crate::service::BenchmarkUri;
use std::fmt::Write;
use std::ops::Range;

/// The generator seeds of the leaderboard's generated programs: never
/// trained on, never used to validate training.
pub const UNSEEN_SEEDS: Range<u64> = 1_000_000..2_000_000;

/// Named benchmarks.
#[derive(Clone, Debug, PartialEq)]
pub struct Dataset {
    pub name: String,
    pub benchmarks: Vec<String>,
}

impl Dataset {
    /// The bundled suite; `limit` keeps only the first programs.
    pub fn suite(limit: Option<usize>) -> Dataset {
        let all = suite::all();
        let n = limit.unwrap_or(all.len()).min(all.len());
        Dataset { name: "suite-v0".into(), benchmarks: all[..n].iter().map(|b| b.uri()).collect() }
    }

    /// A dataset the compiler lists (e.g. `benchmark://large-v0`), its
    /// first `limit` programs; `None` if the compiler has no such dataset.
    pub fn listed(name: &str, limit: Option<usize>) -> Result<Option<Dataset>> {
        let env = make("bril-v0", EnvOptions::default())?;
        let Ok(dataset) = env.datasets().dataset(name) else { return Ok(None) };
        let n = dataset.size().unwrap_or(0) as usize;
        let benchmarks =
            (0..limit.unwrap_or(n).min(n) as u64).filter_map(|i| dataset.benchmark_uri(i)).collect();
        let short = dataset.name.rsplit('/').next().unwrap_or(&dataset.name).to_string();
        Ok(Some(Dataset { name: short, benchmarks }))
    }

    /// Programs of one's own, one dataset per folder (the URI's dataset).
    pub fn own(programs: &[OwnProgram]) -> Vec<Dataset> {
        let mut datasets: Vec<Dataset> = Vec::new();
        for p in programs {
            let name = BenchmarkUri::parse(&p.uri).map(|u| u.dataset).unwrap_or_else(|_| "own".into());
            match datasets.iter_mut().find(|d| d.name == name) {
                Some(d) => d.benchmarks.push(p.uri.clone()),
                None => datasets.push(Dataset { name, benchmarks: vec![p.uri.clone()] }),
            }
        }
        datasets
    }

    /// The hand-written programs (suite, large and `own`) on side `split`,
    /// then the same without those that read no input (their `@main` takes
    /// no arguments, so their output cannot depend on one and they may fold
    /// to a constant).
    pub fn hand_written(split: Split, own: &[OwnProgram]) -> Result<Vec<Dataset>> {
        let mut all: Vec<(String, bool)> = Vec::new();
        for b in suite::all().iter().chain(suite::large::all()?) {
            all.push((b.uri(), reads_input(b.source)?));
        }
        for p in own {
            all.push((p.uri.clone(), reads_input(&p.source)?));
        }
        all.retain(|(uri, _)| split.contains(uri));
        let side = split.name();
        Ok(vec![
            Dataset {
                name: format!("hand-written, {side}"),
                benchmarks: all.iter().map(|(u, _)| u.clone()).collect(),
            },
            Dataset {
                name: format!("hand-written, {side}, reading input"),
                benchmarks: all.iter().filter(|(_, reads)| *reads).map(|(u, _)| u.clone()).collect(),
            },
        ])
    }

    /// `count` generated programs of `size`, seeds from [`UNSEEN_SEEDS`].
    pub fn generated(count: usize, size: u32) -> Dataset {
        let benchmarks = (0..count as u64).map(|i| generated_uri(UNSEEN_SEEDS.start + i, size)).collect();
        Dataset { name: format!("random-v1, size {size}"), benchmarks }
    }
}

/// Whether the program's `@main` takes arguments.
fn reads_input(source: &str) -> Result<bool> {
    let program = crate::bril::parse_any(source)?;
    Ok(program.main().is_some_and(|m| !program.function(m).params.is_empty()))
}

#[derive(Clone)]
pub struct LeaderboardOptions {
    pub tasks: Vec<Task>,
    pub datasets: Vec<Dataset>,
    pub agents: Vec<AgentKind>,
    /// Programs of one's own the datasets may name, added to every row's compiler.
    pub own: Vec<OwnProgram>,
    /// Per program, for searches (the policy plays one episode).
    pub budget: Budget,
    /// Searches start from the baseline's pass sequence.
    pub from_baseline: bool,
    pub seed: u64,
    pub clock: Option<Clock>,
}

/// One agent's result on one program.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub benchmark: String,
    pub initial: f64,
    pub baseline: f64,
    pub cost: f64,
    pub commandline: String,
    pub steps: u64,
    pub walltime: f64,
    /// Why the result is not valid: it replays to another cost, or the
    /// program no longer behaves as the unoptimised one.
    pub invalid: Option<String>,
}

impl Entry {
    /// `baseline / cost`, each at least 1.
    pub fn ratio(&self) -> f64 {
        self.baseline.max(1.0) / self.cost.max(1.0)
    }
}

/// One agent on one task and dataset.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub task: Task,
    pub dataset: String,
    pub agent: String,
    pub entries: Vec<Entry>,
}

impl Row {
    pub fn geomean(&self) -> f64 {
        let n = self.entries.len().max(1) as f64;
        libm::exp(self.entries.iter().map(|e| libm::log(e.ratio())).sum::<f64>() / n)
    }
    pub fn wins(&self) -> usize {
        self.entries.iter().filter(|e| e.ratio() > 1.0).count()
    }
    pub fn losses(&self) -> usize {
        self.entries.iter().filter(|e| e.ratio() < 1.0).count()
    }
    pub fn valid(&self) -> usize {
        self.entries.iter().filter(|e| e.invalid.is_none()).count()
    }
    pub fn walltime(&self) -> f64 {
        self.entries.iter().map(|e| e.walltime).sum()
    }
    pub fn steps(&self) -> u64 {
        self.entries.iter().map(|e| e.steps).sum()
    }
}

/// Where the leaderboard is: rows done, and the run under way.
pub struct Leaderboard {
    options: LeaderboardOptions,
    /// (task, dataset, agent) of each row, in order.
    plan: Vec<(usize, usize, usize)>,
    rows: Vec<Row>,
    /// The row under way: its environment and next program.
    current: Option<(CompilerEnv, usize)>,
    run: Option<(SearchRun, f64)>,
}

impl Leaderboard {
    pub fn new(options: LeaderboardOptions) -> Leaderboard {
        let mut plan = Vec::new();
        for t in 0..options.tasks.len() {
            for d in 0..options.datasets.len() {
                for a in 0..options.agents.len() {
                    plan.push((t, d, a));
                }
            }
        }
        Leaderboard { options, plan, rows: Vec::new(), current: None, run: None }
    }

    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// Every program of every row is done. (The last row exists before its
    /// programs have run, so its being there is not enough.)
    pub fn done(&self) -> bool {
        let (done, total) = self.progress();
        self.rows.len() == self.plan.len() && self.run.is_none() && done == total
    }

    /// (programs done, programs in all).
    pub fn progress(&self) -> (usize, usize) {
        let total = self.plan.iter().map(|&(_, d, _)| self.options.datasets[d].benchmarks.len()).sum();
        let done = self.rows.iter().map(|r| r.entries.len()).sum();
        (done, total)
    }

    /// One piece of work (a piece of a search, or finishing a program);
    /// false when the leaderboard is complete.
    pub fn step_once(&mut self) -> Result<bool> {
        if let Some((run, _)) = &mut self.run {
            if !run.step_once()?.is_running() {
                self.finish_program()?;
            }
            return Ok(true);
        }
        if let (Some((_, next)), Some(&(t, d, a))) =
            (&self.current, self.plan.get(self.rows.len().wrapping_sub(1)))
        {
            if *next < self.options.datasets[d].benchmarks.len() {
                let next = *next;
                self.start_program(t, d, a, next)?;
                return Ok(true);
            }
        }
        self.current = None;
        let Some(&(t, d, a)) = self.plan.get(self.rows.len()) else { return Ok(false) };
        let mut env = make("bril-v0", EnvOptions { clock: self.options.clock, ..Default::default() })?;
        for program in &self.options.own {
            program.add_to(&mut env)?;
        }
        self.current = Some((env, 0));
        self.rows.push(Row {
            task: self.options.tasks[t],
            dataset: self.options.datasets[d].name.clone(),
            agent: self.options.agents[a].name().to_string(),
            entries: Vec::new(),
        });
        Ok(true)
    }

    fn start_program(&mut self, t: usize, d: usize, a: usize, i: usize) -> Result<()> {
        let task = self.options.tasks[t];
        let agent = &self.options.agents[a];
        let uri = self.options.datasets[d].benchmarks[i].clone();
        let Some((env, _)) = &mut self.current else { return Ok(()) };
        env.reset(ResetOptions { benchmark: Some(uri), ..Default::default() })?;
        let baseline = env.observation().get(task.baseline_cost())?.as_f64().unwrap_or(f64::INFINITY);
        let start = if self.options.from_baseline && agent.is_search() {
            pipeline_actions(env, task.cost(), &task.baseline_pipeline()?)?
        } else {
            Vec::new()
        };
        let budget = if agent.is_search() { self.options.budget } else { Budget::default() };
        if agent.is_search() && budget.steps.is_none() && budget.seconds.is_none() {
            return Err(Error::value("a search on the leaderboard needs a budget of steps or seconds"));
        }
        let options =
            SearchOptions { cost: task.cost().to_string(), budget, start, clock: self.options.clock };
        self.run = Some((SearchRun::new(env, agent.make(self.options.seed, task)?, options)?, baseline));
        Ok(())
    }

    fn finish_program(&mut self) -> Result<()> {
        let Some((run, baseline)) = self.run.take() else { return Ok(()) };
        let result = run.result()?;
        let Some((env, next)) = &mut self.current else { return Ok(()) };
        *next += 1;
        let task = self.rows.last().map_or(Task::CodeSize, |r| r.task);
        let invalid = check(env, task, &result.state(), result.cost)?;
        if let Some(row) = self.rows.last_mut() {
            row.entries.push(Entry {
                benchmark: result.benchmark,
                initial: result.initial_cost,
                baseline,
                cost: result.cost,
                commandline: result.commandline,
                steps: result.steps,
                walltime: result.walltime,
                invalid,
            });
        }
        Ok(())
    }

    /// Works for about `seconds` (at least one piece) on the leaderboard's
    /// clock; false once the leaderboard is complete.
    pub fn run_chunk(&mut self, seconds: f64) -> Result<bool> {
        let clock = self.options.clock.unwrap_or_else(default_clock);
        let until = clock() + seconds;
        loop {
            if !self.step_once()? {
                return Ok(false);
            }
            if clock() >= until {
                return Ok(true);
            }
        }
    }

    /// Runs to the end, calling `on_program` after each program.
    pub fn run(&mut self, mut on_program: impl FnMut(&Row, &Entry)) -> Result<()> {
        let mut done = self.progress().0;
        while self.step_once()? {
            let now = self.progress().0;
            if now > done {
                done = now;
                if let Some(row) = self.rows.last() {
                    if let Some(entry) = row.entries.last() {
                        on_program(row, entry);
                    }
                }
            }
        }
        Ok(())
    }
}

/// Replays `state` on a fresh session: it must reach `cost`, and the program
/// must print what the unoptimised one prints. `None` if all is well.
fn check(
    env: &CompilerEnv,
    task: Task,
    state: &crate::env::CompilerEnvState,
    cost: f64,
) -> Result<Option<String>> {
    let mut replay = env.sibling();
    replay.set_reward_space(None)?;
    replay.set_observation_space(None)?;
    if let Err(e) = replay.apply(state) {
        return Ok(Some(format!("the result does not replay: {e}")));
    }
    let replayed = replay.observation().get(task.cost())?.as_f64().unwrap_or(f64::NAN);
    if replayed != cost {
        return Ok(Some(format!("the result replays to cost {replayed}, not {cost}")));
    }
    let validation = replay.validate(Some(state))?;
    replay.close();
    Ok(validation.errors.first().map(|e| format!("{}: {}", e.kind, e.details)))
}

/// The table of `rows`, one line each.
pub fn table(rows: &[Row]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| task | dataset | agent | vs | geomean | better | worse | valid | steps/program | seconds/program |"
    );
    let _ = writeln!(out, "|---|---|---|---|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        let n = r.entries.len().max(1);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {:.3}x | {} | {} | {}/{} | {:.0} | {:.3} |",
            r.task.name(),
            r.dataset,
            r.agent,
            r.task.baseline_name(),
            r.geomean(),
            r.wins(),
            r.losses(),
            r.valid(),
            r.entries.len(),
            r.steps() as f64 / n as f64,
            r.walltime() / n as f64,
        );
    }
    out
}

/// The rows as JSON, with every program's result.
pub fn to_json(rows: &[Row]) -> serde_json::Value {
    serde_json::Value::Array(
        rows.iter()
            .map(|r| {
                serde_json::json!({
                    "task": r.task.name(),
                    "dataset": r.dataset,
                    "agent": r.agent,
                    "baseline": r.task.baseline_name(),
                    "geomean": r.geomean(),
                    "better": r.wins(),
                    "worse": r.losses(),
                    "valid": r.valid(),
                    "programs": r.entries.iter().map(|e| serde_json::json!({
                        "benchmark": e.benchmark,
                        "initial": e.initial,
                        "baseline": e.baseline,
                        "cost": e.cost,
                        "ratio": e.ratio(),
                        "commandline": e.commandline,
                        "steps": e.steps,
                        "walltime": e.walltime,
                        "invalid": e.invalid,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::super::policy::train::{TRAINING_SEEDS, VALIDATION_SEEDS};
    use super::*;
    use crate::bril::passes;

    #[test]
    fn a_small_leaderboard_checks_every_result() {
        let policy = std::rc::Rc::new(crate::agents::policy::Policy::new(
            Task::CodeSize,
            "Features",
            crate::compilers::bril::observations::FEATURES_LEN,
            passes::registry().iter().map(|p| p.flag.to_string()).collect(),
            5,
            &[8],
            &mut crate::Rng::seed_from_u64(1),
        ));
        let policies = crate::agents::kinds::Policies::only(policy);
        let options = LeaderboardOptions {
            tasks: vec![Task::CodeSize, Task::Runtime],
            datasets: vec![Dataset::suite(Some(2)), Dataset::generated(2, 20), Dataset::suite(Some(0))],
            agents: vec![AgentKind::Greedy, AgentKind::Random, AgentKind::Policy(policies)],
            own: Vec::new(),
            budget: Budget::steps(80),
            from_baseline: true,
            seed: 0,
            clock: None,
        };
        let mut board = Leaderboard::new(options);
        assert_eq!(board.progress(), (0, 2 * 4 * 3));
        let mut reported = 0;
        board.run(|_, _| reported += 1).unwrap();
        assert!(board.done());
        assert_eq!(reported, 24);
        let rows = board.rows();
        assert_eq!(rows.len(), 2 * 3 * 3, "a row per task, dataset and agent, empty datasets too");
        for row in rows {
            assert_eq!(row.valid(), row.entries.len(), "{row:?}");
            if row.agent != "policy" {
                assert_eq!(row.losses(), 0, "a search from the baseline is never worse: {row:?}");
                assert!(row.entries.iter().all(|e| e.steps <= 80));
            }
        }
        let text = table(rows);
        assert_eq!(text.lines().count(), 2 + rows.len());
        assert!(text.contains("| runtime | random-v1, size 20 | policy | -O2 |"), "{text}");
        assert_eq!(to_json(rows)[0]["programs"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn it_is_done_only_once_every_program_is() {
        let options = LeaderboardOptions {
            tasks: vec![Task::CodeSize],
            datasets: vec![Dataset::suite(Some(1)), Dataset::suite(Some(0)), Dataset::suite(Some(2))],
            agents: vec![AgentKind::Greedy],
            own: Vec::new(),
            budget: Budget::steps(5),
            from_baseline: false,
            seed: 0,
            clock: None,
        };
        let mut board = Leaderboard::new(options);
        // Piece by piece, as chunks may end anywhere: work remains until done.
        while !board.done() {
            assert!(board.step_once().unwrap(), "not done at {:?}, yet nothing left to do", board.progress());
        }
        assert_eq!(board.progress(), (3, 3));
        assert_eq!(board.rows().iter().map(|r| r.entries.len()).collect::<Vec<_>>(), [1, 0, 2]);
        assert!(!board.step_once().unwrap());
    }

    #[test]
    fn a_search_without_a_budget_is_refused() {
        let options = LeaderboardOptions {
            tasks: vec![Task::CodeSize],
            datasets: vec![Dataset::suite(Some(1))],
            agents: vec![AgentKind::Random],
            own: Vec::new(),
            budget: Budget::default(),
            from_baseline: false,
            seed: 0,
            clock: None,
        };
        let error = Leaderboard::new(options).run(|_, _| {}).unwrap_err();
        assert_eq!(error.name(), "ValueError");
        assert!(Dataset::listed("benchmark://no-such-v0", None).unwrap().is_none());
        assert_eq!(Dataset::listed("benchmark://suite-v0", Some(3)).unwrap().unwrap().benchmarks.len(), 3);
    }

    #[test]
    fn unseen_programs_are_never_trained_or_validated_on() {
        let disjoint = |a: &Range<u64>, b: &Range<u64>| a.end <= b.start || b.end <= a.start;
        assert!(disjoint(&UNSEEN_SEEDS, &TRAINING_SEEDS));
        assert!(disjoint(&UNSEEN_SEEDS, &VALIDATION_SEEDS));
        assert!(disjoint(&TRAINING_SEEDS, &VALIDATION_SEEDS));
    }
}
